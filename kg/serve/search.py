"""The search box: papers by id, title and the words of their abstracts, concepts by name and
alias, each ranked, from one text.

The titles and the concepts' names are held in memory (read once per build: a scan of them in
the store costs 0.3-2 s at 10,000 papers, in memory a few milliseconds); the words of the
abstracts come from the store's BM25 index (``kg.textsim``), whose postings are read by key.

>>> rank_paper("graph networks", "Graph networks", "p1")
50
>>> rank_paper("graph", "Graph networks", "p1"), rank_paper("net", "Graph networks", "p1"), rank_paper("x", "Graph", "p1")
(20, 10, 0)
>>> rank_concept("lora", "LoRA", ["low-rank adaptation"]), rank_concept("low-rank", "LoRA", ["low-rank adaptation"])
(50, 5)
"""

from __future__ import annotations

import threading

from kg.store.reads import browse

WORD_HITS = 200   # papers the abstracts' words propose, the most occurrences first


def rank_paper(text: str, title: str | None, paper_id: str) -> int:
    """A paper's score for the lower-case ``text`` by its id and title: the id 100, the whole
    title 50, its start 20, a part of it 10, else 0 (the abstract's words add 1)."""
    return _paper_score(text, (title or "").lower(), paper_id.lower())


def _paper_score(text: str, title: str, paper_id: str) -> int:  # both lower-case already
    if paper_id == text:
        return 100
    return 50 if title == text else 20 if title.startswith(text) else 10 if text in title else 0


def rank_concept(text: str, name: str, aliases: list[str], concept_id: str = "") -> int:
    """A concept's score for the lower-case ``text``: its id or whole name 50, a whole alias 40,
    the start of its name 20, a part of it 10, a name of 4 letters or more inside the text
    (``transformers`` finds Transformer) 8, a part of an alias 5, else 0."""
    return _concept_score(text, (name or "").lower(), [a.lower() for a in aliases or []], concept_id)


def _concept_score(text: str, name: str, aliases: list[str], concept_id: str) -> int:  # lower-case already
    if text == concept_id or text == name:
        return 50
    if text in aliases:
        return 40
    if name.startswith(text):
        return 20
    if text in name:
        return 10
    if len(name) >= 4 and name in text:
        return 8
    return 5 if any(text in a for a in aliases) else 0


class Catalogue:
    """The papers' ids, titles, years and venues and the concepts' names, types, aliases and
    paper counts of one store, read again when a build has changed the graph."""

    def __init__(self, store):
        self.store = store
        self.papers: dict[str, dict] = {}
        self.concepts: list[dict] = []
        self._titles: list[tuple[str, str, str]] = []             # (id, lower-case id, lower-case title)
        self._names: list[tuple[int, str, list[str], str]] = []    # (index, name, aliases, id), lower-case
        self._version: tuple | None = None
        self._lock = threading.Lock()

    def current(self) -> "Catalogue":
        """The catalogue of the graph as it is now (one small read when nothing changed)."""
        version = browse.version(self.store)
        with self._lock:  # one reader of the whole catalogue at a time; the others wait for it
            if version != self._version:
                self.papers = {row["id"]: row for row in browse.all_papers(self.store)}
                self.concepts = list(browse.all_concepts(self.store))
                self._titles = [(pid, pid.lower(), (row["title"] or "").lower()) for pid, row in self.papers.items()]
                self._names = [(i, (c["name"] or "").lower(), [a.lower() for a in c["aliases"] or []], c["id"])
                               for i, c in enumerate(self.concepts)]
                self._version = version
        return self

    def search_papers(self, text: str, limit: int) -> list[dict]:
        """``{id, title, year, venue, score}`` of the best ``limit`` papers for ``text``, best first;
        ties: the most occurrences of its words, the newest, the id."""
        from kg.textsim import terms

        lowered = text.strip().lower()
        scores = {pid: s for pid, low_id, title in self._titles if (s := _paper_score(lowered, title, low_id))}
        words = sorted(terms(text))
        occurrences = {row["id"]: row["tf"] for row in browse.with_words(self.store, words, WORD_HITS)} if words else {}
        for pid in occurrences:
            scores[pid] = scores.get(pid, 0) + 1
        ranked = sorted((pid for pid in scores if pid in self.papers),
                        key=lambda pid: (-scores[pid], -occurrences.get(pid, 0), -(self.papers[pid]["year"] or 0), pid))
        return [{**self.papers[pid], "score": scores[pid]} for pid in ranked[:limit]]

    def search_concepts(self, text: str, limit: int) -> list[dict]:
        """``{id, name, type, aliases, papers, score}`` of the best ``limit`` concepts for ``text``,
        best first; ties: the most papers, the id."""
        lowered = text.strip().lower()
        found = [{**self.concepts[i], "score": s} for i, name, aliases, cid in self._names
                 if (s := _concept_score(lowered, name, aliases, cid))]
        found.sort(key=lambda row: (-row["score"], -row["papers"], row["id"]))
        return found[:limit]
