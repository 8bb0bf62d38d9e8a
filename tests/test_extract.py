"""Extraction on real sentences through the real spaCy pipeline (the one ``kg build`` uses).

Sentences are quoted from published abstracts (Vaswani et al. 2017; Devlin et al. 2019; Hu et al.
2021; Mihalcea and Tarau 2004) and from the bundled NeurIPS 2026 examples.
"""

import os
import shutil
from pathlib import Path

import spacy

from kg.extract import COMPONENTS, NER_MODEL, extract, load_pipeline, to_record
from kg.model import Paper
from kg.normalize import concept_key


def record_of(nlp, text):
    return to_record(Paper(id="t", title="t", abstract=text), nlp(text))


def concepts(record):
    return {(c["name"], c["type"]): c for c in record["concepts"]}


def by_name(record):
    return {c["name"]: c for c in record["concepts"]}


def test_pipeline_runs_the_trained_recogniser_and_no_parser(nlp):
    assert nlp.pipe_names[-len(COMPONENTS):] == list(COMPONENTS)
    assert "parser" not in nlp.pipe_names and "ner" not in nlp.pipe_names
    # the recogniser runs before the sentence splitter, so a guessed break cannot cut a name
    assert nlp.pipe_names.index("scierc_ner") < nlp.pipe_names.index("senter")
    assert {"Method", "Task", "Dataset", "Metric"} <= set(nlp.get_pipe("scierc_ner").labels)


def test_a_process_loads_a_pipeline_once_until_its_recogniser_is_written_again(tmp_path):
    assert load_pipeline() is load_pipeline()
    ner = Path(shutil.copytree(NER_MODEL, tmp_path / "ner"))
    own = load_pipeline(ner=ner)
    assert own is not load_pipeline() and load_pipeline(ner=ner) is own
    weights = ner / "ner" / "model"
    os.utime(weights, ns=(weights.stat().st_atime_ns, weights.stat().st_mtime_ns + 10**9))  # trained again in place
    assert load_pipeline(ner=ner) is not own


def test_each_component_declares_what_it_assigns_and_finds_what_it_requires(nlp):
    analysis = nlp.analyze_pipes()
    assert all(analysis["summary"][name]["assigns"] for name in COMPONENTS)
    assert not any(analysis["problems"].values())
    blank = spacy.blank("en")  # the check can fail: the last step alone finds nothing to read
    blank.add_pipe("kg_mentions")
    assert blank.analyze_pipes()["problems"]["kg_mentions"] == ["doc._.kg_found"]


def as_if_recognised(nlp, text, spans):
    """The doc after every component but the recogniser, as if it had read ``spans`` ({phrase: label})."""
    doc = nlp.make_doc(text)
    doc.ents = sorted((doc.char_span(text.index(phrase), text.index(phrase) + len(phrase), label=label)
                       for phrase, label in spans.items()), key=lambda span: span.start)
    for name, component in nlp.pipeline:
        if name != "scierc_ner":
            doc = component(doc)
    return doc


def test_recognised_spans_lose_function_words_at_their_edges(nlp):
    # Mihalcea and Tarau (2004)
    doc = as_if_recognised(nlp, "We evaluate on the task of keyword extraction and sentence extraction.",
                           {"the": "Method", "of keyword extraction and": "Task"})
    assert [(m["text"], m["type"]) for m in doc._.kg_mentions] == [("keyword extraction", "Task")]


def test_a_deciding_head_noun_overrides_the_recogniser(nlp):
    doc = as_if_recognised(nlp, "The statistical parser improves word recognition accuracy on spoken dialogue and harder ones.",
                           {"statistical parser": "Generic", "word recognition accuracy": "Task", "spoken dialogue": "Task",
                            "harder ones": "Dataset"})  # a pronoun head is SciERC's Generic: no concept
    assert {(m["text"], m["type"]) for m in doc._.kg_mentions} == {
        ("statistical parser", "Method"), ("word recognition accuracy", "Metric"), ("spoken dialogue", "Task")}


