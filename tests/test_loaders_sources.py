"""The bibliographic readers on small fixtures: OpenAlex, Semantic Scholar/S2ORC,
arXiv, BibTeX, RIS, CSL-JSON, the ACL Anthology Network and SciERC."""

import gzip
import json
import shutil

import pytest
from conftest import FIXTURES

from loaders import FORMATS, LoadReport, NoPapers, load, sniff
from loaders.openalex import rebuild_abstract


def papers_of(*names, fmt=None):
    report = LoadReport()
    papers = list(load([str(FIXTURES / n) for n in names], fmt, report))
    return {p.id: p for p in papers}, report


def test_openalex_ids_abstracts_and_references():
    papers, report = papers_of("openalex_works.jsonl")
    assert report.skipped == [] and len(papers) == 5
    lum = papers["openalex:W2971897339"]
    assert lum.title.startswith("Bright Luminescence from Nontoxic CsCu2X3")
    assert lum.abstract.startswith("Inexpensive and highly efficient luminescent materials")  # rebuilt, in word order
    assert lum.doi == "10.1021/acsmaterialslett.9b00274" and lum.year == 2019
    assert lum.authors[0] == "Rachel Roccanova"
    assert len(lum.references) == 41 and all(r.startswith("openalex:W") for r in lum.references)
    assert "openalex:W2921389616" in lum.references  # another work of the fixture
    assert papers["openalex:W3195181257"].abstract == ""  # no inverted index: title only


def test_openalex_abstract_is_rebuilt_in_position_order():
    raw = json.loads((FIXTURES / "openalex_works.jsonl").read_text(encoding="utf-8").splitlines()[0])
    index = raw["abstract_inverted_index"]
    words = rebuild_abstract(index).split()
    assert len(words) == sum(len(p) for p in index.values())
    for word, positions in index.items():
        assert all(words[p] == word for p in positions)
    assert rebuild_abstract(None) == ""


