"""Bad input of every kind a user's files hold, one test per class: the exit code, the message
(file and line) and that the good records were extracted or stored.

The files are generated here. Most classes are read by one ``kg extract`` of a folder holding
all of them (each spaCy start costs seconds); the inputs that hold no paper at all are run one
command each; what must reach the store is built into the real embedded store.
"""

from __future__ import annotations

import gzip
import io
import json
import tarfile
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.cli.app import NO_PAPERS
from kg.extract import extract
from kg.model import Paper
from loaders.checks import MAX_ABSTRACT_CHARS

ABSTRACT = "We propose GraphNet, a graph neural network, and evaluate it on Cora with accuracy."


def kg(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def jsonl(*records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def good(pid: str, **fields) -> dict:
    return {"id": pid, "title": f"Paper {pid}", "abstract": f"{ABSTRACT} ({pid})", **fields}


def gz_records(prefix: str, count: int) -> bytes:
    return gzip.compress(jsonl(*(good(f"{prefix}{i}") for i in range(count))).encode())


def tar_gz(name: str, content: bytes) -> bytes:
    """A .tar.gz holding one file."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        info = tarfile.TarInfo(name)
        info.size = len(content)
        archive.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


# Two folders, each read by one `kg extract`, with at most 20 skips and 20 notes (the command shows 20 of each).
# name -> content: records whose fields have the wrong type, shape or size
RECORDS: dict[str, str | bytes] = {
    "long.jsonl": jsonl(good("long1", abstract=("We propose GraphNet for node classification. " * 4000)), good("long2")),
    "deep.jsonl": jsonl(good("deep1")) + '{"id": "deep2", "abstract": ' + "[" * 5000 + "]" * 5000 + "}\n"
                  + jsonl(good("deep3")),
    "bigint.jsonl": jsonl(good("int1")) + '{"id": "int2", "title": "T", "year": ' + "9" * 5000 + "}\n",
    "surrogate.jsonl": '{"id": "sur1", "title": "Lone \\ud800 here", "abstract": "Text with \\udfff in it."}\n'
                       + jsonl(good("sur2")),
    "openalex.jsonl": jsonl(
        {"id": "https://openalex.org/W1", "title": "Index is a number", "abstract_inverted_index": 5},
        {"id": "https://openalex.org/W2", "title": "Works fine", "abstract_inverted_index": {"We": [0], "study": [1]}},
        {"id": "https://openalex.org/W3", "title": "Bad location", "primary_location": "somewhere"}),
    "s2.jsonl": jsonl({"paperId": "s2a", "title": "Authors a number", "authors": 5},
                      {"paperId": "s2b", "title": "Fine", "abstract": ABSTRACT, "authors": [{"name": "Ann Lee"}]}),
    "arxiv.jsonl": jsonl({"id": "2101.00001", "submitter": "x", "title": "Versions a number", "versions": 5},
                         {"id": "2101.00002", "submitter": "x", "title": "Fine", "abstract": ABSTRACT}),
    "objects.jsonl": jsonl({"id": {"scheme": "doi", "value": "10.1/x"}, "title": "T", "abstract": ABSTRACT},
                           {"id": "obj2", "title": ["a", "list"], "abstract": ABSTRACT},
                           {"id": "obj3", "title": "T", "abstract": {"text": ABSTRACT}},
                           good("obj4")),
    "sizes.jsonl": jsonl(good("x" * 5000), good("size2")),
    "brokenfirst.jsonl": '{"id": "bf1", "title": oops}\n' + jsonl(good("bf2"), good("bf3")),
    "refs.bib": "@article{bib1, title={Good}, abstract={We propose GraphNet.}}\n@article{bib2, title={Unclosed, abstract={x}\n"
                "@article{, title={No key}}\n@article{bib3, title={Fine}, abstract={We use Cora.}}\n",
}
# name -> content: files that are damaged, malformed or of no known format
FILES: dict[str, str | bytes] = {
    "utf8.jsonl": jsonl(good("utf1")).encode() + b'{"id": "utf2", "title": "Caf\xe9 \xff", "abstract": "Fine."}\n'
                  + jsonl(good("utf3")).encode(),
    "utf8.txt": b"ICML 2024\n\nFirst abstract is fine.\n\nSecond abstract has a \x92 quote.\n\nThird is fine.\n",
    "dups.jsonl": jsonl(good("dup", title="First title"), good("other"), good("dup", title="Second title"),
                        good("dup", title="First title")),
    "unclosed.csv": 'id,title,abstract\ncsv1,T1,"an open quote\ncsv2,T2,fine\ncsv3,T3,"quoted, fine"\ncsv4,T4,x\n',
    "unclosed_end.csv": 'id,title,abstract\nend1,T1,fine\nend2,T2,"never closed\nend3,T3,lost\n',
    "noheader.txt": "Short first abstract\n\nA second abstract that is long enough. It has two sentences.\n",
    "nul.txt": b"ICML 2024\n\nAn abstract before it.\n\nSecond abstract has a raw \x00NUL in it.\n\nAn abstract after it.\n",
    "nul.jsonl": b'{"id": "nul1", "title": "T", "abstract": "A raw NUL\x00 and an escape\x1b in JSON."}\n'
                 b'{"id": "nul2", "title": "T", "abstract": "An escaped\\u0000 NUL."}\n',
    "semicolon.csv": 'id;title;abstract\nsemi1;"Graphs; a survey";We survey graphs.\nsemi2;Cora;We use Cora, with 2,708 papers.\n',
    # binary files named as text: refused by their share of control bytes, not read as abstracts
    "program.txt": b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4,
    "archive.txt.gz": tar_gz("abstracts.txt", b"ICML 2024\n\nAn abstract in an archive.\n"),
    "records.xml": '<?xml version="1.0"?>\n<records>\n<r>x</r>\n\n<r>y</r>\n</records>\n',
    "paper.pdf": b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
    # a good gzip member, then one with a valid header and data that is not deflate (zlib.error)
    "corrupt.jsonl.gz": gz_records("c", 300) + gzip.compress(b"x" * 100)[:10] + bytes(range(7, 250)),
    "truncated.jsonl.gz": gz_records("t", 2000)[:6000],
}


def extracted(folder: Path, files: dict[str, str | bytes]):
    """One `kg extract` over ``folder`` holding ``files``: (result, records by id, folder)."""
    for name, content in files.items():
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
    out = folder.parent / f"{folder.name}.out.jsonl"
    result = kg("extract", folder, "-o", out)
    records = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    return result, records, folder


@pytest.fixture(scope="module")
def bad_records(tmp_path_factory):
    return extracted(tmp_path_factory.mktemp("records"), RECORDS)


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory):
    return extracted(tmp_path_factory.mktemp("files"), FILES)


def said(result, folder: Path, name: str, text: str) -> bool:
    """True when the command's output has a line naming ``folder/name`` that contains ``text``."""
    return any(f"{folder / name}: " in line and text in line for line in result.output.splitlines())


@pytest.mark.parametrize("which", ["bad_records", "bad_files"])
def test_a_folder_of_bad_files_is_extracted_with_exit_0_and_every_problem_reported(which, request):
    result, records, _ = request.getfixturevalue(which)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "... and" not in result.output  # every skip and note is shown
    assert "Skipped " in result.output and "Changed " in result.output and f"Extracted {len(records)} papers" in result.output


def test_a_very_long_abstract_is_cut_with_a_note_and_extracted(bad_records):
    result, records, folder = bad_records
    assert said(result, folder, "long.jsonl", "line 1: abstract: 179,999 characters, cut to the first")
    assert MAX_ABSTRACT_CHARS - 100 < len(records["long1"]["text"]) <= MAX_ABSTRACT_CHARS
    assert any(c["name"] == "GraphNet" for c in records["long1"]["concepts"]) and "long2" in records


def test_extraction_cuts_a_text_beyond_spacys_limit_with_a_warning(nlp):
    limit, nlp.max_length = nlp.max_length, 60
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            record = next(extract([Paper(id="p", title="t", abstract=ABSTRACT * 3)], nlp))
    finally:
        nlp.max_length = limit
    assert len(record["text"]) <= 60 and ABSTRACT.startswith(record["text"])
    assert any(f"p: text of {len(ABSTRACT * 3)} characters cut" in str(w.message) for w in caught)


def test_json_nested_thousands_deep_is_a_skip_naming_the_line(bad_records):
    result, records, folder = bad_records
    assert said(result, folder, "deep.jsonl", "line 2: JSON nested too deeply")
    assert {"deep1", "deep3"} <= set(records) and "deep2" not in records


def test_an_integer_of_5000_digits_is_a_skip_naming_the_field(bad_records):
    result, records, folder = bad_records
    assert said(result, folder, "bigint.jsonl", "line 2: year: expected a year, got a number of 5000 digits")
    assert "int1" in records and "int2" not in records


def test_lone_surrogates_are_replaced_with_a_note(bad_records):
    result, records, folder = bad_records
    assert said(result, folder, "surrogate.jsonl", "line 1: title: 1 lone surrogate(s) (U+D800) replaced with U+FFFD")
    assert said(result, folder, "surrogate.jsonl", "line 1: abstract: 1 lone surrogate(s) (U+DFFF)")
    assert records["sur1"]["title"] == "Lone \ufffd here" and "sur2" in records


@pytest.mark.parametrize("name, line, message, kept, lost", [
    ("openalex.jsonl", 1, "abstract_inverted_index: expected an object, got a number", "openalex:W2", "openalex:W1"),
    ("openalex.jsonl", 3, "primary_location: expected an object, got text", "openalex:W2", "openalex:W3"),
    ("s2.jsonl", 1, "authors: expected a list, got a number", "s2:s2b", "s2:s2a"),
    ("arxiv.jsonl", 1, "versions: expected a list, got a number", "arxiv:2101.00002", "arxiv:2101.00001"),
    ("objects.jsonl", 1, "id: expected text or a number, got an object (2 keys)", "obj4", "{'scheme': 'doi', 'value': '10.1/x'}"),
    ("objects.jsonl", 2, "title: expected text, got a list (2 items)", "obj4", "obj2"),
    ("objects.jsonl", 3, "abstract: expected text, got an object (1 key)", "obj4", "obj3"),
    ("refs.bib", 2, "@article entry could not be parsed", "bib:bib3", "bib:bib2"),
    ("refs.bib", 3, "entry has no citation key, DOI or arXiv eprint", "bib:bib1", "bib:"),
    ("brokenfirst.jsonl", 1, "invalid JSON (Expecting value at column 24)", "bf3", "bf1"),
    ("sizes.jsonl", 1, "id: 5,000 characters, more than the 1,000 kg reads; record skipped", "size2", "x" * 5000),
])
def test_a_field_of_the_wrong_type_or_size_is_a_skip_naming_file_line_and_field(bad_records, name, line, message, kept, lost):
    result, records, folder = bad_records
    assert said(result, folder, name, f"line {line}: {message}")
    assert kept in records and lost not in records


def test_invalid_utf8_names_the_line_and_keeps_every_record(bad_files):
    result, records, folder = bad_files
    assert said(result, folder, "utf8.jsonl", "line 2: 2 byte(s) that are not UTF-8 (first at column 29) replaced with U+FFFD")
    assert records["utf2"]["title"] == "Caf\ufffd \ufffd" and {"utf1", "utf3"} <= set(records)
    assert said(result, folder, "utf8.txt", "line 5: 1 byte(s) that are not UTF-8")
    texts = [r["text"] for r in records.values() if r["source"].endswith("utf8.txt")]
    assert texts == ["First abstract is fine.", "Second abstract has a \ufffd quote.", "Third is fine."]


def test_a_damaged_gzip_names_the_file_and_keeps_what_came_before(bad_files):
    result, records, folder = bad_files
    for name in ("corrupt.jsonl.gz", "truncated.jsonl.gz"):
        kept = [r for r in records.values() if r["source"].endswith(name)]
        assert 0 < len(kept) < 2000
        assert said(result, folder, name, f"the compressed data is damaged after {len(kept)} paper(s)")
        assert [r["id"] for r in kept] == [f"{name[0]}{i}" for i in range(len(kept))]
    assert len([r for r in records.values() if r["source"].endswith("corrupt.jsonl.gz")]) == 300


def test_duplicate_ids_in_one_file_say_which_line_wins(bad_files):
    result, records, folder = bad_files
    assert said(result, folder, "dups.jsonl", "line 3: id dup was already read at line 1 with different content; "
                                              "line 1 wins (the first record of an id is kept)")
    assert said(result, folder, "dups.jsonl", "line 4: id dup repeats the record at line 1 (same content); skipped")
    assert records["dup"]["title"] == "First title" and "other" in records


def test_a_csv_quote_never_closed_loses_only_its_record(bad_files):
    result, records, folder = bad_files
    assert said(result, folder, "unclosed.csv", "record 1 (line 2): a quote opened on line 2 runs to line 4, where the "
                                                "record is malformed")
    assert said(result, folder, "unclosed.csv", "record skipped, reading goes on at line 3")
    assert records["csv3"]["text"] == "quoted, fine" and {"csv2", "csv4"} <= set(records) and "csv1" not in records
    # never closed at all: the lines after it are read again as records
    assert said(result, folder, "unclosed_end.csv", "record 2 (line 3): a quoted field is never closed; record skipped")
    assert {"end1", "end3"} <= set(records) and "end2" not in records


def test_a_short_first_abstract_taken_as_the_header_is_reported(bad_files):
    result, records, folder = bad_files
    assert "Read 3 line(s) as a header, not as a record:" in result.output
    assert said(result, folder, "noheader.txt", "line 1 read as the header: 'Short first abstract' (it names no venue or "
                                                "year); pass --no-header to read it as an abstract")
    assert said(result, folder, "nul.txt", "line 1 read as the header: 'ICML 2024' (venue ICML, year 2024 for its abstracts)")
    assert [r["text"] for r in records.values() if r["source"].endswith("noheader.txt")] == [
        "A second abstract that is long enough. It has two sentences."]


def test_no_header_reads_line_1_as_an_abstract(tmp_path):
    (tmp_path / "noheader.txt").write_text(FILES["noheader.txt"], encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = kg("extract", tmp_path / "noheader.txt", "--no-header", "-o", out)
    assert result.exit_code == 0, result.output
    assert "as a header" not in result.output and "Extracted 2 papers" in result.output
    assert [json.loads(line)["text"] for line in out.read_text(encoding="utf-8").splitlines()] == [
        "Short first abstract", "A second abstract that is long enough. It has two sentences."]


def test_control_characters_are_dropped_by_line_and_every_record_kept(bad_files):
    result, records, folder = bad_files
    assert said(result, folder, "nul.txt", "line 5: 1 control character(s) (U+0000; first at column 27) dropped")
    texts = [r["text"] for r in records.values() if r["source"].endswith("nul.txt")]
    assert texts == ["An abstract before it.", "Second abstract has a raw NUL in it.", "An abstract after it."]
    assert said(result, folder, "nul.jsonl", "line 1: 2 control character(s) (U+0000, U+001B; first at column 52) dropped")
    assert said(result, folder, "nul.jsonl", "line 2: abstract: 1 control character(s) (U+0000) dropped")
    assert records["nul1"]["text"] == "A raw NUL and an escape in JSON." and records["nul2"]["text"] == "An escaped NUL."


def test_a_semicolon_csv_is_read(bad_files):
    result, records, folder = bad_files
    assert records["semi1"]["title"] == "Graphs; a survey" and records["semi2"]["text"] == "We use Cora, with 2,708 papers."


def test_binary_files_are_still_refused_by_their_share_of_control_bytes(bad_files):
    result, records, folder = bad_files
    assert said(result, folder, "program.txt", "binary data, not text: 637 of its first 1,032 characters are control "
                                               "characters or bytes that are not UTF-8")
    assert said(result, folder, "archive.txt.gz", "a tar archive (unpack it first), not text")
    assert not any(r["source"].endswith(("program.txt", "archive.txt.gz")) for r in records.values())


def test_an_unrecognised_format_is_refused_with_the_known_formats(bad_files):
    result, records, folder = bad_files
    assert said(result, folder, "records.xml", "format not recognised (XML or HTML markup); known formats: text")
    assert said(result, folder, "paper.pdf", "a PDF file, not text")
    assert not any(r["source"].endswith((".xml", ".pdf")) for r in records.values())


@pytest.mark.parametrize("name, content, reason", [
    ("empty.txt", b"", "empty.txt: the file is empty"),
    ("blank.txt", b"\n  \n\n", "blank.txt: the file holds only blank lines"),
    ("header.txt", b"NeurIPS 2026 Papers\n", "header.txt: line 1: only a header line ('NeurIPS 2026 Papers') and no abstract"),
    ("header.csv", b"id,title,abstract\n", "header.csv: line 1: a header row and no record after it"),
    ("data.xml", b"<?xml version='1.0'?><a/>\n", "data.xml: format not recognised (XML or HTML markup); known formats:"),
    ("bad.jsonl", b'{"id": 1, "title": [1]}\n{"id": 2, "title": {}}\n', "bad.jsonl: all 2 record(s) were skipped"),
])
def test_an_input_without_papers_says_why_and_exits_4(tmp_path, name, content, reason):
    (tmp_path / name).write_bytes(content)
    result = kg("extract", tmp_path / name)
    assert result.exit_code == NO_PAPERS == 4
    assert f"Error: no papers in the sources: {tmp_path / reason}" in result.output
    assert "Traceback" not in result.output


def test_empty_standard_input_exits_4():
    result = kg("extract", "-", input="")
    assert result.exit_code == 4 and "no papers in the sources: <stdin>: standard input is empty" in result.output


def test_an_unexpected_error_is_one_line_with_exit_1_and_debug_shows_the_traceback(tmp_path):
    (tmp_path / "a.jsonl").write_text(jsonl(good("a")), encoding="utf-8")
    result = kg("extract", tmp_path / "a.jsonl", "-o", "/dev/full")  # a disk that is full: a real OSError
    assert result.exit_code == 1
    assert "Error: unexpected OSError: [Errno 28] No space left on device; run `kg --debug extract ...`" in result.output
    assert "Traceback" not in result.output
    debug = kg("--debug", "extract", tmp_path / "a.jsonl", "-o", "/dev/full")
    assert debug.exit_code == 1 and isinstance(debug.exception, OSError)


def test_duplicates_and_surrogates_reach_the_store_as_reported(store, store_dir, tmp_path):
    """A build: one paper per id (the first record's content), and lone surrogates no longer break the batch."""
    (tmp_path / "d.jsonl").write_text(
        jsonl(good("dup", title="First title"), good("dup", title="Second title"))
        + '{"id": "sur", "title": "Lone \\ud800", "abstract": "We use GraphNet \\udfff on Cora."}\n'
        + jsonl(good("after")), encoding="utf-8")
    result = kg("build", tmp_path / "d.jsonl", "--db", store_dir)
    assert result.exit_code == 0, result.output
    assert "Built 3 papers" in result.output and f"{tmp_path / 'd.jsonl'}: line 2: id dup was already read at line 1" in result.output
    rows = store.run("MATCH (p:Paper) RETURN p.id AS id, p.title AS title ORDER BY id")
    assert rows == [{"id": "after", "title": "Paper after"}, {"id": "dup", "title": "First title"},
                    {"id": "sur", "title": "Lone \ufffd"}]


def test_a_list_with_a_nul_and_no_header_line_is_stored_whole(store, store_dir, tmp_path):
    """The build's summary says which line it read as the header and what it dropped; --no-header stores line 1 too."""
    source = tmp_path / "list.txt"
    source.write_bytes(b"Short first abstract\n\nA second one with a raw \x00NUL. It has two sentences.\n\n"
                       b"A third abstract. It is fine.\n")
    result = kg("build", source, "--db", store_dir)
    assert result.exit_code == 0, result.output
    assert "Built 2 papers" in result.output
    assert f"Read 1 line(s) as a header, not as a record:\n  {source}: line 1 read as the header: 'Short first " \
           "abstract' (it names no venue or year); pass --no-header to read it as an abstract" in result.output
    assert f"Changed 1 record(s) while loading:\n  {source}: line 3: 1 control character(s) (U+0000; first at column " \
           "25) dropped" in result.output
    result = kg("build", source, "--no-header", "--db", store_dir)
    assert result.exit_code == 0, result.output
    assert "Built 3 papers" in result.output and "as a header" not in result.output
    rows = store.run("MATCH (p:Paper) RETURN p.abstract AS abstract ORDER BY p.position")
    assert [row["abstract"] for row in rows] == ["Short first abstract", "A second one with a raw NUL. It has two sentences.",
                                                 "A third abstract. It is fine."]


@pytest.mark.parametrize("cypher, clause", [
    ("MATCH (p:Paper) // a comment ended by a carriage return\rSET p.title = 'x'", "SET"),
    ("MATCH (p) // ended by a line separator\u2028DETACH DELETE p", "DETACH"),
    ("INSERT (:Paper {id: 'x'})", "INSERT"),
    ("match (p) ＳＥＴ p.x = 1", "SET"),  # fullwidth letters fold to SET (NFKC)
    ("MATCH (p) ſet p.x = 1", "SET"),  # long s upper-cases to S
    ("CALL { MATCH (p) CREATE (q:Paper {id: p.id + 'x'}) } RETURN 1", "CREATE"),
    ("CALL db.createLabel('X')", "CALL db.createlabel"),
    ("CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'DELETE n', {})", "CALL apoc.periodic.iterate"),
    ("LOAD CSV FROM 'file:///x.csv' AS row RETURN row", "LOAD CSV"),
    ("RETURN 'a\\' CREATE (n) //'", "CREATE"),  # a server reading the backslash literally would create
    ("MATCH (n) RETURN n; CREATE (m)", "CREATE"),
    ("WITH 1 AS create CREATE (n)", "CREATE"),
    ("MATCH (p) RETURN p.title AS set", None),
    ("MATCH (p) WHERE p.abstract CONTAINS 'CREATE INDEX' RETURN p.id AS merge", None),
    ("MATCH (set:Paper) RETURN set.id AS id, {delete: 1} AS m, $remove AS r", None),
    ("MATCH (p) RETURN p.`CREATE` /* MERGE */ // DELETE", None),
    ("CALL db.labels() YIELD label RETURN label", None),
    ("CALL { MATCH (p:Paper) RETURN p } RETURN count(p) AS n", None),
])
def test_read_only_is_decided_on_the_parsed_query(cypher, clause):
    from kg.cypher import write_clause

    assert write_clause(cypher) == clause


def test_the_store_refuses_a_writing_query_run_as_a_read(store):
    """The embedded store ignores the driver's read sessions: the library's own check is the guard."""
    from kg.store import ReadOnlyError

    with pytest.raises(ReadOnlyError, match=r"this query writes \(INSERT\) and was run as a read"):
        store.run("INSERT (:Paper {id: 'gql'})")
    with pytest.raises(ReadOnlyError, match=r"\(SET\)"):
        store.run("MATCH (p) // comment\rSET p.x = 1 RETURN p")
    assert store.run("MATCH (p:Paper) RETURN count(p) AS n") == [{"n": 0}]
    store.run("CREATE (:Paper {id: 'w', title: 'CREATE'})", write=True)
    assert store.run("MATCH (p:Paper) WHERE p.title = 'CREATE' RETURN p.id AS set") == [{"set": "w"}]


def test_kg_query_refuses_hidden_writes_without_write(store, store_dir, tmp_path):
    store.run("CREATE (:Paper {id: 'q1', title: 'T'})", write=True)
    hidden = kg("query", "cypher", "MATCH (p:Paper) // just a comment\rSET p.title = 'changed' RETURN p.id AS id",
                "--db", store_dir)
    assert hidden.exit_code == 1 and "this query writes (SET)" in hidden.output and "--write" in hidden.output
    query_file = tmp_path / "insert.cypher"
    query_file.write_text("// name: insert\nINSERT (:Paper {id: 'gql'})\n", encoding="utf-8")
    inserted = kg("query", "run", "-f", query_file, "--db", store_dir)
    assert inserted.exit_code == 1 and "this query writes (INSERT)" in inserted.output
    assert store.run("MATCH (p:Paper) RETURN p.id AS id, p.title AS title") == [{"id": "q1", "title": "T"}]
    alias = kg("query", "cypher", "MATCH (p:Paper) RETURN p.title AS set", "--format", "json", "--db", store_dir)
    assert alias.exit_code == 0 and json.loads(alias.output) == [{"set": "T"}]


def test_a_reader_that_closes_the_pipe_ends_the_command_quietly(tmp_path):
    """`kg extract ... | head`: no traceback and no error message when the reader stops reading."""
    import subprocess
    import sys

    (tmp_path / "a.jsonl").write_text(jsonl(*(good(f"p{i}") for i in range(200))), encoding="utf-8")
    command = subprocess.Popen([str(Path(sys.executable).parent / "kg"), "extract", str(tmp_path / "a.jsonl")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    command.stdout.read(10)
    command.stdout.close()  # as `head -c 10` does
    stderr = command.stderr.read().decode()
    assert command.wait(timeout=300) == 1
    assert "Traceback" not in stderr and "Error" not in stderr
