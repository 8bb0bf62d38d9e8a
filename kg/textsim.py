"""Text similarity kept with the graph: a BM25 index of every paper's title and abstract.

The index is part of the graph, so it works the same on the embedded store and on Neo4j:

- ``(:Term {id})``: a word (two or more letters or digits, lower-cased, English stop words dropped,
  plurals folded);
- ``(:Term)-[:OCCURS_IN {tf}]->(:Paper)``: how often the paper's text has the word. The edges
  point at the paper so that a paper's outgoing edges stay its concepts and citations;
- ``Term.df``: the word's document frequency, its number of those edges, moved with them in the
  batch that writes them, so a query reads it instead of counting edges that grow with the graph;
- ``Paper.text_length``: the paper's indexed words;
- ``(:TextIndex {id: "bm25", papers, words, analyzer, k1, b})``: totals and how the index was made.

``kg build`` calls :func:`index_papers` once per batch, so a later build adds to the index.
Only counts are stored, never weights: IDF and the average length are computed when a query
runs, so a graph built in several steps scores exactly as one built at once. A query reads
its own paper's words, keeps the ``QUERY_TERMS`` that weigh most (Lucene's "more like
this"), and lets the store add up BM25 over their postings, returning only the best papers.

>>> terms("Graph Networks for citation graphs, 2024")
{'graph': 2, 'network': 1, 'citation': 1}
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Iterable

from kg.store.reads import text as reads

INDEX_ID = "bm25"
ANALYZER = "scikit-learn english stop words, plurals folded"
K1, B = 1.2, 0.75            # BM25's usual constants
QUERY_TERMS = 40             # a query's heaviest words that are looked up
MOST_POSTINGS = 1000         # a word more papers have proposes none (100,000 papers' postings exceed the store's query memory)
EDGE_BATCH = 5000
_DIGITS = re.compile(r"^[\d_]+$")
_WORD = re.compile(r"(?u)\b\w\w+\b")     # scikit-learn's default token pattern, which made the first indexes
STOP_WORDS_FILE = Path(__file__).resolve().parent / "text_stop_words.txt"


@cache
def stop_words() -> frozenset[str]:
    """The words the index leaves out (``text_stop_words.txt``: its lines that are no comment)."""
    lines = STOP_WORDS_FILE.read_text(encoding="utf-8").split("\n")
    return frozenset(line for line in lines if line and not line.startswith("#"))


def _words(text: str) -> list[str]:
    stop = stop_words()
    return [w for w in _WORD.findall(text.lower()) if w not in stop]


def fold_plural(word: str) -> str:
    """Harman's S-stemmer (1991): the plural endings only, so "networks" meets "network".

    >>> [fold_plural(w) for w in ("networks", "queries", "analyses", "corpus", "class", "analysis")]
    ['network', 'query', 'analyse', 'corpus', 'class', 'analysis']
    """
    if len(word) > 3 and word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("us", "ss", "is")):
        return word[:-1]
    return word


def terms(text: str) -> dict[str, int]:
    """The indexed words of a text with their counts (numbers and stop words dropped)."""
    counts = Counter(fold_plural(w) for w in _words(text or "") if not _DIGITS.match(w))
    return dict(counts)


def paper_text(title: str | None, abstract: str | None, title_derived: bool | None) -> str:
    """What a paper is indexed by: its title (unless derived from the abstract) and its abstract."""
    parts = [] if title_derived else [title or ""]
    return " ".join([*parts, abstract or ""]).strip()


def idf(df: int, papers: int) -> float:
    """BM25's IDF, never negative: ln(1 + (N - df + 0.5) / (df + 0.5)).

    >>> round(idf(1, 1000), 3), round(idf(500, 1000), 3)
    (6.503, 0.693)
    """
    return math.log(1 + (papers - df + 0.5) / (df + 0.5))


def saturation(tf: float, length: float, avg_length: float) -> float:
    """BM25's term-frequency part: tf (k1 + 1) / (tf + k1 (1 - b + b length / avg))."""
    return tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avg_length))


# --- build time -------------------------------------------------------------------------

STORED_TEXT = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})
OPTIONAL MATCH (p)<-[h:OCCURS_IN]-(t:Term)
RETURN p.id AS id, p.title AS title, p.title_derived AS title_derived, p.abstract AS abstract,
       collect({term: t.id, tf: h.tf}) AS old
