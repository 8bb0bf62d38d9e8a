"""``kg similar`` and ``kg.similar`` on a hand-made graph whose rankings are known by construction.

Eight papers (concepts given, not extracted), loaded as ``kg build`` loads a batch
(``graph_rows`` -> ``load_rows`` -> ``index_papers`` -> ``kg.dense.index_papers``, the shipped
encoder):

    qA        SparseFormer, summarization, arXiv (rare), ROUGE (Metric), NLP (Domain); cites r1, r2
    pText     the same words as qA (sparse attention, long documents); only the Domain NLP
    pConcept  SparseFormer, summarization, arXiv; other words
    pDomain   only the Domain NLP and machine translation; cites qA and pText
    pCite     cites r1 and r2 like qA; no shared word or concept
    pTwin1/2  the same text; only pTwin2's concepts have ROUGE (an extractor may miss a name)
    pBio      nothing in common with qA
"""

import json
import math
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from kg import dense
from kg.build import load_records
from kg.cli import main
from kg.errors import BadInput, PaperNotFound
from kg.graph import graph_rows
from kg.similar import TYPE_WEIGHTS, WEIGHTS, concept_types, similar_papers
from kg.store.load import load_rows
from kg.store.reads.text import bm25_neighbours
from kg.store.schema import create_constraints
from kg.textsim import K1, B, index_papers, query_words, terms, text_neighbours
from kg.vector_cache import CACHE_ENV

NLP = ("natural language processing", "Domain")
PAPERS = [
    ("qA", "Sparse attention for long documents",
     "We propose SparseFormer, a sparse attention model for summarization of long documents. "
     "On arXiv it improves ROUGE in natural language processing.",
     [("SparseFormer", "Method"), ("summarization", "Task"), ("arXiv", "Dataset"), ("ROUGE", "Metric"), NLP], ["r1", "r2"]),
    ("pText", "Long documents with sparse attention",
     "Sparse attention reads long documents: a sparse attention model of long documents in natural language processing.",
     [NLP], []),
    ("pConcept", "Compressing scientific articles",
     "SparseFormer condenses papers from arXiv; summarization quality is judged by people.",
     [("SparseFormer", "Method"), ("summarization", "Task"), ("arXiv", "Dataset")], []),
    ("pDomain", "Translating speech",
     "Speech translation with machine translation in natural language processing.",
     [("machine translation", "Task"), NLP], ["qA", "pText"]),
    ("pCite", "Protein folding kinetics",
     "Folding kinetics of proteins measured by calorimetry.", [], ["r1", "r2"]),
    ("pTwin1", "Metrics for generated text", "Judging generated text with overlap metrics like ROUGE.", [], []),
    ("pTwin2", "Metrics for generated text", "Judging generated text with overlap metrics like ROUGE.", [("ROUGE", "Metric")], []),
    ("pBio", "Cell growth in yeast", "Yeast cells grow in glucose.", [("Yeast", "Dataset")], []),
]
IDS = [p[0] for p in PAPERS]


def record(pid, title, text, concepts, references) -> dict:
    """A ``kg extract`` record whose concepts are the given ones (found where the text names them)."""
    found = []
    for name, type_ in concepts:
        start = text.find(name)
        assert start >= 0, (pid, name)
        found.append({"name": name, "type": type_, "key": name.lower(), "aliases": [], "mentions": [[start, start + len(name)]],
                      "evidence": [{"sentence": [0, len(text)], "rule": "test", "confidence": 1.0}],
                      "proposed": False if type_ == "Method" else None, "confidence": 1.0})
    return {"id": pid, "title": title, "title_derived": False, "text": text, "venue": None, "year": 2024, "authors": [],
            "doi": None, "references": references, "source": "test", "position": 1, "concepts": found, "citations": []}


