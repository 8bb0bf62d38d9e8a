"""One node per concept, linked wherever it is written: canonical keys, voted types, scoped
acronyms, corpus linking and BROADER edges, in the real embedded store."""

from __future__ import annotations

import itertools
import math
import re

import pytest
from conftest import EXAMPLES
from helpers.dump import graph_dump

import kg.build
import kg.store.vocabulary
import kg.vocabulary
from kg.build import load_records
from kg.extract import to_record
from kg.model import Paper
from kg.normalize import concept_key
from kg.store.reads.graph import count, stats
from kg.store.vocabulary import Totals, VocabularyReport


def concept(text: str, name: str, type_: str, key: str | None = None, aliases=(), merges=(), proposed=False) -> dict:
    """A concept as `kg extract` writes it, at its first mention in ``text``."""
    start = text.index(name)
    return {"name": name, "type": type_, "key": key or concept_key(name), "aliases": list(aliases), "merges": list(merges),
            "mentions": [[start, start + len(name)]], "proposed": proposed if type_ == "Method" else None,
            "confidence": 0.75, "evidence": [{"sentence": [0, len(text)], "rule": "scierc_ner", "confidence": 0.75}]}


def record(pid: str, text: str, *concepts: tuple) -> dict:
    return {"id": pid, "title": f"title {pid}", "text": text, "citations": [],
            "concepts": [concept(text, *c) for c in concepts]}


def links(store) -> list[tuple]:
    """Every Paper->Concept link with its type and extractor, and every concept with its type and name."""
    edges = store.run("MATCH (p:Paper)-[r]->(c:Concept) RETURN p.id AS p, type(r) AS t, c.id AS c, r.extractor AS x, "
                      "r.start AS s, r.end AS e")
    nodes = store.run("MATCH (c:Concept) RETURN c.id AS id, c.type AS type, c.name AS name, c.aliases AS aliases, "
                      "labels(c) AS labels, c.papers AS papers")
    broader = store.run("MATCH (a:Concept)-[:BROADER]->(b:Concept) RETURN a.id AS a, b.id AS b")
    return (sorted(tuple(sorted(r.items())) for r in edges),
            sorted((n["id"], n["type"], n["name"], tuple(n["aliases"]), tuple(sorted(n["labels"])), n["papers"]) for n in nodes),
            sorted((b["a"], b["b"]) for b in broader))


# Real sentences of the kinds the issue names (OpenAlex and SciERC abstracts, shortened).
BREAST = record("p-breast", "Breast cancer (BCa) is the most common cancer in women. BCa screening saves lives.",
                ("Breast cancer", "Task", None, ["BCa"], [{"alias": "BCa", "reason": "acronym"}]))
BLADDER = record("p-bladder", "Bladder cancer (BCa) recurs often. We model BCa recurrence with survival analysis.",
                 ("Bladder cancer", "Task", None, ["BCa"], [{"alias": "BCa", "reason": "acronym"}]),
                 ("survival analysis", "Method"))
GRM_DEFINES = record("p-defines", "The Gated Residual Mixer (GRM) is fast. We compare GRM with LSTM models.",
                     ("Gated Residual Mixer", "Method", None, ["GRM"], [{"alias": "GRM", "reason": "acronym"}]))
GRM_SHORT = record("p-short", "Compared with GRM, our parser is slower on long sentences.", ("parser", "Method"))
LORA = record("p-lora", "We study LoRA fine-tuning of large language models on bilingual parallel corpora.",
              ("LoRA fine-tuning of large language models", "Task"), ("bilingual parallel corpora", "Dataset"))
LLM = record("p-llm", "Large language models learn from parallel corpora. We use low-rank adaptation.",
             ("Large language models", "Method"), ("parallel corpora", "Dataset"), ("low-rank adaptation", "Method"))
