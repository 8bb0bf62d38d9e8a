"""Papers related to a paper, or to a draft that is not in the graph: ranked by the words of their
text, the concepts they share and the nearness of their meanings, explained by the shared
concepts and the nearest sentences.

``by="all"`` (the default) scores a paper ``WEIGHTS["text"] x text + WEIGHTS["concepts"] x
concepts + WEIGHTS["dense"] x dense``, three signals between 0 and 1:

- ``text``: BM25 of the two papers' titles and abstracts (``kg.textsim``, an index the build
  keeps in the graph), divided by the query's score against itself, so 1.0 is a perfect match;
- ``concepts``: the summed weights of the shared concepts, divided by the query's own total.
  A concept named by ``df`` of the graph's ``N`` papers weighs ``type weight x ln(1 + (N - df
  + 0.5) / (df + 0.5)) x quality`` (``concept_weight``; the one pair score: ``shared_weights``):
  rare concepts count, a concept half the graph names almost nothing, one a reader would likely drop little,
  and a Domain, a Metric or an Entity counts less than a Method, Task or Dataset (``TYPE_WEIGHTS``). A
  concept the two papers reach only through a ``BROADER`` edge counts ``BROADER_SHARE`` of it;
- ``dense``: the cosine of the two all-MiniLM-L6-v2 vectors (``kg.dense``, stored by the build),
  as its share of the way from the query's mean cosine over the graph to 1 (``dense_signal``).

``by="text"``, ``"concepts"`` and ``"dense"`` rank by one of the three; ``by="citations"`` by
bibliographic coupling plus co-citation (works both cite, papers citing both). Only that mode
reads citations. Ties go to the larger concept score, then the larger text score, then the
larger dense score, then more shared concepts, then the paper id. Each result says which signal
ranked it and lists the shared concepts, heaviest first; each of the first ``kg.dense.EVIDENCE``
gives the nearest pair of sentences of the two abstracts (by the sentence vectors the build
stores: no encoder runs for a stored paper).

>>> from kg.store import open_store
>>> with open_store("kg-data") as store:                       # doctest: +SKIP
...     best = similar_papers(store, "p-198679ab53b48580", top=1)[0]
>>> best["id"], best["ranked_by"], [c["name"] for c in best["shared"]][:2]   # doctest: +SKIP
('p-a8d660f09b6062ee', 'text', ['Low-Rank Adaptation', 'large language models'])
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from kg import defaults, dense
from kg.errors import BadInput, NotFound, PaperNotFound
from kg.graph import CONCEPT_LABELS
from kg.store import counts
from kg.store.reads import citations as citations_read
from kg.store.reads import concepts as concepts_read
from kg.store.reads import papers
from kg.textsim import draft_words, idf, paper_text, query_words, text_neighbours

BY = ("all", "text", "concepts", "dense", "citations")
SIGNALS = ("text", "concepts", "dense")
# each signal's share of the default score: the best on the even OpenAlex queries (bench/similar_eval.py --tune)
WEIGHTS = {"text": 0.2, "concepts": 0.3, "dense": 0.5}
QUALITY_POWER = 1    # a concept's weight grows with its quality (``concept_weight``); 0 reads no quality
TYPE_WEIGHTS = {"Method": 1.0, "Task": 1.0, "Dataset": 1.0, "Metric": 0.5, "Entity": 0.5, "Domain": 0.25}
BROADER_SHARE = 0.5
CANDIDATES = 100      # papers each signal proposes before the exact scores are computed
MAX_DRAFT = 100_000   # characters of a draft (an abstract is ~2,000)
COMMON = 0.05         # concepts more than 5% of the papers name (and more than 50) propose no candidates,
MOST_NAMING = 500     # nor those more than 500 papers name: a query reads as many papers as its concepts propose


def concept_weight(naming: int, papers: int, concept_type: str | None = None, quality: float | None = None) -> float:
    """The weight of a concept of ``concept_type`` named by ``naming`` of ``papers`` papers, the one
    rule of ``kg similar`` and the similarity view: its type's weight (``TYPE_WEIGHTS``) times
    BM25's IDF, ln(1 + (N - df + 0.5) / (df + 0.5)), times its ``quality`` (how likely a reader
    keeps it, ``kg.store.concept_quality``; ``QUALITY_POWER``) when the graph keeps one.

    >>> round(concept_weight(2, 1000, "Method"), 3), round(concept_weight(2, 1000, "Domain"), 3)
    (5.992, 1.498)
    >>> round(concept_weight(500, 1000), 3), round(concept_weight(500, 1000, quality=0.5), 3)
    (0.693, 0.347)
    """
    kept = 1.0 if quality is None else quality ** QUALITY_POWER
    return TYPE_WEIGHTS.get(concept_type, 1.0) * idf(naming, papers) * kept


def shared_weights(concepts: dict[str, tuple[float, bool]], direct: Iterable[str], broader: Iterable[str] = ()) -> dict[str, float]:
    """The one pair score of ``kg similar`` and the similarity view, by its parts: of one paper's
    ``concepts`` (``{id: (weight, named directly)}``, a concept it reaches only through a BROADER
    edge weighing ``BROADER_SHARE`` of it), those the other paper names (``direct``, at their
    weight) or reaches through a BROADER edge (``broader``, at ``BROADER_SHARE`` of their full
    weight), each with the weight it adds. The pair's score is their sum.

    >>> shared_weights({"lora": (4.0, True), "peft": (1.0, False)}, direct=["lora", "peft"])
    {'lora': 4.0, 'peft': 1.0}
    >>> shared_weights({"lora": (4.0, True)}, direct=[], broader=["lora"])
    {'lora': 2.0}
    """
    shared = {cid: concepts[cid][0] for cid in direct if cid in concepts}
    for cid in broader:
        if cid in concepts:
            weight, named = concepts[cid]
            full = weight / (1.0 if named else BROADER_SHARE)
            shared[cid] = max(shared.get(cid, 0.0), full * BROADER_SHARE)
    return shared


def proposes(naming: int, papers: int) -> bool:
    """Whether a concept named by ``naming`` of ``papers`` papers proposes related papers: one named
    by more than ``COMMON`` of them (and more than 50) would link most of the graph for a small
    weight, so it only adds its weight to papers the rarer concepts and the meaning propose; and
    one named by more than ``MOST_NAMING`` would make a query's reads grow with the graph.

    >>> proposes(50, 100), proposes(51, 2000), proposes(51, 100), proposes(600, 100_000)
    (True, True, False, False)
    """
    return naming <= most_naming(papers)


def most_naming(papers: int) -> int:
    """The most papers a concept may reach (directly, or through one BROADER edge) to propose them
    (``proposes``) in a graph of ``papers`` papers.

    >>> most_naming(100), most_naming(2000), most_naming(100_000)
    (50, 100, 500)
    """
    return int(max(50, min(COMMON * papers, MOST_NAMING)))


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

def concept_neighbours(store, paper: str, concepts: list[dict], limit: int = CANDIDATES) -> list[str]:
    """Papers sharing the most concept weight with ``paper`` (candidates, not yet scored)."""
    # a concept most papers name would walk most of the graph for a small weight; it still
    # counts in the score of every candidate that the other concepts and the text propose
    wanted = [{"id": c["id"], "weight": c["weight"]} for c in concepts if proposes(c["df"], c["papers"])]
    if not wanted:
        return []
    return concepts_read.neighbours(store, paper, wanted, limit, most_naming(concepts[0]["papers"]))


def shared_concepts(store, ids: list[str], concepts: list[dict]) -> tuple[dict[str, list[dict]], dict[str, str]]:
    """For each candidate, the query's concepts it shares, heaviest first, each with its weight
    (a concept met only through a BROADER edge on either side weighs ``BROADER_SHARE`` of it);
    and each candidate's title."""
    if not ids:
        return {}, {}
    by_id = {c["id"]: c for c in concepts}
    weighted = {cid: (c["weight"], c["direct"]) for cid, c in by_id.items()}
    found, titles = {}, {}
    for row in concepts_read.shared(store, ids, sorted(by_id)):
        titles[row["id"]] = row["title"]
        shared = shared_weights(weighted, row["direct"], row["broader"])
        listed = [{"name": by_id[c]["name"], "type": by_id[c]["type"], "weight": round(w, 4)} for c, w in shared.items()]
        found[row["id"]] = sorted(listed, key=lambda s: (-s["weight"], s["name"].lower(), s["type"]))
    return found, titles


