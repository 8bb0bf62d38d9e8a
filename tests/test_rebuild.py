"""The same graph every time: building a source twice, or its files and papers in the reverse
order and in other batches, gives the same graph, every node with its labels and properties and
every edge (full dumps, not counts); a rebuild's summary counts what it changed: nothing.

Each loader's own fixture is built into the session's one store (a handful of papers each), the
AAN one a copy of ten real AAN records shaped like the AAN folder (``fixtures/aan_sample``).
``fixtures/abstracts_linked.txt``, ten of the bundled abstracts (``examples/neurips2026/000_*.txt``:
its 1st, 2nd, 3rd, 5th, 6th, 10th, 14th, 15th, 16th and 17th), has the vocabulary's links: names
one abstract writes where another reads them.
"""

from __future__ import annotations

import itertools

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from helpers.dump import differences, graph_dump

import kg.build
from kg.build import load_records
from kg.cli import main
from kg.extract import extract
from kg.vector_cache import CACHE_ENV
from loaders import LoadReport, load

# each loader's fixtures
SOURCES = {
    "aan": [FIXTURES / "aan_sample"],
    "aan-made-up": [FIXTURES / "aan_folder"],
    "text": [FIXTURES / "abstracts_no_header.txt"],
    "text-linked": [FIXTURES / "abstracts_linked.txt"],
    "jsonl": [FIXTURES / "parts_mixed.jsonl"],
    "csv": [FIXTURES / "csv_semicolon_excel.csv"],
    "openalex": [FIXTURES / "openalex_works.jsonl"],
    "s2": [FIXTURES / "s2_papers.json", FIXTURES / "s2orc_metadata.jsonl", FIXTURES / "s2_references.jsonl"],
    "arxiv": [FIXTURES / "arxiv_snapshot.jsonl"],
    "bibtex": [FIXTURES / "bibtex_zotero.bib"],
    "ris": [FIXTURES / "ris_zotero.ris"],
    "csl": [FIXTURES / "csl_zotero.json"],
    "scierc": [FIXTURES / "scierc_docs.json", FIXTURES / "scierc_sample.json", FIXTURES / "scierc_brackets.json"],
}


def records_of(sources: list[str], nlp) -> list[dict]:
    """What ``kg build`` stores: the sources loaded and extracted (the session's pipeline, loaded once)."""
    return list(extract(load(sources, None, LoadReport()), nlp))


def reversed_in_each_source(records: list[dict]) -> list[dict]:
    """The records of each source in the reverse order, the sources in the order they came.

    >>> [r["id"] for r in reversed_in_each_source([{"id": 1, "source": "a"}, {"id": 2, "source": "a"}, {"id": 3, "source": "b"}])]
    [2, 1, 3]
    """
    groups = [list(group) for _, group in itertools.groupby(records, key=lambda r: r["source"])]
    return [record for group in groups for record in reversed(group)]


def build(store, sources: list[str], nlp, reverse: bool = False, batch: int | None = None):
    """One build of ``sources``; ``reverse``: the files in the reverse order, the papers of each
    file too; ``batch``: papers a batch (default: the build's). A build in another order or other
    batches encodes each text anew (no vector cache): its vectors are the encoder's in that order."""
    records = records_of(sources[::-1], nlp) if reverse else records_of(sources, nlp)
    patch = pytest.MonkeyPatch()
    if batch:
        patch.setattr(kg.build, "PAPERS_PER_BATCH", batch)
    if reverse or batch:
        patch.setenv(CACHE_ENV, "0")
    try:
        return load_records(store, reversed_in_each_source(records) if reverse else records)[1]
    finally:
        patch.undo()


