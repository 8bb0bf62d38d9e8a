"""The load: one batch of ``kg.graph`` rows into the store, in one direction —
papers, then concepts, then the papers' mentions of them, venues and authors, then citations.

A batch first reads which of its papers and concepts the store holds already (a lookup of the
batch's own keys, whose cost does not grow with the graph). What is new is made with CREATE,
which ArcadeDB runs several times faster than MERGE; what may exist is merged. A concept is
created with the vote of the batch's papers (type label, name, aliases, paper count), so a
concept no later batch names needs no write again (an update of a stored node costs ten times
its creation on ArcadeDB). The batch's abstracts are linked to every concept name the build
knows so far (``kg.vocabulary.Names``); the end of the build does the rest. Every paper
whose abstract the batch stores carries the batch's stamp. Rerunning a build changes no counts.

Citations: a reference to a loaded paper is a ``(:Paper)-[:CITES]->(:Paper)`` link; any other is
kept as ``(:Paper)-[:CITES]->(:Reference)`` and relinked when the paper it names is loaded, in
this build or a later one. A reference names a paper by its id (``P02-1040``, ``openalex:W…``),
by ``doi:<doi>`` (any paper with that DOI, whatever its source) or, for an in-text author-year
citation, by ``surname-year`` matching the first author and year of exactly one loaded paper
other than the citing one (``Paper.cite_key``). When several papers match an in-text citation it
stays a Reference, its ``candidates`` property lists them, and the report names it as ambiguous.
A link made from an in-text citation says so: it carries the key (``cite_key``), the citation's
authors (``cite_authors``) and ``listed`` when the citing paper's reference list names that paper
too. Each batch resolves again the keys its papers answer to (or answered to before), so that a
key which named one paper and now names two (or the reverse) links the same papers whatever
order and batches the papers came in.

A Reference is described by its citations: each edge to it holds what its citation says of the
work (``cite_authors``, ``cite_title``, ``cite_year``), the Reference the fullest of these
(``fullest``: the most authors, ties broken by a fixed rule), whichever paper cited it first. An
edge added makes the description fuller or leaves it; a Reference that loses edges (they now link
a paper) is described again from the edges left, read through its key.

Labels and relationship types are pasted into queries only from the whitelists of
``kg.graph``; every value travels as a parameter.

>>> from kg.graph import graph_rows
>>> from kg.store import open_store
>>> from kg.vocabulary import Names
>>> with open_store(db_dir="kg-data", create=True) as store:   # doctest: +SKIP
...     load_rows(store, graph_rows(records), names=Names.stored(store, first=1), stamp=1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from kg.graph import CONCEPT_LABELS, MENTION_TYPES, GraphRows
from kg.store import Store
from kg.store.batches import batched
from kg.store.schema import _checked
from kg.store.vocabulary import CREATE_LINKS, LINK_FIELDS, BatchNames, Totals, vote

LOOKUP_BATCH = 1000
AMBIGUOUS_EXAMPLES = 200  # kept in memory for the report; the count goes on
AMBIGUOUS_IDS_SHOWN = 8    # a key's candidate papers the report names (a common key names hundreds)

# --- papers -----------------------------------------------------------------------------------

PAPERS_AMONG = "UNWIND $keys AS key MATCH (q:Paper {id: key}) RETURN key, q.id AS id"
# A new paper gets what MERGE_PAPERS gives a node it creates.
CREATE_PAPERS = """
UNWIND $rows AS row
CREATE (p:Paper {id: row.id})
SET p.title = row.title, p.title_derived = row.title_derived, p.abstract = coalesce(row.abstract, ''),
    p.year = row.year, p.venue = row.venue, p.doi = row.doi, p.cite_key = row.cite_key, p.source = row.source,
    p.position = row.position, p.stamp = $stamp
"""
# A paper met again (a second source, e.g. SciERC abstracts for AAN titles) keeps what it
# had where the new record is empty, and keeps a real title over a derived one; once it has an
# abstract, a record read from its title gives it neither its source nor concept edges (so that
# the order of the sources does not matter). It tells its year before (a concept's totals count
# its papers' years) and whether it has an abstract.
MERGE_PAPERS = """
UNWIND $rows AS row
MERGE (p:Paper {id: row.id})
WITH p, row, p.year AS year_before, p.cite_key AS cite_key_before,
     (row.title_derived AND p.title IS NOT NULL AND NOT coalesce(p.title_derived, true)) AS keep_title,
     (coalesce(row.abstract, '') = '' AND coalesce(p.abstract, '') <> '') AS keep_source
SET p.title = CASE WHEN keep_title THEN p.title ELSE row.title END,
    p.title_derived = CASE WHEN keep_title THEN false ELSE row.title_derived END,
    p.abstract = CASE WHEN coalesce(row.abstract, '') = '' THEN coalesce(p.abstract, '') ELSE row.abstract END,
    p.year = coalesce(row.year, p.year), p.venue = coalesce(row.venue, p.venue), p.doi = coalesce(row.doi, p.doi),
    p.cite_key = coalesce(row.cite_key, p.cite_key),
    p.source = CASE WHEN keep_source THEN p.source ELSE row.source END,
    p.position = CASE WHEN keep_source THEN p.position ELSE row.position END,
    p.stamp = CASE WHEN coalesce(row.abstract, '') = '' THEN p.stamp ELSE $stamp END
RETURN p.id AS id, p.year AS year, year_before, p.abstract <> '' AS has_abstract, p.cite_key AS cite_key,
       cite_key_before