RATE_TASK = record("p-rate1", "We tune the learning rate of the optimiser.", ("learning rate", "Task"))
RATE_METRIC = record("p-rate2", "Learning rates above 0.1 diverge.", ("Learning rates", "Metric"))
RATE_METRIC2 = record("p-rate3", "We report learning rates per layer.", ("learning rates", "Metric"))
ALL = [BREAST, BLADDER, GRM_DEFINES, GRM_SHORT, LORA, LLM, RATE_TASK, RATE_METRIC, RATE_METRIC2]


@pytest.fixture(scope="module")
def built(session_store, module_graphs, request):
    """The records built one at a time in order, then again (a rerun), then in reverse order from empty
    (which the store keeps for the tests that read it)."""
    store = session_store
    store.run("MATCH (n) DETACH DELETE n", write=True)
    for rec in ALL:
        load_records(store, [rec])
    forward = links(store)
    load_records(store, ALL)
    again = links(store)

    def load_backward(store):
        store.run("MATCH (n) DETACH DELETE n", write=True)
        for rec in reversed(ALL):
            load_records(store, [rec])

    module_graphs.keep(request, load_backward)
    backward = links(store)
    yield forward, again, backward
    store.run("MATCH (n) DETACH DELETE n", write=True)


def test_any_order_and_a_rerun_give_the_same_links(built):
    forward, again, backward = built
    assert forward == again  # a rerun changes nothing, not only the counts
    assert forward == backward  # every link, node and BROADER edge, whatever the order


def test_an_acronym_defined_in_a_paper_aliases_only_there(built):
    edges, nodes, _ = built[0]
    by_id = {n[0]: n for n in nodes}
    assert "breast cancer" in by_id and "bladder cancer" in by_id
    assert by_id["breast cancer"][3] == ("BCa",) and by_id["bladder cancer"][3] == ("BCa",)
    targets = {(dict(e)["p"], dict(e)["c"]) for e in edges}
    # "BCa" means two things: no paper is linked to the other paper's cancer
    assert ("p-breast", "bladder cancer") not in targets and ("p-bladder", "breast cancer") not in targets


def test_a_defined_acronym_links_papers_that_only_write_it(built):
    edges, _, _ = built[0]
    short = [dict(e) for e in edges if dict(e)["p"] == "p-short"]
    grm = [e for e in short if e["c"] == "gated residual mixer"]
    assert grm == [{"p": "p-short", "t": "MENTIONS", "c": "gated residual mixer", "x": "vocabulary", "s": 14, "e": 17}]


# OpenAlex: "TG" is the trigeminal ganglion of one paper and the triglyceride of another, which
# writes it in brackets the acronym finder does not read.
GANGLION = record("p-ganglion", "Inflammatory orofacial pain is closely related to the cross-talk between trigeminal "
                  "ganglion (TG) neurons and satellite glial cells.",
                  ("trigeminal ganglion", "Entity", None, ["TG"], [{"alias": "TG", "reason": "acronym"}]))
LIPOGENESIS = record("p-lipogenesis", "SAT expandability, assessed by measuring SAT lipogenesis (triglyceride [TG] "
                     "production), was reduced.", ("SAT lipogenesis", "Task"))


def test_a_two_letter_acronym_links_only_the_papers_defining_it(store):
    build_in_batches(store, [GANGLION, LIPOGENESIS, GRM_DEFINES, GRM_SHORT], 4)
    edges = {(dict(e)["p"], dict(e)["c"]) for e in links(store)[0]}
    assert ("p-ganglion", "trigeminal ganglion") in edges
    assert ("p-lipogenesis", "trigeminal ganglion") not in edges
    assert ("p-short", "gated residual mixer") in edges  # three letters: "GRM" still links


