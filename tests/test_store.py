"""The embedded ArcadeDB over Bolt: schema, batched loads, idempotence, the server commands."""

import json
import os

import pytest
from click.testing import CliRunner
from helpers.dump import graph_dump

from kg.build import load_records
from kg.cli import main
from kg.errors import StoreError
from kg.store import open_store
from kg.store.embedded import running_server, start_server
from kg.store.reads.graph import stats
from kg.store.schema import create_constraints


def record(pid, concepts, references=(), citations=()):
    return {"id": pid, "title": f"Title {pid}", "text": "We propose FooNet. We use BERT on SQuAD.", "venue": "ACL",
            "year": 2020, "authors": ["Ann Lee"], "references": list(references), "citations": list(citations),
            "concepts": [{"name": n, "key": n.lower(), "type": t, "aliases": a, "mentions": [[3, 9]],
                          "evidence": [{"sentence": [0, 18], "rule": "gazetteer", "confidence": 0.9}],
                          "proposed": p, "confidence": 0.9} for n, t, a, p in concepts]}


def test_server_answers_as_neo4j_5(session_store):
    agent = session_store.driver.get_server_info().agent
    assert "Neo4j/5" in agent and "ArcadeDB" in agent


def test_rows_are_what_the_drivers_data_gives_for_plain_values_and_graph_values_alike(store):
    store.run("CREATE (:Paper {id: 'r1', words: ['a', 'b'], year: 2020})-[:CITES {n: 1}]->(:Paper {id: 'r2'})", write=True)
    query = """MATCH path = (a:Paper {id: 'r1'})-[r:CITES]->(b:Paper) RETURN a.id AS id, a.words AS words, a.year AS year,
               null AS nothing, {k: a.id, n: 2.5} AS map, [a.words, ['c']] AS nested, a, r, path, {k: a} AS node_map, [b] AS nodes"""
    with store.driver.session(database=store.database) as session:
        expected = [record.data() for record in session.run(query)]
    assert store.run(query) == expected
    plain = "MATCH (a:Paper {id: 'r1'}) RETURN a.id AS id, a.words AS words, {k: a.year} AS map, true AS yes"
    assert store.run(plain) == [{"id": "r1", "words": ["a", "b"], "map": {"k": 2020}, "yes": True}]


def test_load_is_idempotent_and_merges_spellings_into_one_concept(store):
    create_constraints(store)
    batch = [
        record("a", [("FooNet", "Method", [], True), ("BERT", "Method", ["bert"], False), ("SQuAD", "Dataset", [], None)]),
        record("b", [("BERT", "Method", ["BERTs"], False)], references=["a", "zz-not-loaded"],
               citations=[{"text": "Lee (2019)", "start": 0, "end": 10, "authors": ["Lee"], "year": 2019}]),
    ]
    for _ in range(2):
        load_records(store, batch)
    counts = stats(store)
    assert counts["nodes"] == {"Author": 1, "Concept": 3, "Dataset": 1, "Method": 2, "Paper": 2, "Reference": 2, "Venue": 1,
                               "Term": 6, "TextIndex": 1,  # the words of kg similar's text index
                               "PaperVectors": 2,  # and each paper's meaning (kg.dense)
                               "BuildState": 1}  # the batches' stamps
    # paper b's abstract writes FooNet and SQuAD too: the vocabulary pass links them (MENTIONS)
    # each paper indexes six words: title, propose, foonet, use, bert, squad
    assert counts["relationships"] == {"CITES": 3, "EVALUATES_ON": 1, "MENTIONS": 2, "OCCURS_IN": 12, "PROPOSES": 1,
                                       "PUBLISHED_IN": 2, "USES": 2, "WROTE": 2}
    bert = store.run("MATCH (c:Method {id: 'bert'}) RETURN c.name AS name, c.aliases AS aliases, c.papers AS papers")
    assert bert == [{"name": "BERT", "aliases": ["BERTs", "bert"], "papers": 2}]
    cites = store.run("MATCH (:Paper {id: 'b'})-[:CITES]->(x) RETURN labels(x)[0] AS label, coalesce(x.id, x.key) AS key ORDER BY key")
    assert cites == [{"label": "Paper", "key": "a"}, {"label": "Reference", "key": "lee-2019"}, {"label": "Reference", "key": "zz-not-loaded"}]
    evidence = store.run("MATCH (:Paper {id: 'a'})-[r:PROPOSES]->(c) RETURN r.evidence AS e, r.extractor AS x, r.start AS s")
    assert evidence == [{"e": "We propose FooNet.", "x": "gazetteer", "s": 3}]


