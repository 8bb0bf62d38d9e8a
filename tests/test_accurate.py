"""The accurate recogniser (``kg.extract.accurate``): the shipped model on ONNX Runtime (the test
extra installs it), and its training and export, which skip without ``kg[train-accurate]``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.extract import accurate

SAMPLE = Path(__file__).parent / "fixtures" / "scierc_sample.json"
needs_extra = pytest.mark.skipif(accurate.requirements_missing() is not None, reason="the accurate extra is not installed")


def _training_missing() -> bool:
    from kg.training.accurate import require_training_extra

    try:
        require_training_extra()
    except accurate.AccurateMissing:
        return True
    return False


needs_training = pytest.mark.skipif(_training_missing(), reason="the train-accurate extra is not installed")


def test_bio_tags_become_typed_word_spans():
    tags = ["B-Method", "I-Method", "O", "I-Task", "B-Dataset", "B-Metric", "I-Metric", "I-Method"]
    assert accurate.spans(tags) == [(0, 2, "Method"), (3, 4, "Task"), (4, 5, "Dataset"), (5, 7, "Metric"), (7, 8, "Method")]


def test_viterbi_decoding_never_continues_a_span_it_did_not_start():
    import numpy

    scores = numpy.log(numpy.random.default_rng(0).dirichlet(numpy.ones(len(accurate.TAGS)), size=(50, 40)))
    for rows in scores:
        tags = [accurate.TAGS[k] for k in accurate.viterbi(rows)]
        assert all(not tag.startswith("I-") or (before[0] in "BI" and before[2:] == tag[2:])
                   for before, tag in zip(["O", *tags], tags))
        # its path is the best valid one, so it scores at least the argmax path made valid by hand
        greedy = [int(k) for k in rows.argmax(-1)]
        fixed = [k if not accurate.TAGS[k].startswith("I-") or accurate.TAGS[p][2:] == accurate.TAGS[k][2:] and p != 0
                 else accurate.TAGS.index("B-" + accurate.TAGS[k][2:]) for p, k in zip([0, *greedy], greedy)]
        assert sum(rows[i, k] for i, k in enumerate(accurate.viterbi(rows))) >= sum(rows[i, k] for i, k in enumerate(fixed)) - 1e-9


def test_accurate_without_extra_or_weights_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(main, ["eval", "scierc", str(SAMPLE), "--model", "accurate", "--ner", str(tmp_path)])
    assert result.exit_code == 1
    expected = "needs the extra" if accurate.requirements_missing() else "no trained accurate recogniser"
    assert expected in result.output and "Traceback" not in result.output


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """A recogniser fine-tuned until it has learnt the two sample documents by heart."""
    from kg.training.accurate import train

    output = tmp_path_factory.mktemp("accurate")
    result = train(SAMPLE, output, epochs=25, batch_size=2, learning_rate=2e-4, threads=1, log=lambda line: None)
    assert result["holdout_f1"] > 0.5, result["history"]
    return output


@needs_extra
def test_windows_cut_long_texts_between_words_and_keep_every_word():
    tokenizer = accurate.load_tokenizer(accurate.MODEL_DIR)
    words = ("We train a tagger on abstracts .".split() * 60) + ["end"]
    cut = accurate.windows(words, tokenizer, max_pieces=64)
    assert len(cut) > 1 and all(len(w.ids) <= 64 for w in cut)
    assert [word for w in cut for word in w.words] == list(range(len(words)))
    assert all(words[w.words[-1]] == "." for w in cut[:-1])  # cut after a full stop where one is near the end


@needs_extra
def test_shipped_recogniser_feeds_the_same_rules():
    from kg.evaluation.scierc import read_scierc
    from kg.extract import extract, load_pipeline
    from kg.model import Paper

    nlp = load_pipeline(recogniser="accurate")
    assert "accurate_ner" in nlp.pipe_names and "scierc_ner" not in nlp.pipe_names
    docs = list(read_scierc(SAMPLE))
    records = list(extract([Paper(id=d.key, title="", abstract=d.text) for d in docs], nlp))
    types = {c["type"] for r in records for c in r["concepts"]}
    assert {"Method", "Task", "Dataset", "Metric"} <= types
    # the recogniser's spans went through the project's rules: canonical keys, evidence, no unscored types
    concepts = [c for r in records for c in r["concepts"]]
    assert all(c["key"] == c["key"].lower() for c in concepts)
    assert any(e["rule"] == "scierc_ner" for c in concepts for e in c["evidence"])
    assert not types & {"Generic", "OtherScientificTerm"}


@needs_extra
def test_shipped_recogniser_is_the_trained_one():
    result = CliRunner().invoke(main, ["eval", "scierc", str(SAMPLE), "--model", "accurate", "--no-baseline", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["kg"]["exact"]["micro"]["f1"] > 0.6  # an untrained tag layer scores ~0


@needs_training
def test_fine_tuned_and_exported_recogniser_is_scored_by_the_cli(tiny_model):
    assert (tiny_model / accurate.MODEL_FILE).exists() and accurate.check(tiny_model) == tiny_model
    result = CliRunner().invoke(main, ["eval", "scierc", str(SAMPLE), "--model", "accurate", "--ner", str(tiny_model),
                                       "--no-baseline", "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert "accurate_ner" in report["pipeline"] and report["kg"]["exact"]["micro"]["f1"] > 0.5


@needs_extra
def test_forked_workers_give_the_records_of_one_process():
    from kg.evaluation.scierc import read_scierc
    from kg.extract import extract, load_pipeline
    from kg.model import Paper

    nlp = load_pipeline(recogniser="accurate")
    nlp("A session made in the parent before the fork is not the workers' session.")
    papers = [Paper(id=f"{d.key}-{k}", title="", abstract=d.text) for k in range(3) for d in read_scierc(SAMPLE)]
    alone = list(extract(papers, nlp))
    forked = list(extract(papers, nlp, n_process=2, batch_size=2))
    assert [r["id"] for r in forked] == [p.id for p in papers]
    assert forked == alone and any(r["concepts"] for r in alone)
