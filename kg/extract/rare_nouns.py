"""Lone nouns of a domain that the recogniser, trained on computing, misses elsewhere ("alloy", "neutrino")."""

from __future__ import annotations

from collections import Counter

from spacy.tokens import Doc, Token

from kg import lexicon
from kg.extract import english, entities
from kg.extract.mentions import Mention, concepts_only, quoted
from kg.extract.spans import recognised
from kg.lexicon import load
from kg.normalize import singular

# nouns made from verbs or adjectives: a process or a quality, no thing ("activation", "severity")
_QUALITY_ENDINGS = load.ordered("action_endings") + load.ordered("quality_endings")


def rare_head(token: Token) -> bool:
    """A lone word that names a domain's thing: a lower-case noun rare in general English (``lexicon.RARE_ZIPF``:
    "alloy", "neutrino") that heads its phrase ("the alloy was cast"; not "neutrino mass"); no modifier, unit,
    everyday word, nor a process or a quality by its ending ("activation", "severity")."""
    word, base = token.lower_, singular(token.lower_)
    if not (token.is_alpha and token.is_lower and len(word) > 3) or english.in_compound(token) or \
            max(lexicon.zipf(word), lexicon.zipf(base)) >= lexicon.RARE_ZIPF or english.is_modifier_word(word) or \
            base.endswith(_QUALITY_ENDINGS) or word in lexicon.UNITS or english.everyday_word(word):
        return False
    classes = english.word_classes()
    if not (base in classes.nouns or word in classes.irregular_noun_forms or
            not classes.known(word) and not classes.known(base) and not word.endswith(("ed", "ing", "ly"))):
        return False
    following = english.next_token(token)
    return following is None or not following.is_alpha or following.lower_ in lexicon.EDGE_WORDS or \
        following.lower_ in lexicon.PREPOSITIONS or following.lower_ in lexicon.MODALS or english.verb_form(following.lower_)


def rare_nouns(doc: Doc) -> list[Mention]:
    """In a paper outside computing, the mentions of a rare noun heading its phrase (``rare_head``) that the
    abstract writes twice or more and nothing covers, kept when typed an Entity ("alloy"; not "cohort")."""
    domains = {d["name"] for d in doc._.kg_domains or []}
    if not entities.outside_computing(domains, set(doc._.kg_domain_hints or ())):
        return []
    counts = Counter(singular(t.lower_) for t in doc if t.is_alpha)
    covered = [(m["start"], m["end"]) for m in doc._.kg_mentions or []] + [(e.start_char, e.end_char) for e in doc.ents] + \
        quoted(doc)
    found = [recognised(doc, doc[t.i:t.i + 1], "OtherScientificTerm", rule="rare_noun") for t in doc
             if counts[singular(t.lower_)] >= 2 and rare_head(t) and not any(s <= t.idx < e for s, e in covered)]
    # a word that names a type alone is what names of that type end in, no name ("cohort", "assay")
    return [m for m in concepts_only(doc, found) if m["type"] == "Entity"]
