"""What is no concept (kg.extract.junk), on real sentences through the real pipeline.

Sentences are quoted from the OpenAlex and S2ORC samples and from SciERC (Luan et al. 2018) in
../shared/data; ``as_if_recognised`` makes the recogniser read the spans a rule is about, so
that each rule is tested whatever the shipped recogniser happens to read.
"""

import pytest
from test_extract import as_if_recognised, by_name, record_of

from kg.extract import junk, to_record
from kg.model import Paper


def record_of_doc(doc):
    return to_record(Paper(id="t", title="t", abstract=doc.text), doc)


def mentions(doc):
    return [(m["text"], m["type"]) for m in doc._.kg_mentions]


def test_section_headings_are_no_concept_and_no_part_of_the_name_after_them(nlp):
    doc = as_if_recognised(nlp, "CONCLUSIONS Vitamin D deficiency was common among the patients included in this study.",
                           {"CONCLUSIONS Vitamin D deficiency": "Method"})
    assert mentions(doc) == [("Vitamin D deficiency", "Method")]
    text = "BACKGROUND AND AIMS Inflammatory bowel disease [IBD] has been associated with reduced female fertility."
    doc = as_if_recognised(nlp, text, {"BACKGROUND AND AIMS": "Method", "Inflammatory bowel disease": "Task"})
    assert mentions(doc) == [("Inflammatory bowel disease", "Task")]


def test_a_heading_word_inside_a_sentence_stays_part_of_a_name(nlp):
    text = ("Item-by-item results fuel item analyses of our three tests: (a) the widely used Cambridge Face Memory Test "
            "(CFMT); (b) an Abstract Art Memory Test (AAMT), and (c) a Verbal Paired-Associates Memory Test (VPMT).")
    doc = as_if_recognised(nlp, text, {"Abstract Art Memory Test": "Metric"})
    assert ("Abstract Art Memory Test", "Metric") in mentions(doc)


def test_units_and_quantities_are_no_concepts(nlp):
    text = ("However, the distances at face value give H_0 = 44 +/- 5 km/s/Mpc - a factor of 1.6 smaller than "
            "generally accepted.")
    doc = as_if_recognised(nlp, text, {"5 km": "Metric", "H_0": "Metric"})
    assert mentions(doc) == []  # a quantity, and markup residue
    text = "The composite containing 0.18 wt% N-WS2 nanosheets showed the highest surface free energy."
    doc = as_if_recognised(nlp, text, {"wt% N-WS2 nanosheets": "Dataset"})
    assert mentions(doc) == [("N-WS2 nanosheets", "Dataset")]  # the unit of a number outside the span goes
    doc = as_if_recognised(nlp, "The mixture was heated at 290 °C for 30 min.", {"°C": "Metric", "min": "Metric"})
    assert mentions(doc) == []


def test_places_and_people_are_no_concepts(nlp):
    text = ("Abstract Background & Aims: The epidemiology of primary biliary cirrhosis (PBC) has not been studied "
            "systematically in the United States.")
    doc = as_if_recognised(nlp, text, {"primary biliary cirrhosis": "Task", "United States": "Dataset"})
    assert mentions(doc) == [("primary biliary cirrhosis", "Task"), ("PBC", "Task")]
    # SciERC train
    text = "These constraints are of two types : conditional inde-pendencies and algebraic constraints , first noted by Verma ."
    doc = as_if_recognised(nlp, text, {"algebraic constraints": "Method", "Verma": "Method"})
    assert mentions(doc) == [("algebraic constraints", "Method")]
    doc = as_if_recognised(nlp, "Tuscaloosa county is only partially in the Coastal Plain.", {"Tuscaloosa county": "Dataset"})
    assert mentions(doc) == []


def test_library_pages_book_reviews_and_publisher_lines_are_no_concepts(nlp):
    for text, span in [("LibGuides: Medicine (HYMS): Finding Resources", "LibGuides"),
                       ("Book Review: Radical Approaches to Social Skills Training", "Book Review"),
                       ("© 2002 Wiley-Liss, Inc.", "© 2002 Wiley-Liss, Inc.")]:
        assert mentions(as_if_recognised(nlp, text, {span: "Dataset"})) == []
    text = ("Funding National Mental Health Institute, Eli Lilly and Company, Pfizer Pharmaceuticals, and the Edwin S "
            "Webster Foundation.")
    assert mentions(as_if_recognised(nlp, text, {"National Mental Health Institute": "Task", "Eli Lilly": "Method"})) == []


def test_a_verb_at_either_end_is_cut_off(nlp):
    text = ("Compared with bulk g-C3N4, the as-obtained porous g-C3N4 exhibits excellent water dispersion stability and "
            "shows great superiority in photoinduced charge carrier separation and transfer.")
    doc = as_if_recognised(nlp, text, {"porous g-C3N4 exhibits": "Dataset"})
    assert mentions(doc) == [("porous g-C3N4", "Dataset")]
    text = ("We conclude that androgen stimulates initial Sertoli cell TJ formation and function in mice, whereas FSH "
            "activity is insufficient alone, but augments androgen-induced TJ function.")
    doc = as_if_recognised(nlp, text, {"stimulates initial Sertoli cell TJ formation": "Task",
                                       "augments androgen-induced TJ function": "Task"})
    assert mentions(doc) == [("initial Sertoli cell TJ formation", "Task"), ("androgen-induced TJ function", "Task")]
    text = "Autophagy controls the quality and quantity of the eukaryotic cytoplasm."
    doc = as_if_recognised(nlp, text, {"Autophagy controls": "Method"})
    assert mentions(doc) == [("Autophagy", "Method")]