def test_names_inside_longer_spans_are_linked_with_their_evidence(built, session_store):
    edges, _, _ = built[0]
    lora = {dict(e)["c"]: dict(e) for e in edges if dict(e)["p"] == "p-lora"}
    # "LoRA" is a known acronym of low-rank adaptation; both names sit inside a longer Task span
    assert lora["low rank adaptation"]["t"] == "MENTIONS" and lora["low rank adaptation"]["s"] == 9
    assert lora["large language model"]["t"] == "MENTIONS"
    assert lora["bilingual parallel corpus"]["t"] == "EVALUATES_ON"
    evidence = session_store.run("MATCH (:Paper {id: 'p-lora'})-[r:MENTIONS]->(:Concept {id: 'large language model'}) "
                                 "RETURN r.evidence AS e, r.spelling AS s, r.confidence AS c")
    assert evidence == [{"e": LORA["text"], "s": "Large language models", "c": 0.6}]


def test_one_node_per_name_typed_by_most_papers(built):
    edges, nodes, _ = built[0]
    rate = [n for n in nodes if n[0] == "learning rate"]
    assert rate == [("learning rate", "Metric", "learning rates", ("Learning rates", "learning rate"),
                     ("Concept", "Metric"), 3)]
    kinds = sorted(dict(e)["t"] for e in edges if dict(e)["c"] == "learning rate")
    assert kinds == ["ADDRESSES", "MEASURES", "MEASURES"]  # each paper's reading stays on its edge


def test_broader_concepts_join_longer_names(built):
    _, _, broader = built[0]
    assert ("bilingual parallel corpus", "parallel corpus") in broader


def test_a_name_in_an_extracted_record_is_one_concept_whatever_its_spelling(nlp):
    text = ("We adapt Low-Rank Adaptation (LoRA) to speech. Vanilla LoRA and LoRA variants fail on long inputs, "
            "while low-rank adaptations of the decoder do not.")
    rec = to_record(Paper(id="p", title="t", abstract=text), nlp(text))
    keys = [c["key"] for c in rec["concepts"] if c["type"] != "Domain"]
    assert keys.count("low rank adaptation") == 1
    lora = next(c for c in rec["concepts"] if c["key"] == "low rank adaptation")
    assert lora["name"] == "Low-Rank Adaptation" and "LoRA" in lora["aliases"]
    for start, end in lora["mentions"]:  # exact mention offsets stay in the record
        assert concept_key(text[start:end]) == "low rank adaptation"


# Names that come after the abstracts writing them: "BCa" is breast cancer's alias until bladder cancer's
# paper defines it too; "GRM" is defined after the paper that writes it.
BC_WRITTEN = record("p-bc", "BCa screening saves lives. We study LoRA fine-tuning.", ("screening", "Task"))
LATER = [BREAST, BC_WRITTEN, GRM_SHORT, LORA, RATE_TASK, BLADDER, GRM_DEFINES, LLM, RATE_METRIC, RATE_METRIC2]


def build_in_batches(store, records, size):
    """One build of ``records`` in batches of ``size`` papers into the emptied store; its vocabulary report."""
    store.run("MATCH (n) DETACH DELETE n", write=True)
    patch = pytest.MonkeyPatch()
    patch.setattr(kg.build, "PAPERS_PER_BATCH", size)
    try:
        return load_records(store, records)[1]
    finally:
        patch.undo()


def test_a_build_in_batches_gives_the_graph_of_one_batch(store):
    """Each batch links its abstracts to the names known so far; the end of the build adds the
    names that came later and drops links whose spelling came to name another concept."""
    build_in_batches(store, LATER, len(LATER))
    whole = graph_dump(store)
    edges = {(dict(e)["p"], dict(e)["c"]) for e in links(store)[0]}
    assert ("p-short", "gated residual mixer") in edges  # GRM was defined after p-short was stored
    assert ("p-bc", "low rank adaptation") in edges
    assert not {c for p, c in edges if p == "p-bc"} & {"breast cancer", "bladder cancer"}  # BCa names neither now
    for size in (1, 2, 3):
        build_in_batches(store, LATER, size)
        assert graph_dump(store) == whole, size
    build_in_batches(store, LATER[::-1], 1)
    assert graph_dump(store) == whole