"""
# the concepts these papers name (their totals count the papers' years)
CONCEPTS_OF_PAPERS = "UNWIND $ids AS id MATCH (:Paper {id: id})-->(c:Concept) RETURN DISTINCT c.id AS id"

# --- concepts ---------------------------------------------------------------------------------

# A concept is one node per canonical key, whatever type a paper read it as: created with the
# vote of its batch; kg.vocabulary votes again the concepts later batches name.
CONCEPTS_AMONG = "UNWIND $keys AS key MATCH (c:Concept {id: key}) RETURN key, c.id AS id"
CREATE_CONCEPTS = """
UNWIND $rows AS row
CREATE (c:Concept:{label} {{id: row.id, name: row.name, type: row.type, aliases: row.aliases, papers: row.papers,
    mentions: row.mentions, years: row.years, year_papers: row.year_papers, quality: row.quality, rated: row.rated, salience: row.salience}})
"""

# --- mentions ---------------------------------------------------------------------------------

MENTION_SET = """SET r.evidence = row.evidence, r.start = row.start, r.end = row.end, r.confidence = row.confidence,
    r.salience = row.salience, r.extractor = row.extractor, r.mentions = row.mentions, r.name = row.name, r.spellings = row.spellings"""
CREATE_MENTIONS = """
UNWIND $rows AS row
MATCH (p:Paper {{id: row.paper}})
MATCH (c:Concept {{id: row.concept}})
CREATE (p)-[r:{rel}]->(c)
""" + MENTION_SET
MERGE_MENTIONS = """
UNWIND $rows AS row
MATCH (p:Paper {{id: row.paper}})
MATCH (c:Concept {{id: row.concept}})
MERGE (p)-[r:{rel}]->(c)
""" + MENTION_SET
# A paper extracted again from its abstract (a rerun with a newer extractor) gets its concept
# edges anew: the old ones go first (found again by the vocabulary too), and concepts that no
# paper's extraction names any more go after the load. The vocabulary's links are returned, so
# that the build counts only the links it changes.
DROP_MENTIONS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})-[r]->(c:Concept)
WITH r, id AS paper, c.id AS concept, type(r) AS rel, r.spelling AS spelling, r.evidence AS evidence, r.start AS start,
     r.end AS end, r.confidence AS confidence, r.mentions AS mentions
DELETE r
RETURN paper, concept, rel, spelling, evidence, start, end, confidence, mentions
"""
DROP_UNNAMED_CONCEPTS = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
WHERE NOT EXISTS { MATCH (c)<-[r]-(:Paper) WHERE type(r) <> 'MENTIONS' }
DETACH DELETE c
RETURN id
"""

# --- venues and authors -----------------------------------------------------------------------

VENUE_EDGES = """
UNWIND $rows AS row
MATCH (p:Paper {{id: row.paper}})
MERGE (v:Venue {{name: row.name}})
{verb} (p)-[:PUBLISHED_IN]->(v)
"""
AUTHOR_EDGES = """
UNWIND $rows AS row
MATCH (p:Paper {{id: row.paper}})
MERGE (a:Author {{name: row.name}})
{verb} (a)-[:WROTE]->(p)
"""

# --- citations --------------------------------------------------------------------------------

# Patterns start at the node found by its key: ArcadeDB plans from the left (30x slower from (:Paper)).
REFERENCES_AMONG = "UNWIND $keys AS key MATCH (r:Reference {key: key}) RETURN r.key AS key"
REFERENCES_DESCRIBED = ("UNWIND $keys AS key MATCH (r:Reference {key: key}) "
                        "RETURN r.key AS key, r.authors AS authors, r.title AS title, r.year AS year")
# what the citations of these References say of them, each different description once
REFERENCE_CITATIONS = """
UNWIND $keys AS key
MATCH (r:Reference {key: key})<-[c:CITES]-(:Paper)
RETURN DISTINCT key, c.cite_authors AS authors, c.cite_title AS title, c.cite_year AS year
"""
DESCRIBE_REFERENCES = """
UNWIND $rows AS row
MATCH (r:Reference {key: row.key})
SET r.authors = row.authors, r.title = row.title, r.year = row.year
"""
DOIS_AMONG = "UNWIND $dois AS doi MATCH (q:Paper {doi: doi}) RETURN 'doi:' + doi AS key, q.id AS id"
CITE_KEYS_AMONG = "UNWIND $keys AS key MATCH (q:Paper {cite_key: key}) RETURN key, q.id AS id"
MARK_AMBIGUOUS = "UNWIND $rows AS row MATCH (r:Reference {key: row.key}) SET r.candidates = row.candidates"
# References are created after a read that finds the existing ones (see CITES_TARGETS).
CREATE_REFERENCES = """
UNWIND $rows AS row
CREATE (:Reference {key: row.key, authors: row.authors, year: row.year, title: row.title})
"""
# CITES edges are made with CREATE after a read that finds the existing ones (one writer
# per store): ArcadeDB runs this several times faster than MERGE, and (26.x) fails a MERGE
# of edges between papers that are both cited and citing in one UNWIND ("modified by a
# concurrent transaction") when Paper.id is constrained.
CITES_TARGETS = {"Paper": "(q:Paper {id: row.target})", "Reference": "(q:Reference {key: row.target})"}
# The citers of References whose paper is now loaded (they become Paper links).
REFERENCE_CITERS = """
UNWIND $rows AS row
MATCH (:Reference {key: row.key})<-[c:CITES]-(p:Paper)
RETURN p.id AS paper, row.key AS key, row.target AS target, c.evidence AS evidence, c.start AS start, c.end AS end
"""
DELETE_REFERENCE_CITES = """
UNWIND $rows AS row
MATCH (:Paper {id: row.paper})-[c:CITES]->(:Reference {key: row.key})
DELETE c
"""
DROP_ORPHAN_REFERENCES = """
UNWIND $keys AS key
MATCH (r:Reference {key: key})
WHERE NOT EXISTS { MATCH (r)<-[:CITES]-(:Paper) }
DELETE r
"""


def cites_queries(target: str) -> tuple[str, str, str]:
    """The (find existing, create, update) queries of CITES edges from ``(p:Paper {id: row.paper})``
    to a ``target`` node ("Paper" or "Reference") keyed by row.target. An update adds evidence the
    edge lacked and sets how it was resolved (``cite_key``, ``listed``) and what its citations say
    of the work (``cite_authors``, ``cite_title``, ``cite_year``)."""
    node = CITES_TARGETS[target]
    existing = (f"UNWIND $rows AS row MATCH (p:Paper {{id: row.paper}})-[c:CITES]->{node} RETURN p.id AS paper, "
                "row.target AS target, c.evidence IS NOT NULL AS has_evidence, c.cite_key AS cite_key, c.listed AS listed, "
                "c.cite_authors AS cite_authors, c.cite_title AS cite_title, c.cite_year AS cite_year")
    create = (f"UNWIND $rows AS row MATCH (p:Paper {{id: row.paper}}) MATCH {node} "
              "CREATE (p)-[:CITES {evidence: row.evidence, start: row.start, end: row.end, cite_key: row.cite_key, "
              "cite_authors: row.cite_authors, cite_title: row.cite_title, cite_year: row.cite_year, listed: row.listed}]->(q)")
    update = (f"UNWIND $rows AS row MATCH (p:Paper {{id: row.paper}})-[c:CITES]->{node} "
              "SET c.evidence = coalesce(c.evidence, row.evidence), c.start = coalesce(c.start, row.start), "
              "c.end = coalesce(c.end, row.end), c.cite_key = row.cite_key, c.cite_authors = row.cite_authors, "
              "c.cite_title = row.cite_title, c.cite_year = row.cite_year, c.listed = row.listed")
    return existing, create, update


# In-text citations of author-year keys, wherever they point now: to a paper (the link carries the
# key) or to the key's Reference. Both start at a node found by its key.
CITE_KEY_LINKS = """
UNWIND $rows AS row
MATCH (q:Paper {id: row.id})<-[c:CITES]-(p:Paper)
WHERE c.cite_key = row.key
RETURN row.key AS key, p.id AS paper, q.id AS target, c.evidence AS evidence, c.start AS start, c.end AS end,
       c.cite_authors AS authors, coalesce(c.listed, false) AS listed