def test_citations_and_possessives_are_no_concepts_and_a_known_name_types_its_phrase(nlp):
    # from the bundled NeurIPS 2026 examples
    text = "Following Medina and Vassilvitskii (2017), we compare AION-1's first encoder block with vanilla LoRA."
    doc = as_if_recognised(nlp, text, {"Medina and Vassilvitskii": "Dataset", "AION-1's first encoder block": "Dataset",
                                       "vanilla LoRA": "Dataset"})
    assert [c["text"] for c in doc._.kg_citations] == ["Medina and Vassilvitskii (2017)"]
    assert [(m["text"], m["type"]) for m in doc._.kg_mentions] == [("vanilla LoRA", "Method")]


def test_span_cleaning_keeps_acronyms_eponyms_and_heads_before_prepositions(nlp):
    text = "We compare A* search and IS with Cohen's kappa and accuracy on ImageNet."
    doc = as_if_recognised(nlp, text, {"A* search": "Method", "IS": "Method", "Cohen's kappa": "Metric",
                                       "accuracy on ImageNet": "Metric"})
    assert [(m["text"], m["type"]) for m in doc._.kg_mentions] == [
        ("A* search", "Method"), ("IS", "Method"), ("Cohen's kappa", "Metric"), ("accuracy on ImageNet", "Metric")]


def test_a_known_name_in_a_citation_is_no_concept(nlp):
    record = record_of(nlp, "We train with Adam et al. (2015) in mind, and fine-tune with Adam (Kingma and Ba, 2015).")
    adam = [c for c in record["concepts"] if c["name"] == "Adam"]
    assert len(adam) == 1 and len(adam[0]["mentions"]) == 1  # the optimiser, not the author
    start, end = adam[0]["mentions"][0]
    assert record["text"][start:end + 2] == "Adam ("


def test_every_mention_offset_slices_its_text(nlp):
    from conftest import EXAMPLES

    from loaders import load

    for record in extract(load([str(EXAMPLES)]), nlp):
        assert record["text"]
        for concept in record["concepts"]:
            assert concept["type"] in ("Method", "Task", "Dataset", "Metric", "Entity", "Domain")
            assert (concept["proposed"] is None) == (concept["type"] != "Method")
            assert len(concept["mentions"]) == len(concept["evidence"])
            for (start, end), evidence in zip(concept["mentions"], concept["evidence"]):
                s_start, s_end = evidence["sentence"]
                assert s_start <= start < end <= s_end
                assert evidence["rule"] and 0 < evidence["confidence"] <= 1
            for merge in concept["merges"]:
                assert merge["reason"] in ("acronym", "known_acronym", "spelling")
        for citation in record["citations"]:
            assert record["text"][citation["start"]:citation["end"]] == citation["text"]


def test_recogniser_types_spans_in_a_real_sentence(nlp):
    # Luan et al. (2018), the SciERC paper's own abstract
    text = ("We introduce a multi-task setup of identifying and classifying entities, relations, and coreference "
            "clusters in scientific articles. We create SciERC, a dataset that includes annotations for all three "
            "tasks and develop a unified framework called Scientific Information Extractor (SciIE) for with shared "
            "span representations.")
    record = record_of(nlp, text)
    sciie = [c for c in record["concepts"] if "SciIE" in (c["name"], *c["aliases"])]
    assert [c["type"] for c in sciie] == ["Method"]
    assert {"alias": "SciIE", "reason": "acronym"} in sciie[0]["merges"]
    assert record["acronyms"] == [{"short": "SciIE", "long": "Scientific Information Extractor"}]


def test_we_propose_marks_the_paper_own_method(nlp):
    text = ("We propose a new simple network architecture, the Transformer, based solely on attention mechanisms, "
            "dispensing with recurrence and convolutions entirely.")
    found = by_name(record_of(nlp, text))
    assert found["Transformer"]["proposed"] is True
    assert found["Transformer"]["type"] == "Method"


def test_called_name_and_used_tools(nlp):
    text = ("We introduce a new language representation model called BERT, which stands for Bidirectional Encoder "
            "Representations from Transformers. It is fine-tuned with Adam.")
    found = by_name(record_of(nlp, text))
    assert found["BERT"]["proposed"] is True
    assert found["Adam"]["proposed"] is False  # a tool the paper uses


def test_passive_proposal_names_a_new_system(nlp):
    text = "In this paper, a novel graph-based ranking algorithm, TextRank, is proposed for keyword extraction."
    found = by_name(record_of(nlp, text))
    assert found["TextRank"]["type"] == "Method" and found["TextRank"]["proposed"] is True
    assert found["TextRank"]["evidence"][0]["rule"] in ("we_propose", "scierc_ner")