# a name written otherwise in an earlier abstract: apart, plural, British, irregular plural
WRITTEN_OTHERWISE = record("p-otherwise", "We fine-tune pre-trained Transformers on parallel corpora for language modelling.")
NAMED_LATER = record("p-named", "Pretrained transformers need a parallel corpus. Language modeling is costly.",
                     ("Pretrained transformers", "Method"), ("parallel corpus", "Dataset"), ("Language modeling", "Task"))


def test_the_abstracts_that_may_write_a_later_name_are_found_through_the_text_index(store, monkeypatch):
    """The end of the build reads only the stored abstracts the text index says may write a name
    that came after them; the graph is the one of reading them all."""
    records = [WRITTEN_OTHERWISE, NAMED_LATER, *LATER]
    build_in_batches(store, records, len(records))
    whole = graph_dump(store)
    edges = {(dict(e)["p"], dict(e)["c"]) for e in links(store)[0]}
    assert {("p-otherwise", c) for c in ("pretrained transformer", "parallel corpus", "language modeling")} <= edges
    monkeypatch.setattr(kg.vocabulary, "READ_ALL_AT", math.inf)  # the index's papers, however many
    for size in (1, 2, 3):
        report = build_in_batches(store, records, size)
        assert graph_dump(store) == whole, size
        assert 0 < report.abstracts < len(records)
    build_in_batches(store, records[::-1], 1)
    assert graph_dump(store) == whole


def written_otherwise(name: str) -> set[str]:
    """Spellings of ``name`` an abstract may write: its last word in the plural or singular, British
    or American, irregular plurals, a known prefix apart, hyphenated or glued."""
    from kg.normalize import _BRITISH, _IRREGULAR, _PREFIXES

    words = name.split(" ")
    last = words[-1]
    lasts = {last, last + "s", last[:-1] if last.endswith("s") else last, *_IRREGULAR.get(last, "").split(),
             *(one for plural, one in _IRREGULAR.items() if plural == last), *(p for p, one in _IRREGULAR.items() if one == last)}
    lasts |= {_BRITISH.get(w, w) for w in lasts} | {b for b, a in _BRITISH.items() if a in lasts}
    out = {" ".join([*words[:-1], w]) for w in lasts if w}
    for p in _PREFIXES:
        out |= {n.replace(f"{p}-", p).replace(f"{p} ", p) for n in out} | {n.replace(p, f"{p}-", 1) for n in out if n.startswith(p)}
    return out


def test_an_abstract_that_writes_a_name_has_a_word_the_index_keys_each_of_its_words_by():
    """What lets the end of a build read only some stored abstracts: wherever the vocabulary's
    matcher finds a name, the text index has, for each word of the name, a word beginning with one
    of its prefixes (``index_prefixes``). Names: every run of one to three words of the bundled
    abstracts, each also written otherwise."""
    from kg.name_matching import NameMatcher, index_prefixes
    from kg.textsim import terms

    texts = [abstract for path in sorted(EXAMPLES.glob("*.txt"))
             for abstract in path.read_text(encoding="utf-8").split("\n\n") if len(abstract) > 300]
    names = set()
    for text in texts:
        words = re.findall(r"[\w-]+", text.lower())
        for n in (1, 2, 3):
            for i in range(len(words) - n + 1):
                names |= written_otherwise(" ".join(words[i:i + n]))
    matcher = NameMatcher({name: name for name in names})
    matched = 0
    for text in texts:
        words = set(terms(text))
        for match in matcher.find(text):
            keys = index_prefixes(match.spelling)
            assert keys is not None, match.spelling
            for prefixes in keys:
                assert any(word.startswith(prefixes) for word in words), (match.spelling, text[match.start:match.end])
            matched += keys != []
    assert len(texts) > 50 and matched > 10_000