def load(store, papers) -> None:
    """Load and index papers as one build batch."""
    records = [record(*p) for p in papers]
    load_rows(store, graph_rows(records))
    index_papers(store, [r["id"] for r in records])
    dense.index_papers(store, [r["id"] for r in records])


def fresh(store, *batches) -> None:
    store.run("MATCH (n) DETACH DELETE n", write=True)
    create_constraints(store)
    for batch in batches:
        load(store, batch)


@pytest.fixture(scope="module")
def db(session_store, store_dir, module_graphs, request):
    module_graphs.keep(request, lambda store: fresh(store, PAPERS))
    return str(store_dir)


def weight(df: int, type_: str, papers: int = 8, quality: float = 0.5) -> float:
    """A shared concept's weight as documented: type weight x ln(1 + (N - df + 0.5) / (df + 0.5)) x
    quality (0.5 here: these records carry no salience, so the build computes no quality)."""
    return TYPE_WEIGHTS[type_] * math.log(1 + (papers - df + 0.5) / (df + 0.5)) * quality


def ranking(store, paper, **kwargs) -> list[str]:
    return [r["id"] for r in similar_papers(store, paper, **kwargs)]


def test_text_ranks_the_paper_with_the_same_words_first(db, session_store):
    # pText repeats qA's rarest words; pConcept shares three; pDomain and pTwin2 share one or two
    ranked = ranking(session_store, "qA", by="text")
    assert ranked[:2] == ["pText", "pConcept"]
    assert "pCite" not in ranked and "pBio" not in ranked  # no word in common
    results = similar_papers(session_store, "qA", by="text")
    assert all(r["ranked_by"] == "text" and 0 < r["text"] <= 1 for r in results)
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)


def test_candidates_scored_from_their_texts_score_as_the_index_postings(db, session_store):
    """Candidates are scored from their stored texts (no postings read): the same BM25 as the
    store's sum over the index's postings, for every paper and query; the postings propose the
    papers a query's rare words find."""
    compared = 0
    for query in IDS:
        chosen, perfect, avg_length = query_words(session_store, query)
        by_postings = {r["id"]: r["score"] / perfect for r in
                       bm25_neighbours(session_store, query, chosen, K1, B, avg_length, len(IDS), [])}
        by_texts = text_neighbours(session_store, query, limit=0, among=IDS)
        assert by_texts.keys() == by_postings.keys(), query
        assert by_texts == pytest.approx(by_postings, rel=1e-9), query
        assert text_neighbours(session_store, query, limit=len(IDS)) == by_texts  # the same papers proposed
        compared += len(by_texts)
    assert compared >= 10  # scores to compare, not empty answers


def test_concepts_rank_by_rare_shared_concepts_with_type_weights(db, session_store):
    results = similar_papers(session_store, "qA", by="concepts")
    assert [r["id"] for r in results] == ["pConcept", "pTwin2", "pText", "pDomain"]
    own = weight(2, "Method") + weight(2, "Task") + weight(2, "Dataset") + weight(2, "Metric") + weight(3, "Domain")
    best = results[0]
    assert best["concepts"] == pytest.approx((weight(2, "Method") + weight(2, "Task") + weight(2, "Dataset")) / own, abs=1e-3)
    assert [(s["name"], s["type"]) for s in best["shared"]] == [("arXiv", "Dataset"), ("SparseFormer", "Method"),
                                                               ("summarization", "Task")]  # equal weights: by name
    assert best["shared"][0]["weight"] == pytest.approx(weight(2, "Dataset"), abs=1e-3)
    # a Metric counts half of a Method, a Domain a quarter
    assert results[1]["concepts"] == pytest.approx(weight(2, "Metric") / own, abs=1e-3)
    assert results[2]["concepts"] == pytest.approx(weight(3, "Domain") / own, abs=1e-3)
    # pText and pDomain share the same Domain; the tie goes to the larger text score
    assert results[2]["concepts"] == results[3]["concepts"] and results[2]["text"] > results[3]["text"]