@pytest.mark.parametrize("loader", SOURCES)
def test_a_rebuild_and_a_build_in_reverse_order_give_the_graph_of_one_build(loader, store, nlp):
    sources = [str(path) for path in SOURCES[loader]]
    first = build(store, sources, nlp)
    once = graph_dump(store)
    assert sum(key.startswith('["node", ["Paper"]') for key in once) >= 2  # a real graph, not an empty one
    again = build(store, sources, nlp)
    assert differences(once, graph_dump(store)) == ([], [])
    assert (again.links, again.concepts, again.relabelled) == (0, 0, 0)  # the rebuild changed nothing
    assert (again.linked, again.broader) == (first.linked, first.broader)
    store.run("MATCH (n) DETACH DELETE n", write=True)
    build(store, sources, nlp, reverse=True, batch=2)
    assert differences(once, graph_dump(store)) == ([], [])


def test_the_aan_sample_holds_what_the_aan_folder_holds(store, nlp):
    """Its graph has the shapes of AAN's: a concept read as a task and as a method (voted, typed
    again when its papers come in other batches), one named by four papers, citations between the
    papers, to papers not loaded (kept as references) and the lines that are reported skips."""
    report = LoadReport()
    papers = list(load([str(FIXTURES / "aan_sample")], None, report))
    load_records(store, list(extract(papers, nlp)))
    assert len(papers) == 10 and not any(p.abstract for p in papers)
    assert {p.id: p.authors for p in papers}["W11-2212"] == ["Stéphane Huet", "Fabrice Lefèvre"]  # HTML entities
    concepts = {r["id"]: (r["labels"], r["papers"]) for r in store.run(
        "MATCH (c:Concept) RETURN c.id AS id, labels(c) AS labels, c.papers AS papers")}
    assert sorted(concepts["unsupervised alignment"][0]) == ["Concept", "Method"]  # one Task, one Method: a tie, Method
    assert concepts["unrestricted coreference resolution"][1] == 4
    cites = store.run("MATCH (p:Paper)-[:CITES]->(q) RETURN p.id AS p, labels(q) AS q, coalesce(q.id, q.key) AS key")
    assert sorted((r["p"], r["key"]) for r in cites if r["q"] == ["Paper"]) == [
        ("J97-4002", "P92-1002"), ("J97-4002", "P97-1051"), ("P97-1051", "C92-1048")]
    assert sum(r["q"] == ["Reference"] for r in cites) == 4
    skipped = "\n".join(report.skipped)
    assert "A00-2039 cites itself" in skipped and "citing paper E95-1032 is not in the metadata" in skipped


def test_the_summary_of_a_rebuild_says_it_changed_nothing(store, store_dir):
    """`kg build` twice: the second build's vocabulary line votes no concept anew and writes no link."""
    source = str(SOURCES["text-linked"][0])
    lines = []
    for _ in range(2):
        result = CliRunner().invoke(main, ["build", source, "--db", str(store_dir)])
        assert result.exit_code == 0, result.output
        lines.append(next(line for line in result.output.splitlines() if line.startswith("Vocabulary: ")))
    linked = store.run("MATCH (:Paper)-[r:MENTIONS]->(:Concept) RETURN count(r) AS n")[0]["n"]
    assert linked > 0
    assert f"{linked} links where an abstract writes a concept's name ({linked} new or changed by this build)" in lines[0]
    assert lines[1].startswith(f"Vocabulary: 0 concepts voted anew (0 typed anew), {linked} links where an abstract "
                               "writes a concept's name (0 new or changed by this build), ")


def test_a_paper_met_in_two_sources_has_the_concepts_of_the_abstract_it_keeps(store, nlp):
    """AAN gives J92-1003 its title and year, SciERC its abstract: whichever source comes first, in
    one batch or in several, the paper keeps the AAN title and year, the SciERC abstract, source and
    record number, and the concepts read from that abstract (none from its title, whose evidence and
    offsets are no part of the text it keeps), each counting the paper's year."""
    sources = [str(FIXTURES / "aan_folder"), str(FIXTURES / "scierc_docs.json")]
    build(store, sources, nlp)
    once = graph_dump(store)
    paper = store.run("MATCH (p:Paper {id: 'J92-1003'}) RETURN p.title AS title, p.abstract AS abstract, p.year AS year, "
                      "p.source AS source")[0]
    assert paper["title"] == "A Survey of Citation Analysis" and paper["abstract"].startswith("We survey citation analysis")
    assert paper["year"] == 1992 and paper["source"] == sources[1]
    edges = store.run("MATCH (:Paper {id: 'J92-1003'})-[r]->(c:Concept) RETURN c.id AS id, r.evidence AS evidence")
    assert edges and all(paper["abstract"].find(e["evidence"]) >= 0 for e in edges)
    for reverse, batch in ((False, 1), (True, None), (True, 1)):
        store.run("MATCH (n) DETACH DELETE n", write=True)
        build(store, sources, nlp, reverse=reverse, batch=batch)
        assert differences(once, graph_dump(store)) == ([], []), (reverse, batch)


