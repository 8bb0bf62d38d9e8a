"""Citations in the store: Paper->Paper links, kept References, later loads that
relink them, in-text author-year resolution with ambiguity, and idempotence."""

import json

from conftest import FIXTURES

from kg.build import build
from kg.store.load import CitationReport
from kg.store.reads.graph import stats

OPENALEX = FIXTURES / "openalex_works.jsonl"
LUMINESCENCE, ELECTRONICS = "openalex:W2971897339", "openalex:W2921389616"  # the first cites the second


def cites(store):
    return store.run("MATCH (p:Paper)-[:CITES]->(x) RETURN p.id AS paper, labels(x)[0] AS label, "
                     "coalesce(x.id, x.key) AS target ORDER BY paper, target")


def counts(store):
    found = stats(store)
    return found["nodes"].get("Paper", 0), found["nodes"].get("Reference", 0), found["relationships"].get("CITES", 0)


def openalex_lines():
    return OPENALEX.read_text(encoding="utf-8").splitlines()


def test_aan_with_scierc_abstracts_in_either_order(store, tmp_path):
    for order in ([FIXTURES / "aan_folder", FIXTURES / "scierc_docs.json"], [FIXTURES / "scierc_docs.json", FIXTURES / "aan_folder"]):
        store.run("MATCH (n) DETACH DELETE n", write=True)
        report = build([str(p) for p in order], store)
        assert report.papers == 5  # 3 AAN + 2 SciERC records, one of them an AAN paper again
        assert cites(store) == [
            {"paper": "J92-1003", "label": "Paper", "target": "P90-1001"},
            {"paper": "J92-1003", "label": "Paper", "target": "P91-1002"},
            {"paper": "J92-1003", "label": "Reference", "target": "X99-9999"},
            {"paper": "P91-1002", "label": "Paper", "target": "P90-1001"},
        ]
        survey = store.run("MATCH (p:Paper {id: 'J92-1003'}) RETURN p.title AS title, p.title_derived AS derived, "
                           "p.abstract AS abstract, p.year AS year")
        # the AAN title and year survive, the SciERC abstract joins them
        assert survey == [{"title": "A Survey of Citation Analysis", "derived": False, "year": 1992,
                           "abstract": "We survey citation analysis (Okafor and Lind, 1990). We use co-citation counts to map research areas."}]
        # the in-text "(Okafor and Lind, 1990)" is the same link as the AAN edge, with its evidence
        edge = store.run("MATCH (:Paper {id: 'J92-1003'})-[c:CITES]->(:Paper {id: 'P90-1001'}) RETURN c.evidence AS e")
        assert edge == [{"e": "Okafor and Lind, 1990"}]
        assert counts(store) == (4, 1, 4)
    build([str(FIXTURES / "aan_folder"), str(FIXTURES / "scierc_docs.json")], store)
    assert counts(store) == (4, 1, 4)  # a rerun changes no counts


def test_a_reference_becomes_a_link_when_its_paper_is_loaded_later(store, tmp_path):
    lines = openalex_lines()
    later = [line for line in lines if ELECTRONICS.split(":")[1] in json.loads(line)["id"]]
    first = [line for line in lines if line not in later]
    (tmp_path / "first.jsonl").write_text("\n".join(first) + "\n", encoding="utf-8")
    (tmp_path / "later.jsonl").write_text("\n".join(later) + "\n", encoding="utf-8")
    all_references = sum(len(json.loads(line)["referenced_works"]) for line in lines)

    build([str(tmp_path / "first.jsonl")], store)
    target = store.run("MATCH (:Paper {id: $p})-[:CITES]->(x {key: $k}) RETURN labels(x) AS labels", {"p": LUMINESCENCE, "k": ELECTRONICS})
    assert target == [{"labels": ["Reference"]}]
    papers, references, edges = counts(store)
    assert papers == 4

    report = build([str(tmp_path / "later.jsonl")], store)
    assert report.citations.relinked >= 1
    linked = store.run("MATCH (:Paper {id: $p})-[:CITES]->(x:Paper {id: $q}) RETURN count(*) AS n", {"p": LUMINESCENCE, "q": ELECTRONICS})
    assert linked == [{"n": 1}]
    assert store.run("MATCH (r:Reference {key: $k}) RETURN r", {"k": ELECTRONICS}) == []
    # every reference of every work is kept: as a link or as a Reference, never twice
    assert counts(store)[2] == all_references
    assert counts(store)[0] == 5
    before = counts(store)
    build([str(OPENALEX)], store)  # the whole file again, as a second source would
    assert counts(store) == before