def test_openalex_gz_api_page_and_array_shapes(tmp_path):
    lines = (FIXTURES / "openalex_works.jsonl").read_text(encoding="utf-8").splitlines()
    works = [json.loads(line) for line in lines]
    with gzip.open(tmp_path / "works.jsonl.gz", "wt", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    (tmp_path / "page.json").write_text(json.dumps({"meta": {"count": 5}, "results": works}), encoding="utf-8")
    (tmp_path / "array.json").write_text(json.dumps(works, indent=1), encoding="utf-8")
    expected = [f"openalex:{w['id'].rsplit('/', 1)[1]}" for w in works]
    for name in ("works.jsonl.gz", "page.json", "array.json"):
        assert [p.id for p in load([str(tmp_path / name)])] == expected, name


def test_semantic_scholar_and_s2orc_records():
    papers, report = papers_of("s2_papers.json", "s2orc_metadata.jsonl")
    cite = papers["s2:a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"]
    # the repeated reference is kept once; one known only by title keeps a title key
    assert cite.references == ["s2:ffeeddccbbaa99887766554433221100ffeeddcc", "title:an unindexed workshop paper"]
    assert cite.doi == "10.9999/graph.2021.1" and cite.authors == ["Mira Okafor", "Tomas Lind"]
    claims = papers["s2corpus:900001"]
    assert claims.references == ["s2corpus:900002", "s2corpus:900404"] and claims.authors == ["Lena K. Hoffmann"]
    assert claims.venue == "Findings" and claims.doi == "10.9999/s2orc.1"
    assert set(papers) == {"s2:a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", "s2:ffeeddccbbaa99887766554433221100ffeeddcc",
                           "s2corpus:900001", "s2corpus:900002"}
    assert report.skipped == [f"{FIXTURES / 's2_papers.json'}: record 3: no paperId, paper_id or corpusid",
                              f"{FIXTURES / 's2orc_metadata.jsonl'}: line 3: record has neither title nor abstract"]


def test_arxiv_snapshot():
    papers, report = papers_of("arxiv_snapshot.jsonl")
    lora = papers["arxiv:2101.00001"]
    assert lora.title == "Low-Rank Adapters for Citation Intent Classification"
    assert lora.abstract.startswith("We propose LoRA-Cite") and lora.year == 2021
    assert lora.authors == ["Ada Vance", "Bo Quist"] and lora.venue == "arXiv"
    assert papers["arxiv:hep-th/9901001"].doi == "10.9999/plb.1999.1"
    assert report.skipped == [f"{FIXTURES / 'arxiv_snapshot.jsonl'}: line 3: no arXiv id"]


def test_bibtex_with_abstracts_latex_and_broken_entries():
    papers, report = papers_of("bibtex_zotero.bib")
    gat = papers["doi:10.9999/graph.2021.1"]
    assert gat.title == "Graph Attention for Citation Recommendation"
    assert gat.venue == "Proceedings of the Annual Meeting of the ACL"  # @string macro resolved
    assert "(Ruiz, 2018)" in gat.abstract and gat.line == 4
    counts = papers["bib:mueller2019"]
    assert counts.authors == ["Jörg Müller", "Hal Daumé III"] and counts.year == 2019
    assert papers["arxiv:2101.00001"].year == 2021
    assert [s.split(": ", 1)[1] for s in report.skipped] == [
        "line 29: @article entry could not be parsed", "line 32: entry notitle: record has neither title nor abstract"]


def test_ris_records_continuations_and_unfinished_records():
    papers, report = papers_of("ris_zotero.ris")
    counts = papers["ris:mueller2019"]
    assert counts.abstract == "We count citations across twenty years of the ACL Anthology."
    assert counts.authors == ["Jörg Müller", "Hal Daumé III"] and counts.year == 2019
    assert counts.venue == "Computational Linguistics"
    assert papers["doi:10.9999/s2orc.1"].venue == "Findings"
    assert [s.split(": ", 1)[1] for s in report.skipped] == [
        "line 21: record has neither title nor abstract", "line 24: record has no ER line at the end of the file"]


def test_csl_json_items():
    papers, report = papers_of("csl_zotero.json")
    gat = papers["doi:10.9999/graph.2021.1"]
    assert gat.year == 2021 and gat.venue == "Proceedings of ACL" and gat.authors == ["Mira Okafor", "Tomas Lind"]
    assert papers["csl:ITEM0002"].authors == ["Ana Ruiz", "The CN Consortium"] and papers["csl:ITEM0002"].year == 2018
    assert report.skipped == [f"{FIXTURES / 'csl_zotero.json'}: record 3: item has neither DOI nor id"]


def test_the_same_doi_gives_the_same_id_across_zotero_exports():
    bib, _ = papers_of("bibtex_zotero.bib")
    csl, _ = papers_of("csl_zotero.json")
    assert "doi:10.9999/graph.2021.1" in bib and "doi:10.9999/graph.2021.1" in csl


def test_aan_folder_reads_metadata_with_its_citation_list():
    papers, report = papers_of("aan_folder")
    assert set(papers) == {"P90-1001", "P91-1002", "J92-1003"}
    assert papers["P91-1002"].title == "\u201cQuoted\u201d Titles from Old Encodings"  # Windows-1252 bytes repaired
    assert papers["P91-1002"].authors == ["Hal Daumé III"]  # HTML entity decoded, "Family, Given" turned
    assert papers["J92-1003"].references == ["P90-1001", "P91-1002", "X99-9999"]
    assert report.files == 2 and report.papers == 3
    edges = str(FIXTURES / "aan_folder" / "acl.txt")
    assert sorted(report.skipped) == sorted([
        f"{edges}: line 5: J92-1003 cites itself; dropped",
        f"{edges}: line 6: duplicate of an earlier line; dropped",
        f"{edges}: line 8: not a 'CITING , CITED' line",
        f"{edges}: line 7: citing paper Z00-0000 is not in the metadata (1 citation(s) not loaded)",
        f"{FIXTURES / 'aan_folder' / 'acl-metadata.txt'}: line 19: record has no id",
    ])


def test_aan_citation_list_alone_is_a_reported_skip(tmp_path):
    shutil.copy(FIXTURES / "aan_folder" / "acl.txt", tmp_path / "edges.txt")
    report = LoadReport()
    with pytest.raises(NoPapers, match="acl-metadata.txt"):  # the only file gives no paper
        list(load([str(tmp_path / "edges.txt")], report=report))
    assert "file skipped" in report.skipped[0] and "acl-metadata.txt" in report.skipped[0]


def test_scierc_documents_keep_acl_ids():
    papers, report = papers_of("scierc_docs.json")
    survey = papers["J92-1003"]
    assert survey.abstract == "We survey citation analysis (Okafor and Lind, 1990). We use co-citation counts to map research areas."
    assert survey.title_derived and "scierc:CVPR_2003_1_abs" in papers
    assert report.skipped == [f"{FIXTURES / 'scierc_docs.json'}: line 3: sentences: expected a list of token lists, got text"]


@pytest.mark.parametrize("fixture, fmt", [
    ("openalex_works.jsonl", "openalex"), ("s2_papers.json", "s2"), ("s2orc_metadata.jsonl", "s2"),
    ("arxiv_snapshot.jsonl", "arxiv"), ("bibtex_zotero.bib", "bibtex"), ("ris_zotero.ris", "ris"),
    ("csl_zotero.json", "csl"), ("scierc_docs.json", "scierc"), ("aan_folder/acl-metadata.txt", "aan"),
])
def test_every_format_is_recognised_from_content_alone(tmp_path, fixture, fmt):
    head = (FIXTURES / fixture).read_bytes()[:4096].decode("utf-8", "replace")
    assert sniff("no-extension", head) == fmt
    assert sniff(f"misnamed{'.txt' if fmt != 'aan' else '.json'}", head) == fmt
    assert fmt in FORMATS
    # and it loads from a file whose name says nothing
    (tmp_path / "source").write_bytes((FIXTURES / fixture).read_bytes())
    assert list(load([str(tmp_path / "source")]))


def test_forced_format_wins(tmp_path):
    (tmp_path / "refs.txt").write_text((FIXTURES / "ris_zotero.ris").read_text(encoding="utf-8"), encoding="utf-8")
    assert [p.id for p in load([str(tmp_path / "refs.txt")], "ris")] == ["ris:mueller2019", "doi:10.9999/s2orc.1"]
    # forced to another format, the same file gives that format's reading (here: text blocks)
    assert all(p.id.startswith("p-") for p in load([str(tmp_path / "refs.txt")], "text"))


def test_a_paper_citing_itself_is_reported_and_duplicates_collapse(tmp_path):
    rows = [{"id": "a", "title": "A", "references": ["b", "a", "b"]}]
    (tmp_path / "p.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    report = LoadReport()
    [paper] = load([str(tmp_path / "p.jsonl")], report=report)
    assert paper.references == ["b"]
    assert report.skipped == [f"{tmp_path / 'p.jsonl'}: line 1: a cites itself; that reference is dropped"]