def test_a_concept_of_higher_quality_weighs_more(db, session_store):
    session_store.run("MATCH (c:Concept {name: 'summarization'}) SET c.quality = 0.9", write=True)
    try:
        best = similar_papers(session_store, "qA", by="concepts")[0]
        assert best["id"] == "pConcept"
        assert [(s["name"], s["weight"]) for s in best["shared"]] == [
            ("summarization", pytest.approx(weight(2, "Task", quality=0.9), abs=1e-3)),  # first now: the heaviest
            ("arXiv", pytest.approx(weight(2, "Dataset"), abs=1e-3)), ("SparseFormer", pytest.approx(weight(2, "Method"), abs=1e-3))]
    finally:
        session_store.run("MATCH (c:Concept {name: 'summarization'}) SET c.quality = null", write=True)


def test_default_ranking_combines_the_three_signals_and_says_which_ranked(db, session_store):
    results = similar_papers(session_store, "qA")
    assert {r["id"] for r in results[:2]} == {"pText", "pConcept"}
    by_id = {r["id"]: r for r in results}
    for r in results:
        parts = {s: WEIGHTS[s] * r[s] for s in ("text", "concepts", "dense")}
        assert r["score"] == pytest.approx(sum(parts.values()), abs=1e-3)
        assert r["ranked_by"] == max(parts, key=parts.get)
    assert by_id["pText"]["ranked_by"] in ("text", "dense")   # its concept is a Domain: the text ranked it
    assert by_id["pConcept"]["concepts"] > by_id["pText"]["concepts"]
    assert by_id.get("pBio", {"score": 0})["score"] < by_id["pText"]["score"] / 2  # yeast is far from summarization
    assert "pCite" not in by_id or by_id["pCite"]["ranked_by"] == "dense"  # the default never reads references
    assert similar_papers(session_store, "qA", by="both") == results  # the former name of the default


def test_dense_ranks_the_same_meaning_first_and_shows_the_nearest_sentences(db, session_store):
    results = similar_papers(session_store, "pTwin1", by="dense")
    assert results[0]["id"] == "pTwin2" and results[0]["dense"] == pytest.approx(1.0, abs=1e-3)  # the same text
    assert all(r["ranked_by"] == "dense" and 0 <= r["dense"] <= 1 for r in results)
    assert [r["dense"] for r in results] == sorted((r["dense"] for r in results), reverse=True)
    pair = results[0]["sentences"]
    assert pair == {"query": "Judging generated text with overlap metrics like ROUGE.",
                    "match": "Judging generated text with overlap metrics like ROUGE.", "cosine": pytest.approx(1.0, abs=1e-2)}
    # a summarization paper is nearer in meaning to the other summarization paper than to yeast
    dense_of = {r["id"]: r["dense"] for r in similar_papers(session_store, "qA", by="dense", top=10)}
    assert dense_of["pConcept"] > dense_of.get("pBio", 0.0)


def test_the_sentence_vectors_are_stored_by_the_build_and_read_without_the_encoder(db, session_store):
    row = session_store.run("MATCH (p:Paper {id: 'qA'}), (v:PaperVectors {paper: 'qA'}) RETURN p.abstract AS abstract, "
                            "v.sentences AS sentences, v.sentence_dense AS packed")[0]
    assert row["sentences"] == [0, 86, 87, 145]  # qA's two sentences, as offsets in its abstract
    stored = dense.Sentences.stored(row["abstract"], row["sentences"], row["packed"])
    assert stored.texts == dense.sentences(row["abstract"]) and stored.vectors.shape == (2, 384)
    assert np.allclose(np.linalg.norm(stored.vectors, axis=1), 1.0, atol=1e-5)
    dense.default_model.cache_clear()  # a query about a stored paper runs no encoder, evidence included
    results = similar_papers(session_store, "qA", top=3)
    assert dense.default_model.cache_info().currsize == 0
    assert all(r["sentences"]["query"] in stored.texts for r in results)