def test_in_text_citations_resolve_by_first_author_and_year(store, tmp_path):
    notes = [
        {"id": "note-1", "title": "Perovskite notes", "abstract": "Following (Ma et al., 2020), we revisit halides (Roccanova et al., 2019)."},
        {"id": "note-2", "title": "More notes", "abstract": "See Nobody and Else (2001) for details.", "references": ["doi:10.1021/acsaelm.9b00015"]},
    ]
    (tmp_path / "notes.jsonl").write_text("\n".join(json.dumps(n) for n in notes) + "\n", encoding="utf-8")
    build([str(OPENALEX)], store)
    report = build([str(tmp_path / "notes.jsonl")], store)
    rows = {(r["paper"], r["target"]): r["label"] for r in cites(store) if r["paper"].startswith("note")}
    assert rows[("note-1", "openalex:W3007098444")] == "Paper"  # Ruijie Ma, 2020: one paper
    assert rows[("note-1", "roccanova-2019")] == "Reference"   # Roccanova 2019: two papers
    assert rows[("note-2", "nobody-2001")] == "Reference"      # nobody loaded
    assert rows[("note-2", ELECTRONICS)] == "Paper"            # a DOI names the OpenAlex work
    assert report.citations.in_text_resolved == 1
    assert report.citations.ambiguous == {"roccanova-2019": sorted([LUMINESCENCE, ELECTRONICS])}
    assert "Ambiguous in-text citations (kept as references): 1 author-year key" in report.citations.lines()
    rebuilt = build([str(OPENALEX), str(tmp_path / "notes.jsonl")], store)  # meets the key twice: counted once
    assert rebuilt.citations.lines()[1:] == report.citations.lines()[1:]
    candidates = store.run("MATCH (r:Reference {key: 'roccanova-2019'}) RETURN r.candidates AS c")
    assert candidates == [{"c": sorted([LUMINESCENCE, ELECTRONICS])}]


def test_in_text_citation_waits_for_its_paper(store, tmp_path):
    (tmp_path / "a.jsonl").write_text(json.dumps(
        {"id": "citing", "title": "Citing", "abstract": "We extend the parser of Okafor and Lind (1990)."}) + "\n", encoding="utf-8")
    build([str(tmp_path / "a.jsonl")], store)
    assert [r["label"] for r in cites(store)] == ["Reference"]
    report = build([str(FIXTURES / "aan_folder" / "acl-metadata.txt")], store)
    assert report.citations.in_text_resolved == 1
    assert {"paper": "citing", "label": "Paper", "target": "P90-1001"} in cites(store)
    assert store.run("MATCH (r:Reference {key: 'okafor-1990'}) RETURN r") == []


def test_no_paper_cites_itself(store, tmp_path):
    (tmp_path / "self.jsonl").write_text(json.dumps(
        {"id": "solo", "title": "Solo", "abstract": "As we showed before (Solo, 2020).", "authors": ["Han Solo"], "year": 2020,
         "references": ["solo", "other"]}) + "\n", encoding="utf-8")
    report = build([str(tmp_path / "self.jsonl")], store)
    assert store.run("MATCH (p:Paper)-[:CITES]->(p) RETURN count(*) AS n") == [{"n": 0}]
    assert any("solo cites itself" in s for s in report.load.skipped)
    assert sorted(r["target"] for r in cites(store)) == ["other", "solo-2020"]


def test_kg_build_reports_links_and_ambiguous_citations(store, store_dir, tmp_path):
    from click.testing import CliRunner

    from kg.cli import main

    (tmp_path / "note.jsonl").write_text(json.dumps(
        {"id": "note", "title": "Note", "abstract": "Halides were studied before (Roccanova et al., 2019)."}) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(OPENALEX), str(tmp_path / "note.jsonl"), "--db", str(store_dir)])
    assert result.exit_code == 0, result.output
    # the fixture's two citations between its works; the note's citation matches two works
    assert "Citations: 2 linked to loaded papers (0 from in-text author-year citations)" in result.output
    assert "Ambiguous in-text citations (kept as references): 1 author-year key" in result.output
    assert f"roccanova-2019: {ELECTRONICS}, {LUMINESCENCE}" in result.output


def test_the_report_names_a_few_papers_of_a_key_that_names_hundreds():
    report = CitationReport()
    report.note_ambiguous("garcia-2012", [f"syn:{i}" for i in range(300)])
    line = report.lines()[-1]
    assert line.startswith("  garcia-2012: syn:0, syn:1, ") and line.endswith(" and 292 more")
    assert len(line) < 120
