"""One concept, many spellings: the canonical key that spellings of one concept share.

A concept's identity in the graph is its key, whatever type a paper read it as:
"Low-Rank Adaptations", "low rank adaptation", "vanilla LoRA" and "LoRA methods"
all have the key ``low rank adaptation``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Callable

from kg.lexicon import EDGE_WORDS, GENERIC_WORDS, HEAD_TYPES, KNOWN_ACRONYMS, PREPOSITIONS, load

DASHES = re.compile(r"[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]")
_LEADING = load.words("leading_words")
_KEEP_S = load.ordered("keep_s_endings")
_IRREGULAR = load.table("irregular_plurals")
EVALUATIVE = load.words("evaluative_words")
GENERIC_HEADS = load.words("generic_heads")
_NEEDS_TYPED_REMAINDER = load.words("typed_only_generic_heads")
ACTION_HEADS = load.words("action_heads")
_PREFIXES = load.ordered("prefixes")
_BRITISH = load.table("british_spellings")


# Names recur across abstracts: the pure functions of a spelling keep this many answers each (bounded).
CACHED_SPELLINGS = 1 << 16
_ACRONYM_LETTERS = 5  # an all-capital word this short is an acronym; a longer one a shouted word ("NETWORKS")


@lru_cache(maxsize=CACHED_SPELLINGS)
def singular(word: str) -> str:
    """A plural's singular by simple English rules; acronyms keep case ("LLMs" -> "LLM") and a
    capital S ("SARS", "AIDS": an acronym's plural is written with a small s).

    >>> [singular(w) for w in ["networks", "LLMs", "strategies", "analysis", "boxes", "corpora", "SARS"]]
    ['network', 'LLM', 'strategy', 'analysis', 'box', 'corpus', 'SARS']
    """
    if len(word) > 2 and word.endswith("s") and word[:-1].isupper():
        return word[:-1]
    if word.isupper() and len(word) <= _ACRONYM_LETTERS:
        return word
    low = word.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if len(low) <= 3 or low.endswith(_KEEP_S):
        return word
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + ("Y" if word.isupper() else "y")
    if low.endswith(("xes", "ches", "shes", "sses")):
        return word[:-2]
    if low.endswith("s"):
        return word[:-1]
    return word


_MARKUP = re.compile(r"\\[A-Za-z]+\{?|[{}]|\$")


_DOUBLE_QUOTES = dict.fromkeys(map(ord, '"“”„«»'))


@lru_cache(maxsize=CACHED_SPELLINGS)
def clean_name(text: str) -> str:
    """The surface form tidied: Unicode dashes to '-', spaces collapsed, no leading article,
    no LaTeX or Markdown markup around it, no double quotes (a name quoted, or cut at a quote).

    >>> clean_name("*margin-based LoRA merging*"), clean_name("Spatial Consistency Learning $\\\\textbf{")
    ('margin-based LoRA merging', 'Spatial Consistency Learning')
    >>> clean_name("K$-means reranking"), clean_name('“factory-in-a-box'), clean_name('RAP” paraphrasing strategy')
    ('K-means reranking', 'factory-in-a-box', 'RAP paraphrasing strategy')
    """
    text = _MARKUP.sub(lambda m: "" if m.group() == "$" else " ", text).translate(_DOUBLE_QUOTES)
    text = DASHES.sub("-", unicodedata.normalize("NFKC", text))
    words = text.split()
    while len(words) > 1 and words[0].lower() in _LEADING:
        words = words[1:]
    return " ".join(words).strip(" .,;:*$_")


def is_name(word: str) -> bool:
    """A word that names one thing: a capital after its first letter or a digit ("LoRA", "BERT",
    "GPT-4", "g-C3N4"), not a plain or capitalised word ("model", "Transformer").

    >>> [is_name(w) for w in ["LoRA", "BERT", "g-C3N4", "Transformer", "model", "A"]]
    [True, True, True, False, False, False]
    """
    return len(word) > 1 and (any(c.isupper() for c in word[1:]) or (any(c.isdigit() for c in word) and any(c.isalpha() for c in word)))


def glue_prefixes(words: list[tuple[str, bool]]) -> list[tuple[str, bool, int]]:
    """(word, joined to the previous one) pairs with known prefixes glued to the next word
    ("pre training" -> "pretraining"), each with the number of words it was made of.

    >>> glue_prefixes([("self", False), ("supervised", True), ("pre", True), ("training", True)])
    [('selfsupervised', False, 2), ('pretraining', True, 2)]
    """
    glued: list[list] = []
    for word, joined in words:
        if glued and joined and glued[-1][0].lower() in _PREFIXES and glued[-1][2] == 1:
            glued[-1][0] += word
            glued[-1][2] += 1
        else:
            glued.append([word, joined, 1])
    return [tuple(g) for g in glued]


def _words(text: str) -> list[str]:
    """The spelling's words: hyphens and spaces alike, known prefixes glued to the next word."""
    return [w for w, _, _ in glue_prefixes([(w, True) for w in clean_name(text).replace("-", " ").split()])]


_SIZES = load.words("size_words")
_SIZE_HEADS = load.words("size_compound_heads")


def _strip_modifiers(words: list[str]) -> list[str]:
    """Drop judging or counting words in front ("vanilla", "existing", "various") and a size
    compound ("large-scale", "small-sized") while what remains is still a name: several words,
    or one word that names a thing."""
    while True:
        if len(words) > 1 and words[0].lower() in EVALUATIVE and (len(words) > 2 or is_name(words[1])):
            words = words[1:]
        elif len(words) > 3 and words[0].lower() in _SIZES and words[1].lower() in _SIZE_HEADS:
            words = words[2:]
        else:
            return words


# A dimension is no name a generic head can follow ("3D architectures" is no 3D).
DIMENSION = re.compile(r"\d-?[Dd]")


_ACTION_ENDINGS = load.ordered("action_endings")
_NOT_ACTIONS = load.words("not_actions")


_ADJECTIVE_ENDINGS = load.ordered("adjective_endings")


def looks_like_modifier(word: str) -> bool:
    """A word that reads as an adjective by its ending, or a hyphenated compound ("non-terminal").

    >>> [looks_like_modifier(w) for w in ["statistical", "non-terminal", "positive", "statin", "speech"]]
    [True, True, True, False, False]
    """
    return "-" in word or word.lower().endswith(_ADJECTIVE_ENDINGS)


_COMPOUND_ADJECTIVE_PARTS = load.ordered("compound_adjective_parts")


def _adjective_shaped(word: str) -> bool:
    """A lower-case word that ends like an adjective ("based" of "relation-based", "phonological",
    "active") or a past participle ("supervised", "randomized"; not "seed"): what a generic head leaves
    behind it is no name ("weakly supervised algorithm" stays whole; SciERC ICCV_2011_50_abs).

    >>> [_adjective_shaped(w) for w in ("relation-based", "phonological", "supervised", "seed", "LoRA", "clustering")]
    [True, True, True, False, False, False]
    """
    return word.islower() and not is_name(word) and (word.endswith(_COMPOUND_ADJECTIVE_PARTS) or looks_like_modifier(word)
                                                     or len(word) > 4 and word.endswith("ed") and not word.endswith("eed"))


def _strip_generic_head(words: list[str]) -> list[str]:
    """Drop a generic head ("methods", "variants", "model") after a name ("LoRA methods") or after
    several words ("gradient descent methods"), and a task, problem or application after an
    action of several words ("computer vision tasks"); "language model", "kernel methods",
    "reranking task" and a head after an adjective ("graph-based technique") stay."""
    if len(words) < 2 or singular(words[-1]).lower() not in GENERIC_HEADS | ACTION_HEADS:
        return words
    head, rest = singular(words[-1]).lower(), words[:-1]
    if rest[-1].lower() in EDGE_WORDS or DIMENSION.fullmatch(rest[-1]):  # "Materials and Methods", "3D architectures"
        return words
    if _adjective_shaped(rest[-1]):  # "graph-based technique", "generative phonological approach": no name left
        return words
    if head in ACTION_HEADS:  # after an action of two words or more ("traveling salesman problem", "shared task" stay)
        last = rest[-1].lower()
        return rest if len(rest) >= 2 and last.endswith(_ACTION_ENDINGS) and last not in _NOT_ACTIONS else words
    if len(rest) == 1 and is_name(rest[0]):
        return rest
    if len(rest) >= 2 and (head not in _NEEDS_TYPED_REMAINDER or singular(rest[-1]).lower() in HEAD_TYPES or is_name(rest[-1])):
        return rest
    return words


def _of_folded(words: list[str]) -> list[str]:
    """"N1 of N2" written as "N2 N1" when N1 ends in a noun made from a verb ("estimation of
    muscle force" -> "muscle force estimation", "automatic acquisition of entailment relations" ->
    "automatic entailment relation acquisition"); any other preposition, or a second "of", keeps it.

    >>> _of_folded("classification of patients".split()), _of_folded("number of patients".split())
    (['patient', 'classification'], ['number', 'of', 'patients'])
    """
    lowered = [w.lower() for w in words]
    if lowered.count("of") != 1 or any(w in PREPOSITIONS for w in lowered if w != "of"):
        return words
    i = lowered.index("of")
    left, right = words[:i], words[i + 1:]
    while right and right[0].lower() in _LEADING:
        right = right[1:]
    action = singular(left[-1]).lower() if left else ""
    if not (1 <= len(left) <= 3 and 1 <= len(right) <= 4 and action.endswith(_ACTION_ENDINGS)
            and action not in _NOT_ACTIONS and action not in GENERIC_WORDS):
        return words
    return [*left[:-1], *right[:-1], singular(right[-1]), left[-1]]


@lru_cache(maxsize=CACHED_SPELLINGS)
def display_name(text: str) -> str:
    """A spelling as the name a concept shows: the words its key leaves out in front ("classical",
    "vanilla", "large-scale") or after a name ("LoRA variants", "computer vision tasks") left out
    too, the rest as written. A spelling whose key reorders its words stays as it is.

    >>> display_name("classical motion segmentation"), display_name("LoRA variants"), display_name("large-scale knowledge bases")
    ('motion segmentation', 'LoRA', 'knowledge bases')
    >>> display_name("estimation of muscle force"), display_name("language models"), display_name("pre training")
    ('estimation of muscle force', 'language models', 'pre training')
    """
    text = clean_name(text)
    tokens = text.split()
    sizes = [len(_words(token)) for token in tokens]
    words = _words(text)
    if sum(sizes) != len(words) or _of_folded(words) != words:  # prefixes glued across spaces, "N1 of N2"
        return text
    stripped = _strip_modifiers(words)
    kept = _strip_generic_head(stripped)
    front, back = len(words) - len(stripped), len(stripped) - len(kept)
    # whole tokens only: "large-scale" goes as one, a cut inside a token keeps the spelling
    starts = [sum(sizes[:i]) for i in range(len(tokens) + 1)]
    if not kept or front not in starts or len(words) - back not in starts:
        return text
    return " ".join(tokens[starts.index(front):starts.index(len(words) - back)])


def without_prefix(word: str) -> list[str]:
    """The rest of ``word`` after each known prefix it begins with: what a text may write apart
    from the prefix ("training" of "pretraining", written "pre-training").

    >>> without_prefix("pretraining"), without_prefix("training")
    (['training'], [])
    """
    low = word.lower()
    return [word[len(p):] for p in _PREFIXES if low.startswith(p) and len(low) > len(p)]


def written_forms(word: str) -> set[str]:
    """Every lower-case word a text may write for ``word`` that folds to its form
    (``fold_word(singular(...))``): the form, its plurals, British spellings, irregular plurals.

    >>> sorted(written_forms("Modelling")), sorted(written_forms("corpus"))
    (['modeling', 'modelinges', 'modelings', 'modelling', 'modellinges', 'modellings'], ['corpora', 'corpus', 'corpuses', 'corpuss'])
    """
    form = fold_word(singular(word))
    singles = {form, word.lower(), *(british for british, american in _BRITISH.items() if american == form)}
    if form.endswith("ization"):
        singles.add(form[:-len("ization")] + "isation")
    forms = set(singles)
    for single in singles:
        forms |= {single + "s", single + "es"}
        if single.endswith("y"):
            forms.add(single[:-1] + "ies")
    return forms | {plural for plural, one in _IRREGULAR.items() if fold_word(one) in singles}


def fold_word(word: str) -> str:
    """A word in lower case with British spellings made American ("Modelling" -> "modeling")."""
    low = word.lower()
    low = _BRITISH.get(low, low)
    return low[:-len("isation")] + "ization" if low.endswith("isation") else low


@lru_cache(maxsize=CACHED_SPELLINGS)
def plain_key(text: str) -> str:
    """The key of a spelling before known acronyms are expanded ("LoRA" -> "lora")."""
    words = _strip_generic_head(_strip_modifiers(_of_folded(_words(text))))
    if not words:
        return ""
    words[-1] = singular(words[-1])
    return " ".join(fold_word(w) for w in words)


# Known acronyms and their long forms share one key: the long form's.
_KNOWN_ACRONYM_KEYS = {plain_key(short): plain_key(long_form) for short, (long_form, _) in KNOWN_ACRONYMS.items()}
# and a concept with a known long form is written by its acronym too ("LoRA" in any abstract)
KNOWN_SHORT_FORMS: dict[str, tuple[str, ...]] = {}
for _short, (_long_form, _) in KNOWN_ACRONYMS.items():
    KNOWN_SHORT_FORMS[plain_key(_long_form)] = (*KNOWN_SHORT_FORMS.get(plain_key(_long_form), ()), _short)


_CONJUNCTIONS = load.words("conjunctions")


def concept_parts(name: str, is_modifier: Callable[[str], bool] | None = None, share_nouns: bool = False) -> list[str]:
    """The concepts a coordinated name holds, each as a name of its own: "specificity and
    sensitivity" names specificity and sensitivity; what follows one-word parts is shared when
    they are modifiers (``is_modifier``, default ``looks_like_modifier``: "positive and negative
    examples") or it ends in a typed head ("image-to-text and text-to-image retrieval" ->
    image-to-text retrieval, text-to-image retrieval), never by a name ("Flickr30K and MSCOCO
    datasets"). With ``share_nouns`` (abstracts of computing), plain nouns before a noun and its head
    share the head too ("training and test data", "object, scene, and action categorization"); in the
    natural sciences a noun there mostly stands alone ("carcinogenesis and cancer progression",
    "milk and dairy products"). A name with a
    preposition ("databases of names and places"), a title-case name ("Research and
    Development") or a one-letter part ("R and D") is one concept.

    >>> concept_parts("specificity and sensitivity"), concept_parts("image-to-text and text-to-image retrieval")
    (['specificity', 'sensitivity'], ['image-to-text retrieval', 'text-to-image retrieval'])
    >>> concept_parts("Flickr30K and MSCOCO image-sentence datasets")
    ['Flickr30K', 'MSCOCO image-sentence datasets']
    >>> concept_parts("speech recognition and synthesis system"), concept_parts("Research and Development")
    (['speech recognition', 'synthesis system'], ['Research and Development'])
    >>> concept_parts("question, passage, and answer level"), concept_parts("public databases of names and places")
    (['question', 'passage', 'answer level'], ['public databases of names and places'])
    >>> concept_parts("5-(Hydroxymethyl)furfural, levulinic acid")  # a list without "and" too
    ['5-(Hydroxymethyl)furfural', 'levulinic acid']
    >>> concept_parts("training and test data", share_nouns=True), concept_parts("training and test data")
    (['training data', 'test data'], ['training', 'test data'])
    """
    is_modifier = is_modifier or looks_like_modifier
    words = name.replace(",", " , ").split()
    lowered = [w.lower() for w in words]
    if not any(w in _CONJUNCTIONS or w == "," for w in lowered) or any(w in PREPOSITIONS for w in lowered):
        return [name]
    content = [w for w in words if w.lower() not in _CONJUNCTIONS and w != ","]
    if len(content) >= 2 and all(w[:1].isupper() for w in content) and not all(is_name(w) for w in content):
        return [name]
    conjuncts: list[list[str]] = [[]]
    for word in words:
        if word.lower() in _CONJUNCTIONS or word == ",":
            if conjuncts[-1]:
                conjuncts.append([])
        elif conjuncts[-1] or word.lower() not in _LEADING:  # "X and a Y dictionary"
            conjuncts[-1].append(word)
    if len(conjuncts) < 2 or any(len(c) == 1 and len(c[0]) < 2 for c in conjuncts) or not conjuncts[-1]:
        return [name]
    last = conjuncts[-1]
    head = singular(last[-1]).lower()
    if len(last) >= 2 and all(len(c) == 1 and not _names_one_thing(c[0], is_modifier) for c in conjuncts[:-1]) and (
            head in HEAD_TYPES or head in GENERIC_HEADS or all(is_modifier(c[0]) for c in conjuncts[:-1])):
        return [" ".join([c[0], *last[1:]]) for c in conjuncts[:-1]] + [" ".join(last)]
    if share_nouns and len(last) == 2 and _plain_noun(last[0]) and not is_modifier(last[0]) and \
            all(len(c) == 1 and _plain_noun(c[0]) and c[0] not in HEAD_TYPES for c in conjuncts[:-1]):
        return [f"{c[0]} {last[1]}" for c in conjuncts[:-1]] + [" ".join(last)]
    return [" ".join(c) for c in conjuncts]


def _plain_noun(word: str) -> bool:
    """A lower-case word in the singular ("object", "speech"; not "images", "LDA", "cross-domain")."""
    return word.isalpha() and word.islower() and singular(word) == word


def _names_one_thing(word: str, is_modifier: Callable[[str], bool]) -> bool:
    """A name (``is_name``) that is no compound adjective: "NK-sensitive" of "NK-sensitive and NK-resistant target
    cell lines" shares the head, "Flickr30K" of "Flickr30K and MSCOCO datasets" does not."""
    first, _, last = word.rpartition("-")
    return is_name(word) and not (first and last.isalpha() and last.islower() and is_modifier(last))


@lru_cache(maxsize=CACHED_SPELLINGS)
def concept_key(text: str) -> str:
    """The canonical key of a spelling, the concept's identity in the graph: case, plural,
    hyphen/space/dash variants, glued prefixes, British spellings, judging words in front and
    generic heads after a name agree; a known acronym has its long form's key.

    >>> concept_key("Low-Rank Adaptations") == concept_key("low rank adaptation") == concept_key("vanilla LoRA")
    True
    >>> concept_key("LoRA variants"), concept_key("LLMs"), concept_key("pre-training"), concept_key("pretraining")
    ('low rank adaptation', 'large language model', 'pretraining', 'pretraining')
    >>> concept_key("language models"), concept_key("kernel methods"), concept_key("standard deviation")
    ('language model', 'kernel method', 'standard deviation')
    >>> concept_key("bilingual parallel corpora"), concept_key("EM algorithm"), concept_key("graph neural network models")
    ('bilingual parallel corpus', 'em', 'graph neural network')
    >>> concept_key("large-scale knowledge bases"), concept_key("large-scale optimization"), concept_key("large language models")
    ('knowledge base', 'large scale optimization', 'large language model')
    >>> concept_key("computer vision tasks"), concept_key("speech recognition applications"), concept_key("CoNLL 2008 shared task")
    ('computer vision', 'speech recognition', 'conll 2008 shared task')
    """
    key = plain_key(text)
    return _KNOWN_ACRONYM_KEYS.get(key, key)