def filler(i: int) -> dict:
    return record(f"p-filler{i}", f"Study {i} colours random graphs with greedy heuristics and reports the colours used.")


def test_the_abstracts_a_build_reads_again_do_not_grow_with_the_stored_collection(store):
    read = []
    for stored in (8, 32):
        store.run("MATCH (n) DETACH DELETE n", write=True)
        load_records(store, [filler(i) for i in range(stored)] + [WRITTEN_OTHERWISE])
        papers, report = load_records(store, [NAMED_LATER])
        edges = {(dict(e)["p"], dict(e)["c"]) for e in links(store)[0]}
        assert ("p-otherwise", "parallel corpus") in edges
        read.append(report.abstracts)
    assert read == [1, 1]  # the one stored abstract that writes its names, of 9 and of 33


def test_the_report_counts_the_links_in_the_graph_whatever_the_batches(store):
    """The build line's links are the graph's; what a build changed differs with its batches, and a
    rebuild of an unchanged graph changes nothing: no link written, no concept voted anew."""
    whole = build_in_batches(store, LATER, len(LATER))
    one_by_one = build_in_batches(store, LATER, 1)
    rebuilt = load_records(store, LATER)[1]
    in_graph = store.run("MATCH (:Paper)-[r:MENTIONS]->(:Concept) RETURN count(r) AS n")[0]["n"]
    assert in_graph > 0 and whole.linked == one_by_one.linked == rebuilt.linked == in_graph
    assert whole.links == in_graph and whole.concepts == 0  # one batch: each link written once, each concept created voted
    assert one_by_one.links > whole.links and one_by_one.concepts > 0  # links and votes the end of the build redid
    assert (rebuilt.links, rebuilt.concepts, rebuilt.relabelled) == (0, 0, 0)
    assert rebuilt.line().startswith(f"Vocabulary: 0 concepts voted anew (0 typed anew), {in_graph} links where an "
                                     "abstract writes a concept's name (0 new or changed by this build), ")
    changed = dict(LATER[0], text=LATER[0]["text"] + " LoRA helps.")  # one abstract writes one name more
    again = load_records(store, LATER[:1] + [changed] + LATER[1:])[1]
    assert again.links == 1 and again.linked == in_graph + 1


def test_a_link_that_goes_with_its_concept_is_not_counted(store):
    """A paper read again names FooNet no more while its abstract still writes it: the batch links
    the name, then FooNet, named by no extraction now, goes with that link; the build wrote none."""
    load_records(store, [record("p-foo", "We propose FooNet for parsing.", ("FooNet", "Method"))])
    report = load_records(store, [record("p-foo", "We propose FooNet for parsing.")])[1]
    assert store.run("MATCH (c:Concept) RETURN count(c) AS n") == [{"n": 0}]
    assert (report.links, report.linked) == (0, 0)


def test_a_vote_that_retypes_hundreds_of_concepts_labels_each_one(store):
    """Each concept ends with the one type label of its vote, however many change at once (ArcadeDB
    wrote a statement with two label changes right for its first 100 rows only: from the 101st on,
    a concept lost both labels and its vote went to another concept)."""
    names = [f"mixer {n:03}" for n in range(250)]
    text = ", ".join(names) + "."
    records = [record("p-task", text, *[(n, "Task") for n in names])]
    records += [record(f"p-method{i}", text, *[(n, "Method") for n in names]) for i in (1, 2)]
    report = build_in_batches(store, records, 1)
    assert (report.concepts, report.relabelled) == (250, 250)
    rows = store.run("MATCH (c:Concept) RETURN c.id AS id, labels(c) AS labels, c.type AS type, c.papers AS papers")
    assert sorted((r["id"], tuple(sorted(r["labels"])), r["type"], r["papers"]) for r in rows) == [
        (n, ("Concept", "Method"), "Method", 3) for n in names]
    assert count(store)["nodes"]["Method"] == 250 and "Task" not in count(store)["nodes"]
    whole = graph_dump(store)
    assert load_records(store, records)[1].concepts == 0
    assert graph_dump(store) == whole