"""
CITE_KEY_REFERENCES = """
UNWIND $keys AS key
MATCH (r:Reference {key: key})<-[c:CITES]-(p:Paper)
RETURN key, p.id AS paper, null AS target, c.evidence AS evidence, c.start AS start, c.end AS end,
       c.cite_authors AS authors, false AS listed
"""
DELETE_PAPER_CITES = """
UNWIND $rows AS row
MATCH (:Paper {id: row.paper})-[c:CITES]->(:Paper {id: row.target})
DELETE c
"""
# a link the reference list makes too stays, as the reference list made it
UNLIST_PAPER_CITES = """
UNWIND $rows AS row
MATCH (:Paper {id: row.paper})-[c:CITES]->(:Paper {id: row.target})
SET c.cite_key = null, c.cite_authors = null, c.listed = null, c.evidence = null, c.start = null, c.end = null
"""
UNMARK_AMBIGUOUS = "UNWIND $keys AS key MATCH (r:Reference {key: key}) WHERE r.candidates IS NOT NULL REMOVE r.candidates"


@dataclass
class CitationReport:
    """How the references of a load were linked."""

    linked: int = 0            # references that named a loaded paper when they were loaded
    kept: int = 0              # references kept as (:Reference) nodes when they were loaded
    relinked: int = 0          # of those, edges turned into Paper links when their paper arrived
    unlinked: int = 0          # in-text links turned back into references: their key names other papers now
    in_text_resolved: int = 0  # in-text author-year citations linked to a paper
    # author-year keys that name several loaded papers, counted once however often the build meets them
    # (a rebuild meets a key in its citing abstract and again as a stored reference)
    ambiguous_keys: set[str] = field(default_factory=set)
    ambiguous: dict[str, list[str]] = field(default_factory=dict)  # key -> candidate paper ids (examples)

    def note_ambiguous(self, key: str, candidates: list[str]) -> None:
        self.ambiguous_keys.add(key)
        if len(self.ambiguous) < AMBIGUOUS_EXAMPLES:
            self.ambiguous[key] = sorted(candidates)

    def lines(self) -> list[str]:
        """A short human summary."""
        # a reference kept at first and relinked later counts once, as linked
        linked, kept = self.linked + self.relinked - self.unlinked, self.kept - self.relinked + self.unlinked
        out = [f"Citations: {linked} linked to loaded papers "
               f"({self.in_text_resolved} from in-text author-year citations), {kept} kept as references."]
        if self.ambiguous_keys:
            keys = len(self.ambiguous_keys)
            out.append(f"Ambiguous in-text citations (kept as references): {keys} author-year key{'s' * (keys != 1)}")
            out += [f"  {key}: {_some(ids)}" for key, ids in list(self.ambiguous.items())[:20]]
        return out


def _some(ids: list[str]) -> str:
    """The first ``AMBIGUOUS_IDS_SHOWN`` ids, and how many more.

    >>> _some(["a", "b"]), _some([str(i) for i in range(10)])
    ('a, b', '0, 1, 2, 3, 4, 5, 6, 7 and 2 more')
    """
    shown = ", ".join(ids[:AMBIGUOUS_IDS_SHOWN])
    return shown + (f" and {len(ids) - AMBIGUOUS_IDS_SHOWN} more" if len(ids) > AMBIGUOUS_IDS_SHOWN else "")


# --- the batch --------------------------------------------------------------------------------

def load_rows(store: Store, rows: GraphRows, *, names: BatchNames | None = None, stamp: int = 0, batch_size: int = 1000,
              citations: CitationReport | None = None) -> None:
    """Store one batch of rows: papers, concepts, mentions and the vocabulary's links, venues and
    authors, citations.

    ``names``: the concept names the build knows, kept current here (None: no vocabulary links,
    the graph of the batch alone); ``stamp``: this batch's number in the store's sequence;
    ``citations`` collects how references were linked.
    """
    linking = names is not None
    names = names if names is not None else BatchNames(first=stamp)
    papers = fold_papers(rows.papers)
    stored = store_papers(store, papers, batch_size, stamp)
    new, years = stored.new, stored.years
    link_new_papers(store, papers, citations)
    renamed = {p["id"] for p in papers if p["abstract"]}  # their concept edges are made anew
    unnamed, dropped = drop_mentions(store, sorted(renamed - new))
    names.touched |= unnamed  # they lost papers, maybe spellings: voted again at the end
    names.touched |= concepts_of(store, sorted(stored.dated - renamed))  # their totals count the new year
    # a title-only record of a paper stored with an abstract: its concepts are those of the abstract
    mentions = last_mentions(rows, skip=stored.with_abstract - renamed)
    learn_names(names, mentions, stamp)
    links = link_abstracts(names, [p for p in papers if p["id"] in new | renamed], mentions) if linking else []
    created = store_concepts(store, mentions, links, names, years, batch_size)
    store_mentions(store, mentions, new | renamed, batch_size)
    store.run_batches(CREATE_LINKS, links, batch_size)
    names.touched |= {link["concept"] for link in links} - created
    deleted = drop_unnamed_concepts(store, unnamed)
    for cid in deleted:
        names.forget(cid)
    # a link to a concept deleted just now went with it
    names.links += changed_links([link for link in links if link["concept"] not in deleted], dropped)
    store_edges(store, VENUE_EDGES, rows.venues, new, batch_size)
    store_edges(store, AUTHOR_EDGES, rows.authors, new, batch_size)
    load_references(store, rows.references, citations, batch_size, new)
    answered = {p["cite_key"] for p in papers if p.get("cite_key")} | stored.former_cite_keys.keys()
    settle_cite_keys(store, answered, stored.former_cite_keys, citations)


def fold_papers(rows: list[dict]) -> list[dict]:
    """One row per paper id: MERGE_PAPERS' rule applied to the rows of one batch
    (a store may evaluate all rows of an UNWIND before it sets any).

    >>> [(r["title"], r["source"]) for r in fold_papers([
    ...     {"id": "a", "title": "Derived", "title_derived": True, "abstract": "Text.", "source": "scierc.json"},
    ...     {"id": "a", "title": "Real", "title_derived": False, "abstract": "", "source": "acl-metadata.txt"}])]
    [('Real', 'scierc.json')]
    """
    folded: dict[str, dict] = {}
    for row in rows:
        old = folded.get(row["id"])
        if old is None:
            folded[row["id"]] = dict(row)
            continue
        new = dict(row)
        if row.get("title_derived") and not old.get("title_derived"):
            new["title"], new["title_derived"] = old["title"], False
        for key, value in old.items():
            if new.get(key) in (None, ""):
                new[key] = value
        if not row.get("abstract") and old.get("abstract"):  # the source of the abstract kept
            new["source"], new["position"] = old.get("source"), old.get("position")
        folded[row["id"]] = new
    return list(folded.values())


def _lookup(store: Store, query: str, name: str, keys: Iterable[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for chunk in batched(sorted(set(keys)), LOOKUP_BATCH):
        for row in store.run(query, {name: chunk}):
            found.setdefault(row["key"], []).append(row["id"])
    return found


@dataclass
class StoredPapers:
    """What ``store_papers`` did: the ids of the papers it created, every paper's year as stored,
    and of the papers stored before, those that have an abstract and those whose year changed."""

    new: set[str] = field(default_factory=set)
    years: dict[str, int | None] = field(default_factory=dict)
    with_abstract: set[str] = field(default_factory=set)
    dated: set[str] = field(default_factory=set)
    former_cite_keys: dict[str, set[str]] = field(default_factory=dict)  # a key a paper answered to -> those papers


def store_papers(store: Store, papers: list[dict], batch_size: int = 1000, stamp: int = 0) -> StoredPapers:
    """Create the papers the store lacks, merge the others."""
    stored = _lookup(store, PAPERS_AMONG, "keys", (p["id"] for p in papers))
    new = [p for p in papers if p["id"] not in stored]
    result = StoredPapers(new={p["id"] for p in new}, years={p["id"]: p["year"] for p in new})
    for chunk in batched(new, batch_size):
        store.run(CREATE_PAPERS, {"rows": chunk, "stamp": stamp}, write=True)
    for chunk in batched([p for p in papers if p["id"] in stored], batch_size):
        for row in store.run(MERGE_PAPERS, {"rows": chunk, "stamp": stamp}, write=True):
            result.years[row["id"]] = row["year"]
            if row["has_abstract"]:
                result.with_abstract.add(row["id"])
            if row["year"] != row["year_before"]:
                result.dated.add(row["id"])
            if row["cite_key_before"] not in (None, row["cite_key"]):
                result.former_cite_keys.setdefault(row["cite_key_before"], set()).add(row["id"])
    return result


def concepts_of(store: Store, paper_ids: list[str]) -> set[str]:
    """The ids of the concepts these papers name (extracted or linked)."""
    return {row["id"] for chunk in batched(paper_ids, LOOKUP_BATCH) for row in store.run(CONCEPTS_OF_PAPERS, {"ids": chunk})}


def last_mentions(rows: GraphRows, skip: set[str] = frozenset()) -> dict[str, list[dict]]:
    """The batch's mention rows by relationship type, one per paper and concept: the last, as MERGE's
    SET leaves it; none of the papers ``skip``."""
    return {rel: list({(row["paper"], row["concept"]): row for row in rows.mentions[rel] if row["paper"] not in skip}.values())
            for rel in MENTION_TYPES}


def learn_names(names: BatchNames, mentions: dict[str, list[dict]], stamp: int) -> None:
    """Add the spellings the batch's papers give their concepts (the taxonomy's Domains aside)."""
    spellings: dict[str, set[str]] = {}
    for rows in mentions.values():
        for row in rows:
            if not row["concept"].startswith("domain:"):
                spellings.setdefault(row["concept"], set()).update(row["spellings"] or [])
    for cid, found in sorted(spellings.items()):
        names.learn(cid, found, stamp)


def link_abstracts(names: BatchNames, papers: list[dict], mentions: dict[str, list[dict]]) -> list[dict]:
    """The vocabulary's links of these papers (new, or extracted again): every known name their
    abstract writes, except their own concepts and spellings."""
    own: dict[str, set[str]] = {}
    spelled: dict[str, set[str]] = {}
    for rows in mentions.values():
        for row in rows:
            own.setdefault(row["paper"], set()).add(row["concept"])
            spelled.setdefault(row["paper"], set()).update(row["spellings"] or [])
    links = []
    for paper in papers:
        if paper["abstract"]:
            found = names.links_of(paper["id"], paper["abstract"], own.get(paper["id"], set()), spelled.get(paper["id"], set()))
            links.extend(found.values())
    return links


def store_concepts(store: Store, mentions: dict[str, list[dict]], links: list[dict], names: BatchNames,
                   years: dict[str, int | None], batch_size: int = 1000) -> set[str]:
    """Create the batch's new concepts, each with the vote of the batch's papers (type label, name,
    aliases) and the totals of its edges and links (``kg.store.vocabulary.Totals``); the stored
    ones the batch names are voted again at the end of the build (``names.touched``). Returns
    the ids created."""
    edges: dict[str, list[dict]] = {}
    for rel, rows in mentions.items():
        for row in rows:
            edges.setdefault(row["concept"], []).append(dict(row, rel=rel, year=years.get(row["paper"])))
    stored = _lookup(store, CONCEPTS_AMONG, "keys", edges)
    linked: dict[str, list[dict]] = {}
    for link in links:
        linked.setdefault(link["concept"], []).append(dict(link, year=years.get(link["paper"])))
    created: dict[str, list[dict]] = {label: [] for label in CONCEPT_LABELS}
    for cid, found in sorted(edges.items()):
        if cid in stored:
            continue
        voted = vote(cid, found)
        totals = Totals.of(found + linked.get(cid, []), voted["name"], voted["type"])
        row = dict(voted, **totals.properties())
        created[row["type"]].append(row)
        names.totals[cid] = totals
    for label, rows in created.items():
        store.run_batches(CREATE_CONCEPTS.format(label=_checked(label, CONCEPT_LABELS)), rows, batch_size)
    names.touched |= set(stored)
    return {row["id"] for rows in created.values() for row in rows}


def store_mentions(store: Store, mentions: dict[str, list[dict]], fresh: set[str], batch_size: int = 1000) -> None:
    """The papers' concept edges: created for ``fresh`` papers (new, or whose edges were just
    dropped), merged for the others (a title-only record of a stored paper)."""
    for rel, rows in mentions.items():
        rel = _checked(rel, MENTION_TYPES)
        store.run_batches(CREATE_MENTIONS.format(rel=rel), [r for r in rows if r["paper"] in fresh], batch_size)
        store.run_batches(MERGE_MENTIONS.format(rel=rel), [r for r in rows if r["paper"] not in fresh], batch_size)


def drop_mentions(store: Store, paper_ids: list[str]) -> tuple[set[str], dict[tuple[str, str], dict]]:
    """Delete the concept edges of these papers; return the ids of the concepts they named, and
    their vocabulary links: (paper, concept) -> the link's ``LINK_FIELDS``."""
    if not paper_ids:
        return set(), {}
    rows = store.run(DROP_MENTIONS, {"ids": paper_ids}, write=True)
    links = {(r["paper"], r["concept"]): {k: r[k] for k in LINK_FIELDS} for r in rows if r["rel"] == "MENTIONS"}
    return {r["concept"] for r in rows}, links


