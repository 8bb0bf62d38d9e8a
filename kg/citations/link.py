"""Linking citations in the store: references to loaded papers become
``(:Paper)-[:CITES]->(:Paper)``; the others stay ``(:Paper)-[:CITES]->(:Reference)``
and are relinked when the paper they name is loaded, in this build or a later one.

A reference names a paper by its id (``P02-1040``, ``openalex:W…``), by
``doi:<doi>`` (matching any paper with that DOI, whatever its source), or, for
an in-text author-year citation, by ``surname-year`` matching the first author
and year of exactly one loaded paper (``Paper.cite_key``). When several papers
match an in-text citation it stays a Reference, its ``candidates`` property
lists them, and the report names it as ambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from kg.store import Store
from kg.store.schema import (
    CREATE_REFERENCES,
    DELETE_REFERENCE_CITES,
    DROP_ORPHAN_REFERENCES,
    REFERENCE_CITERS,
    REFERENCES_AMONG,
    cites_queries,
)

LOOKUP_BATCH = 1000
AMBIGUOUS_EXAMPLES = 200  # kept in memory for the report; the count goes on

IDS_AMONG = "UNWIND $keys AS key MATCH (q:Paper {id: key}) RETURN key, q.id AS id"
DOIS_AMONG = "UNWIND $dois AS doi MATCH (q:Paper {doi: doi}) RETURN 'doi:' + doi AS key, q.id AS id"
CITE_KEYS_AMONG = "UNWIND $keys AS key MATCH (q:Paper {cite_key: key}) RETURN key, q.id AS id"
MARK_AMBIGUOUS = "UNWIND $rows AS row MATCH (r:Reference {key: row.key}) SET r.candidates = row.candidates"


@dataclass
class CitationReport:
    """How the references of a load were linked."""

    linked: int = 0            # references that named a loaded paper when they were loaded
    kept: int = 0              # references kept as (:Reference) nodes when they were loaded
    relinked: int = 0          # of those, edges turned into Paper links when their paper arrived
    in_text_resolved: int = 0  # in-text author-year citations linked to a paper
    ambiguous_count: int = 0
    ambiguous: dict[str, list[str]] = field(default_factory=dict)  # key -> candidate paper ids (examples)

    def note_ambiguous(self, key: str, candidates: list[str]) -> None:
        self.ambiguous_count += 1
        if len(self.ambiguous) < AMBIGUOUS_EXAMPLES:
            self.ambiguous[key] = sorted(candidates)

    def lines(self) -> list[str]:
        """A short human summary."""
        # a reference kept at first and relinked later counts once, as linked
        out = [f"Citations: {self.linked + self.relinked} linked to loaded papers "
               f"({self.in_text_resolved} from in-text author-year citations), {self.kept - self.relinked} kept as references."]
        if self.ambiguous_count:
            out.append(f"Ambiguous in-text citations (kept as references): {self.ambiguous_count}")
            out += [f"  {key}: {', '.join(ids)}" for key, ids in list(self.ambiguous.items())[:20]]
        return out


def _chunks(items: list, size: int = LOOKUP_BATCH):
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _lookup(store: Store, query: str, name: str, keys: Iterable[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for chunk in _chunks(sorted(set(keys))):
        for row in store.run(query, {name: chunk}):
            found.setdefault(row["key"], []).append(row["id"])
    return found


def stored_references(store: Store, keys: Iterable[str]) -> set[str]:
    """Those of ``keys`` that are stored Reference keys."""
    return {row["key"] for chunk in _chunks(sorted(set(keys))) for row in store.run(REFERENCES_AMONG, {"keys": chunk})}


def paper_targets(store: Store, keys: Iterable[str]) -> dict[str, str]:
    """The loaded paper each bibliographic reference key names (by id, else by DOI)."""
    keys = set(keys)
    targets = {key: ids[0] for key, ids in _lookup(store, IDS_AMONG, "keys", keys).items()}
    dois = [k[4:] for k in keys if k.startswith("doi:") and k not in targets]
    for key, ids in _lookup(store, DOIS_AMONG, "dois", dois).items():
        targets[key] = sorted(ids)[0]
    return targets


def cite_key_candidates(store: Store, keys: Iterable[str]) -> dict[str, list[str]]:
    """The loaded papers whose first author and year give each author-year key."""
    return _lookup(store, CITE_KEYS_AMONG, "keys", (k for k in keys if not k.endswith("-n.d.")))


def load_references(store: Store, rows: list[dict], report: CitationReport | None = None, batch_size: int = 1000) -> None:
    """MERGE one batch of reference rows (``kg.graph`` rows with ``in_text``)."""
    report = report if report is not None else CitationReport()
    bibliographic = [r for r in rows if not r.get("in_text")]
    in_text = [r for r in rows if r.get("in_text")]
    targets = paper_targets(store, (r["key"] for r in bibliographic))
    to_papers = [dict(r, target=targets[r["key"]]) for r in bibliographic if r["key"] in targets and targets[r["key"]] != r["paper"]]
    kept = [r for r in bibliographic if r["key"] not in targets]
    candidates = cite_key_candidates(store, (r["key"] for r in in_text))
    ambiguous = {}
    for row in in_text:
        ids = [i for i in candidates.get(row["key"], []) if i != row["paper"]]
        if len(ids) == 1:
            to_papers.append(dict(row, target=ids[0]))
            report.in_text_resolved += 1
            continue
        kept.append(row)
        if len(ids) > 1:
            report.note_ambiguous(row["key"], ids)
            ambiguous[row["key"]] = sorted(candidates[row["key"]])
    link_papers(store, to_papers, batch_size)
    keep_references(store, kept, batch_size)
    store.run_batches(MARK_AMBIGUOUS, [{"key": k, "candidates": v} for k, v in ambiguous.items()], batch_size)
    report.linked += len(to_papers)
    report.kept += len(kept)


def _unique_pairs(rows: list[dict], target: str) -> list[dict]:
    """One row per (paper, target), the first with evidence winning."""
    unique: dict[tuple[str, str], dict] = {}
    for row in rows:
        pair = (row["paper"], row[target])
        if pair not in unique or (unique[pair].get("evidence") is None and row.get("evidence") is not None):
            unique[pair] = {"paper": pair[0], "target": pair[1], "evidence": row.get("evidence"),
                            "start": row.get("start"), "end": row.get("end")}
    return list(unique.values())


def _create_edges(store: Store, pairs: list[dict], target: str, batch_size: int) -> None:
    """CITES edges for ``pairs`` to ``target`` nodes: a read finds those that exist, the rest
    are created; an existing edge only gains evidence it lacked. A rerun adds nothing."""
    existing_query, create_query, set_query = cites_queries(target)
    existing = {(r["paper"], r["target"]) for chunk in _chunks(pairs) for r in store.run(existing_query, {"rows": chunk})}
    store.run_batches(create_query, [r for r in pairs if (r["paper"], r["target"]) not in existing], batch_size)
    store.run_batches(set_query, [r for r in pairs if (r["paper"], r["target"]) in existing and r["evidence"] is not None],
                      batch_size)


def link_papers(store: Store, rows: list[dict], batch_size: int = 1000) -> None:
    """``(:Paper)-[:CITES]->(:Paper)`` for rows {paper, target, evidence, start, end}."""
    _create_edges(store, _unique_pairs(rows, "target"), "Paper", batch_size)


def keep_references(store: Store, rows: list[dict], batch_size: int = 1000) -> None:
    """``(:Paper)-[:CITES]->(:Reference {key, authors, year, title})`` for reference rows."""
    first = {}
    for row in rows:
        first.setdefault(row["key"], {"key": row["key"], "authors": row.get("authors") or [], "year": row.get("year"),
                                      "title": row.get("title")})
    stored = stored_references(store, first)
    store.run_batches(CREATE_REFERENCES, [r for k, r in first.items() if k not in stored], batch_size)
    _create_edges(store, _unique_pairs(rows, "key"), "Reference", batch_size)


def _relink(store: Store, pairs: list[dict], report: CitationReport) -> None:
    """Turn the Reference edges of ``pairs`` ({key, target}) into Paper links."""
    for chunk in _chunks(pairs):
        citers = [r for r in store.run(REFERENCE_CITERS, {"rows": chunk}) if r["paper"] != r["target"]]
        link_papers(store, citers)
        store.run_batches(DELETE_REFERENCE_CITES, citers)
        store.run(DROP_ORPHAN_REFERENCES, {"keys": [p["key"] for p in chunk]}, write=True)
        report.relinked += len(citers)


def link_new_papers(store: Store, papers: list[dict], report: CitationReport | None = None) -> None:
    """Relink the References that name papers just loaded (by id, DOI or author-year key)."""
    report = report if report is not None else CitationReport()
    names: dict[str, str] = {}
    for paper in papers:
        names[paper["id"]] = paper["id"]
        if paper.get("doi"):
            names[f"doi:{paper['doi']}"] = paper["id"]
    cite_keys = {p["cite_key"] for p in papers if p.get("cite_key")}
    waiting = stored_references(store, names.keys() | cite_keys)  # one read for both kinds of key
    pairs = [{"key": key, "target": names[key]} for key in sorted(waiting & names.keys())]
    ambiguous = []
    for key, ids in cite_key_candidates(store, waiting & cite_keys).items():
        if len(ids) == 1:
            pairs.append({"key": key, "target": ids[0]})
            report.in_text_resolved += 1
        else:
            report.note_ambiguous(key, ids)
            ambiguous.append({"key": key, "candidates": sorted(ids)})
    _relink(store, pairs, report)
    store.run_batches(MARK_AMBIGUOUS, ambiguous)