def test_vectors_encoded_with_the_records_are_used_only_for_the_text_stored(session_store, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "0")  # what the encoder reads, not what the vector cache holds
    fresh(session_store, PAPERS)
    read = "MATCH (v:PaperVectors) RETURN v.paper AS id, v.dense AS dense, v.sentences AS s, v.sentence_dense AS sd ORDER BY id"
    want = session_store.run(read)
    session_store.run("MATCH (v:PaperVectors) DETACH DELETE v", write=True)
    encoded = {r["id"]: r.pop(dense.ENCODED) for r in dense.encode_records([record(*p) for p in PAPERS])}
    encoded["pBio"] = ("Cell growth in yeast Yeast cells divide on galactose.", encoded["qA"][1])  # not pBio's text

    class Counting(dense.Model):
        read: list = []

        def encode_with_sentences(self, texts, spans):
            texts = list(texts)
            self.read.extend(texts)
            return super().encode_with_sentences(texts, spans)

    assert dense.index_papers(session_store, IDS, model=Counting(), encoded=encoded) == len(PAPERS)
    assert Counting.read == ["Cell growth in yeast Yeast cells grow in glucose."]  # only the stale one encoded again
    assert session_store.run(read) == want
    fresh(session_store, PAPERS)


def test_a_build_encodes_in_its_extraction_workers(monkeypatch):
    from kg.build import extract_sources

    monkeypatch.setenv(CACHE_ENV, "0")  # the workers' vectors compared with the encoder's here, not the cache's

    dense.default_model.cache_clear()
    forked = list(extract_sources([str(FIXTURES / "abstracts_linked.txt")], n_process=2, vectors=True))
    assert dense.default_model.cache_info().currsize == 0  # the parent, which stores, never loaded the encoder
    assert len(forked) > 2 and all(dense.ENCODED in r for r in forked)
    again = dense.encode_records([{k: v for k, v in r.items() if k != dense.ENCODED} for r in forked])
    assert [r[dense.ENCODED] for r in again] == [r[dense.ENCODED] for r in forked]


def test_a_sentence_the_encoder_did_not_read_has_no_vector():
    text = "We measure soil moisture in alpine meadows every day. " * 30 + "The last sentence is never read at all."
    spans = dense.sentence_spans(text)
    found = dense.default_model().encode_with_sentences([text], [spans])[0]
    assert len(spans) == 31 and 0 < len(found.spans) < 31  # 256 tokens hold the first twenty-odd sentences
    assert found.spans == spans[:len(found.spans)] and found.sentences.shape == (len(found.spans), 384)
    assert np.array_equal(found.vector, dense.default_model().encode([text])[0])  # the paper's vector, from the same run


def test_a_draft_is_ranked_without_being_stored(db, session_store):
    draft = PAPERS[0][2]  # qA's abstract, as a draft
    papers_before = session_store.run("MATCH (n) RETURN count(n) AS n")[0]["n"]
    results = similar_papers(session_store, text=draft, top=3)
    assert results[0]["id"] == "qA"  # the paper with the same text
    assert results[0]["text"] == pytest.approx(1.0, abs=0.05) and results[0]["dense"] > 0.9
    assert results[0]["shared"]  # the draft's concepts, extracted on the fly, are qA's
    assert session_store.run("MATCH (n) RETURN count(n) AS n")[0]["n"] == papers_before
    with pytest.raises(BadInput, match="the draft is empty"):
        similar_papers(session_store, text="  \n ")
    with pytest.raises(BadInput, match="a draft cites nothing"):
        similar_papers(session_store, text=draft, by="citations")
    with pytest.raises(BadInput, match="either a paper id or a text"):
        similar_papers(session_store, "qA", text=draft)