# --- citations --------------------------------------------------------------------------

def citation_neighbours(store, paper: str) -> dict[str, tuple[int, int]]:
    """Papers with (works both cite, papers citing both) for ``paper``."""
    return citations_read.coupled_and_cocited(store, paper)


# --- the query ---------------------------------------------------------------------------

@dataclass
class Query:
    """What a query is ranked by: a stored paper (``paper``) or a draft (``paper`` None)."""

    paper: str | None
    concepts: list[dict]           # ``paper_concepts``' shape
    words: tuple | None            # ``kg.textsim.query_words``' answer
    vector: np.ndarray | None      # its dense vector
    title: str | None = None
    sentences: dense.Sentences | None = None  # a draft's, for the evidence (a stored paper's are read with its results')

    @property
    def exclude(self) -> str:
        return self.paper or ""


def paper_query(store, paper: str, types: list[str], found: dense.Matrix | None) -> Query:
    """A stored paper as a query: its concepts, words and vector as the graph keeps them."""
    title = paper_title(store, paper)
    vector = found.vector(paper) if found is not None else None
    return Query(paper, paper_concepts(store, paper, types), query_words(store, paper), vector, title)


def draft_query(store, text: str, types: list[str], title: str | None = None) -> Query:
    """A text that is not in the graph as a query: extracted on the fly (``kg.extract``), its words
    weighed by the graph's own counts, its vector by the shipped model; nothing is stored."""
    from kg.extract import extract, load_pipeline
    from kg.graph import concept_id
    from kg.model import Paper

    text = " ".join((text or "").split())
    if not text:
        raise BadInput("the draft is empty: give the text of an abstract (kg similar --text '...' or --file draft.txt)")
    if len(text) > MAX_DRAFT:
        raise BadInput(f"the draft has {len(text):,} characters, more than an abstract ({MAX_DRAFT:,} at most)")
    record = next(extract([Paper(id="draft", title=title or "", abstract=text, title_derived=not title)], load_pipeline()))
    ids = sorted({concept_id(c["type"], c["key"]) for c in record["concepts"]})
    concepts = _weighted(concepts_read.of_ids(store, ids, types))
    words = draft_words(store, paper_text(title, text, not title))
    model = dense.default_model()
    read, shift = dense.encoder_input(title, text, not title)
    spans = [(a + shift, b + shift) for a, b in dense.sentence_spans(text)]
    encoded = model.encode_with_sentences([read], [spans])[0]
    own = dense.Sentences([read[a:b] for a, b in encoded.spans], encoded.sentences)
    return Query(None, concepts, words, encoded.vector, title, own)


