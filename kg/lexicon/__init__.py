"""Word lists the rules use: typed head nouns, known names, the domain taxonomy.

Hand-made for this project; each list is a data file in this folder whose opening comment says what it
means and which rule reads it (``load`` reads each once). How common a word is in general English comes
from the ``wordfreq`` package (``common_english``).
"""

from __future__ import annotations

from functools import lru_cache

from kg.lexicon.load import groups, ordered, rows, table, words

# --- What types a concept (kg.extract.components, kg.extract.entities)
HEAD_TYPES: dict[str, str] = table("head_types")
ENTITY_HEADS = words("entity_heads")
NATURAL_SCIENCE_DOMAINS = words("natural_science_domains")
COMPUTING_DOMAINS = words("computing_domains")
LAB_METHOD_HEADS = words("lab_method_heads")
TASK_HEADS = words("task_heads")
DATA_HEADS = words("data_heads")
QUANTITY_HEADS = words("quantity_heads")
JUDGED_QUANTITIES = words("judged_quantities")
MEASURE_HEADS = words("measure_heads")
PHYSICAL_QUANTITIES = words("physical_quantities")
STATISTIC_MODIFIERS = words("statistic_modifiers")
PROCEDURE_HEADS = words("procedure_heads")
PROCEDURE_ENDINGS = ordered("procedure_endings")
NOT_PROCEDURES = words("not_procedures")
DATA_TERM_HEADS = words("data_term_heads")
METHOD_WORDS = words("method_words")
# A row of the table wins over an entity head spelt the same (none is).
DECIDING_HEADS: dict[str, str] = {**dict.fromkeys(ENTITY_HEADS, "Entity"), **table("deciding_heads")}
TYPE_WORDS: dict[str, str] = table("type_words")
LANGUAGES = words("languages")
EDGE_WORDS = words("edge_words")
PREPOSITIONS = words("prepositions")
PHRASE_HEADS: dict[str, str] = table("phrase_heads")

KNOWN_NAMES: dict[str, tuple[str, ...]] = groups("known_names")
# One-token known names (a capital, no space or hyphen: "LoRA", "GLUE") decide the type of a phrase
# they head: "vanilla LoRA".
NAMED_HEADS: dict[str, str] = {name: type_ for type_, names in KNOWN_NAMES.items() for name in names
                               if not {" ", "-"} & set(name) and name != name.lower()}

# The domain taxonomy: domain -> phrases whose presence is evidence for it.
DOMAINS: dict[str, tuple[str, ...]] = groups("domain_phrases")
DOMAIN_STRONG: dict[str, tuple[str, ...]] = groups("domain_strong_phrases")
DOMAIN_MIN_EVIDENCE = 2  # distinct phrases needed before a domain is assigned
DOMAIN_HINTS: dict[str, tuple[str, ...]] = groups("domain_hints")

# --- What a paper proposes (kg.extract.components)
PROPOSE_VERBS = ordered("propose_verbs")
# their forms: -s, -ed, -ing by rule, and the one irregular past
PROPOSE_FORMS = frozenset(f for v in PROPOSE_VERBS for f in (
    v, v + "s", v + ("d" if v.endswith("e") else "ed"), (v[:-1] if v.endswith("e") else v) + "ing")) | {"built"}
COMPONENT_CUES = words("component_cues")
OBJECT_STOPS = words("object_stops") | COMPONENT_CUES
DERIVED_FROM = words("derived_from")
REPORT_NOUNS = words("report_nouns")
EARLIER = words("earlier_words")
NAMING_WORDS = words("naming_words")
PROPOSE_ADVERBS = words("propose_adverbs")
SELF_NOUNS = words("self_nouns")
OWN_MARKERS = words("own_markers")
OWN_DETERMINERS = words("own_determiners")
PRIOR_ADVERBS = words("prior_adverbs")
KNOWN_ACRONYMS: dict[str, tuple[str, str]] = {short: (long_form, type_) for short, long_form, type_ in rows("known_acronyms", 3)}

# --- What is no concept (kg.extract.junk)
SECTION_HEADINGS = words("section_headings")
HEADING_PHRASES = words("heading_phrases")
OBJECT_PREPOSITIONS = words("object_prepositions")
TRAILING_WORDS = OBJECT_PREPOSITIONS | words("trailing_words")
GENERIC_WORDS = words("generic_words")
GENERIC_MODIFIERS = words("generic_modifiers")
UNITS = words("units")
PLAIN_UNITS = words("plain_units")
PLACES = words("places")
COMPASS = words("compass_words")
FOREIGN_FUNCTION_WORDS = words("foreign_function_words")
PLACE_HEADS = words("place_heads")
INSTITUTION_HEADS = words("institution_heads")
VAGUE_HEADS = words("vague_heads")
WEAK_HEADS = words("weak_heads")
RELATIONAL_HEADS = words("relational_heads")
LATIN_PHRASES = words("latin_phrases")
DOING_HEADS = words("doing_heads")
DEGREE_WORDS = words("degree_words")
JUDGING_ADJECTIVES = words("judging_adjectives")
PEOPLE = words("people")
PEOPLE_NOT_STUDIED = words("people_not_studied")
PERSON_ATTRIBUTES = words("person_attributes")
QUANTIFIER_HEADS = words("quantifier_heads")
ORGANISATION_HEADS = words("organisation_heads")
NUMBER_WORDS = words("number_words")
NUMBERED_LABELS = words("numbered_labels")
NON_CONCEPTS = words("non_concepts")
PUBLISHER_TOKENS = words("publisher_tokens")
PUBLISHER_NAMES = words("publisher_names")
BOILERPLATE_STARTS = ordered("boilerplate_starts")  # for str.startswith
MODALS = words("modals")
VERB_CUES = MODALS | words("verb_cues")
MODIFIER_CUES = words("modifier_cues")
UPPER_UNITS = words("upper_units")
LETTER_UNITS = words("letter_units")
CHANGE_WORDS = words("change_words")
AMOUNT_HEADS = QUANTITY_HEADS | MEASURE_HEADS | PHYSICAL_QUANTITIES | words("amount_heads")
RESEARCH_PARTICIPLES = words("research_participles")
DETERMINERS = words("determiners")
AFTER_VERB = words("after_verb")

# A word read this often in general English (wordfreq's Zipf scale: about thirty times per million words,
# "attention" 5.1, "infection" 4.3) has senses in every field: alone it is no concept, nor linked across papers.
COMMON_ZIPF = 4.5
# A word read less often ("alloy" 3.6, "neutrino" 2.8; "algorithm" 4.0) is a domain's word (rare_nouns.rare_head).
RARE_ZIPF = 4.0


def common_english(word: str) -> bool:
    """A word of general English at least as common as ``COMMON_ZIPF`` (case folded).

    >>> [common_english(w) for w in ("attention", "Expression", "infection", "apoptosis", "clustering")]
    [True, True, False, False, False]
    """
    return zipf(word.lower()) >= COMMON_ZIPF


@lru_cache(maxsize=1 << 16)
def zipf(word: str) -> float:
    """How often ``word`` is read in general English, on wordfreq's Zipf scale (0: never).

    >>> zipf("the") > zipf("transformer") > zipf("backpropagation")
    True
    """
    from wordfreq import zipf_frequency  # imported when first needed: it costs a quarter second at start-up

    return zipf_frequency(word, "en")
