"""The graph schema in Cypher: constraints, and the batched loads of ``kg.graph`` rows.

Labels and relationship types are pasted into queries only from the whitelists
of ``kg.graph``; every value travels as a parameter.
"""

from __future__ import annotations

from kg.graph import CONCEPT_LABELS, MENTION_TYPES, GraphRows
from kg.store import Store

CONSTRAINTS = (
    ("paper_id", "Paper", "id"),
    ("concept_id", "Concept", "id"),
    ("reference_key", "Reference", "key"),
    ("author_name", "Author", "name"),
    ("venue_name", "Venue", "name"),
    ("alias_key", "Alias", "key"),
)

# A paper met again (a second source, e.g. SciERC abstracts for AAN titles) keeps what it
# had where the new record is empty, and keeps a real title over a derived one.
MERGE_PAPERS = """
UNWIND $rows AS row
MERGE (p:Paper {id: row.id})
WITH p, row, (row.title_derived AND p.title IS NOT NULL AND NOT coalesce(p.title_derived, true)) AS keep_title
SET p.title = CASE WHEN keep_title THEN p.title ELSE row.title END,
    p.title_derived = CASE WHEN keep_title THEN false ELSE row.title_derived END,
    p.abstract = CASE WHEN coalesce(row.abstract, '') = '' THEN coalesce(p.abstract, '') ELSE row.abstract END,
    p.year = coalesce(row.year, p.year), p.venue = coalesce(row.venue, p.venue), p.doi = coalesce(row.doi, p.doi),
    p.cite_key = coalesce(row.cite_key, p.cite_key), p.source = row.source, p.position = row.position
"""
MERGE_CONCEPTS = """
UNWIND $rows AS row
MERGE (c:Concept:{label} {{id: row.id}})
ON CREATE SET c.name = row.name, c.type = row.type, c.aliases = []
SET c.aliases = reduce(acc = coalesce(c.aliases, []), a IN row.aliases | CASE WHEN a IN acc OR a = c.name THEN acc ELSE acc + a END)
"""
# The alias table: (:Alias {key})-[:ALIAS_OF {reason, spelling, paper}]->(:Concept), one entry per
# concept id that a spelling stands for but that is not the concept's own id.
FIND_CONCEPT_IDS = "UNWIND $keys AS key MATCH (c:Concept {id: key}) RETURN c.id AS key, c.id AS id"
FIND_ALIASES = "UNWIND $keys AS key MATCH (a:Alias {key: key})-[:ALIAS_OF]->(c:Concept) RETURN a.key AS key, c.id AS id"
MERGE_ALIASES = """
UNWIND $rows AS row
MATCH (c:Concept {id: row.concept})
MERGE (a:Alias {key: row.key})
ON CREATE SET a.spelling = row.spelling
MERGE (a)-[r:ALIAS_OF]->(c)
ON CREATE SET r.reason = row.reason, r.spelling = row.spelling, r.paper = row.paper
"""
# Two concepts already stored that a new alias shows to be one: the edges, aliases and alias
# entries of the absorbed node move to the kept one, then the absorbed node goes.
MOVE_MENTIONS = """
MATCH (p:Paper)-[r:{rel}]->(old:Concept {{id: $old}})
MATCH (new:Concept {{id: $new}})
MERGE (p)-[s:{rel}]->(new)
ON CREATE SET s.evidence = r.evidence, s.start = r.start, s.end = r.end, s.confidence = r.confidence,
    s.extractor = r.extractor, s.mentions = r.mentions
"""
MOVE_ALIAS_ENTRIES = """
MATCH (a:Alias)-[r:ALIAS_OF]->(old:Concept {id: $old})
MATCH (new:Concept {id: $new})
MERGE (a)-[s:ALIAS_OF]->(new)
ON CREATE SET s.reason = r.reason, s.spelling = r.spelling, s.paper = r.paper
"""
ABSORB_CONCEPT = """
MATCH (old:Concept {id: $old})
MATCH (new:Concept {id: $new})
SET new.aliases = reduce(acc = coalesce(new.aliases, []), a IN coalesce(old.aliases, []) + [old.name] |
    CASE WHEN a IN acc OR a = new.name THEN acc ELSE acc + a END)
DETACH DELETE old
"""
MERGE_MENTIONS = """
UNWIND $rows AS row
MATCH (p:Paper {{id: row.paper}})
MATCH (c:Concept {{id: row.concept}})
MERGE (p)-[r:{rel}]->(c)
SET r.evidence = row.evidence, r.start = row.start, r.end = row.end, r.confidence = row.confidence,
    r.extractor = row.extractor, r.mentions = row.mentions
"""
# A paper extracted again from its abstract (a rerun with a newer extractor) gets its concept
# edges anew: the old ones go first, and concepts no paper names any more go after the load,
# with the alias entries that pointed only to them. Every Paper->Concept edge is a mention.
DROP_MENTIONS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})-[r]->(c:Concept)
DELETE r
RETURN DISTINCT c.id AS id
"""
DROP_UNNAMED_CONCEPTS = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
OPTIONAL MATCH (c)<-[r]-(:Paper)
WITH c, count(r) AS papers
WHERE papers = 0
OPTIONAL MATCH (c)<-[:ALIAS_OF]-(a:Alias)
WITH c, collect(a.key) AS aliases
DETACH DELETE c
RETURN aliases
"""
DROP_UNUSED_ALIASES = """
UNWIND $keys AS key
MATCH (a:Alias {key: key})
OPTIONAL MATCH (a)-[s:ALIAS_OF]->()
WITH a, count(s) AS targets
WHERE targets = 0
DELETE a
"""
MERGE_VENUES = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
MERGE (v:Venue {name: row.name})
MERGE (p)-[:PUBLISHED_IN]->(v)
"""
MERGE_AUTHORS = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
MERGE (a:Author {name: row.name})
MERGE (a)-[:WROTE]->(p)
"""
# Citations (see kg.citations.link): a reference to a loaded paper is a Paper->Paper link,
# any other is kept as a Reference until the paper it names is loaded. Patterns start at
# the node found by its key: ArcadeDB plans from the left (30x slower from (:Paper)).
REFERENCES_AMONG = "UNWIND $keys AS key MATCH (r:Reference {key: key}) RETURN r.key AS key"
# References are created after a read that finds the existing ones (see CITES_TARGETS).
CREATE_REFERENCES = """
UNWIND $rows AS row
CREATE (:Reference {key: row.key, authors: row.authors, year: row.year})
"""
# CITES edges are made with CREATE after a read that finds the existing ones (one writer
# per store): ArcadeDB runs this several times faster than MERGE, and (26.x) fails a MERGE
# of edges between papers that are both cited and citing in one UNWIND ("modified by a
# concurrent transaction") when Paper.id is constrained.
CITES_TARGETS = {"Paper": "(q:Paper {id: row.target})", "Reference": "(q:Reference {key: row.target})"}


