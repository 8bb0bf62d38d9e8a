"""The sentence around a mention types it where the span alone cannot (kg.extract.context), on real
sentences of the OpenAlex (CC0) and S2ORC (ODC-By 1.0) samples in ../shared/data through the real pipeline; ``as_if_recognised``
makes the recogniser read the spans a rule is about."""

from test_extract import as_if_recognised
from test_extract_entities import mentions, types_in_record

from kg.extract import entities


def test_a_subject_followed_by_its_value_is_a_metric_and_so_is_its_acronym(nlp):
    text = "The minimum reflection loss (RL) is −23.51 dB at 9.2 GHz with a bandwidth (RL"
    doc = as_if_recognised(nlp, text, {"minimum reflection loss": "Method"})
    assert mentions(doc) >= {("minimum reflection loss", "Metric"), ("RL", "Metric")}
    text = ("The median progression-free survival was 7·0 months (4·4–10·9) in the gemcitabine group and 5·6 months "
            "(3·0–7·0) in the fluorouracil group (hazard ratio [HR] 0·55 [95% CI 0·44–0·68]; p vs 15 [9%]; vs 23 [13%]; "
            "p=0·0251), thrombocytopenia (24 [13%] vs three [2%]; p=0·0007), and mucosal inflammation (0 vs 25 [14%]; "
            "Interpretation Gemcitabine plus cisplatin prolongs progression-free survival in patients with recurrent or "
            "metastatic nasopharyngeal carcinoma.")
    assert ("median progression-free survival", "Metric") in mentions(as_if_recognised(
        nlp, text, {"median progression-free survival": "OtherScientificTerm"}))
    text = ("The highest regression coefficient (R2) of 0.84 has been achieved between experimental and model predictive "
            "biochar yield for the testing dataset, once the model was trained with the training dataset.")
    assert ("regression coefficient", "Metric") in mentions(as_if_recognised(
        nlp, text, {"regression coefficient": "OtherScientificTerm"}))


def test_what_a_value_is_of_is_no_metric_nor_a_count(nlp):
    # after a preposition the span is not what was measured: the MIC ranged, not erythromycin
    text = ("the MIC of erythromycin ranged from 0.032 mg/L (P. limnophilus) to 2 mg/L (P. brasiliensis); the MIC for "
            "ciprofloxacin ranged from 0.008 mg/L (R. baltica) to > 32 mg/L (P. brasiliensis).")
    assert ("erythromycin", "Entity") in mentions(as_if_recognised(nlp, text, {"erythromycin": "OtherScientificTerm"}))
    text = ("Materials and Methods: A retrospective study was done reviewing the histopathological records of 906 patients "
            "who underwent cholecystectomy.")
    assert ("histopathological records", "Entity") in mentions(as_if_recognised(
        nlp, text, {"histopathological records": "OtherScientificTerm"}))


def test_a_ratio_to_something_else_an_object_of_using_and_a_technique_are_no_metric(nlp):
    # S2ORC
    text = "Its radio source is 7 times smaller than, and confined by, the Ly-alpha gas."
    assert ("radio source", "Entity") in mentions(as_if_recognised(nlp, text, {"radio source": "OtherScientificTerm"}))
    text = ("A series of coring experiments on sandstone and granite using diamond impregnated and polycrystalline diamond "
            "compact bits are carried out on a specially designed vertical laboratory drilling rig.")
    assert mentions(as_if_recognised(nlp, text, {"diamond impregnated and polycrystalline diamond compact bits": "Dataset"})) == {
        ("diamond impregnated and polycrystalline diamond compact bits", "Dataset")}
    text = ("Forty-four patients, ASA Grade I or II, had anaesthesia induced with propofol at 100 mg min-1 followed by a "
            "maintenance rate of 6 mg kg-1 h-1 or a stepdown regimen of 10 mg kg-1 h-1 for 10 min, 8 mg kg-1 h-1 for the "
            "next 10 min and at 6 mg kg-1 h-1 thereafter.")
    assert ("stepdown regimen", "Metric") not in mentions(as_if_recognised(
        nlp, text, {"stepdown regimen": "OtherScientificTerm"}))


def test_a_subject_that_was_performed_or_used_to_do_something_is_a_method(nlp):
    text = ("To rationalize the preferred modes of interaction of most potent compounds with the active site of human EGFR "
            "protein (PDB id: 5XGM), molecular docking studies were performed.")
    assert ("molecular docking studies", "Method") in mentions(as_if_recognised(
        nlp, text, {"molecular docking studies": "OtherScientificTerm"}))
    text = ("Controlling for age, sex, baseline severity of abdominal pain, and time to follow-up evaluation, multivariable "
            "logistic regression was used to evaluate the association of baseline gastrointestinal, extraintestinal "
            "somatic, and depressive symptoms in childhood with FGID in adolescence and young adulthood.")
    assert ("multivariable logistic regression", "Method") in mentions(as_if_recognised(
        nlp, text, {"multivariable logistic regression": "OtherScientificTerm"}))


def test_things_used_in_the_plural_or_as_something_keep_their_type(nlp):
    text = ("Exogenous glucocorticoids are widely used in the clinic for the treatment of inflammatory disorders and "
            "hematological cancers.")
    assert ("Exogenous glucocorticoids", "Entity") in mentions(as_if_recognised(
        nlp, text, {"Exogenous glucocorticoids": "OtherScientificTerm"}))
    text = ("However, in micellar solution, chain reactions occur when DPBF is used as chemical quencher in the "
            "photo-oxidative process.")
    assert ("DPBF", "Entity") in mentions(as_if_recognised(nlp, text, {"DPBF": "OtherScientificTerm"}))


def test_the_sentence_outweighs_a_natural_science_default(nlp):
    # a medical paper: a Method without a method head is an Entity there, unless its sentence says it was applied
    text = ("A total of 1312 patients (19.7%) were non-transported; a history of psychiatric disorders or no medical history "
            "was more commonly noted among these patients. Twelve (0.9%) of the 1312 patients not transported were later "
            "admitted with time-critical conditions. Full triage was applied in 77.4% of the cases, and older patients were "
            "triaged at the scene as an ‘unspecific condition’ more frequently than younger patients.")
    doc = as_if_recognised(nlp, text, {"Full triage": "Method", "psychiatric disorders": "OtherScientificTerm"})
    assert entities.natural_science({d["name"] for d in doc._.kg_domains}, set(doc._.kg_domain_hints))
    assert ("Full triage", "Method") in types_in_record(doc)