def changed_links(links: list[dict], dropped: dict[tuple[str, str], dict]) -> int:
    """How many of these links are new: not the same as one the batch dropped (a rebuild writes
    again the links it found, and changes none of them).

    >>> link = {"paper": "p", "concept": "bert", "spelling": "BERT", "evidence": "We use BERT.", "start": 7, "end": 11,
    ...         "confidence": 0.6, "mentions": 1}
    >>> changed_links([link], {}), changed_links([link], {("p", "bert"): {k: link[k] for k in LINK_FIELDS}})
    (1, 0)
    """
    return sum(dropped.get((link["paper"], link["concept"])) != {k: link[k] for k in LINK_FIELDS} for link in links)


def drop_unnamed_concepts(store: Store, concept_ids: set[str]) -> set[str]:
    """Delete those of these concepts that no paper's extraction names (vocabulary links alone keep
    none); returns the ids deleted."""
    if not concept_ids:
        return set()
    return {row["id"] for row in store.run(DROP_UNNAMED_CONCEPTS, {"ids": sorted(concept_ids)}, write=True)}


def store_edges(store: Store, query: str, rows: list[dict], new: set[str], batch_size: int = 1000) -> None:
    """Venue or author edges (``VENUE_EDGES``, ``AUTHOR_EDGES``): created for new papers, merged for stored ones."""
    unique = list({(row["paper"], row["name"]): row for row in rows}.values())
    store.run_batches(query.format(verb="CREATE"), [r for r in unique if r["paper"] in new], batch_size)
    store.run_batches(query.format(verb="MERGE"), [r for r in unique if r["paper"] not in new], batch_size)


