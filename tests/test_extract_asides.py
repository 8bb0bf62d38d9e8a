"""The held-out failure shapes (issue 30): references to the paper's figures, the authors of numbered
citations and suppliers' addresses are no concepts; a rare noun an abstract repeats is one.

The sentences are written for these tests, shaped like methods sections of materials science, physics
and biology; ``as_if_recognised`` makes the recogniser read the spans a rule is about, so that each rule
is tested whatever the shipped recogniser happens to read.
"""

import pytest
from test_extract import as_if_recognised, by_name, record_of

from kg.extract import mentions, patterns, rare_nouns, to_record
from kg.model import Paper


def names(doc):
    return {m["text"] for m in doc._.kg_mentions}


def asides(text):
    return [(a["kind"], text[a["start"]:a["end"]]) for a in patterns.find_asides(text)]


@pytest.mark.parametrize("text, reference", [
    ("The spectra are shown in Fig. 3 for each sample.", "Fig. 3"),
    ("The fitted parameters are listed in Table 2.", "Table 2"),
    ("The band gap follows from Eq. (4) directly.", "Eq. (4)"),
    ("Supplementary Figure S1 shows the diffraction patterns.", "Supplementary Figure S1"),
    ("as summarised in Tables 3-4 and figure 2b", "Tables 3-4"),
    ("The measured phases are listed in Table II.", "Table II"),
])
def test_a_reference_to_a_figure_table_or_equation_is_an_aside(text, reference):
    assert ("figure", reference) in asides(text)


@pytest.mark.parametrize("text, authors", [
    ("Following Brodsky and Lepage [8], the form factor is computed.", "Brodsky and Lepage [8]"),
    ("Smith et al. [12] extended the calculation to kaons.", "Smith et al. [12]"),
    ("as derived by Efremov, Radyushkin and Lee [9, 10] at one loop", "Efremov, Radyushkin and Lee [9, 10]"),
])
def test_the_authors_of_a_numbered_citation_are_an_aside(text, authors):
    assert ("citation", authors) in asides(text)


def test_a_method_before_its_reference_number_is_no_citation():
    # a lone name before a number is often a method's; co-authors share one number
    assert asides("We compare Transformer [3] with ResNet [4] and GloVe and Word2Vec [5].") == []


def test_an_address_in_brackets_is_an_aside_and_a_plain_bracket_is_not():
    text = "Cells were grown in DMEM (Gibco, Grand Island, NY, USA) with serum (10%, v/v) and dexamethasone (Dex)."
    assert asides(text) == [("address", "(Gibco, Grand Island, NY, USA)")]


def test_nothing_inside_an_aside_is_a_concept(nlp):
    text = ("The zeolite was calcined as in Fig. 3 and washed as described by Brodsky and Lepage [8]. Copper nitrate "
            "(Sigma-Aldrich, St. Louis, MO, USA) was the precursor.")
    doc = as_if_recognised(nlp, text, {"zeolite": "OtherScientificTerm", "Fig": "Dataset", "Brodsky": "Dataset",
                                       "Copper nitrate": "OtherScientificTerm", "MO": "Method"})
    assert names(doc) == {"zeolite", "Copper nitrate"}


@pytest.mark.parametrize("supplier", ["Sigma-Aldrich Corp", "Thermo Fisher Scientific", "University of Manchester"])
def test_a_supplier_or_an_affiliation_is_no_concept(nlp, supplier):
    text = f"The graphene oxide was obtained from {supplier} and used without further purification."
    doc = as_if_recognised(nlp, text, {"graphene oxide": "OtherScientificTerm", supplier: "Dataset"})
    assert names(doc) == {"graphene oxide"}


def test_a_rare_noun_the_abstract_repeats_is_a_concept(nlp):
    text = ("The bitumen was modified with a polymer and aged in an oven. Aged bitumen shows a higher softening point, "
            "and the modified bitumen resists cracking at low temperature.")
    found = by_name(record_of(nlp, text))
    assert found["bitumen"]["type"] == "Entity"
    assert found["bitumen"]["evidence"][0]["rule"] == "rare_noun"


def test_a_rare_noun_is_kept_only_where_it_heads_its_phrase(nlp):
    text = "The neutrino mass ordering is unknown. The oscillation of a neutrino in matter changes its flavour."
    doc = as_if_recognised(nlp, text, {"oscillation": "OtherScientificTerm"})
    heads = [(m["text"], m["start"]) for m in doc._.kg_mentions if m["rule"] == "rare_noun"]
    assert heads == [("neutrino", text.index("neutrino in"))]  # not the one of "neutrino mass"


def test_a_common_or_once_written_or_abstract_noun_is_no_rare_noun(nlp):
    text = ("The water was heated in a furnace; the water then cooled. The perovskite absorbs light. "
            "The toxicity of the dye rose, and the toxicity in water fell.")
    doc = as_if_recognised(nlp, text, {})
    assert [m["text"] for m in doc._.kg_mentions if m["rule"] == "rare_noun"] == []  # common, once, a quality


def test_no_rare_noun_is_added_in_a_paper_of_computing(nlp):
    # the recogniser learnt its terms on computing: there a lone rare word is read by it or meant generically
    text = ("We train a neural network for machine translation with a parser. The parser is trained on a "
            "treebank, and the parser output feeds the decoder.")
    doc = nlp(text)
    assert [m for m in doc._.kg_mentions if m["rule"] == "rare_noun"] == []
    assert rare_nouns.rare_nouns(doc) == []


def test_rare_nouns_reach_the_record_as_a_rule_of_their_own(nlp):
    text = "The alloy was cast in a vacuum furnace. The alloy contains a eutectic phase after casting."
    doc = nlp(text)
    record = to_record(Paper(id="t", title="t", abstract=text), doc)
    assert "rare_noun" in mentions.RULE_CONFIDENCE
    assert {e["rule"] for e in by_name(record)["alloy"]["evidence"]} == {"rare_noun"}
