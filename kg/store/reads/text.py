"""Reads of the BM25 text index (``kg.textsim`` builds it): a paper's words with their
document frequencies, and the papers scoring best against a set of weighted words."""

from __future__ import annotations

# A word's document frequency is kept on it (``Term.df``); an index made before it was kept counts
# the word's edges, which costs reads that grow with the graph.
WORDS = """
MATCH (s:TextIndex {id: $index})
MATCH (p:Paper {id: $paper})
OPTIONAL MATCH (p)<-[h:OCCURS_IN]-(t:Term)
WITH s, p, t, h, CASE WHEN s.df_kept THEN t.df ELSE COUNT { (t)-[:OCCURS_IN]->() } END AS df
RETURN s.papers AS papers, s.words AS words, p.text_length AS length,
       collect({term: t.id, tf: h.tf, df: df}) AS words_of_paper
"""
# The index's totals and the document frequency of each of these words (a draft's)
DOCUMENT_FREQUENCIES = """
MATCH (s:TextIndex {id: $index})
UNWIND $terms AS term
OPTIONAL MATCH (t:Term {id: term})
RETURN s.papers AS papers, s.words AS words, term,
       CASE WHEN t IS NULL THEN 0 WHEN s.df_kept THEN t.df ELSE COUNT { (t)-[:OCCURS_IN]->() } END AS df
"""
# The store adds up BM25 over the postings of the query's heaviest words and returns the best
# ``$limit`` papers, and the scores of the papers in ``$among`` that are not among them.
BM25_NEIGHBOURS = """
UNWIND $words AS word
MATCH (:Term {id: word.term})-[h:OCCURS_IN]->(d:Paper)
WHERE d.id <> $paper
WITH d, sum(word.weight * h.tf * $k1_1 / (h.tf + $k1 * (1 - $b + $b * d.text_length / $avg_length))) AS score
ORDER BY score DESC, d.id
WITH collect({id: d.id, score: score}) AS ranked
RETURN ranked[0..$limit] + [x IN ranked[$limit..] WHERE x.id IN $among] AS found
"""
# The texts the index was made from, of some papers (a query's candidates, scored in Python)
TEXTS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})
RETURN p.id AS id, p.title AS title, p.title_derived AS title_derived, p.abstract AS abstract
"""


def words(store, index: str, paper: str) -> dict | None:
    """``{papers, words, length, words_of_paper: [{term, tf, df}]}``: the index's totals and
    ``paper``'s words; None when the graph has no index ``index`` or no such paper."""
    rows = store.run(WORDS, {"index": index, "paper": paper})
    return rows[0] if rows else None


def document_frequencies(store, index: str, terms: list[str]) -> tuple[int, int, dict[str, int]] | None:
    """The index's papers and words, and how many papers have each of ``terms``; None when the
    graph has no index ``index``."""
    if not terms:
        rows = store.run("MATCH (s:TextIndex {id: $index}) RETURN s.papers AS papers, s.words AS words", {"index": index})
        return (rows[0]["papers"], rows[0]["words"], {}) if rows else None
    rows = store.run(DOCUMENT_FREQUENCIES, {"index": index, "terms": terms})
    if not rows:
        return None
    return rows[0]["papers"], rows[0]["words"], {r["term"]: r["df"] for r in rows}


def bm25_neighbours(store, paper: str, weighted: list[dict], k1: float, b: float, avg_length: float, limit: int,
                    among: list[str]) -> list[dict]:
    """``[{id, score}]``: the ``limit`` papers with the largest BM25 sum over ``weighted``
    (``[{term, weight}]``), then the scores of the papers of ``among`` beyond them."""
    rows = store.run(BM25_NEIGHBOURS, {"words": weighted, "paper": paper, "k1": k1, "k1_1": k1 + 1, "b": b,
                                       "avg_length": avg_length, "limit": limit, "among": among})
    return rows[0]["found"] if rows else []


def texts(store, ids: list[str]) -> list[dict]:
    """``[{id, title, title_derived, abstract}]`` of these papers (those the graph holds)."""
    return store.run(TEXTS, {"ids": ids})
