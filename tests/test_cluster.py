"""Extraction on a cluster: sources cut into parts (loaders.parts) and extracted by Dask workers
(kg.cluster) give what one local read and one local extraction give, skips and all."""

from __future__ import annotations

import importlib.util
import json

import pytest
from click.testing import CliRunner

from kg.cli import main
from loaders import LoadReport, NoPapers, load
from loaders.parts import load_parts, partitions
from tests.conftest import EXAMPLES, FIXTURES

MIXED = FIXTURES / "parts_mixed.jsonl"  # blank lines, cut JSON, wrong types, ids repeated across parts, bad bytes
SOURCES = [str(MIXED), str(FIXTURES / "openalex_works.jsonl"), str(EXAMPLES)]


def _read(read, sources, per_part=None):
    report = LoadReport()
    papers = list(read(sources, None, report) if per_part is None else read(sources, None, report, per_part))
    return papers, report


@pytest.mark.parametrize("per_part", [1, 2, 3, 1000])
def test_parts_read_in_order_give_one_load(per_part):
    expected, report = _read(load, SOURCES)
    papers, parts_report = _read(load_parts, SOURCES, per_part)
    assert papers == expected  # every field, positions counted from each file's start
    assert sorted(parts_report.skipped) == sorted(report.skipped)
    assert sorted(parts_report.notes) == sorted(report.notes)
    assert parts_report.headers == report.headers and len(report.headers) == 3  # the abstract lists' header lines
    assert (parts_report.files, parts_report.papers) == (report.files, report.papers)
    assert f"{MIXED}: line 11: id c5 was already read at line 7 with different content; line 7 wins " \
           "(the first record of an id is kept)" in parts_report.skipped


def test_a_json_lines_file_is_cut_at_line_starts():
    parts = [p for p in partitions([str(MIXED)], records_per_part=2)]
    # two non-blank lines each; a blank line goes with the part before it
    assert [(p.first_line, p.index, p.last) for p in parts] == [(1, 0, False), (4, 1, False), (6, 2, False),
                                                                (8, 3, False), (11, 4, True)]
    data = MIXED.read_bytes()
    assert all(p.start == 0 or data[p.start - 1:p.start] == b"\n" for p in parts)
    assert parts[-1].end == len(data) and all(a.end == b.start for a, b in zip(parts, parts[1:]))
    other = [p for p in partitions([str(EXAMPLES)], records_per_part=1)]
    assert other and not any(p.split for p in other)  # abstract lists are read whole


def test_a_file_whose_parts_give_no_paper_says_why(tmp_path):
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "a", "title": 5}\n{"id": "b", "title": [1]}\n{"id": "c", "abstract": {}}\n')
    with pytest.raises(NoPapers) as local:
        list(load([str(broken)]))
    with pytest.raises(NoPapers) as parts:
        list(load_parts([str(broken)], records_per_part=1))
    assert str(parts.value) == str(local.value) == f"no papers in the sources: {broken}: all 3 record(s) were skipped"


def test_a_file_with_a_lone_carriage_return_is_read_whole(tmp_path):
    # a text reader may end a line at a lone \r, so lines counted in bytes would not be the reader's lines
    source = tmp_path / "cr.jsonl"
    lines = [json.dumps({"id": f"r{n}", "title": f"Paper {n}", "abstract": "Text."}) for n in range(6)]
    source.write_bytes(("\n".join(lines[:3]) + "\r" + "\n".join(lines[3:]) + '\n{"id": 1, "title": {}}\n').encode())
    assert [p.split for p in partitions([str(source)], records_per_part=1)] == [False]
    expected, report = _read(load, [str(source)])
    papers, parts_report = _read(load_parts, [str(source)], 1)
    assert papers == expected and parts_report.skipped == report.skipped


def test_standard_input_is_refused_before_a_cluster_starts():
    result = CliRunner().invoke(main, ["extract", "-", "--cluster", "local:2"], input='{"id": "a", "title": "T"}\n')
    assert result.exit_code == 1
    assert "Error: -: standard input cannot be shared among workers; save it to a file" in result.output


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason='needs the cluster extra: pip install "kg[cluster]"')
def test_extract_on_a_local_cluster_writes_the_local_records(tmp_path):
    """Two worker processes started by the command itself; no network beyond this machine's loopback."""
    sources = SOURCES[:2]
    local = CliRunner().invoke(main, ["extract", *sources, "-o", str(tmp_path / "local.jsonl")])
    assert local.exit_code == 0, local.output
    result = CliRunner().invoke(main, ["extract", *sources, "-o", str(tmp_path / "cluster.jsonl"),
                                       "--cluster", "local:2", "--records-per-part", "2"])
    assert result.exit_code == 0, result.output
    # the same records in the same order, every field (positions and line-numbered skips across parts too)
    assert (tmp_path / "cluster.jsonl").read_text() == (tmp_path / "local.jsonl").read_text()
    assert sorted(result.output.splitlines()) == sorted(local.output.splitlines())
    assert "Extracted 10 papers from 2 file(s)." in result.output
    assert f"  {MIXED}: line 8: id c2 repeats the record at line 3 (same content); skipped" in result.output


def test_local_workers_keep_glibc_adaptive_allocation_and_one_thread_each():
    """Dask's nanny exports MALLOC_TRIM_THRESHOLD_ (which costs spaCy ~2.5x the system time); a local
    cluster's workers must start without it, and with the thread limits that suit one core each."""
    from kg.cluster import cluster_client

    def environment():
        import os
        return os.environ.get("MALLOC_TRIM_THRESHOLD_"), os.environ.get("OMP_NUM_THREADS")

    with cluster_client("local:1") as client:
        assert list(client.run(environment).values()) == [(None, "1")]