def read_draft(path: str | Path) -> str:
    """The text of a draft file (UTF-8); a missing, unreadable, binary, empty or too long file is
    an error naming it."""
    path = Path(path)
    if not path.is_file():
        raise NotFound(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise BadInput(f"{path}: cannot be read ({err.strerror})") from err
    nul = data.find(b"\0")
    if nul >= 0:
        raise BadInput(f"{path}: a binary file (byte {nul + 1} is NUL); give a text file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise BadInput(f"{path}: not UTF-8 text (byte {err.start + 1}); give a text file") from err
    if not text.strip():
        raise BadInput(f"{path}: empty; give the text of an abstract")
    if len(text) > MAX_DRAFT:
        raise BadInput(f"{path}: {len(text):,} characters, more than an abstract ({MAX_DRAFT:,} at most)")
    return text


def paper_concepts(store, paper: str, types: list[str]) -> list[dict]:
    """The paper's concepts (and broader ones), each ``{"id", "name", "type", "direct", "weight"}``."""
    return _weighted(concepts_read.of_paper(store, paper, types))


def _weighted(found: list[dict]) -> list[dict]:
    for c in found:
        share = 1.0 if c["direct"] else BROADER_SHARE
        c["weight"] = share * concept_weight(c["df"], c["papers"], c["type"], counts.quality(c))
    return found


# --- the ranking ------------------------------------------------------------------------

def similar_papers(store, paper: str | None = None, top: int = defaults.TOP, by: str = defaults.SIMILAR_BY,
                   types: Iterable[str] | None = None, *, text: str | None = None, title: str | None = None) -> list[dict]:
    """The ``top`` papers most related to ``paper`` (an id) or to ``text`` (a draft not in the graph), best first.

    Each result is ``{"id", "title", "score", "ranked_by", "text", "concepts", "dense", "shared"}``:
    ``score`` the ranking score, ``text``, ``concepts`` and ``dense`` the three signals (0..1),
    ``ranked_by`` the signal that gave most of the score (``"text"``, ``"concepts"``, ``"dense"``
    or ``"citations"``), ``shared`` the shared concepts ``[{"name", "type", "weight"}]``, heaviest
    first; each of the first ``kg.dense.EVIDENCE`` results adds ``"sentences"``: ``{"query", "match",
    "cosine"}``, the sentence of each abstract whose meanings are nearest (when both have stored
    sentence vectors). ``by="citations"`` adds
    ``"coupled"`` and ``"cocited"`` counts. ``types`` keeps only concepts of those types.
    """
    by = "all" if by == "both" else by  # the name of the default before the dense signal
    if top < 1:
        raise BadInput(f"top must be at least 1, got {top}")
    if by not in BY:
        raise BadInput(f"unknown ranking {by!r}; known: {', '.join(BY)}")
    if (paper is None) == (text is None):
        raise BadInput("give either a paper id or a text")
    if text is not None and by == "citations":
        raise BadInput("a draft cites nothing the graph knows: rank it --by all, text, concepts or dense")
    types = concept_types(types)
    found = dense.matrix(store) if by in ("all", "dense") else None
    query = paper_query(store, paper, types, found) if text is None else draft_query(store, text, types, title)
    return rank(store, query, top, by, found)


def rank(store, query: Query, top: int, by: str, found: dense.Matrix | None) -> list[dict]:
    """The ranking of one query (``similar_papers``' results)."""
    own_weight = sum(c["weight"] for c in query.concepts if c["direct"]) or 1.0
    citing = citation_neighbours(store, query.paper) if by == "citations" else {}
    candidates = set(citing)
    if by in ("all", "concepts"):
        candidates.update(concept_neighbours(store, query.exclude, query.concepts))
    scores = found.scores(query.vector) if found is not None and query.vector is not None else None
    if scores is not None:
        candidates.update(dense.neighbours(found, scores, CANDIDATES, exclude=query.paper))
    # the text score of every candidate; the text proposes papers itself when it ranks alone or
    # when the graph has no vectors (its postings grow with the graph; beside the meaning and
    # the concepts it proposed no paper that changed the measured rankings: docs/benchmarks.md)
    proposing = by == "text" or (by == "all" and scores is None)
    text = text_neighbours(store, query.exclude, CANDIDATES if proposing else 0, among=sorted(candidates),
                           words=query.words) if query.words else {}
    ids = sorted(candidates | set(text))
    nearest, floor = {}, 0.0
    if scores is not None:
        nearest, floor = dense.neighbours(found, scores, 0, exclude=query.paper, among=ids), dense.floor(found, scores, query.paper)
    shared, titles = shared_concepts(store, ids, query.concepts)
    results = []
    for pid in ids:
        # a candidate may hold the query's words more often than the query does: 1 is the most
        result = {"id": pid, "text": round(min(1.0, text.get(pid, 0.0)), 4),
                  "concepts": round(sum(s["weight"] for s in shared.get(pid, [])) / own_weight, 4),
                  "dense": round(dense_signal(nearest.get(pid), floor), 4), "shared": shared.get(pid, [])}
        result["score"], result["ranked_by"] = _score(by, result, citing.get(pid))
        if by == "citations":
            result["coupled"], result["cocited"] = citing[pid]
        if result["score"] > 0:
            results.append(result)
    results.sort(key=lambda r: (-r["score"], -r["concepts"], -r["text"], -r["dense"], -len(r["shared"]), r["id"]))
    best = [{"id": r["id"], "title": titles.get(r["id"]), **{k: v for k, v in r.items() if k != "id"}} for r in results[:top]]
    add_sentences(store, query, best)
    return best


def dense_signal(cosine: float | None, floor: float) -> float:
    """A cosine as a signal between 0 and 1: its share of the way from the query's floor
    (``kg.dense.floor``: two abstracts of a static embedding are seldom far apart, so a raw
    cosine is mostly offset) to 1.

    >>> dense_signal(0.8, 0.6), dense_signal(0.5, 0.6), dense_signal(None, 0.6)
    (0.5, 0.0, 0.0)
    """
    if cosine is None or floor >= 1:
        return 0.0
    return round(max(0.0, (cosine - floor) / (1 - floor)), 6)


def add_sentences(store, query: Query, results: list[dict]) -> None:
    """The evidence of the first ``kg.dense.EVIDENCE`` results: the nearest sentence pair of the
    two abstracts, by the sentence vectors the build stored (no encoding here)."""
    ids = [r["id"] for r in results[:dense.EVIDENCE]]
    if not ids:
        return
    stored = dense.stored_sentences(store, ids + ([query.paper] if query.paper else []))
    own = query.sentences or stored.get(query.paper)
    if own is None:
        return
    pairs = dense.best_sentences(own, {pid: stored[pid] for pid in ids if pid in stored})
    for r in results:
        if r["id"] in pairs:
            r["sentences"] = pairs[r["id"]]


def _score(by: str, result: dict, citing: tuple[int, int] | None) -> tuple[float, str]:
    """A result's ranking score and the signal that gave most of it."""
    if by == "citations":
        return float(sum(citing or (0, 0))), "citations"
    if by in SIGNALS:
        return result[by], by
    parts = {signal: WEIGHTS[signal] * result[signal] for signal in SIGNALS}
    return round(sum(parts.values()), 4), max(SIGNALS, key=lambda s: (parts[s], -SIGNALS.index(s)))


def as_json(results: list[dict]) -> list[dict]:
    """Results in the documented JSON shape (every field of ``similar_papers``)."""
    return [dict(r) for r in results]