def test_apposition_retypes_a_named_object(nlp):
    text = ("We introduce FlashNet, a novel attention mechanism for long-context language modeling, "
            "and compare it with BERT and RoBERTa on GLUE.")
    record = record_of(nlp, text)
    found = by_name(record)
    assert found["FlashNet"]["type"] == "Method" and found["FlashNet"]["proposed"] is True
    assert found["BERT"]["proposed"] is False and found["RoBERTa"]["proposed"] is False
    assert found["GLUE"]["type"] == "Dataset"
    assert found["GLUE"]["evidence"][0]["rule"] == "gazetteer"


def test_acronym_and_long_form_are_one_concept(nlp):
    text = "Low-Rank Adaptation (LoRA) is popular. We show that LoRA underfits."
    record = record_of(nlp, text)
    methods = [c for c in record["concepts"] if c["type"] == "Method"]
    assert len(methods) == 1
    assert methods[0]["name"] == "Low-Rank Adaptation" and "LoRA" in methods[0]["aliases"]
    assert {"alias": "LoRA", "reason": "acronym"} in methods[0]["merges"]
    assert len(methods[0]["mentions"]) == 3
    assert record["acronyms"] == [{"short": "LoRA", "long": "Low-Rank Adaptation"}]


def test_or_acronym_definition(nlp):
    text = ("We propose Low-Rank Adaptation, or LoRA, which freezes the pre-trained model weights and injects "
            "trainable rank decomposition matrices into each layer of the Transformer architecture.")
    record = record_of(nlp, text)
    lora = by_name(record)["Low-Rank Adaptation"]
    assert "LoRA" in lora["aliases"] and lora["proposed"] is True
    assert record["acronyms"] == [{"short": "LoRA", "long": "Low-Rank Adaptation"}]


def test_known_acronym_and_spellings_merge(nlp):
    text = ("Large language models (LLMs) are strong. We fine-tune LLMs with LoRA and compare with a large "
            "language model trained with low-rank adaptation.")
    found = by_name(record_of(nlp, text))
    llm = found["Large language models"]
    assert {"LLMs", "large language model"} <= set(llm["aliases"])
    assert {"alias": "large language model", "reason": "spelling"} in llm["merges"]
    lora = next(c for c in found.values() if c["key"] == "low rank adaptation")
    assert {"alias": "LoRA", "reason": "known_acronym"} in lora["merges"]


def test_concept_key_folds_case_plural_hyphen_and_dashes():
    spellings = ["Low-Rank Adaptation", "low rank adaptations", "LOW–RANK ADAPTATION", "Low‐Rank Adaptation",
                 "low‑rank adaptation", "Low—Rank Adaptation"]
    assert len({concept_key(s) for s in spellings}) == 1
    assert concept_key("LLMs") == concept_key("LLM") == "large language model"  # a known acronym
    assert concept_key("the proposed GRU decoder") == concept_key("GRU decoders")


def test_repeated_name_is_one_concept_with_every_mention(nlp):
    text = "We propose FooNet, a novel parser. FooNet is fast and FooNet is small."
    foonet = by_name(record_of(nlp, text))["FooNet"]
    assert len(foonet["mentions"]) == 3 and foonet["proposed"] is True


def test_domains_have_evidence(nlp):
    # from the bundled NeurIPS 2026 examples
    text = ("Using fMRI data from the Natural Scenes Dataset, we propose a self-supervised encoder that learns "
            "subject-specific embeddings from brain data alone by exploiting repeated stimulus presentations.")
    record = record_of(nlp, text)
    domains = {c["name"]: c for c in record["concepts"] if c["type"] == "Domain"}
    assert "neuroscience" in domains
    phrases = {record["text"][s:e].lower() for s, e in domains["neuroscience"]["mentions"]}
    assert phrases == {"fmri", "brain"}
    assert all(e["rule"] == "domain_taxonomy" for e in domains["neuroscience"]["evidence"])
    assert by_name(record)["Natural Scenes Dataset"]["type"] == "Dataset"


def test_one_weak_phrase_is_no_domain_but_a_strong_one_is(nlp):
    assert not [c for c in record_of(nlp, "The image is shown.")["concepts"] if c["type"] == "Domain"]
    strong = record_of(nlp, "This is a reinforcement learning study.")
    assert [c["name"] for c in strong["concepts"] if c["type"] == "Domain"] == ["reinforcement learning"]


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


