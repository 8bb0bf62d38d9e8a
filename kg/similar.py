"""Papers related to a paper: ranked by the concepts they share and the words of their text,
explained by the shared concepts.

``by="both"`` (the default) scores a paper ``(1 - CONCEPT_SHARE) * text + CONCEPT_SHARE * concepts``:

- ``text``: BM25 of the two papers' titles and abstracts (``kg.textsim``, an index the build
  keeps in the graph), divided by the paper's score against itself, so 1.0 is a perfect match;
- ``concepts``: the summed weights of the shared concepts, divided by the paper's own total.
  A concept named by ``df`` of the graph's ``N`` papers weighs ``type weight x ln(1 + (N - df
  + 0.5) / (df + 0.5))``: rare concepts count, a concept half the graph names almost nothing,
  and a Domain, a Metric or an Entity counts less than a Method, Task or Dataset (``TYPE_WEIGHTS``). A
  concept the two papers reach only through a ``BROADER`` edge counts ``BROADER_SHARE`` of it.

``by="text"`` and ``by="concepts"`` rank by one of the two; ``by="citations"`` by bibliographic
coupling plus co-citation (works both cite, papers citing both). Only that mode reads citations.
Ties go to the larger concept score, then the larger text score, then more shared concepts,
then the paper id. Each result says which signal ranked it and lists the shared concepts,
heaviest first.

>>> from kg.store import open_store
>>> with open_store("kg-data") as store:                       # doctest: +SKIP
...     best = similar_papers(store, "p-198679ab53b48580", top=1)[0]
>>> best["id"], best["ranked_by"], [c["name"] for c in best["shared"]][:2]   # doctest: +SKIP
('p-a8d660f09b6062ee', 'text', ['Low-Rank Adaptation', 'large language models'])
"""

from __future__ import annotations

from typing import Iterable

from kg import defaults
from kg.errors import BadInput, PaperNotFound
from kg.graph import CONCEPT_LABELS
from kg.store.reads import citations as citations_read
from kg.store.reads import concepts as concepts_read
from kg.store.reads import papers
from kg.textsim import idf, text_neighbours

BY = ("both", "concepts", "text", "citations")
TYPE_WEIGHTS = {"Method": 1.0, "Task": 1.0, "Dataset": 1.0, "Metric": 0.5, "Entity": 0.5, "Domain": 0.25}
BROADER_SHARE = 0.5
CONCEPT_SHARE = 0.3   # the best share on half the OpenAlex queries (bench/similar_eval.py --tune)
CANDIDATES = 100      # papers each signal proposes before the exact scores are computed
COMMON = 0.05         # concepts more than 5% of the papers name (and more than 50) propose no candidates


def concept_weight(naming: int, papers: int, concept_type: str | None = None) -> float:
    """The weight of a concept of ``concept_type`` named by ``naming`` of ``papers`` papers, the one
    rule of ``kg similar``, the similarity view and the pack query ``papers/similar``: its type's
    weight (``TYPE_WEIGHTS``) times BM25's IDF, ln(1 + (N - df + 0.5) / (df + 0.5)).

    >>> round(concept_weight(2, 1000, "Method"), 3), round(concept_weight(2, 1000, "Domain"), 3)
    (5.992, 1.498)
    >>> round(concept_weight(500, 1000), 3)
    0.693
    """
    return TYPE_WEIGHTS.get(concept_type, 1.0) * idf(naming, papers)


def proposes(naming: int, papers: int) -> bool:
    """Whether a concept named by ``naming`` of ``papers`` papers proposes related papers: one named
    by more than ``COMMON`` of them (and more than 50) would link most of the graph for a small
    weight, so it only adds its weight to papers the rarer concepts and the text propose.

    >>> proposes(50, 100), proposes(51, 2000), proposes(51, 100)
    (True, True, False)
    """
    return naming <= max(50, COMMON * papers)


def concept_types(types: Iterable[str] | None) -> list[str]:
    """Concept type names checked against the schema, in their canonical case.

    >>> concept_types(["method", "Dataset"])
    ['Method', 'Dataset']
    """
    canonical = {label.lower(): label for label in CONCEPT_LABELS}
    checked = []
    for name in types or []:
        if name.strip().lower() not in canonical:
            raise BadInput(f"unknown concept type {name!r}; known: {', '.join(CONCEPT_LABELS)}")
        checked.append(canonical[name.strip().lower()])
    return checked


def paper_title(store, paper: str) -> str | None:
    """The title of ``paper``; raises PaperNotFound when no paper has that id."""
    found, title = papers.title(store, paper)
    if not found:
        raise PaperNotFound(paper, f"no paper with id {paper!r}; find ids with: kg query run papers/find -p text=WORD")
    return title


# --- concepts ---------------------------------------------------------------------------

def paper_concepts(store, paper: str, types: list[str]) -> list[dict]:
    """The paper's concepts (and broader ones), each ``{"id", "name", "type", "direct", "weight"}``."""
    found = concepts_read.of_paper(store, paper, types)
    for c in found:
        share = 1.0 if c["direct"] else BROADER_SHARE
        c["weight"] = share * concept_weight(c["df"], c["papers"], c["type"])
    return found