def build_in_order(store, sources: list[str], nlp, order: list[str], batch: int | None = None):
    """One build of ``sources``' papers in the order of their ids ``order``, ``batch`` papers a batch."""
    records = {record["id"]: record for record in records_of(sources, nlp)}
    patch = pytest.MonkeyPatch()
    if batch:
        patch.setattr(kg.build, "PAPERS_PER_BATCH", batch)
        patch.setenv(CACHE_ENV, "0")  # encoded anew in these batches (as ``build``)
    try:
        return load_records(store, [records[i] for i in order])[1]
    finally:
        patch.undo()


AUTHOR_YEAR_ORDERS = [  # (papers in order, papers a batch)
    (["ruiz-a", "citer", "other", "chen", "ruiz-b"], 1),  # "ruiz-2018" names one paper, then two
    (["ruiz-b", "citer", "ruiz-a", "other", "chen"], 2),
    (["citer", "other", "ruiz-b", "chen", "ruiz-a"], 1),
    (["chen", "ruiz-b", "other", "citer", "ruiz-a"], 3),
]


@pytest.mark.parametrize("order, batch", AUTHOR_YEAR_ORDERS)
def test_an_author_year_citation_links_the_same_papers_whatever_the_order(order, batch, store, nlp):
    """"Ruiz (2018)" names two loaded papers (ruiz-a, ruiz-b): from "citer" and "other" it stays a
    Reference listing both, from ruiz-b (one of them) it names the other; "Chen and Park (2019)"
    names one. Built in one batch, or in other orders and batches where the key named one paper
    before the second came (its links made then are undone), the graphs are the same."""
    sources = [str(FIXTURES / "author_year.jsonl")]
    build_in_order(store, sources, nlp, sorted(order))
    once = graph_dump(store)
    cites = store.run("MATCH (p:Paper)-[c:CITES]->(q) RETURN p.id AS p, coalesce(q.id, q.key) AS q, labels(q) AS labels, "
                      "q.candidates AS candidates, c.evidence AS evidence")
    assert sorted((r["p"], r["q"], r["labels"], r["candidates"], r["evidence"]) for r in cites) == [
        ("citer", "chen", ["Paper"], None, "Chen and Park (2019)"),
        ("citer", "ruiz-2018", ["Reference"], ["ruiz-a", "ruiz-b"], "Ruiz (2018)"),
        ("citer", "ruiz-a", ["Paper"], None, None),  # its reference list names ruiz-a
        ("other", "ruiz-2018", ["Reference"], ["ruiz-a", "ruiz-b"], "Ruiz (2018)"),
        ("ruiz-b", "ruiz-a", ["Paper"], None, "Ruiz (2018)"),
    ]
    store.run("MATCH (n) DETACH DELETE n", write=True)
    build_in_order(store, sources, nlp, order, batch)
    assert differences(once, graph_dump(store)) == ([], [])


def test_a_reference_list_met_in_a_later_batch_keeps_its_link_when_the_key_becomes_ambiguous(store, nlp):
    """citer's abstract (its in-text "Ruiz (2018)") and its reference list (ruiz-a) come in two
    records of the same paper, in batches of their own: the link the text made, which the list
    makes too, stays a plain reference-list link once ruiz-b answers to "ruiz-2018" as well."""
    records = {record["id"]: record for record in records_of([str(FIXTURES / "author_year.jsonl")], nlp)}
    text = dict(records["citer"], references=[])
    listed = dict(records["citer"], citations=[])
    papers = [records["ruiz-a"], text, records["other"], records["chen"], listed, records["ruiz-b"]]
    load_records(store, papers)
    once = graph_dump(store)
    store.run("MATCH (n) DETACH DELETE n", write=True)
    patch = pytest.MonkeyPatch()
    patch.setattr(kg.build, "PAPERS_PER_BATCH", 1)
    try:
        load_records(store, papers)
    finally:
        patch.undo()
    assert differences(once, graph_dump(store)) == ([], [])