# --- citations --------------------------------------------------------------------------------

def stored_references(store: Store, keys: Iterable[str]) -> set[str]:
    """Those of ``keys`` that are stored Reference keys."""
    return {row["key"] for chunk in batched(sorted(set(keys)), LOOKUP_BATCH) for row in store.run(REFERENCES_AMONG, {"keys": chunk})}


def paper_targets(store: Store, keys: Iterable[str]) -> dict[str, str]:
    """The loaded paper each bibliographic reference key names (by id, else by DOI)."""
    keys = set(keys)
    targets = {key: ids[0] for key, ids in _lookup(store, PAPERS_AMONG, "keys", keys).items()}
    dois = [k[4:] for k in keys if k.startswith("doi:") and k not in targets]
    for key, ids in _lookup(store, DOIS_AMONG, "dois", dois).items():
        targets[key] = sorted(ids)[0]
    return targets


def cite_key_candidates(store: Store, keys: Iterable[str]) -> dict[str, list[str]]:
    """The loaded papers whose first author and year give each author-year key."""
    return _lookup(store, CITE_KEYS_AMONG, "keys", (k for k in keys if not k.endswith("-n.d.")))


def load_references(store: Store, rows: list[dict], report: CitationReport | None = None, batch_size: int = 1000,
                    new: set[str] = frozenset()) -> None:
    """Store one batch of reference rows (``kg.graph`` rows with ``in_text``); ``new``: the ids
    of citing papers created by this batch (none of their edges can exist yet)."""
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
    link_papers(store, to_papers, batch_size, new)
    keep_references(store, kept, batch_size, new)
    store.run_batches(MARK_AMBIGUOUS, [{"key": k, "candidates": v} for k, v in ambiguous.items()], batch_size)
    report.linked += len(to_papers)
    report.kept += len(kept)