def test_verb_like_modifiers_and_plural_nouns_stay(nlp):
    # SciERC train: "parse" is a verb only, but after a determiner or a preposition it modifies a noun
    text = "The disambiguation model uses information from the parse tree and features over parse trees ."
    doc = as_if_recognised(nlp, text, {"disambiguation model": "Method", "parse tree": "Method", "parse trees": "Method"})
    assert ("parse tree", "Method") in mentions(doc) and ("parse trees", "Method") in mentions(doc)
    text = "Against carbapenemase-negative isolates, 88 and 100% were susceptible to cefepime."
    doc = as_if_recognised(nlp, text, {"carbapenemase-negative isolates": "Dataset"})
    assert mentions(doc) == [("carbapenemase-negative isolates", "Dataset")]


@pytest.mark.parametrize("span", ["training", "the proposed method", "Our study", "general framework", "data"])
def test_lone_generic_words_are_no_concepts(nlp, span):
    # SciERC train, with the recogniser made to read each generic phrase in place of "training"
    text = (f"In the phase of {span} , a basic visual vocabulary consisting of blob-tokens is generated by a Maximum "
            "Entropy Model .")
    doc = as_if_recognised(nlp, text, {span: "Task", "Maximum Entropy Model": "Method"})
    assert mentions(doc) == [("Maximum Entropy Model", "Method")]


def test_markup_residue_is_no_concept(nlp):
    text = ("The results are illustrated by application to the one-dimensional Bose fluid with "
            "$\\ensuremath{\\delta}$-function interaction.")
    doc = as_if_recognised(nlp, text, {"one-dimensional Bose fluid": "Method", "$\\ensuremath{\\delta}$-function interaction": "Method"})
    assert mentions(doc) == [("one-dimensional Bose fluid", "Method")]


def test_core_shell_materials_and_acronyms_are_kept(nlp):
    text = "The nanoengines Fe3O4@AgNPs enable asymmetric decomposition of hydrogen peroxide."
    doc = as_if_recognised(nlp, text, {"Fe3O4@AgNPs": "Method"})
    assert mentions(doc) == [("Fe3O4@AgNPs", "Method")]
    assert junk.junk_reason(nlp("ITS sequences")[0:1]) is None  # an acronym, not the word "its"


def test_junk_never_reaches_the_record(nlp):
    text = ("CONCLUSIONS Vitamin D deficiency was common among the patients included in this study. "
            "© 2002 Wiley-Liss, Inc.")
    names = set(by_name(record_of(nlp, text)))
    assert not any("CONCLUSIONS" in n or "Wiley" in n or "©" in n for n in names)


def test_phrases_of_another_language_are_no_concepts(nlp):
    # OpenAlex W2557901227 and W3144478530 (abstracts in Spanish and Portuguese)
    text = "o adaptan los proyectos para satisfacer a sus necesidades."
    doc = as_if_recognised(nlp, text, {"sus necesidades": "Method"})
    assert mentions(doc) == []
    text = "Cuidados paliativos: inserção do ensino nas escolas médicas do Brasil"
    doc = as_if_recognised(nlp, text, {"ensino nas escolas médicas": "Method"})
    assert mentions(doc) == []
    # a Latin name has no function word of another language
    assert not junk.is_foreign("Escherichia coli") and not junk.is_foreign("de novo assembly")


def test_places_in_capitals_or_after_a_compass_word_are_no_concepts(nlp):
    # OpenAlex W2122613011 and W2611114458
    text = "Methods We reanalyzed data from France that were used to develop the original MNA and combined these with data collected in Spain and New MEXICO:"
    doc = as_if_recognised(nlp, text, {"MEXICO": "Method"})
    assert mentions(doc) == []
    text = "Here we report anomalously high Hg concentrations in marine strata from south China and Laurentia deposited immediately before."
    doc = as_if_recognised(nlp, text, {"south China and Laurentia": "Dataset"})
    assert [c["name"] for c in record_of_doc(doc)["concepts"]] == ["Laurentia"]  # a part that is a place goes


def test_vague_judgements_before_a_generic_word_are_no_concepts(nlp):
    # SciERC C00-1054, INTERSPEECH_2001_21_abs, I05-2014
    for text, span in [("In this paper, we present an alternative approach in which multimodal parsing and understanding are "
                        "achieved using a weighted finite-state device.", "alternative approach"),
                       ("One of the major scientific goals of SmartKom is to design new computational methods for the "
                        "seamless integration of multimodal input.", "computational methods"),
                       ("It makes it possible to directly compare commercial systems outputting unsegmented texts.",
                        "commercial systems")]:
        assert mentions(as_if_recognised(nlp, text, {span: "Method"})) == [], span
