import gzip
import json
import re
import shutil

import pytest
from conftest import EXAMPLES, FIXTURES

from loaders import LoadError, LoadReport, NoPapers, load, sniff
from loaders.parts import load_parts
from loaders.text import parse_header


def test_seed_files_give_57_papers_with_venue_year_and_position():
    papers = list(load([str(EXAMPLES)]))
    assert len(papers) == 57
    assert {p.venue for p in papers} == {"NeurIPS"}
    assert {p.year for p in papers} == {2026}
    assert all(p.title_derived and p.title for p in papers)
    first = papers[0]
    assert first.source.endswith("000_8069062931caa10a.txt") and first.position == 1 and first.line == 3
    assert first.abstract.startswith("This position paper argues")


def test_ids_are_stable_and_content_derived(tmp_path):
    text = "NeurIPS 2026 Papers\n\nWe study A.\n\nWe study B.\n"
    (tmp_path / "a.txt").write_text(text, encoding="utf-8")
    (tmp_path / "b.txt").write_text(text.replace("Papers", "论文列表"), encoding="utf-8")
    a = [p.id for p in load([str(tmp_path / "a.txt")])]
    b = [p.id for p in load([str(tmp_path / "b.txt")])]
    assert a == b and len(set(a)) == 2
    assert all(re.fullmatch(r"p-[0-9a-f]{16}", pid) for pid in a)


@pytest.mark.parametrize("header, expected", [
    ("NeurIPS 2026 Papers", ("NeurIPS", 2026)),
    ("NeurIPS 2026 论文列表", ("NeurIPS", 2026)),
    ("ICML 2024", ("ICML", 2024)),
    ("Reading list", (None, None)),
])
def test_header_parsing(header, expected):
    assert parse_header(header) == expected


def test_jsonl_csv_gz_glob_and_forced_format(tmp_path):
    rows = [
        {"id": "x1", "title": "Paper One", "abstract": "We propose FooNet.", "year": 2021, "venue": "ACL",
         "authors": ["Ann Lee", "Bo Chen"], "doi": "10.1/abc", "references": ["x2"]},
        {"id": "x2", "title": "Paper Two", "abstract": "A survey.", "year": "2020", "venue": "", "authors": "C. D; E. F"},
    ]
    (tmp_path / "p.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    with gzip.open(tmp_path / "p2.jsonl.gz", "wt", encoding="utf-8") as out:
        out.write(json.dumps(rows[0]) + "\n")
    (tmp_path / "p.csv").write_text("id,title,abstract,year,authors\nc1,T,\"An abstract, with comma.\",2019,A B;C D\n", encoding="utf-8")
    (tmp_path / "noext").write_text(json.dumps(rows[1]) + "\n", encoding="utf-8")

    jsonl = list(load([str(tmp_path / "p.jsonl")]))
    assert [p.id for p in jsonl] == ["x1", "x2"]
    assert jsonl[0].authors == ["Ann Lee", "Bo Chen"] and jsonl[0].references == ["x2"] and jsonl[0].doi == "10.1/abc"
    assert jsonl[1].year == 2020 and jsonl[1].venue is None and jsonl[1].authors == ["C. D", "E. F"]
    assert [p.id for p in load([str(tmp_path / "p2.jsonl.gz")])] == ["x1"]
    csv_paper = next(load([str(tmp_path / "p.csv")]))
    assert csv_paper.abstract == "An abstract, with comma." and csv_paper.year == 2019 and csv_paper.authors == ["A B", "C D"]
    assert [p.id for p in load([str(tmp_path / "noext")])] == ["x2"]  # sniffed from content
    assert len(list(load([str(tmp_path / "*.jsonl*")]))) == 3
    with pytest.raises(LoadError, match="unknown format"):
        list(load([str(tmp_path / "p.jsonl")], fmt="xml"))
    assert sniff("a.txt.gz", "{") == "text" and sniff("x", '{"id": 1}') == "jsonl"


def test_bad_records_are_counted_with_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "a", "abstract": "ok"}\n{not json}\n[1]\n{"id": "b"}\n{"id": "c", "abstract": "x", "year": "soon"}\n', encoding="utf-8")
    report = LoadReport()
    papers = list(load([str(path)], report=report))
    assert [p.id for p in papers] == ["a"]
    assert len(report.skipped) == 4
    assert report.skipped[0].startswith(f"{path}: line 2: invalid JSON")
    assert "line 4: record has neither title nor abstract" in report.skipped[2]
    assert "line 5: year 'soon' is not a number" in report.skipped[3]