def test_a_concepts_quality_does_not_depend_on_the_order_of_its_edges():
    """Four real saliences (AAN's "unrestricted coreference resolution") whose float sum rounds to a
    mean of 0.973 or 0.974 by the order they are added in: a rebuild read them in another order."""
    saliences = [0.972, 0.974, 0.975, 0.973]
    totals = [Totals.of([{"paper": f"p{i}", "year": 2011, "mentions": 1, "salience": s} for i, s in enumerate(order)],
                        "unrestricted coreference resolution", "Task").properties()
              for order in itertools.permutations(saliences)]
    assert len({(t["salience"], t["quality"]) for t in totals}) == 1


def test_a_batch_links_its_abstracts_to_the_names_known_so_far(store):
    """Before bladder cancer's paper, "BCa" names breast cancer: the paper writing it is linked in its batch."""
    patch = pytest.MonkeyPatch()
    patch.setattr(kg.build, "finish_vocabulary", lambda *args, **kwargs: VocabularyReport())  # the end left out
    try:
        build_in_batches(store, LATER[:2], 1)
    finally:
        patch.undo()
    link = store.run("MATCH (:Paper {id: 'p-bc'})-[r:MENTIONS]->(c:Concept) RETURN c.id AS c, r.spelling AS s, c.papers AS n")
    assert link == [{"c": "breast cancer", "s": "BCa", "n": 1}]  # its paper count is the end's to write, once
    assert kg.store.vocabulary.build_state(store) == (2, 0)  # two batches stamped, none finished


def test_a_concept_no_later_batch_names_is_not_written_again(store):
    report = build_in_batches(store, [RATE_TASK, LORA], 1)
    assert report.concepts == 0  # each concept was created with its batch's vote and paper count
    nodes = store.run("MATCH (c:Concept) RETURN c.id AS id, c.name AS name, c.papers AS papers, labels(c) AS labels "
                      "ORDER BY id")
    assert {n["id"]: (n["name"], n["papers"]) for n in nodes}["learning rate"] == ("learning rate", 1)
    report = build_in_batches(store, [RATE_TASK, RATE_METRIC, RATE_METRIC2], 1)
    assert report.concepts == 1 and report.relabelled == 1  # learning rate: voted a Metric by the later papers


def test_a_build_killed_before_its_vocabulary_pass_is_finished_by_the_next(store):
    build_in_batches(store, LATER, 2)
    clean = graph_dump(store)

    def killed(*args, **kwargs):
        raise RuntimeError("killed")

    patch = pytest.MonkeyPatch()
    patch.setattr(kg.build, "finish_vocabulary", killed)
    try:
        with pytest.raises(RuntimeError):
            build_in_batches(store, LATER, 2)
    finally:
        patch.undo()
    assert graph_dump(store) != clean  # the names that came later are not linked yet
    load_records(store, [])  # the next build, of nothing new
    assert graph_dump(store) == clean


def kept_totals(store) -> dict:
    rows = store.run("MATCH (c:Concept) RETURN c.id AS id, c.papers AS papers, c.mentions AS mentions, c.years AS years, "
                     "c.year_papers AS year_papers, c.quality AS quality, c.rated AS rated, c.salience AS salience")
    return {r.pop("id"): r for r in rows}


def counted_totals(store) -> dict:
    """Every concept's totals counted from its edges now."""
    edges: dict[str, list[dict]] = {}
    concepts = {}
    for row in store.run("MATCH (p:Paper)-[r]->(c:Concept) RETURN c.id AS c, c.name AS name, c.type AS type, p.id AS paper, "
                         "p.year AS year, r.mentions AS mentions, r.salience AS salience"):
        concepts[row["c"]] = (row.pop("name"), row.pop("type"))
        edges.setdefault(row.pop("c"), []).append(row)
    return {cid: Totals.of(found, *concepts[cid]).properties() for cid, found in edges.items()}


