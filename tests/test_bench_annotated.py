"""bench/scierc_annotated.py: SciERC's annotated spans at their place in the text kg reads (detokenised
by ``loaders.scierc``), so that a blind judging mixes them with extracted concepts of the same text."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from scierc_annotated import annotated_concepts  # noqa: E402

# SciERC dev P03-1022, as the corpus writes it (tokens, PTB brackets, inclusive token spans)
DOC = {"doc_key": "P03-1022", "sentences": [
    ["We", "apply", "a", "decision", "tree", "based", "approach", "to", "pronoun", "resolution", "in", "spoken", "dialogue", "."],
    ["Our", "system", "deals", "with", "pronouns", "with", "NP", "-", "and", "non-NP-antecedents", "."],
    ["We", "present", "a", "set", "of", "features", "designed", "for", "pronoun", "resolution", "in", "spoken", "dialogue", "and",
     "determine", "the", "most", "promising", "features", "."],
    ["We", "evaluate", "the", "system", "on", "twenty", "Switchboard", "dialogues", "and", "show", "that", "it", "compares", "well",
     "to", "Byron", "'s", "-LRB-", "2002", "-RRB-", "manually", "tuned", "system", "."]],
    "ner": [[[3, 6, "Method"], [8, 9, "Task"], [11, 12, "Task"]],
            [[15, 15, "Generic"], [18, 18, "OtherScientificTerm"], [20, 23, "OtherScientificTerm"]],
            [[30, 30, "OtherScientificTerm"], [33, 34, "Task"], [36, 37, "Task"], [43, 43, "OtherScientificTerm"]],
            [[48, 48, "Generic"], [51, 52, "Material"], [56, 56, "Generic"], [60, 67, "Method"]]]}


def test_annotated_spans_are_read_at_their_place_in_the_detokenised_text(tmp_path):
    path = tmp_path / "dev.json"
    path.write_text(json.dumps(DOC) + "\n", encoding="utf-8")
    (paper, text, concepts), = annotated_concepts(path)
    assert paper == "P03-1022" and text.endswith("compares well to Byron's (2002) manually tuned system.")
    by_name = {c["name"]: c for c in concepts}
    # Generic spans are no concepts; Material is Dataset, OtherScientificTerm Entity; one concept per type and key
    assert sorted((c["type"], c["name"]) for c in concepts) == [
        ("Dataset", "Switchboard dialogues"), ("Entity", "NP - and non-NP-antecedents"), ("Entity", "features"),
        ("Entity", "pronouns"), ("Method", "Byron's (2002) manually tuned system"), ("Method", "decision tree based approach"),
        ("Task", "pronoun resolution"), ("Task", "spoken dialogue")]
    resolution = by_name["pronoun resolution"]
    assert [text[a:b] for a, b in resolution["mentions"]] == ["pronoun resolution", "pronoun resolution"]
    (start, end), = by_name["Byron's (2002) manually tuned system"]["mentions"]
    sentence_start, sentence_end = by_name["Byron's (2002) manually tuned system"]["evidence"][0]["sentence"]
    assert text[sentence_start:sentence_end].startswith("We evaluate the system") and sentence_end == len(text)
    assert text[start:end] == "Byron's (2002) manually tuned system"
