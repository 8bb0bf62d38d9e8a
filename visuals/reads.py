"""What the views read from the store (through ``kg.store.reads``): focus lookups, and node details as graph attributes."""

from __future__ import annotations

import networkx as nx

from kg.errors import BadInput, NotFound, PaperNotFound
from kg.graph import CONCEPT_LABELS as CONCEPT_TYPES
from kg.graph import MENTION_TYPES as MENTIONS
from kg.store.reads import citations, concepts, papers
from visuals.graphs import concept_tooltip, paper_tooltip, reference_label, reference_tooltip, short

NODE_TYPES = ("Paper", *CONCEPT_TYPES, "Reference")


def checked_types(types, allowed=NODE_TYPES) -> tuple[str, ...]:
    """``types`` (names or one comma-separated string) checked against ``allowed``; all when empty."""
    if not types:
        return tuple(allowed)
    names = [t.strip() for t in (types.split(",") if isinstance(types, str) else types) if t.strip()]
    by_lower = {a.lower(): a for a in allowed}
    unknown = [t for t in names if t.lower() not in by_lower]
    if unknown:
        raise BadInput(f"unknown type(s) {', '.join(unknown)}: choose from {', '.join(allowed)}")
    return tuple(by_lower[t.lower()] for t in names)


def naming_papers(store, types=CONCEPT_TYPES) -> dict[str, concepts.Named]:
    """``{concept id: (type, ids of the papers naming it, quality)}`` for the concepts of ``types`` papers name."""
    return concepts.naming_papers(store, MENTIONS, types)


def find_focus(store, kind: str, key: str) -> str:
    """The id of the paper (its id or title) or concept (its id, name or an alias) that ``key``
    names, in any case. When none does, the error says so, and names the other kind if ``key``
    is one ("LoRA is a concept: use --view concept")."""
    find = {"paper": papers.find, "concept": concepts.find}
    found = find[kind](store, key)
    if found:
        return found
    other = "concept" if kind == "paper" else "paper"
    if find[other](store, key):
        raise NotFound(f"no {kind} matches {key!r}, but a {other} does: use --view {other}")
    hint = "a paper id or title" if kind == "paper" else "a concept id (low rank adaptation), name or alias"
    message = (f"no {kind} matches {key!r}: give {hint} (kg query run papers/find -p text=... "
               f"or concepts/search -p text=... finds them)")
    raise PaperNotFound(key, message) if kind == "paper" else NotFound(message)


def describe(store, graph: nx.Graph) -> nx.Graph:
    """Fill in every node's ``label``, ``type`` and ``title`` (tooltip) from the store."""
    ids = list(graph.nodes)
    for row in papers.details(store, ids):
        graph.add_node(row["id"], type="Paper", label=short(row["title"], 32), name=row["title"], year=row["year"],
                       title=paper_tooltip(row["title"], row["year"], row["venue"], row["abstract"]))
    for row in concepts.details(store, ids):
        graph.add_node(row["id"], type=row["type"], label=row["name"], name=row["name"], papers=row["papers"],
                       title=concept_tooltip(row["name"], row["type"], row["aliases"], row["papers"]))
    for row in citations.reference_details(store, ids):
        graph.add_node(row["id"], type="Reference", label=reference_label(row), cited_by=row["cited_by"],
                       title=reference_tooltip(row))
    return graph