def fullest(descriptions: Iterable[dict]) -> dict:
    """The fullest of what citations say of one work ({authors, title, year}, any of them missing):
    the one naming the most authors ("Ruiz and Lee (2018)" over "Ruiz (2018)", whose "et al." or
    lone name is the same work cited shorter), then one with a title, one with a year, the longer
    title; of those still tied, the alphabetically first authors and title, the earlier year. The
    same one whatever order they come in. At least one description.

    >>> fullest([{"authors": ["Ruiz"], "year": 2018}, {"authors": ["Ruiz", "Lee"], "year": 2018}])
    {'authors': ['Ruiz', 'Lee'], 'title': None, 'year': 2018}
    >>> fullest([{"authors": ["Okafor", "Chen"]}, {"authors": ["Okafor", "Abe"]}])["authors"]
    ['Okafor', 'Abe']
    """
    def rank(description: dict) -> tuple:
        authors, title, year = description.get("authors") or [], description.get("title") or "", description.get("year")
        return -len(authors), not title, year is None, -len(title), authors, title, year or 0

    best = min(descriptions, key=rank)
    return {"authors": list(best.get("authors") or []), "title": best.get("title") or None, "year": best.get("year")}


def _description(edge: dict) -> dict:
    """What a CITES edge (or its row) says of the cited work, as ``fullest`` gives it."""
    return fullest([{"authors": edge.get("cite_authors"), "title": edge.get("cite_title"), "year": edge.get("cite_year")}])


def _described(pair: dict, descriptions: list[dict]) -> dict:
    """``pair`` holding the fullest of ``descriptions`` (none: it says nothing of the work)."""
    best = fullest(descriptions) if descriptions else {"authors": None, "title": None, "year": None}
    return dict(pair, cite_authors=best["authors"] or None, cite_title=best["title"], cite_year=best["year"])