def test_a_paper_extracted_again_gets_its_concepts_anew(store):
    create_constraints(store)
    lora = ("Low-Rank Adaptation", "Method", ["LoRA"], False)
    old = [record("a", [("FooNet", "Method", [], True), ("BERT", "Method", [], False), lora, ("SQuAD", "Dataset", [], None)]),
           record("b", [("BERT", "Method", [], False)])]
    for concept in old[0]["concepts"]:
        if concept["name"] == "Low-Rank Adaptation":
            concept["merges"] = [{"alias": "LoRA", "reason": "acronym"}]
    new = [record("a", [("FooNet", "Method", [], True), ("GPT-2", "Method", [], False)])]
    load_records(store, old)
    for _ in range(2):  # a newer extractor reads paper a differently
        load_records(store, new)
    names = store.run("MATCH (c:Concept) RETURN c.name AS name ORDER BY name")
    # BERT stays (paper b names it); SQuAD and Low-Rank Adaptation, named by no paper now, go
    assert [r["name"] for r in names] == ["BERT", "FooNet", "GPT-2"]
    counts = stats(store)["relationships"]
    assert (counts["PROPOSES"], counts["USES"], counts.get("EVALUATES_ON", 0)) == (1, 2, 0)


def test_new_and_stored_papers_give_the_same_graph(store):
    """The load creates what a batch knows is new and merges the rest: any split into batches,
    reruns included, gives the graph of one batch."""
    records = [
        record("a", [("FooNet", "Method", [], True), ("SQuAD", "Dataset", [], None)], references=["zz"]),
        record("b", [("SQuAD", "Method", ["squad"], False), ("BERT", "Method", [], False)], references=["a", "c"]),
        record("c", [("BERT", "Task", [], None), ("BERT", "Method", ["Bert"], False)], references=["a", "a"]),
        dict(record("c", []), text="Title c", title="Title c"),  # the same paper again, title only
    ]
    records[1]["authors"] = ["Ann Lee", "Bo Chen", "Ann Lee"]
    load_records(store, records)
    whole = graph_dump(store)
    store.run("MATCH (n) DETACH DELETE n", write=True)
    load_records(store, records[2:3])
    load_records(store, records[1:])
    load_records(store, records[:1])
    load_records(store, records)
    assert graph_dump(store) == whole
    assert stats(store)["nodes"]["Paper"] == 3


def test_constraints_reject_duplicates(store):
    create_constraints(store)
    store.run("CREATE (:Paper {id: 'dup'})", write=True)
    import pytest

    from kg.store.embedded import StoreError

    with pytest.raises(StoreError):
        store.run("CREATE (:Paper {id: 'dup'})", write=True)


def test_a_write_that_fails_on_a_row_stores_none_of_its_rows(store):
    """A write statement is one transaction: ArcadeDB would commit an auto-commit statement's deletes
    one row at a time and keep those before the failing row."""
    store.run("CREATE (:Paper {id: 'a'}), (:Paper {id: 'b'}), (:Paper {id: 'c'})-[:CITES]->(:Paper {id: 'd'})",
              write=True)
    with pytest.raises(StoreError):  # c still has a relationship: DELETE without DETACH fails there
        store.run("MATCH (p:Paper) WITH p ORDER BY p.id DELETE p", write=True)
    assert store.run("MATCH (p:Paper) RETURN p.id AS id ORDER BY id") == [{"id": i} for i in "abcd"]


def test_server_start_status_stop_and_reuse(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "served")
    assert runner.invoke(main, ["server", "status", "--db", db]).exit_code == 3
    started = runner.invoke(main, ["server", "start", "--db", db])
    assert started.exit_code == 0, started.output
    try:
        info = running_server(tmp_path / "served")
        assert info is not None
        assert runner.invoke(main, ["server", "status", "--db", db]).exit_code == 0
        # a command uses the running server instead of starting its own
        with open_store(db_dir=db) as store:
            assert store.description.endswith("served")
            store.run("CREATE (:Paper {id: 'kept'})", write=True)
        result = runner.invoke(main, ["stats", "--db", db, "--format", "json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["nodes"] == {"Paper": 1}
        assert running_server(tmp_path / "served").pid == info.pid
    finally:
        stopped = runner.invoke(main, ["server", "stop", "--db", db])
    assert stopped.exit_code == 0 and "Stopped" in stopped.output
    assert running_server(tmp_path / "served") is None
    assert oct(os.stat(tmp_path / "served" / "credentials").st_mode & 0o777) == "0o600"
    assert (tmp_path / "served" / "log").is_dir()


def test_wrong_neo4j_uri_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(main, ["stats", "--uri", "bolt://127.0.0.1:1"], env={"NEO4J_PASSWORD": "secret-value"})
    assert result.exit_code == 1
    assert "Neo4j at bolt://127.0.0.1:1" in result.output and "secret-value" not in result.output


def test_a_heap_the_jvm_cannot_take_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_HEAP", "1.5g")  # the JVM takes 1536m, not 1.5g
    with pytest.raises(StoreError, match=r"KG_HEAP='1.5g' is not a Java heap size.*1536m"):
        start_server(tmp_path / "db")
    assert not (tmp_path / "db").exists()  # refused before anything is made
