"""networkx graphs from query rows, and the tooltip texts of papers and concepts."""

from __future__ import annotations

from typing import Iterable

import networkx as nx

EXCERPT = 280   # characters of an abstract shown in a tooltip


def graph_from_rows(rows: Iterable[dict], source: str = "source", target: str = "target", weight: str = "weight",
                    directed: bool = False) -> nx.Graph:
    """A graph from query rows: one edge per row between ``row[source]`` and ``row[target]``.

    Other columns named ``source_<attr>`` / ``target_<attr>`` become node
    attributes (``label``, ``type``, ``title``, ...); ``weight`` and ``title``
    become edge attributes; rows repeating an edge add up their weights.
    A row without a source or target is an error naming its position.

    >>> g = graph_from_rows([{"source": "a", "target": "b", "source_label": "A"}, {"source": "a", "target": "b"}])
    >>> g.nodes["a"]["label"], g["a"]["b"]["weight"]
    ('A', 2.0)
    """
    graph = nx.DiGraph() if directed else nx.Graph()
    for number, row in enumerate(rows, 1):
        u, v = row.get(source), row.get(target)
        if u is None or v is None:
            raise ValueError(f"row {number}: needs both {source!r} and {target!r} columns (got {sorted(row)})")
        for end, node in (("source", u), ("target", v)):
            attrs = {key[len(end) + 1:]: value for key, value in row.items() if key.startswith(end + "_") and value is not None}
            graph.add_node(node, **attrs)
        w = float(row.get(weight) if row.get(weight) is not None else 1)
        if graph.has_edge(u, v):
            graph[u][v]["weight"] += w
        else:
            graph.add_edge(u, v, weight=w, **({"title": str(row["title"])} if row.get("title") else {}))
    return graph


def excerpt(text: str | None, limit: int = EXCERPT) -> str:
    """The start of ``text``, cut at a word boundary with an ellipsis.

    >>> excerpt("one two three", 8)
    'one two…'
    """
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + "…"


def paper_tooltip(title: str | None, year=None, venue: str | None = None, abstract: str | None = None, extra: str = "") -> str:
    """Plain text: title, venue and year, a short excerpt of the abstract."""
    where = " ".join(str(x) for x in (venue, year) if x)
    body = " ".join((abstract or "").split())
    if title and body.startswith(title):  # a title derived from the first sentence: show what follows it
        body = body[len(title):].strip()
    head = "\n".join(part for part in (title or "(untitled)", where, extra) if part)
    return head + ("\n\n" + excerpt(body) if body else "")


def concept_tooltip(name: str, kind: str, aliases: list | None = None, papers: int | None = None) -> str:
    """Plain text: name and type, paper count, aliases."""
    lines = [f"{name} ({kind})"]
    if papers is not None:
        lines.append(f"in {papers} paper{'s' if papers != 1 else ''}")
    if aliases:
        lines.append("aliases: " + ", ".join(str(a) for a in aliases))
    return "\n".join(lines)


def short(text: str | None, limit: int = 40) -> str:
    """A node label: at most ``limit`` characters.

    >>> short("a very long title indeed", 10)
    'a very lo…'
    """
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def reference_label(row: dict, limit: int = 32) -> str:
    """A cited work's label: first author's surname, year and title when the source gave them,
    the key as a last resort.

    >>> reference_label({"id": "s2:1", "authors": ["A. Vaswani", "N. Shazeer"], "year": 2017,
    ...                  "title": "Attention is all you need"})
    'Vaswani 2017: Attention is all…'
    >>> reference_label({"id": "openalex:W2159011576", "authors": [], "year": None, "title": None})
    'openalex:W2159011576'
    """
    authors = [a for a in row.get("authors") or [] if a]
    head = " ".join(str(x) for x in (family_name(authors[0]) if authors else "", row.get("year")) if x)
    if not row.get("title"):
        return head or str(row["id"])
    return cut_at_word(f"{head}: {row['title']}" if head else row["title"], limit)


def reference_tooltip(row: dict) -> str:
    """Plain text: authors and year, title, how often loaded papers cite it, its key."""
    authors = ", ".join(a for a in row.get("authors") or [] if a)
    head = " ".join(x for x in (authors, f"({row['year']})" if row.get("year") else "") if x)
    cited = row.get("cited_by")
    lines = [head, row.get("title") or "",
             f"cited by {cited} loaded paper{'s' if cited != 1 else ''}" if cited is not None else "",
             f"a cited work not loaded as a paper (key {row['id']})"]
    return "\n".join(line for line in lines if line)


def cut_at_word(text: str | None, limit: int = 40) -> str:
    """``text`` in at most ``limit`` characters, cut at a word with an ellipsis.

    >>> cut_at_word("Reinforcement learning from verifiable rewards", 32)
    'Reinforcement learning from…'
    """
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit - 1]
    return cut.rstrip(",;:-–") + "…"


def family_name(name: str) -> str:
    """A person's family name as written: "Family, Given" understood, Jr./III skipped.

    >>> family_name("Rush, Alexander M."), family_name("Hal Daumé III"), family_name("A. Vaswani")
    ('Rush', 'Daumé', 'Vaswani')
    """
    if name.count(",") == 1:
        return name.split(",")[0].strip()
    words = [w for w in name.replace(",", " ").split() if w.lower().strip(".") not in ("jr", "sr", "ii", "iii", "iv")]
    return words[-1] if words else name
