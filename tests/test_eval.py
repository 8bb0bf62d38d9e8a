"""The SciERC evaluation: reader, scoring, the runner over the real extractor, ``kg eval`` and ``kg train``."""

import json

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from kg.cli import main
from kg.evaluation import SCORED_TYPES, evaluate_scierc, read_scierc, score

SAMPLE = FIXTURES / "scierc_sample.json"
SCIERC_DEV = FIXTURES.parents[2] / "shared" / "data" / "scierc" / "dev.json"  # in the workspace, not in a clone


def test_reader_joins_tokens_and_maps_types():
    docs = list(read_scierc(SAMPLE))
    assert [d.key for d in docs] == ["kg-fixture-1", "kg-fixture-2"]
    first = docs[0]
    assert first.text.startswith("We propose a hierarchical attention network for document classification . It is")
    spans = {(first.text[e.start:e.end], e.label) for e in first.entities}
    # Material is scored as Dataset; Generic and OtherScientificTerm are not scored
    assert spans == {("hierarchical attention network", "Method"), ("document classification", "Task"),
                     ("Yelp reviews corpus", "Dataset"), ("accuracy", "Metric"), ("linear SVM", "Method")}
    assert {(docs[1].text[e.start:e.end], e.label) for e in docs[1].entities} >= {("Chinese - English news", "Dataset")}
    assert first.sentences[1][0] == first.text.index("It is")


def test_training_reads_the_unscored_types_too():
    from kg.evaluation.scierc import TRAINING_TYPES

    def spans(docs):
        return {(d.key, d.text[e.start:e.end], e.label) for d in docs for e in d.entities}

    training = spans(read_scierc(SAMPLE, TRAINING_TYPES))
    # the recogniser learns Generic and OtherScientificTerm so that it does not learn them as "no entity"
    assert ("kg-fixture-1", "It", "Generic") in training
    assert ("kg-fixture-2", "Translation quality", "OtherScientificTerm") in training
    assert {s for s in training if s[2] in SCORED_TYPES} == spans(read_scierc(SAMPLE))


def test_exact_and_overlap_scores():
    gold = [[(0, 10, "Method"), (20, 30, "Task"), (40, 45, "Dataset")]]
    pred = [[(0, 10, "Method"), (22, 30, "Task"), (40, 45, "Metric"), (50, 60, "Method")]]
    s = score(gold, pred, SCORED_TYPES)
    assert (s.exact["Method"].precision, s.exact["Method"].recall) == (0.5, 1.0)
    assert s.exact["Task"].f1 == 0.0 and s.overlap["Task"].f1 == 1.0
    assert s.exact["Dataset"].recall == 0.0 and s.exact["Metric"].precision == 0.0  # a wrong type never matches
    micro = s.exact["micro"]
    assert (micro.tp_pred, micro.n_pred, micro.tp_gold, micro.n_gold) == (1, 4, 1, 3)


def test_runner_scores_the_build_extractor_and_the_baseline(nlp):
    report = evaluate_scierc(SAMPLE, nlp=nlp)
    assert report.documents == 2 and report.gold == 8
    assert report.pipeline == nlp.pipe_names
    for scores in (report.system, report.baseline):
        for table in (scores.exact, scores.overlap):
            assert set(table) == {*SCORED_TYPES, "micro"}
            assert all(0.0 <= prf.f1 <= 1.0 for prf in table.values())
    # the trained recogniser finds most of these plain mentions exactly; the baseline fewer
    assert report.system.exact["micro"].f1 >= 0.5
    assert report.system.exact["micro"].f1 > report.baseline.exact["micro"].f1
    table = report.table()
    assert "kg        exact    micro" in table and "baseline  overlap  micro" in table


@pytest.mark.skipif(not SCIERC_DEV.exists(), reason="SciERC dev is not next to this checkout")
def test_scierc_dev_meets_the_project_target(nlp):
    report = evaluate_scierc(SCIERC_DEV, nlp=nlp)
    assert report.documents == 50 and report.gold == 452
    assert report.system.exact["micro"].f1 >= 0.55
    assert min(report.system.exact[t].f1 for t in SCORED_TYPES) >= 0.35
    assert report.baseline.exact["micro"].f1 < report.system.exact["micro"].f1


def test_cli_eval_scierc_json():
    result = CliRunner().invoke(main, ["eval", "scierc", str(SAMPLE), "--format", "json", "--no-baseline"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["documents"] == 2 and data["baseline"] is None
    assert set(data["kg"]["exact"]) == {*SCORED_TYPES, "micro"}


def test_cli_eval_rejects_a_file_that_is_not_scierc(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"title": "not scierc"}\n')
    result = CliRunner().invoke(main, ["eval", "scierc", str(bad)])
    assert result.exit_code == 1 and "not SciERC" in result.output


def test_train_writes_a_recogniser_the_pipeline_loads(tmp_path):
    from kg.extract import load_pipeline
    from kg.training.fast import train

    result = train(SAMPLE, tmp_path / "ner", overrides={"training.max_steps": 4, "training.eval_frequency": 2})
    assert (tmp_path / "ner" / "config.cfg").exists() and result["seconds"] > 0
    nlp = load_pipeline(ner=tmp_path / "ner")
    assert "scierc_ner" in nlp.pipe_names
    assert {"Dataset", "Method", "Metric", "Task"} <= set(nlp.get_pipe("scierc_ner").labels)
    # a model in training is scored before it replaces the shipped one; a folder that is no model is an error
    scored = CliRunner().invoke(main, ["eval", "scierc", str(SAMPLE), "--ner", str(tmp_path / "ner"),
                                       "--no-baseline", "--format", "json"])
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.output)["documents"] == 2
    missing = CliRunner().invoke(main, ["eval", "scierc", str(SAMPLE), "--ner", str(tmp_path)])
    assert missing.exit_code == 1 and "the trained recogniser is missing" in missing.output