"""
DROP_TERM_EDGES = "UNWIND $ids AS id MATCH (:Paper {id: id})<-[h:OCCURS_IN]-(:Term) DELETE h"
ALL_TERMS = "MATCH (t:Term) RETURN t.id AS id"
STORED_TERMS = "UNWIND $ids AS id MATCH (t:Term {id: id}) RETURN t.id AS id"
# Terms are created after a read that finds the stored ones (one writer per store): on the
# embedded store this is several times faster than MERGE.
CREATE_TERMS = "UNWIND $rows AS row CREATE (:Term {id: row.id})"
CREATE_TERM_EDGES = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
SET p.text_length = row.length
WITH p, row
UNWIND row.words AS word
MATCH (t:Term {id: word.term})
CREATE (t)-[:OCCURS_IN {tf: word.tf}]->(p)
"""
DROP_UNUSED_TERMS = "UNWIND $ids AS id MATCH (t:Term {id: id}) WHERE NOT EXISTS { MATCH (t)-[:OCCURS_IN]->() } DELETE t"
# Term.df moves with the edges, in their transaction; a graph indexed before it was kept counts it once
MOVE_DOCUMENT_FREQUENCIES = "UNWIND $rows AS row MATCH (t:Term {id: row.term}) SET t.df = coalesce(t.df, 0) + row.delta"
DOCUMENT_FREQUENCIES_KEPT = "MATCH (s:TextIndex {id: $id}) RETURN s.df_kept AS kept"
COUNT_DOCUMENT_FREQUENCIES = """
MATCH (t:Term) WHERE t.df IS NULL
WITH t LIMIT $page
SET t.df = COUNT { (t)-[:OCCURS_IN]->() }
RETURN count(t) AS counted
"""
ADD_TOTALS = """
MERGE (s:TextIndex {id: $id})
SET s.papers = coalesce(s.papers, 0) + $papers, s.words = coalesce(s.words, 0) + $words,
    s.analyzer = $analyzer, s.k1 = $k1, s.b = $b, s.df_kept = true
"""
PAPERS_PER_WRITE = 100


def stored_terms(store) -> set[str]:
    """Every Term of the store: a build reads them once and ``index_papers`` keeps the set current,
    instead of looking up thousands of words per batch."""
    return {row["id"] for row in store.stream(ALL_TERMS)}


def index_papers(store, paper_ids: Iterable[str], known: set[str] | None = None) -> int:
    """Index the stored text of these papers (after they are loaded); returns how many changed.

    A paper indexed before gets its words anew only when its text changed, and the totals move
    by the difference, so indexing the same papers twice changes no counts. ``known`` is
    :func:`stored_terms`' set, kept current here (else the batch's words are looked up).
    """
    ids = sorted(set(paper_ids))
    if not ids:
        return 0
    keep_document_frequencies(store)
    changed, rows, dropped, wanted = [], [], set(), set()
    papers_delta = words_delta = 0
    df_delta: Counter = Counter()
    for row in store.run(STORED_TEXT, {"ids": ids}):
        new = terms(paper_text(row["title"], row["abstract"], row["title_derived"]))
        old = {o["term"]: o["tf"] for o in row["old"] if o["term"] is not None}
        if new == old:
            continue
        changed.append(row["id"])
        dropped.update(old.keys() - new.keys())
        wanted.update(new)
        df_delta.update(new.keys() - old.keys())
        df_delta.subtract(old.keys() - new.keys())
        papers_delta += bool(new) - bool(old)
        words_delta += sum(new.values()) - sum(old.values())
        rows.append({"paper": row["id"], "length": sum(new.values()),
                     "words": [{"term": t, "tf": tf} for t, tf in sorted(new.items())]})
    if not changed:
        return 0
    store.run(DROP_TERM_EDGES, {"ids": changed}, write=True)
    stored = wanted & known if known is not None else {r["id"] for r in store.run(STORED_TERMS, {"ids": sorted(wanted)})}
    store.run_batches(CREATE_TERMS, [{"id": t} for t in sorted(wanted - stored)], EDGE_BATCH)
    if known is not None:
        known.update(wanted)
    store.run_batches(CREATE_TERM_EDGES, rows, PAPERS_PER_WRITE)
    store.run_batches(MOVE_DOCUMENT_FREQUENCIES, [{"term": t, "delta": d} for t, d in sorted(df_delta.items()) if d],
                      EDGE_BATCH)
    if dropped:
        store.run(DROP_UNUSED_TERMS, {"ids": sorted(dropped)}, write=True)
        if known is not None:
            known -= dropped - {r["id"] for r in store.run(STORED_TERMS, {"ids": sorted(dropped)})}
    store.run(ADD_TOTALS, {"id": INDEX_ID, "papers": papers_delta, "words": words_delta, "analyzer": ANALYZER,
                           "k1": K1, "b": B}, write=True)
    return len(changed)


