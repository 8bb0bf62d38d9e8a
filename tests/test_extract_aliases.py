"""One concept, many spellings, across papers: the alias table in the store (embedded ArcadeDB over Bolt)."""

import pytest

from kg.extract import to_record
from kg.graph import graph_rows
from kg.model import Paper
from kg.store.schema import create_constraints, load_rows, stats

# Hu et al. (2021) define the acronym; the other paper only writes "LoRA"; a third only the long form.
DEFINES = ("We propose Low-Rank Adaptation, or LoRA, which freezes the pre-trained model weights and injects "
           "trainable rank decomposition matrices into each layer of the Transformer architecture.")
SHORT_ONLY = "We fine-tune GPT-3 with LoRA and report accuracy on GLUE."
LONG_ONLY = "Parameter-efficient fine-tuning with low-rank adaptation keeps most weights frozen."


def records(nlp, *texts):
    return [to_record(Paper(id=f"p{i}-{hash(t) & 0xffff}", title=t[:20], abstract=t), nlp(t)) for i, t in enumerate(texts)]


def lora_nodes(store):
    return store.run("MATCH (c:Method) WHERE toLower(c.name) IN ['lora', 'low-rank adaptation'] "
                     "RETURN c.id AS id, c.name AS name, c.aliases AS aliases")


def papers_on(store, concept_id):
    rows = store.run("MATCH (p:Paper)-[r]->(c:Concept {id: $id}) RETURN p.id AS paper, r.evidence AS evidence, "
                     "r.start AS start, r.end AS end, r.extractor AS extractor, r.confidence AS confidence",
                     {"id": concept_id})
    return rows


@pytest.mark.parametrize("order", ["short_first", "defining_first", "one_batch"])
def test_lora_and_low_rank_adaptation_share_one_node(store, nlp, order):
    create_constraints(store)
    defines, short_only, long_only = records(nlp, DEFINES, SHORT_ONLY, LONG_ONLY)
    batches = {"short_first": [[short_only], [defines], [long_only]],
               "defining_first": [[defines], [short_only], [long_only]],
               "one_batch": [[short_only, long_only, defines]]}[order]
    for _ in range(2):  # a rerun changes nothing
        for batch in batches:
            load_rows(store, graph_rows(batch))
    nodes = lora_nodes(store)
    assert len(nodes) == 1, nodes
    linked = papers_on(store, nodes[0]["id"])
    assert sorted(r["paper"] for r in linked) == sorted(r["id"] for r in (defines, short_only, long_only))
    for edge in linked:  # evidence on every concept edge
        assert edge["evidence"] and edge["end"] > edge["start"] >= 0 and edge["extractor"] and 0 < edge["confidence"] <= 1
    aliases = store.run("MATCH (a:Alias)-[r:ALIAS_OF]->(c:Concept {id: $id}) RETURN a.key AS key, r.reason AS reason",
                        {"id": nodes[0]["id"]})
    assert {a["key"] for a in aliases} | {nodes[0]["id"]} == {"method:lora", "method:low rank adaptation"}
    assert all(a["reason"] in ("acronym", "known_acronym") for a in aliases)
    counts = stats(store)
    assert counts["nodes"]["Alias"] == 1


def concept_record(pid, text, name, key, aliases=(), merges=()):
    """A record as `kg extract` writes it, with one Method concept at its first mention."""
    start = text.index(name)
    return {"id": pid, "title": "t", "text": text, "citations": [], "concepts": [
        {"name": name, "type": "Method", "key": key, "aliases": list(aliases), "merges": list(merges),
         "mentions": [[start, start + len(name)]], "proposed": False, "confidence": 0.75,
         "evidence": [{"sentence": [0, len(text)], "rule": "scierc_ner", "confidence": 0.75}]}]}


def test_defined_acronym_joins_across_papers_without_the_known_table(store):
    create_constraints(store)
    long_only = concept_record("p-long", "We evaluate the Gated Residual Mixer on speech data.",
                               "Gated Residual Mixer", "gated residual mixer")
    defines = concept_record("p-defines", "The Gated Residual Mixer (GRM) is fast. We compare GRM with LSTM models.",
                             "Gated Residual Mixer", "gated residual mixer", aliases=["GRM"],
                             merges=[{"alias": "GRM", "reason": "acronym"}])
    short_only = concept_record("p-short", "Compared with GRM, our parser is slower.", "GRM", "grm")
    for batch in ([short_only], [long_only], [defines], [short_only]):
        load_rows(store, graph_rows(batch))
    # the short form was stored first, then a paper with the long form: two nodes, until the
    # defining paper shows them to be one; the long form's node absorbs the other
    nodes = store.run("MATCH (c:Concept) RETURN c.id AS id, c.aliases AS aliases")
    assert nodes == [{"id": "method:gated residual mixer", "aliases": ["GRM"]}]
    reason = store.run("MATCH (a:Alias)-[r:ALIAS_OF]->(c) RETURN a.key AS key, c.id AS id, r.reason AS reason, r.paper AS paper")
    assert reason == [{"key": "method:grm", "id": "method:gated residual mixer", "reason": "acronym", "paper": "p-defines"}]
    papers = papers_on(store, "method:gated residual mixer")
    assert sorted(r["paper"] for r in papers) == ["p-defines", "p-long", "p-short"]
    assert all(r["evidence"] and r["extractor"] == "scierc_ner" for r in papers)


def test_defined_acronym_sends_later_short_forms_to_the_long_form(store):
    create_constraints(store)
    defines = concept_record("p-defines", "The Gated Residual Mixer (GRM) is fast. We compare GRM with LSTM models.",
                             "Gated Residual Mixer", "gated residual mixer", aliases=["GRM"],
                             merges=[{"alias": "GRM", "reason": "acronym"}])
    short_only = concept_record("p-short", "Compared with GRM, our parser is slower.", "GRM", "grm")
    long_only = concept_record("p-long", "We evaluate the Gated Residual Mixer on speech data.",
                               "Gated Residual Mixer", "gated residual mixer")
    for batch in ([defines], [short_only], [long_only]):
        load_rows(store, graph_rows(batch))
    nodes = store.run("MATCH (c:Concept) RETURN c.id AS id, c.aliases AS aliases")
    assert nodes == [{"id": "method:gated residual mixer", "aliases": ["GRM"]}]
    assert sorted(r["paper"] for r in papers_on(store, "method:gated residual mixer")) == ["p-defines", "p-long", "p-short"]