def _unique_pairs(rows: list[dict], target: str) -> list[dict]:
    """One row per (paper, target), the first with evidence winning. A link to a paper made from
    an in-text citation (``in_text``) carries its key and authors, and ``listed`` if a reference
    list names that paper too; an edge to a Reference (``target`` "key") carries what its
    citation says of the work (authors, title, year). A paper citing the same work twice says the
    fullest of the two (``fullest``), whichever comes first."""
    unique: dict[tuple[str, str], dict] = {}
    described: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        pair = (row["paper"], row[target])
        if pair not in unique or (unique[pair].get("evidence") is None and row.get("evidence") is not None):
            before = unique.get(pair, {})
            unique[pair] = {"paper": pair[0], "target": pair[1], "evidence": row.get("evidence"),
                            "start": row.get("start"), "end": row.get("end"),
                            "cite_key": before.get("cite_key"), "listed": before.get("listed")}
        described.setdefault(pair, [])
        if target == "target" and row.get("in_text"):
            unique[pair]["cite_key"] = unique[pair]["cite_key"] or row["key"]
            described[pair].append({"authors": row.get("authors")})
        elif target == "target":
            unique[pair]["listed"] = True
        else:
            described[pair].append({"authors": row.get("authors"), "title": row.get("title"), "year": row.get("year")})
    return [_described(row, described[pair]) for pair, row in unique.items()]


def _resolved(pair: dict, existing: dict) -> dict | None:
    """The update an existing edge needs to hold ``pair`` too (None: none): the evidence it
    lacked, the fuller of the two descriptions of the work; an edge without a key was made by a
    reference list, so it is ``listed`` when an in-text citation now gives it one."""
    cite_key = existing["cite_key"] or pair["cite_key"]
    listed = True if cite_key and (existing["cite_key"] is None or existing["listed"] or pair["listed"]) else None
    merged = _described(pair, [_description(existing), _description(pair)])
    if ((existing["has_evidence"] or pair["evidence"] is None) and (cite_key, listed) == (existing["cite_key"], existing["listed"])
            and _description(merged) == _description(existing)):
        return None
    return dict(merged, cite_key=cite_key, listed=listed)


def _create_edges(store: Store, pairs: list[dict], target: str, batch_size: int, new: set[str]) -> list[dict]:
    """CITES edges for ``pairs`` to ``target`` nodes: a read finds those that exist (none can from
    a ``new`` paper), the rest are created; an existing edge only gains what it lacked. A rerun
    adds nothing. Returns what each edge says of the work now ({paper, target, cite_authors,
    cite_title, cite_year})."""
    existing_query, create_query, update_query = cites_queries(target)
    older = [r for r in pairs if r["paper"] not in new]
    existing = {(r["paper"], r["target"]): r for chunk in batched(older, LOOKUP_BATCH) for r in store.run(existing_query, {"rows": chunk})}
    # only a link made from an in-text citation says that a reference list names its paper too
    created = [dict(r, listed=True if r["listed"] and r["cite_key"] else None) for r in pairs
               if (r["paper"], r["target"]) not in existing]
    store.run_batches(create_query, created, batch_size)
    updates = [(r, _resolved(r, existing[(r["paper"], r["target"])])) for r in pairs if (r["paper"], r["target"]) in existing]
    store.run_batches(update_query, [update for _, update in updates if update is not None], batch_size)
    return created + [update or existing[(r["paper"], r["target"])] for r, update in updates]


def link_papers(store: Store, rows: list[dict], batch_size: int = 1000, new: set[str] = frozenset()) -> None:
    """``(:Paper)-[:CITES]->(:Paper)`` for rows {paper, target, evidence, start, end}; those of
    in-text citations (``in_text``) carry their ``key`` and ``authors`` too."""
    _create_edges(store, _unique_pairs(rows, "target"), "Paper", batch_size, new)


def keep_references(store: Store, rows: list[dict], batch_size: int = 1000, new: set[str] = frozenset()) -> None:
    """``(:Paper)-[:CITES {cite_authors, cite_title, cite_year}]->(:Reference {key, authors, title,
    year})`` for reference rows {paper, key, authors, title, year, evidence, start, end}: a
    Reference new to the store is described by the fullest of its citations, a stored one by the
    fullest of its description and its citations now (``fullest``)."""
    pairs = _unique_pairs(rows, "key")
    stored = reference_descriptions(store, {pair["target"] for pair in pairs})
    created: dict[str, list[dict]] = {}
    for pair in pairs:
        if pair["target"] not in stored:
            created.setdefault(pair["target"], []).append(_description(pair))
    store.run_batches(CREATE_REFERENCES, [dict(fullest(found), key=key) for key, found in sorted(created.items())], batch_size)
    cited: dict[str, list[dict]] = {}
    for edge in _create_edges(store, pairs, "Reference", batch_size, new):
        if edge["target"] in stored:
            cited.setdefault(edge["target"], []).append(_description(edge))
    fuller = [dict(fullest([stored[key], *found]), key=key) for key, found in sorted(cited.items())]
    store.run_batches(DESCRIBE_REFERENCES, [row for row in fuller if _unkeyed(row) != stored[row["key"]]], batch_size)


def reference_descriptions(store: Store, keys: Iterable[str]) -> dict[str, dict]:
    """The stored References of ``keys``: key -> {authors, title, year}."""
    return {row["key"]: fullest([row]) for chunk in batched(sorted(set(keys)), LOOKUP_BATCH)
            for row in store.run(REFERENCES_DESCRIBED, {"keys": chunk})}