def test_never_empty_for_a_paper_without_concepts(db, session_store):
    ranked = ranking(session_store, "pTwin1")
    assert ranked[0] == "pTwin2"  # same words
    assert ranking(session_store, "pTwin1", by="concepts") == []


def test_ties_go_to_the_larger_concept_score_not_the_id(db, session_store):
    # pTwin1 and pTwin2 hold the same words, so they tie on text; pTwin2 also shares the concept ROUGE
    fresh(session_store, PAPERS + [("pQ", "Generated text", "Generated text judged by ROUGE.", [("ROUGE", "Metric")], [])])
    try:
        results = similar_papers(session_store, "pQ", by="text")
        twins = [r for r in results if r["id"] in ("pTwin1", "pTwin2")]
        assert twins[0]["text"] == twins[1]["text"]
        assert [r["id"] for r in twins] == ["pTwin2", "pTwin1"]  # pTwin2 shares ROUGE; the id would pick pTwin1
    finally:
        fresh(session_store, PAPERS)


def test_citations_mode_counts_coupling_and_co_citation(db, session_store):
    results = similar_papers(session_store, "qA", by="citations")
    assert [(r["id"], r["coupled"], r["cocited"], r["ranked_by"]) for r in results] == [
        ("pCite", 2, 0, "citations"), ("pText", 0, 1, "citations")]
    assert results[0]["score"] == 2 and results[1]["shared"] == [{"name": "natural language processing", "type": "Domain",
                                                                   "weight": pytest.approx(weight(3, "Domain"), abs=1e-3)}]


def test_types_and_top_narrow_the_ranking(db, session_store):
    assert ranking(session_store, "qA", by="concepts", types=["dataset"]) == ["pConcept"]
    assert ranking(session_store, "qA", top=1, by="concepts") == ["pConcept"]
    assert concept_types([" method", "DOMAIN"]) == ["Method", "Domain"]
    with pytest.raises(BadInput, match="unknown concept type 'Model'; known: Method, Task, Dataset, Metric, Entity, Domain"):
        similar_papers(session_store, "qA", types=["Model"])
    with pytest.raises(BadInput, match="top must be at least 1"):
        similar_papers(session_store, "qA", top=0)
    with pytest.raises(BadInput, match="unknown ranking 'words'"):
        similar_papers(session_store, "qA", by="words")
    with pytest.raises(PaperNotFound, match="no paper with id 'p-missing'"):
        similar_papers(session_store, "p-missing")


def index_counts(store) -> dict:
    return store.run("MATCH (s:TextIndex) OPTIONAL MATCH (t:Term) WITH s, count(t) AS terms "
                     "OPTIONAL MATCH ()-[h:OCCURS_IN]->() RETURN s.papers AS papers, s.words AS words, terms, count(h) AS edges")[0]


def all_rankings(store) -> dict:
    return {(pid, by): similar_papers(store, pid, top=20, by=by) for pid in IDS for by in ("all", "text", "concepts", "dense")}


def built(store, *batches) -> None:
    """An empty graph, then one ``kg build`` a batch (each ends with the vocabulary pass, which
    keeps the concepts' paper counts that the ranking reads)."""
    fresh(store)
    for batch in batches:
        load_records(store, [record(*p) for p in batch])


def test_adding_papers_later_scores_as_building_all_at_once(session_store, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "0")  # each text encoded in other batches, not read from the vector cache
    built(session_store, PAPERS)
    at_once = all_rankings(session_store)
    built(session_store, PAPERS[5:], PAPERS[:3], PAPERS[3:5])
    assert all_rankings(session_store) == at_once
    fresh(session_store, PAPERS)
    counts = index_counts(session_store)
    fresh(session_store, PAPERS[5:], PAPERS[:3], PAPERS[3:5])
    assert index_counts(session_store) == counts
    load(session_store, PAPERS[:4])  # the same papers again change no count
    assert index_counts(session_store) == counts
    words = sum(sum(terms(f"{p[1]} {p[2]}").values()) for p in PAPERS)
    assert counts == {"papers": 8, "words": words, "terms": len(set().union(*(terms(f"{p[1]} {p[2]}") for p in PAPERS))),
                      "edges": sum(len(terms(f"{p[1]} {p[2]}")) for p in PAPERS)}