def test_missing_sources_and_binary_files_are_clear_errors(tmp_path):
    with pytest.raises(LoadError, match="no such file or folder"):
        list(load([str(tmp_path / "nope.txt")]))
    with pytest.raises(LoadError, match="pattern matches no file"):
        list(load([str(tmp_path / "*.bib")]))
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(LoadError, match="not UTF-8"):
        list(load([str(tmp_path / "bin.txt")]))


def test_folder_recurses_and_skips_documentation_files_with_a_report(tmp_path):
    shutil.copytree(EXAMPLES, tmp_path / "sub" / "seeds")
    (tmp_path / "sub" / "PROVENANCE.txt").write_text("Where these came from.\n\nCopied from a list.\n", encoding="utf-8")
    report = LoadReport()
    assert len(list(load([str(tmp_path)], report=report))) == 57
    assert report.skipped == [f"{tmp_path / 'sub' / 'PROVENANCE.txt'}: a documentation file, not a source; name it to load it"]
    # named explicitly, it is read
    assert len(list(load([str(tmp_path / "sub" / "PROVENANCE.txt")]))) == 2


def test_a_semicolon_csv_from_a_spreadsheet_is_read():
    # as spreadsheets write CSV where the decimal mark is a comma: semicolons, a BOM, CRLF, quoted semicolons
    report = LoadReport()
    papers = list(load([str(FIXTURES / "csv_semicolon_excel.csv")], report=report))
    assert [(p.id, p.title, p.year) for p in papers] == [("de-1", "Graphen; ein Überblick", 2024),
                                                         ("de-2", "Sprachmodelle", 2023)]
    assert papers[0].abstract == "We survey graph neural networks; they reach an accuracy of 91,5 % on Cora."
    assert papers[0].authors == ["Anna Müller", "Jonas Weber"] and papers[1].abstract.endswith("F1 of 0,87.")
    assert report.skipped == [] and report.notes == []


@pytest.mark.parametrize("header, sep", [("id,title,abstract", ","), ("id;title;abstract", ";"), ("id\ttitle\tabstract", "\t")])
def test_csv_delimiters_are_sniffed_from_the_header(tmp_path, header, sep):
    row = sep.join(["x1", "A title", '"An abstract; with, both."'])
    (tmp_path / "p.csv").write_text(f"{header}\n{row}\n", encoding="utf-8")
    (tmp_path / "noext").write_text(f"{header}\n{row}\n", encoding="utf-8")  # no extension: found by its content
    for name in ("p.csv", "noext"):
        paper = next(load([str(tmp_path / name)]))
        assert paper.abstract == "An abstract; with, both."


def test_a_csv_header_without_known_names_is_still_a_skip_naming_the_line(tmp_path):
    (tmp_path / "p.csv").write_text("a;b;c\n1;2;3\n", encoding="utf-8")
    with pytest.raises(NoPapers, match=r"p.csv: line 1: header names neither 'abstract' nor 'title' \(fields read with "
                                       r"comma, semicolon or tab between them\); file skipped"):
        list(load([str(tmp_path / "p.csv")]))


def test_a_guessed_header_is_reported_with_its_text_and_no_header_reads_it_as_an_abstract():
    source = str(FIXTURES / "abstracts_no_header.txt")
    report = LoadReport()
    papers = list(load([source], report=report))
    assert [p.line for p in papers] == [3, 5]  # the first abstract was read as the header
    assert report.headers == [f"{source}: line 1 read as the header: 'Graph neural networks for molecular property "
                              "prediction' (it names no venue or year); pass --no-header to read it as an abstract"]
    assert report.skipped == [] and report.notes == []
    report = LoadReport()
    papers = list(load([source], report=report, no_header=True))
    assert [p.abstract[:24] for p in papers] == ["Graph neural networks fo", "We propose MolGraph, a m", "We fine-tune BERT for ch"]
    assert report.headers == [] and [p.position for p in papers] == [1, 2, 3]
    assert list(load_parts([source], no_header=True)) == papers  # the parts of kg extract --cluster read it alike