REFERENCE_ORDERS = [  # (papers in order, papers a batch)
    (["tonal", "bantu", "igbo", "gloss", "vogel", "lee"], 1),
    (["lee", "vogel", "gloss", "igbo", "bantu", "tonal"], 1),
    (["bantu", "gloss", "lee", "tonal", "vogel", "igbo"], 2),
    (["igbo", "vogel", "tonal", "lee", "bantu", "gloss"], 4),
]


@pytest.mark.parametrize("order, batch", REFERENCE_ORDERS)
def test_a_reference_is_described_by_its_fullest_citation_whatever_the_order(order, batch, store, nlp):
    """A Reference's authors, title and year are its fullest citation's (most authors, then a title,
    a year, a longer title; then the alphabetically first), whichever paper cited it first, and a
    link resolved from an in-text citation keeps that citation's own authors: "Ruiz and Lee
    (2018)" beats "Ruiz (2018)", "Okafor and Abe (2015)" ties with "Okafor and Chen (2015)" and
    comes first; lee's own "(Lee, 2017)" is all that is left of lee-2017 once gloss's "Lee, Park
    and Ho (2017)" links the paper; W900 is described by two reference lists."""
    sources = [str(FIXTURES / "reference_authors.jsonl")]
    build_in_order(store, sources, nlp, sorted(order))
    once = graph_dump(store)
    references = store.run("MATCH (r:Reference) RETURN r.key AS key, r.authors AS authors, r.title AS title, r.year AS year")
    assert sorted((r["key"], r["authors"], r["title"], r["year"]) for r in references) == [
        ("W900", ["R. Diaz", "S. Moyo"], "Tonal morphology of Bantu languages", 2011),
        ("lee-2017", ["Lee"], None, 2017),
        ("okafor-2015", ["Okafor", "Abe"], None, 2015),
        ("ruiz-2018", ["Ruiz", "Lee"], None, 2018),
    ]
    links = store.run("MATCH (p:Paper)-[c:CITES]->(q:Paper) RETURN p.id AS p, q.id AS q, c.cite_authors AS authors")
    assert sorted((r["p"], r["q"], r["authors"]) for r in links) == [
        ("gloss", "lee", ["Lee", "Park", "Ho"]), ("gloss", "vogel", ["Vogel"]), ("igbo", "vogel", ["Vogel", "Kim"])]
    store.run("MATCH (n) DETACH DELETE n", write=True)
    build_in_order(store, sources, nlp, order, batch)
    assert differences(once, graph_dump(store)) == ([], [])


def test_an_export_of_the_same_graph_is_the_same_bytes(store, nlp, tmp_path):
    """The JSON and GraphML exports of a build and of a build in the reverse order, in other
    batches, are byte for byte the same (the store returns rows in the order they were written)."""
    from kg.export import store_graph, write_graphml, write_json

    sources = [str(path) for path in SOURCES["text-linked"]]
    written = []
    for reverse in (False, True):
        store.run("MATCH (n) DETACH DELETE n", write=True)
        build(store, sources, nlp, reverse=reverse, batch=2 if reverse else None)
        graph = store_graph(store)
        json_path, graphml_path = tmp_path / f"{reverse}.json", tmp_path / f"{reverse}.graphml"
        write_json(graph, json_path)
        write_graphml(graph, graphml_path)
        written.append((json_path.read_bytes(), graphml_path.read_bytes()))
    assert written[0] == written[1]
    assert written[0][0].count(b'"source": "Paper:') > 20  # a graph of papers and their edges, not an empty one