def test_a_changed_abstract_replaces_its_words(session_store):
    fresh(session_store, PAPERS)
    changed = ("pBio", "Cell growth in yeast", "Yeast cells divide on galactose.", [("Yeast", "Dataset")], [])
    load(session_store, [changed])
    stored = {r["id"] for r in session_store.run("MATCH (:Paper {id: 'pBio'})<-[:OCCURS_IN]-(t:Term) RETURN t.id AS id")}
    assert stored == set(terms("Cell growth in yeast Yeast cells divide on galactose."))
    assert not session_store.run("MATCH (t:Term {id: 'glucose'}) RETURN t")  # no paper has it any more
    fresh(session_store, PAPERS)


def kept_frequencies(store) -> dict:
    """Each word's kept document frequency and its number of edges."""
    return {r["id"]: (r["df"], r["edges"]) for r in store.run("MATCH (t:Term) RETURN t.id AS id, t.df AS df, "
                                                             "COUNT { (t)-[:OCCURS_IN]->() } AS edges")}


def test_each_words_document_frequency_moves_with_its_edges(session_store):
    fresh(session_store, PAPERS[5:], PAPERS[:3], PAPERS[3:5])
    load(session_store, [("pBio", "Cell growth in yeast", "Yeast cells divide on galactose.", [("Yeast", "Dataset")], [])])
    kept = kept_frequencies(session_store)
    texts = [f"{p[1]} {p[2]}" for p in PAPERS if p[0] != "pBio"] + ["Cell growth in yeast Yeast cells divide on galactose."]
    holding = Counter(word for text in texts for word in terms(text))
    assert kept == {word: (df, df) for word, df in holding.items()}  # pBio's old words moved with its old text
    answers = all_rankings(session_store)
    # an index made before the frequencies were kept: read by counting edges, then kept by the next build
    session_store.run("MATCH (t:Term) REMOVE t.df", write=True)
    session_store.run("MATCH (s:TextIndex) REMOVE s.df_kept", write=True)
    assert all_rankings(session_store) == answers
    load(session_store, PAPERS[:1])  # unchanged: no word moves, yet the old index gets its frequencies
    assert kept_frequencies(session_store) == kept
    assert session_store.run("MATCH (s:TextIndex) RETURN s.df_kept AS kept")[0]["kept"] is True
    assert all_rankings(session_store) == answers
    fresh(session_store, PAPERS)


def test_a_broad_concept_proposes_its_narrower_concepts_papers_only_when_they_are_few(session_store):
    from kg.store.reads.concepts import neighbours

    session_store.run("MATCH (n) DETACH DELETE n", write=True)
    session_store.run("CREATE (b:Concept {id: 'corpus', papers: 1})<-[:USES]-(:Paper {id: 'direct'}) "
                      "CREATE (b)<-[:BROADER]-(n:Concept {id: 'parallel corpus', papers: 2}) "
                      "CREATE (n)<-[:USES]-(:Paper {id: 'n1'}) CREATE (n)<-[:USES]-(:Paper {id: 'n2'})", write=True)
    broad = [{"id": "corpus", "weight": 1.0}]
    assert sorted(neighbours(session_store, "q", broad, 10, most=2)) == ["direct", "n1", "n2"]
    assert neighbours(session_store, "q", broad, 10, most=1) == ["direct"]  # 2 papers below it: more than 1
    fresh(session_store, PAPERS)