def assert_counts_exact(store) -> None:
    """The totals and counts the builds keep are those of the graph, counted now."""
    assert kept_totals(store) == counted_totals(store)
    assert stats(store) == count(store)
    years = store.run("MATCH (s:BuildState) RETURN s.years AS years, s.year_papers AS papers")[0]
    by_year = store.run("MATCH (p:Paper) WHERE p.year IS NOT NULL RETURN p.year AS year, count(*) AS n ORDER BY year")
    assert list(zip(years["years"], years["papers"])) == [(r["year"], r["n"]) for r in by_year]


DATED = [dict(r, year=2018 + i % 3) for i, r in enumerate(LATER)]


def test_kept_totals_stay_exact_under_reruns_incremental_builds_and_extraction_again(store):
    build_in_batches(store, DATED, 2)
    assert_counts_exact(store)
    top = kept_totals(store)["low rank adaptation"]
    assert top["papers"] >= 2 and top["years"]  # linked where LoRA is written, extracted where it is read
    load_records(store, DATED)  # a rerun
    assert_counts_exact(store)
    store.run("MATCH (n) DETACH DELETE n", write=True)
    for i in range(0, len(DATED), 3):  # incremental builds, names coming in later builds
        load_records(store, DATED[i:i + 3])
        assert_counts_exact(store)
    again = dict(DATED[0], year=2030, concepts=[])  # breast cancer's paper extracted again, naming nothing now
    load_records(store, [again])
    assert_counts_exact(store)
    assert "breast cancer" not in kept_totals(store)


def test_a_graph_from_before_concept_totals_gets_them_at_its_next_build(store):
    build_in_batches(store, DATED, 3)
    clean = graph_dump(store)
    # as the previous version left a graph: no totals, no stamps, no BuildState, a flag on each paper
    store.run("MATCH (c:Concept) REMOVE c.mentions, c.years, c.year_papers", write=True)
    store.run("MATCH (p:Paper) REMOVE p.stamp SET p.linked = true", write=True)
    store.run("MATCH (s:BuildState) DELETE s", write=True)
    load_records(store, [])
    assert graph_dump(store) == clean
    assert_counts_exact(store)


def test_a_domain_a_paper_names_as_a_concept_is_the_domains_node(store, nlp):
    """A name is one node whatever its type: "biology" read as an Entity is the domain biology's node,
    which papers of that domain meet on (two nodes named "biology" in an OpenAlex build before)."""
    texts = {  # OpenAlex sample
        "p-ros": ("This review discusses the current knowledge of the role of physiologically generated ROS and the "
                  "enzymes that form them in both normal biology and disease."),
        "p-lineage": ("Reconstructing the lineage relationships and dynamic event histories of individual cells within "
                      "their native spatial context is a long-standing challenge in biology."),
    }
    records = [to_record(Paper(id=pid, title=pid, abstract=text), nlp(text)) for pid, text in texts.items()]
    assert all({("biology", "Entity"), ("biology", "Domain")} <= {(c["key"], c["type"]) for c in r["concepts"]}
               for r in records)  # the records keep each reading
    build_in_batches(store, records, 1)
    nodes = store.run("MATCH (c:Concept) WHERE toLower(c.name) = 'biology' RETURN c.id AS id, c.type AS type, c.papers AS papers")
    assert nodes == [{"id": "domain:biology", "type": "Domain", "papers": 2}]
    edges = store.run("MATCH (p:Paper)-[r]->(:Concept {id: 'domain:biology'}) RETURN p.id AS p, type(r) AS t ORDER BY p, t")
    assert [(e["p"], e["t"]) for e in edges] == [("p-lineage", "INVOLVES"), ("p-lineage", "IN_DOMAIN"),
                                                 ("p-ros", "INVOLVES"), ("p-ros", "IN_DOMAIN")]