def cites_queries(target: str) -> tuple[str, str, str]:
    """The (find existing, create, add missing evidence) queries of CITES edges from
    ``(p:Paper {id: row.paper})`` to a ``target`` node ("Paper" or "Reference") keyed by row.target."""
    node = CITES_TARGETS[target]
    existing = f"UNWIND $rows AS row MATCH (p:Paper {{id: row.paper}})-[:CITES]->{node} RETURN p.id AS paper, row.target AS target"
    create = (f"UNWIND $rows AS row MATCH (p:Paper {{id: row.paper}}) MATCH {node} "
              "CREATE (p)-[:CITES {evidence: row.evidence, start: row.start, end: row.end}]->(q)")
    add_evidence = (f"UNWIND $rows AS row MATCH (p:Paper {{id: row.paper}})-[c:CITES]->{node} "
                    "SET c.evidence = coalesce(c.evidence, row.evidence), c.start = coalesce(c.start, row.start), "
                    "c.end = coalesce(c.end, row.end)")
    return existing, create, add_evidence


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
INDEXES = (("paper_cite_key", "Paper", "cite_key"), ("paper_doi", "Paper", "doi"))


def fold_papers(rows: list[dict]) -> list[dict]:
    """One row per paper id: MERGE_PAPERS' rule applied to the rows of one batch
    (a store may evaluate all rows of an UNWIND before it sets any).

    >>> [r["title"] for r in fold_papers([{"id": "a", "title": "Real", "title_derived": False, "abstract": ""},
    ...                                    {"id": "a", "title": "Derived", "title_derived": True, "abstract": "Text."}])]
    ['Real']
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
        folded[row["id"]] = new
    return list(folded.values())


def create_constraints(store: Store) -> None:
    """Uniqueness constraints on every key; run before any load (idempotent)."""
    for name, label, prop in CONSTRAINTS:
        store.run(f"CREATE CONSTRAINT {name} IF NOT EXISTS FOR (n:{label}) REQUIRE n.{prop} IS UNIQUE", write=True)
    for name, label, prop in INDEXES:
        store.run(f"CREATE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.{prop})", write=True)


def load_rows(store: Store, rows: GraphRows, batch_size: int = 1000, citations=None) -> None:
    """MERGE one batch of rows: nodes first, then the edges between them.

    ``citations`` (a ``kg.citations.CitationReport``) collects how references were linked.
    """
    from kg.citations.link import link_new_papers, load_references

    papers = fold_papers(rows.papers)
    store.run_batches(MERGE_PAPERS, papers, batch_size)
    link_new_papers(store, papers, citations)
    aliases = resolve_aliases(store, rows)
    for label in CONCEPT_LABELS:
        if rows.concepts[label]:
            store.run_batches(MERGE_CONCEPTS.format(label=_checked(label, CONCEPT_LABELS)), rows.concepts[label], batch_size)
    store.run_batches(MERGE_ALIASES, aliases, batch_size)
    unnamed = drop_mentions(store, [p["id"] for p in papers if p["abstract"]])
    for rel in MENTION_TYPES:
        if rows.mentions[rel]:
            store.run_batches(MERGE_MENTIONS.format(rel=_checked(rel, MENTION_TYPES)), rows.mentions[rel], batch_size)
    drop_unnamed_concepts(store, unnamed)
    store.run_batches(MERGE_VENUES, rows.venues, batch_size)
    store.run_batches(MERGE_AUTHORS, rows.authors, batch_size)
    load_references(store, rows.references, citations, batch_size)


def drop_mentions(store: Store, paper_ids: list[str]) -> set[str]:
    """Delete the concept edges of these papers; return the ids of the concepts they named."""
    if not paper_ids:
        return set()
    return {row["id"] for row in store.run(DROP_MENTIONS, {"ids": paper_ids}, write=True)}


def drop_unnamed_concepts(store: Store, concept_ids: set[str]) -> None:
    """Delete those of these concepts that no paper names, and alias entries left pointing nowhere."""
    if not concept_ids:
        return
    aliases = {key for row in store.run(DROP_UNNAMED_CONCEPTS, {"ids": sorted(concept_ids)}, write=True)
               for key in row["aliases"]}
    if aliases:
        store.run(DROP_UNUSED_ALIASES, {"keys": sorted(aliases)}, write=True)


def resolve_aliases(store: Store, rows: GraphRows) -> list[dict]:
    """Send every concept row of the batch to one node per concept: spellings that stand for the
    same concept id (in this batch or in the store's alias table) are joined, an id already in
    the store winning, else a long form over an acronym. Rewrites the rows in place and returns
    the alias rows to MERGE after the concepts: two papers writing "LoRA" and "Low-Rank
    Adaptation" (the acronym defined in either, or known to the project) meet on one node."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        parent[find(a)] = find(b)

    concept_rows = [row for label in CONCEPT_LABELS for row in rows.concepts[label]]
    for row in concept_rows:
        find(row["id"])
        for alias in row.get("alias_keys") or []:
            union(alias["key"], row["id"])
    if not parent:
        return []
    stored: dict[str, str] = {}
    for query in (FIND_CONCEPT_IDS, FIND_ALIASES):  # an alias entry outranks a node of the same id
        for found in store.run(query, {"keys": sorted(parent)}):
            stored[found["key"]] = found["id"]
    for key, target in stored.items():
        union(key, target)
    groups: dict[str, list[str]] = {}
    for key in list(parent):
        groups.setdefault(find(key), []).append(key)
    row_ids = {row["id"] for row in concept_rows}
    in_store = set(stored.values())
    chosen: dict[str, str] = {}
    for members in groups.values():
        candidates = sorted(in_store.intersection(members)) or sorted(row_ids.intersection(members)) or sorted(members)
        # a long form (several words) before an acronym, then the shortest id, for stable choices
        best = min(candidates, key=lambda m: (" " not in m.split(":", 1)[-1], len(m), m))
        for member in members:
            chosen[member] = best
    alias_rows: dict[str, dict] = {}
    for row in concept_rows:
        for alias in row.get("alias_keys") or []:
            if chosen[alias["key"]] != alias["key"] and alias["key"] not in alias_rows:
                alias_rows[alias["key"]] = {**alias, "concept": chosen[alias["key"]]}
    for old in sorted(in_store):
        if chosen.get(old, old) != old:  # a stored node that this batch shows to be another one
            merge_concept_nodes(store, old, chosen[old])
    names = {row["id"]: row["name"] for row in concept_rows}  # a new node takes its own spelling's name
    for row in concept_rows:
        target = chosen[row["id"]]
        if target != row["id"]:
            # this spelling's own id now points at the concept it joined, for the reason that joined them
            reason = next((a["reason"] for a in row.get("alias_keys") or []), "same_concept")
            alias_rows.setdefault(row["id"], {"key": row["id"], "spelling": row["name"], "reason": reason,
                                              "paper": None, "concept": target})
            row["aliases"] = [*row["aliases"], row["name"]]
            row["id"], row["name"] = target, names.get(target, row["name"])
    for mention_rows in rows.mentions.values():
        for mention in mention_rows:
            mention["concept"] = chosen.get(mention["concept"], mention["concept"])
    return list(alias_rows.values())


def merge_concept_nodes(store: Store, old: str, new: str) -> None:
    """Fold the stored concept ``old`` into ``new``: its paper edges, aliases and alias entries."""
    for rel in MENTION_TYPES:
        store.run(MOVE_MENTIONS.format(rel=_checked(rel, MENTION_TYPES)), {"old": old, "new": new}, write=True)
    store.run(MOVE_ALIAS_ENTRIES, {"old": old, "new": new}, write=True)
    store.run(ABSORB_CONCEPT, {"old": old, "new": new}, write=True)


def stats(store: Store) -> dict:
    """Counts of nodes by label and relationships by type."""
    nodes = store.run("MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS count")
    rels = store.run("MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS count")
    return {
        "nodes": {row["label"]: row["count"] for row in sorted(nodes, key=lambda r: r["label"])},
        "relationships": {row["type"]: row["count"] for row in sorted(rels, key=lambda r: r["type"])},
    }


def _checked(name: str, allowed: tuple[str, ...]) -> str:
    if name not in allowed:
        raise ValueError(f"{name!r} is not one of {allowed}")
    return name