def test_exports_leave_the_text_index_out(db, session_store):
    from kg.export import store_graph

    graph = store_graph(session_store)
    assert {n.split(":", 1)[0] for n in graph.nodes} == {"Paper", "Concept", "Reference"}
    assert "OCCURS_IN" not in {d["type"] for _, _, d in graph.edges(data=True)}
    assert not any({"dense", "sentences", "sentence_dense"} & set(d) for _, d in graph.nodes(data=True))  # nor the vectors


def test_json_output_has_the_documented_shape(db):
    result = CliRunner().invoke(main, ["similar", "qA", "--top", "2", "--by", "concepts", "--format", "json", "--db", db])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [r["id"] for r in data] == ["pConcept", "pTwin2"]
    assert set(data[0]) == {"id", "title", "score", "ranked_by", "text", "concepts", "dense", "shared", "sentences"}
    assert set(data[0]["sentences"]) == {"query", "match", "cosine"}  # every result of the first ten has its evidence
    assert data[0]["title"] == "Compressing scientific articles" and data[0]["shared"][0]["name"] == "arXiv"


def test_table_output_explains_each_result(db):
    result = CliRunner().invoke(main, ["similar", "qA", "--top", "2", "--db", db])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Papers related to qA: Sparse attention for long documents"
    assert lines[1].startswith(f"score = {WEIGHTS['text']:.1f} x text + {WEIGHTS['concepts']:.1f} x concepts + "
                               f"{WEIGHTS['dense']:.1f} x dense")
    assert any(line.strip().startswith("ranked by ") and ", dense " in line for line in lines)
    assert any(line.strip().endswith("SparseFormer (Method)") for line in lines)
    lonely = CliRunner().invoke(main, ["similar", "pCite", "--by", "concepts", "--db", db])
    assert lonely.exit_code == 0 and "(no paper is related by concepts)" in lonely.output


def test_bad_input_is_a_clear_error_with_exit_1(db):
    runner = CliRunner()
    missing = runner.invoke(main, ["similar", "p-missing", "--db", db])
    assert missing.exit_code == 1 and "Error: no paper with id 'p-missing'" in missing.output
    assert "Traceback" not in missing.output and "papers/find" in missing.output
    bad_type = runner.invoke(main, ["similar", "qA", "--types", "Method,Models", "--db", db])
    assert bad_type.exit_code == 1 and "unknown concept type 'Models'" in bad_type.output
    assert runner.invoke(main, ["similar", "qA", "--top", "0", "--db", db]).exit_code == 2
    assert runner.invoke(main, ["similar", "qA", "--by", "words", "--db", db]).exit_code == 2
    helped = runner.invoke(main, ["similar", "--help"])
    assert helped.exit_code == 0 and "Example" in helped.output and "--by" in helped.output and "--text" in helped.output


def test_a_draft_from_the_cli(db, tmp_path):
    runner = CliRunner()
    draft = tmp_path / "draft.txt"
    draft.write_text(PAPERS[4][2], encoding="utf-8")  # pCite's abstract: no concept, its own words
    by_file = runner.invoke(main, ["similar", "--file", str(draft), "--top", "1", "--format", "json", "--db", db])
    assert by_file.exit_code == 0, by_file.output
    assert [r["id"] for r in json.loads(by_file.output)] == ["pCite"]
    by_text = runner.invoke(main, ["similar", "--text", PAPERS[4][2], "--top", "1", "--by", "dense", "--db", db])
    assert by_text.exit_code == 0 and by_text.output.startswith("Papers related to the draft: Folding kinetics")
    assert "pCite" in by_text.output and "nearest sentences" in by_text.output  # the meaning ranked it
    assert "this:  Folding kinetics of proteins measured by calorimetry." in by_text.output


@pytest.mark.parametrize("content, message", [
    (None, "no such file"), (b"", "empty; give the text of an abstract"), (b" \n\t\n", "empty"),
    (b"PK\x03\x04\x00\x00binary", "a binary file (byte 5 is NUL)"), (b"caf\xe9 au lait", "not UTF-8 text (byte 4)")])