def test_a_header_naming_a_year_says_what_its_abstracts_take(tmp_path):
    # a short first abstract that names a year is taken as a header too: the report shows what it gives every paper
    (tmp_path / "a.txt").write_text("Transformers beat CNNs in 2023 benchmarks\n\nWe study ViT. It wins.\n", encoding="utf-8")
    report = LoadReport()
    papers = list(load([str(tmp_path / "a.txt")], report=report))
    assert [(p.venue, p.year) for p in papers] == [("Transformers beat CNNs in", 2023)]
    assert report.headers == [f"{tmp_path / 'a.txt'}: line 1 read as the header: 'Transformers beat CNNs in 2023 benchmarks' "
                              "(venue Transformers beat CNNs in, year 2023 for its abstracts); pass --no-header to read it "
                              "as an abstract"]
    assert [(p.venue, p.year) for p in load([str(tmp_path / "a.txt")], no_header=True)] == [(None, None), (None, None)]


@pytest.mark.parametrize("name, content, kept, note", [
    ("a.txt", b"NeurIPS 2026\n\nOne \x00abstract.\n\nTwo\x07 abstract\x1b.\n", ["One abstract.", "Two abstract."],
     ["line 3: 1 control character(s) (U+0000; first at column 5) dropped",
      "line 5: 2 control character(s) (U+0007, U+001B; first at column 4) dropped"]),
    ("a.csv", b'id,title,abstract\nc1,T,"A NUL\x00 in a CSV field."\n', ["A NUL in a CSV field."],
     ["line 2: 1 control character(s) (U+0000; first at column 12) dropped"]),
    ("a.jsonl", b'\x00{"id": "j1", "abstract": "Raw\x0c form feed."}\n{"id": "j2", "abstract": "Escaped\\u0000 NUL."}\n',
     ["Raw form feed.", "Escaped NUL."],
     ["line 1: 2 control character(s) (U+0000, U+000C; first at column 1) dropped",
      "line 2: title: 1 control character(s) (U+0000) dropped",  # the title derived from the abstract
      "line 2: abstract: 1 control character(s) (U+0000) dropped"]),
])
def test_control_characters_are_dropped_and_noted_by_line(tmp_path, name, content, kept, note):
    (tmp_path / name).write_bytes(content)
    report = LoadReport()
    assert [p.abstract for p in load([str(tmp_path / name)], report=report)] == kept
    assert report.notes == [f"{tmp_path / name}: {n}" for n in note] and report.skipped == []


@pytest.mark.parametrize("content, why", [
    (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 16, "binary data, not text: 2,525 of its first 4,096 characters are "
                                                           "control characters or bytes that are not UTF-8"),
    ("NeurIPS 2026\n\nWe study graphs.\n".encode("utf-16-le"), "not UTF-8 text: UTF-16 text without a byte-order mark"),
    (gzip.compress(b"abstracts.txt".ljust(257, b"\x00") + b"ustar\x0000" + b"\x00" * 300, mtime=0), "a tar archive (unpack it first)"),
])
def test_binary_data_is_refused_by_its_share_of_control_bytes(tmp_path, content, why):
    (tmp_path / "data.txt").write_bytes(content)
    with pytest.raises(NoPapers, match=re.escape(f"data.txt: {why}")):
        list(load([str(tmp_path / "data.txt")]))


def test_a_run_of_nuls_longer_than_a_read_is_not_the_end_of_the_file(tmp_path):
    # a JSON array is read in chunks: a chunk that held only NULs must not end it (the papers after them are kept)
    first = [{"id": f"a{i}", "abstract": "We study graphs. " * 20} for i in range(20)]  # past the 4,096 characters sniffed
    (tmp_path / "a.json").write_bytes(("[" + ",".join(json.dumps(r) for r in first) + ",").encode() + b"\x00" * 200_000
                                      + b'{"id": "after", "abstract": "After the NULs."}]')
    report = LoadReport()
    papers = list(load([str(tmp_path / "a.json")], report=report))
    assert [p.id for p in papers] == [f"a{i}" for i in range(20)] + ["after"]
    assert report.notes == [f"{tmp_path / 'a.json'}: line 1: 200,000 control character(s) (U+0000; first at column 7392) dropped"]