def test_proposed_follows_the_subject(nlp):
    # OpenAlex sample: others' methods, written with "proposed", are used, not proposed
    text = ("Thus, researchers have proposed various semiempirical predictive methods to determine k(ψ) indirectly "
            "from a soil-water characteristic curve (SWCC) or a particle-size distribution.")
    doc = as_if_recognised(nlp, text, {"semiempirical predictive methods": "Method"})
    assert [(m["text"], m["proposed"]) for m in doc._.kg_mentions] == [("semiempirical predictive methods", False)]
    text = ("Moreover, we show how to use our evaluation results to significantly improve the performance of the "
            "recently proposed TARDIS scheme, which is based on remanence decay in SRAM.")
    doc = as_if_recognised(nlp, text, {"TARDIS scheme": "Method"})
    assert [(m["text"], m["proposed"]) for m in doc._.kg_mentions] == [("TARDIS scheme", False)]
    text = "A ranking model was previously proposed by Freund et al. for reranking tasks."
    assert not any(m["proposed"] for m in as_if_recognised(nlp, text, {"ranking model": "Method"})._.kg_mentions)


def test_we_introduce_proposes_what_the_recogniser_calls_a_term(nlp):
    # SciERC train: the object of "we introduce" is the paper's own, whatever label the recogniser gave it
    text = "Instead of building individual classifiers per ambiguous wordform , we introduce a lemma-based approach ."
    doc = as_if_recognised(nlp, text, {"individual classifiers": "Method", "lemma-based approach": "OtherScientificTerm"})
    assert [(m["text"], m["type"], m["proposed"]) for m in doc._.kg_mentions] == [
        ("individual classifiers", "Method", False), ("lemma-based approach", "Method", True)]
    text = "We introduce RAPTOR, our novel round-based public transit router."  # OpenAlex sample
    assert by_name(record_of(nlp, text))["RAPTOR"]["proposed"] is True


def proposed_methods(nlp, text):
    return {c["name"]: c["proposed"] for c in record_of(nlp, text)["concepts"] if c["type"] == "Method"}


def test_what_a_proposal_is_made_of_or_derived_from_is_used(nlp):
    # OpenAlex W3197819402: the parts of a proposed hybrid model are used, not proposed
    found = proposed_methods(nlp, "In this study, a novel hybrid model combining wavelet decomposition (WD), a gated recurrent "
                                  "unit (GRU) neural network and a support vector regression (SVR) model was developed to "
                                  "predict the daily maximum 8 h ozone.")
    assert found["support vector regression"] is False and found["gated recurrent unit"] is False
    # SciERC NIPS_2001_10_abs: a new variant of a method uses that method
    found = proposed_methods(nlp, "We propose a new variant of AdaBoost as a mechanism for training the simple classifiers "
                                  "used in the cascade.")
    assert found["AdaBoost"] is False
    # OpenAlex W2559850580: an overview proposes none of the methods it reviews
    found = proposed_methods(nlp, "A brief overview on the model-based control and data-driven control methods is presented.")
    assert found and not any(found.values())


def test_the_authors_earlier_work_and_a_relative_clause_propose_nothing(nlp):
    # SciERC C04-1058
    text = ('In recent work, we introduced N-fold Templated Piped Correction, or NTPC ("nitpick"), an intriguing error '
            "corrector that is designed to work in these extreme operating conditions.")
    found = proposed_methods(nlp, text)
    assert found and not any(found.values())


def test_a_name_the_paper_gives_is_proposed(nlp):
    # SciERC P05-1010, CVPR_2008_259_abs and CVPR_2009_21_abs
    found = proposed_methods(nlp, "This paper defines a generative probabilistic model of parse trees, which we call PCFG-LA.")
    assert found["PCFG-LA"] is True
    found = proposed_methods(nlp, "Based on the proposed framework, a novel algorithm, dubbed as Semi-Riemannian Discriminant "
                                  "Analysis (SRDA), is presented for subspace-based classification.")
    assert found["Semi-Riemannian Discriminant Analysis"] is True
    found = proposed_methods(nlp, "Then, an improved SVM like learning system incorporating the hypergraph regularization, "
                                  "called Rank-HLapSVM, is proposed to handle the multi-label classification problems.")
    assert found["Rank-HLapSVM"] is True