def test_a_bad_draft_file_is_a_clear_error(db, tmp_path, content, message):
    draft = tmp_path / "draft.txt"
    if content is not None:
        draft.write_bytes(content)
    result = CliRunner().invoke(main, ["similar", "--file", str(draft), "--db", db])
    assert result.exit_code == 1 and f"Error: {draft}: {message}" in result.output and "Traceback" not in result.output


def test_one_query_at_a_time(db):
    runner = CliRunner()
    for args in ([], ["qA", "--text", "words"], ["--text", "words", "--file", "x.txt"]):
        result = runner.invoke(main, ["similar", *args, "--db", db])
        assert result.exit_code == 2 and "give one of: a paper id, --text TEXT, --file PATH" in result.output


def test_the_vectors_are_read_once_per_build_and_follow_a_changed_abstract(session_store):
    fresh(session_store, PAPERS)
    assert session_store.run("MATCH (p:Paper) WHERE NOT EXISTS { MATCH (v:PaperVectors {paper: p.id}) WHERE v.dense IS NOT NULL } "
                             "RETURN count(p) AS n")[0]["n"] == 0
    before = dense.matrix(session_store)
    assert dense.matrix(session_store) is before and len(before.ids) == len(PAPERS)
    assert before.vectors.shape == (len(PAPERS), 384)
    assert dense.index_papers(session_store, IDS) == 0  # the same texts: nothing written, the matrix stays
    assert dense.matrix(session_store) is before
    dense._CACHED.clear()  # as a new process: the file beside the store, mapped
    mapped = dense.matrix(session_store)
    assert isinstance(mapped.vectors, np.memmap) and mapped.ids == before.ids
    assert np.array_equal(np.asarray(mapped.vectors), before.vectors)
    load(session_store, [("pBio", "Summaries of long documents", "Sparse attention summarizes long documents.", [], [])])
    after = dense.matrix(session_store)
    assert after is not before
    nearest = similar_papers(session_store, "qA", by="dense", top=1)[0]["id"]
    assert nearest == "pBio"  # now about summarizing long documents with sparse attention
    fresh(session_store, PAPERS)


# What a kg from before the vectors' own nodes left: the vectors on the papers (tests/test_cypher_check.py too)
VECTORS_ON_PAPERS = ["MATCH (v:PaperVectors) MATCH (p:Paper {id: v.paper}) SET p.dense = v.dense, p.sentences = v.sentences, "
                     "p.sentence_dense = v.sentence_dense DETACH DELETE v",
                     "MATCH (s:BuildState) REMOVE s.vectors_apart"]


def test_vectors_an_older_kg_kept_on_the_papers_are_read_there_and_moved_by_the_next_build(session_store):
    fresh(session_store, PAPERS)
    read = "MATCH (v:PaperVectors) RETURN v.paper AS id, v.dense AS dense, v.sentences AS s, v.sentence_dense AS sd ORDER BY id"
    vectors = session_store.run(read)
    answer = [(r["id"], r["dense"]) for r in similar_papers(session_store, "qA", by="dense", top=3)]
    for older in VECTORS_ON_PAPERS:
        session_store.run(older, write=True)
    session_store.run("MATCH (s:BuildState) SET s.dense_version = 'older'", write=True)  # no matrix cached for it
    assert session_store.run(read) == []
    assert [(r["id"], r["dense"]) for r in similar_papers(session_store, "qA", by="dense", top=3)] == answer
    load(session_store, [("pNew", "Yeast cells", "Yeast cells divide on galactose.", [], [])])  # the next build
    assert session_store.run("MATCH (p:Paper) WHERE p.dense IS NOT NULL OR p.sentence_dense IS NOT NULL RETURN count(p) AS n")[0]["n"] == 0
    assert [r for r in session_store.run(read) if r["id"] != "pNew"] == vectors
    fresh(session_store, PAPERS)