def concept_neighbours(store, paper: str, concepts: list[dict], limit: int = CANDIDATES) -> list[str]:
    """Papers sharing the most concept weight with ``paper`` (candidates, not yet scored)."""
    # a concept most papers name would walk most of the graph for a small weight; it still
    # counts in the score of every candidate that the other concepts and the text propose
    wanted = [{"id": c["id"], "weight": c["weight"]} for c in concepts if proposes(c["df"], c["papers"])]
    if not wanted:
        return []
    return concepts_read.neighbours(store, paper, wanted, limit)


def shared_concepts(store, ids: list[str], concepts: list[dict]) -> tuple[dict[str, list[dict]], dict[str, str]]:
    """For each candidate, the query's concepts it shares, heaviest first, each with its weight
    (a concept met only through a BROADER edge on either side weighs ``BROADER_SHARE`` of it);
    and each candidate's title."""
    if not ids:
        return {}, {}
    by_id = {c["id"]: c for c in concepts}
    found, titles = {}, {}
    for row in concepts_read.shared(store, ids, sorted(by_id)):
        titles[row["id"]] = row["title"]
        shared = {}
        for cid in row["direct"]:
            shared[cid] = by_id[cid]["weight"]
        for cid in row["broader"]:
            base = by_id[cid]["weight"] / (1.0 if by_id[cid]["direct"] else BROADER_SHARE)
            shared[cid] = max(shared.get(cid, 0.0), base * BROADER_SHARE)
        listed = [{"name": by_id[c]["name"], "type": by_id[c]["type"], "weight": round(w, 4)} for c, w in shared.items()]
        found[row["id"]] = sorted(listed, key=lambda s: (-s["weight"], s["name"].lower(), s["type"]))
    return found, titles


# --- citations --------------------------------------------------------------------------

def citation_neighbours(store, paper: str) -> dict[str, tuple[int, int]]:
    """Papers with (works both cite, papers citing both) for ``paper``."""
    return citations_read.coupled_and_cocited(store, paper)


# --- the ranking ------------------------------------------------------------------------

def similar_papers(store, paper: str, top: int = defaults.TOP, by: str = defaults.SIMILAR_BY, types: Iterable[str] | None = None) -> list[dict]:
    """The ``top`` papers most related to ``paper``, best first.

    Each result is ``{"id", "title", "score", "ranked_by", "text", "concepts", "shared"}``:
    ``score`` the ranking score, ``text`` and ``concepts`` the two signals (0..1),
    ``ranked_by`` the signal that gave most of the score (``"text"``, ``"concepts"`` or
    ``"citations"``), ``shared`` the shared concepts ``[{"name", "type", "weight"}]``,
    heaviest first. ``by="citations"`` adds ``"coupled"`` and ``"cocited"`` counts.
    ``types`` keeps only concepts of those types.
    """
    if top < 1:
        raise BadInput(f"top must be at least 1, got {top}")
    if by not in BY:
        raise BadInput(f"unknown ranking {by!r}; known: {', '.join(BY)}")
    types = concept_types(types)
    paper_title(store, paper)
    concepts = paper_concepts(store, paper, types)
    own_weight = sum(c["weight"] for c in concepts if c["direct"]) or 1.0
    citing = citation_neighbours(store, paper) if by == "citations" else {}
    candidates = set(citing)
    if by in ("both", "concepts"):
        candidates.update(concept_neighbours(store, paper, concepts))
    # the best papers by text, and the text score of every other candidate
    text = text_neighbours(store, paper, CANDIDATES if by in ("both", "text") else 0, among=sorted(candidates))
    ids = sorted(candidates | set(text))
    shared, titles = shared_concepts(store, ids, concepts)
    results = []
    for pid in ids:
        concept_score = sum(s["weight"] for s in shared.get(pid, [])) / own_weight
        result = {"id": pid, "text": round(text.get(pid, 0.0), 4), "concepts": round(concept_score, 4),
                  "shared": shared.get(pid, [])}
        result["score"], result["ranked_by"] = _score(by, result, citing.get(pid))
        if by == "citations":
            result["coupled"], result["cocited"] = citing[pid]
        if result["score"] > 0:
            results.append(result)
    results.sort(key=lambda r: (-r["score"], -r["concepts"], -r["text"], -len(r["shared"]), r["id"]))
    return [{"id": r["id"], "title": titles.get(r["id"]), **{k: v for k, v in r.items() if k != "id"}} for r in results[:top]]


def _score(by: str, result: dict, citing: tuple[int, int] | None) -> tuple[float, str]:
    """A result's ranking score and the signal that gave most of it."""
    if by == "citations":
        return float(sum(citing or (0, 0))), "citations"
    if by == "text":
        return result["text"], "text"
    if by == "concepts":
        return result["concepts"], "concepts"
    from_text, from_concepts = (1 - CONCEPT_SHARE) * result["text"], CONCEPT_SHARE * result["concepts"]
    return round(from_text + from_concepts, 4), ("text" if from_text >= from_concepts else "concepts")


def as_json(results: list[dict]) -> list[dict]:
    """Results in the documented JSON shape (every field of ``similar_papers``)."""
    return [dict(r) for r in results]