def describe_again(store: Store, keys: Iterable[str], batch_size: int = 1000) -> None:
    """Describe the References of ``keys`` (those that lost citations) by the fullest of the
    citations left, read through their keys; a key without a Reference is passed over."""
    for chunk in batched(sorted(set(keys)), LOOKUP_BATCH):
        found: dict[str, list[dict]] = {}
        for row in store.run(REFERENCE_CITATIONS, {"keys": chunk}):
            found.setdefault(row["key"], []).append(row)
        stored = reference_descriptions(store, found)
        rows = [dict(fullest(descriptions), key=key) for key, descriptions in sorted(found.items())]
        store.run_batches(DESCRIBE_REFERENCES, [row for row in rows if _unkeyed(row) != stored.get(row["key"])], batch_size)


def _unkeyed(row: dict) -> dict:
    return {k: v for k, v in row.items() if k != "key"}


def _relink(store: Store, pairs: list[dict], report: CitationReport) -> None:
    """Turn the Reference edges of ``pairs`` ({key, target}) into Paper links."""
    for chunk in batched(pairs, LOOKUP_BATCH):
        citers = [r for r in store.run(REFERENCE_CITERS, {"rows": chunk}) if r["paper"] != r["target"]]
        link_papers(store, citers)
        store.run_batches(DELETE_REFERENCE_CITES, citers)
        store.run(DROP_ORPHAN_REFERENCES, {"keys": [p["key"] for p in chunk]}, write=True)
        describe_again(store, {c["key"] for c in citers})  # a self-citation may be left
        report.relinked += len(citers)


def link_new_papers(store: Store, papers: list[dict], report: CitationReport | None = None) -> None:
    """Relink the References that name papers just loaded by id or DOI (author-year keys:
    ``settle_cite_keys``)."""
    report = report if report is not None else CitationReport()
    names: dict[str, str] = {}
    for paper in papers:
        names[paper["id"]] = paper["id"]
        if paper.get("doi"):
            names[f"doi:{paper['doi']}"] = paper["id"]
    waiting = stored_references(store, names.keys())
    _relink(store, [{"key": key, "target": names[key]} for key in sorted(waiting)], report)


def settle_cite_keys(store: Store, keys: Iterable[str], former: dict[str, set[str]] | None = None,
                     report: CitationReport | None = None, batch_size: int = 1000) -> None:
    """Resolve again every in-text citation of the author-year ``keys`` (those the batch's papers
    answer to, or answered to before: ``former`` maps such a key to those papers): a citation
    links the one loaded paper other than its citer that answers to its key, else it is kept as
    the key's Reference, which lists its ``candidates`` when several papers answer. Read through
    the keys' index; what is already so is left alone."""
    report = report if report is not None else CitationReport()
    former = former or {}
    for chunk in batched(sorted(set(keys)), LOOKUP_BATCH):
        candidates = cite_key_candidates(store, chunk)
        answering = [{"key": key, "id": i} for key in chunk for i in sorted(set(candidates.get(key, [])) | former.get(key, set()))]
        citations = [r for rows in batched(answering, LOOKUP_BATCH) for r in store.run(CITE_KEY_LINKS, {"rows": rows})]
        citations += store.run(CITE_KEY_REFERENCES, {"keys": chunk})
        moves = [(c, _cited(c, candidates.get(c["key"], []), report)) for c in citations]
        _move_citations([(c, target) for c, target in moves if target != c["target"]], report, batch_size, store)
        store.run_batches(MARK_AMBIGUOUS, [{"key": k, "candidates": sorted(v)} for k, v in candidates.items() if len(v) > 1],
                          batch_size)
        store.run(UNMARK_AMBIGUOUS, {"keys": [k for k in chunk if len(candidates.get(k, [])) < 2]}, write=True)


def _cited(citation: dict, candidates: list[str], report: CitationReport) -> str | None:
    """The paper an in-text citation names: the one candidate other than its citer (None: its Reference)."""
    others = sorted(set(candidates) - {citation["paper"]})
    if len(others) > 1:
        report.note_ambiguous(citation["key"], others)
    return others[0] if len(others) == 1 else None


def _move_citations(moves: list[tuple[dict, str | None]], report: CitationReport, batch_size: int, store: Store) -> None:
    """Point in-text citations ({key, paper, target, evidence, start, end, authors, listed}) at the
    paper, or the Reference (None), each move names."""
    if not moves:
        return
    from_papers = [c for c, _ in moves if c["target"] is not None]
    store.run_batches(UNLIST_PAPER_CITES, [c for c in from_papers if c["listed"]], batch_size)
    store.run_batches(DELETE_PAPER_CITES, [c for c in from_papers if not c["listed"]], batch_size)
    store.run_batches(DELETE_REFERENCE_CITES, [c for c, _ in moves if c["target"] is None], batch_size)
    link_papers(store, [dict(c, target=target, in_text=True) for c, target in moves if target is not None], batch_size)
    # the key's year: an author-year key that answers papers has one ("ruiz-2018")
    keep_references(store, [dict(c, year=int(c["key"].rsplit("-", 1)[1]), in_text=True)
                            for c, target in moves if target is None], batch_size)
    left = sorted({c["key"] for c, _ in moves if c["target"] is None})
    store.run(DROP_ORPHAN_REFERENCES, {"keys": left}, write=True)
    describe_again(store, left, batch_size)
    resolved = sum(target is not None and c["target"] is None for c, target in moves)
    unlinked = sum(target is None for c, target in moves)
    report.relinked += resolved
    report.in_text_resolved += resolved - unlinked
    report.unlinked += unlinked
