"""Extraction on real sentences through the real spaCy pipeline."""

from kg.extract import COMPONENTS, extract, to_record
from kg.model import Paper


def record_of(nlp, text):
    return to_record(Paper(id="t", title="t", abstract=text), nlp(text))


def concepts(record):
    return {(c["name"], c["type"]): c for c in record["concepts"]}


def test_pipeline_runs_parser_and_project_components(nlp):
    assert nlp.pipe_names[-len(COMPONENTS):] == list(COMPONENTS)
    assert "parser" in nlp.pipe_names and "ner" not in nlp.pipe_names


def test_every_mention_offset_slices_its_text(nlp):
    from conftest import EXAMPLES

    from loaders import load

    for record in extract(load([str(EXAMPLES)]), nlp):
        assert record["text"]
        for concept in record["concepts"]:
            assert concept["type"] in ("Method", "Task", "Dataset", "Metric", "Domain")
            assert (concept["proposed"] is None) == (concept["type"] != "Method")
            for (start, end), evidence in zip(concept["mentions"], concept["evidence"]):
                s_start, s_end = evidence["sentence"]
                assert s_start <= start < end <= s_end
                assert evidence["rule"] and 0 < evidence["confidence"] <= 1
        for citation in record["citations"]:
            assert record["text"][citation["start"]:citation["end"]] == citation["text"]


def test_proposed_methods_differ_from_used_ones(nlp):
    text = ("We propose a two-stage GRU decoder for handwriting recognition. "
            "It is trained with Adam and evaluated with word error rate on the FALCON benchmark.")
    found = concepts(record_of(nlp, text))
    assert found[("two-stage GRU decoder", "Method")]["proposed"] is True
    assert found[("Adam", "Method")]["proposed"] is False
    assert ("word error rate", "Metric") in found
    assert ("FALCON benchmark", "Dataset") in found
    assert ("handwriting recognition", "Task") in found


def test_acronym_and_long_form_are_one_concept(nlp):
    text = "Low-Rank Adaptation (LoRA) is popular. We show that LoRA underfits."
    record = record_of(nlp, text)
    methods = [c for c in record["concepts"] if c["type"] == "Method"]
    assert len(methods) == 1
    assert methods[0]["name"] == "Low-Rank Adaptation" and "LoRA" in methods[0]["aliases"]
    assert len(methods[0]["mentions"]) == 3
    assert record["acronyms"] == [{"short": "LoRA", "long": "Low-Rank Adaptation"}]


def test_citations_urls_and_domains(nlp):
    text = ("Weight decay matters (Loshchilov et al., 2025; Yang and Hu, 2021), as Medina and Vassilvitskii (2017) "
            "and Bonyah et al. observed in patients with clinical records. Code: https://github.com/org/repo.")
    record = record_of(nlp, text)
    cites = [(c["authors"], c["year"]) for c in record["citations"]]
    assert cites == [(["Loshchilov"], 2025), (["Yang", "Hu"], 2021), (["Medina", "Vassilvitskii"], 2017), (["Bonyah"], None)]
    assert record["urls"] == ["https://github.com/org/repo"]
    domains = {c["name"]: c for c in record["concepts"] if c["type"] == "Domain"}
    assert "medicine" in domains
    assert {record["text"][s:e].lower() for s, e in domains["medicine"]["mentions"]} == {"patients", "clinical"}