def keep_document_frequencies(store) -> None:
    """Give every Term of an index made before ``Term.df`` was kept its document frequency, once."""
    rows = store.run(DOCUMENT_FREQUENCIES_KEPT, {"id": INDEX_ID})
    if not rows or rows[0]["kept"]:
        return  # no index yet (its first batch keeps them), or kept
    while store.run(COUNT_DOCUMENT_FREQUENCIES, {"page": EDGE_BATCH}, write=True)[0]["counted"]:
        pass
    store.run("MATCH (s:TextIndex {id: $id}) SET s.df_kept = true", {"id": INDEX_ID}, write=True)


# --- query time -------------------------------------------------------------------------

def query_words(store, paper: str) -> tuple[list[dict], float, float] | None:
    """The query's looked-up words ``[{term, weight, df}]``, its BM25 score against itself (the
    scale of a perfect match) and the average length; None when the graph has no text index."""
    row = reads.words(store, INDEX_ID, paper)
    if not row or not row["papers"]:
        return None
    papers, avg_length = row["papers"], row["words"] / row["papers"]
    weighted = [{"term": w["term"], "weight": idf(w["df"], papers) * w["tf"], "df": w["df"]}
                for w in row["words_of_paper"] if w["term"] is not None and w["df"] > 1]
    # heaviest first; a word of equal weight by its spelling, so the choice never depends on store order
    weighted.sort(key=lambda w: (-w["weight"], w["term"]))
    chosen = weighted[:QUERY_TERMS]
    own = {w["term"]: w for w in row["words_of_paper"] if w["term"] is not None}
    length = row["length"] or 0
    perfect = sum(w["weight"] * saturation(own[w["term"]]["tf"], length, avg_length) for w in chosen)
    return chosen, perfect, avg_length


def draft_words(store, text: str) -> tuple[list[dict], float, float] | None:
    """As :func:`query_words` for a text not in the graph, weighed as if it were added to it (its
    words' document frequencies and the papers count it once more)."""
    own = terms(text)
    found = reads.document_frequencies(store, INDEX_ID, sorted(own))
    if found is None or not found[0]:
        return None
    papers, words, df = found
    avg_length = words / papers
    weighted = [{"term": t, "weight": idf(df[t] + 1, papers + 1) * tf, "df": df[t]} for t, tf in own.items() if df.get(t)]
    weighted.sort(key=lambda w: (-w["weight"], w["term"]))
    chosen = weighted[:QUERY_TERMS]
    length = sum(own.values())
    perfect = sum(w["weight"] * saturation(own[w["term"]], length, avg_length) for w in chosen)
    return chosen, perfect, avg_length


def text_neighbours(store, paper: str, limit: int = 100, among: list[str] | None = None,
                    words: tuple | None = None) -> dict[str, float]:
    """The ``limit`` papers whose text is most like ``paper``'s, and those of ``among`` beyond them,
    by BM25 over its heaviest words, each score divided by the paper's score against itself
    (1.0: as alike as the paper itself). ``words`` is :func:`query_words`' answer, when already read.
    Every score comes from the papers' own texts (:func:`text_scores`); the postings the
    ``limit`` papers come from are those of the chosen words at most ``MOST_POSTINGS`` papers have,
    so that a query's reads do not grow with the graph (with ``limit`` 0 none are read).

    Empty when the paper has no indexed words or the graph no text index.
    """
    found = words if words is not None else query_words(store, paper)
    if found is None or not found[0]:
        return {}
    chosen, perfect, avg_length = found
    ids = set(among or [])
    if limit:  # proposed by the postings of the words few papers have; scored below by all the chosen words
        rare = [w for w in chosen if w["df"] <= MOST_POSTINGS]
        ids.update(r["id"] for r in reads.bm25_neighbours(store, paper, rare, K1, B, avg_length, limit, []))
    scored = text_scores(store, sorted(ids - {paper}), chosen, avg_length)
    return {pid: score / perfect for pid, score in scored.items()}


def text_scores(store, ids: list[str], chosen: list[dict], avg_length: float) -> dict[str, float]:
    """BM25 of each of these papers over the query's ``chosen`` words (``[{term, weight}]``),
    from the paper's stored text analysed as the index analyses it: the score the index's
    postings give, at the cost of reading these papers only (none scoring 0 is returned)."""
    weights = {w["term"]: w["weight"] for w in chosen}
    scores = {}
    for row in reads.texts(store, ids):
        own = terms(paper_text(row["title"], row["abstract"], row["title_derived"]))
        length = sum(own.values())
        score = sum(weight * saturation(own[term], length, avg_length) for term, weight in weights.items() if term in own)
        if score > 0:
            scores[row["id"]] = score
    return scores
