"""The project's spaCy components, registered by name.

Each writes plain data to a ``doc._.kg_*`` attribute (so docs cross process
boundaries intact in ``nlp.pipe(n_process=...)``). A mention is a dict with
``start``/``end`` (character offsets into ``doc.text``), ``type``, ``rule``,
``confidence``, ``proposed`` and the offsets of its sentence.

No component needs a tagger or a parse: sentences come from spaCy's ``senter``, and the
typed spans mostly from the project's SciERC-trained recogniser (``scierc_ner``).
"""

from __future__ import annotations

import bisect
from collections import Counter

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span, Token

from kg.extract import context, entities, junk, lexicon, patterns
from kg.extract.lexicon import load
from kg.extract.normalize import singular

for _name in ("kg_urls", "kg_citations", "kg_asides", "kg_acronyms", "kg_mentions", "kg_domains", "kg_domain_hints"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=None)

# Higher wins when two mentions of the same tier overlap exactly.
RULE_PRIORITY = {"gazetteer": 5, "scierc_ner": 4, "we_propose": 3, "acronym": 2, "repeated": 1, "rare_noun": 2}
DOMAIN_RULE = "domain_taxonomy"  # the rule of a domain's mentions (kg_domains), beside the rules of RULE_CONFIDENCE
RULE_CONFIDENCE = {"gazetteer": 0.9, "scierc_ner": 0.75, "we_propose": 0.8, "acronym": 0.75, "repeated": 0.7, "rare_noun": 0.6}
# Mentions of a higher tier beat any overlapping mention of a lower one; within a tier the longer wins.
RULE_TIER = {"gazetteer": 2, "scierc_ner": 2, "we_propose": 2, "acronym": 2, "repeated": 1, "rare_noun": 1}
SCORED_LABELS = ("Method", "Task", "Dataset", "Metric")  # the types kg eval scierc scores
CONCEPT_LABELS = SCORED_LABELS + ("Entity",)  # the types emitted: SciERC's OtherScientificTerm is an Entity
UNSCORED_LABELS = ("Generic", "OtherScientificTerm")  # learnt by the recogniser, never emitted as such
RECOGNISED_AS = {"OtherScientificTerm": "Entity"}  # the recogniser's label -> the concept type it reads

_SKIP_LEADING_LOWER = load.words("skip_leading_words")
# nouns made from verbs or adjectives: a process or a quality, no thing ("activation", "severity")
_QUALITY_ENDINGS = load.ordered("action_endings") + load.ordered("quality_endings")


class Sentences:
    """The sentence spans of a doc, looked up by character offset."""

    def __init__(self, doc: Doc):
        if doc.has_annotation("SENT_START"):
            self.spans = [(s.start_char, s.end_char) for s in doc.sents]
        else:
            self.spans = [(0, len(doc_text(doc)))]
        self.starts = [s for s, _ in self.spans]

    def at(self, char: int) -> tuple[int, int]:
        return self.spans[max(0, bisect.bisect_right(self.starts, char) - 1)]


def doc_text(doc: Doc) -> str:
    """``doc.text``, kept with the doc: spaCy joins every token again on each call."""
    text = doc.user_data.get("_kg_text")
    if text is None:
        text = doc.user_data["_kg_text"] = doc.text
    return text


def _sentences(doc: Doc) -> Sentences:
    cached = doc.user_data.get("_kg_sentences")
    if cached is None:
        cached = doc.user_data["_kg_sentences"] = Sentences(doc)
    return cached


def _mention(doc: Doc, span: Span, type_: str, rule: str, proposed: bool | None = None) -> dict:
    sent_start, sent_end = _sentences(doc).at(span.start_char)
    return {
        "start": span.start_char, "end": span.end_char, "text": span.text, "type": type_,
        "rule": rule, "confidence": RULE_CONFIDENCE[rule],
        "proposed": (bool(proposed) if type_ == "Method" else None),
        "sentence": [sent_start, max(sent_end, span.end_char)],
    }


def head_type(span: Span) -> str | None:
    """The concept type a noun phrase's head (its last word) gives it, if any."""
    lower = span.text.lower()
    for phrase, type_ in lexicon.PHRASE_HEADS.items():
        if lower.endswith(phrase):
            return type_
    head = span[-1].lower_
    return lexicon.HEAD_TYPES.get(head) or lexicon.HEAD_TYPES.get(singular(head))


def _as_type(decided: str | None, label: str) -> str:
    """The recogniser's label as a concept type, unless the span itself decided (``span_type``)."""
    if label == "Generic" and decided == "Entity":  # "these cells" stays SciERC's Generic: no concept
        return label
    decided = decided or label
    return RECOGNISED_AS.get(decided, decided)


def span_type(span: Span, label: str) -> str | None:
    """The type a recognised span's own words give it, whatever the recogniser read (``label``), or None
    (then the sentence may decide, ``context.context_type``, else the label). The span's head noun (its last
    word before a preposition) decides: "BLEU-4 accuracy" and "accuracy on ImageNet" are Metrics, "vanilla
    LoRA" and "statistical parser" Methods, "tannic acid" and "memory B cells" Entities, whatever the
    recogniser read them as; so is a span shaped like an Entity (``entities.shape_is_entity``: "Fe3+",
    "guanylyl cyclase", "A. fumigatus"). An other term or a Dataset headed by a procedure is a Method
    ("block randomisation", ``entities.procedure``), a span headed by the name of a type that type ("maximum set
    coverage problem", ``lexicon.TYPE_WORDS``), a system a Method ("translation systems", "OCR system"; not
    an other term after an adjective, "chaotic system");
    an other term that names a measured number a Metric ("FA values",
    "mean height", ``entities.measured_quantity``), one headed by data a Dataset ("IBD cohort")."""
    head = next((span[i - 1] for i in range(1, len(span)) if span[i].lower_ in lexicon.PREPOSITIONS), span[-1])
    word = head.lower_
    decided = lexicon.NAMED_HEADS.get(head.text) or lexicon.DECIDING_HEADS.get(word) or lexicon.DECIDING_HEADS.get(singular(word))
    if decided is None and label != "Generic" and len(span) > 1:  # "this method" stays SciERC's Generic
        decided = lexicon.TYPE_WORDS.get(singular(word))
        if decided is not None and (junk.in_compound(head) or label == "Task" and entities.doing(span.text)):
            decided = None  # "cross-corpus", "building polarity-tagged corpus" are no Dataset
        # a system is a Method: SciERC reads 103 of its 143 training spans that end in one and name a concept so (38
        # Tasks: "machine translation systems"); an other term only when a noun says what it handles ("OCR system"),
        # not an adjective what it is ("chaotic system", "nervous system")
        if decided is None and singular(word) == "system" and head.i > span.start and \
                (label in ("Task", "Dataset") or label == "OtherScientificTerm" and not _adjective(span.doc[head.i - 1].lower_)):
            decided = "Method"
    if label == "Generic":
        return decided
    if decided is None and entities.shape_is_entity(span, junk.word_classes().known):
        decided = "Entity"
    if decided is None and label in ("OtherScientificTerm", "Dataset") and entities.procedure(word):
        decided = "Method"  # a technique read as a thing or as data
    if decided is None and label == "OtherScientificTerm" and entities.measured_quantity(span.text):
        decided = "Metric"
    if decided is None and (label in ("OtherScientificTerm", "Method") or label == "Task" and not span[0].lower_.endswith("ing")
                            and not entities.doing(span.text)) and entities.data_term(span.text):
        decided = "Dataset"  # "IBD cohort", "tumor samples", "SEER database", "TOS-H group"; not "segmenting sequential data"
    return decided


def _recognised(doc: Doc, span: Span, label: str, rule: str = "scierc_ner") -> dict:
    """The mention of a recognised span: typed by its own words (``span_type``), else by the sentence
    around it (``context.context_type``: "The minimum reflection loss (RL) is −23.51 dB" is a Metric,
    "Full triage was applied" a Method; marked ``context``), else by the recogniser's label."""
    decided = span_type(span, label)
    if decided is None and label != "Generic" and (cue := context.context_type(span)) is not None:
        mention = _mention(doc, span, cue, rule)
        mention["context"] = True
        return mention
    return _mention(doc, span, _as_type(decided, label), rule)


def rare_head(token: Token) -> bool:
    """A lone word that names a domain's thing: a lower-case noun rare in general English (below
    ``lexicon.RARE_ZIPF``: "alloy", "bitumen", "neutrino", "perovskite"; a noun of the English tables or a word
    they do not know; no modifier, unit, everyday word, ``junk.everyday_word``: "receipt", nor a process or quality by
    its ending: "activation", "severity") that heads
    its phrase: a sign, a function word or a verb follows it ("the alloy was cast", "of the neutrino in", "bitumen
    shows"; not "neutrino mass")."""
    word, base = token.lower_, singular(token.lower_)
    if not (token.is_alpha and token.is_lower and len(word) > 3) or junk.in_compound(token) or \
            max(lexicon.zipf(word), lexicon.zipf(base)) >= lexicon.RARE_ZIPF or junk.is_modifier_word(word) or \
            base.endswith(_QUALITY_ENDINGS) or word in lexicon.UNITS or junk.everyday_word(word):
        return False
    classes = junk.word_classes()
    if not (base in classes.nouns or word in classes.irregular_noun_forms or
            not classes.known(word) and not classes.known(base) and not word.endswith(("ed", "ing", "ly"))):
        return False
    doc = token.doc
    following = doc[token.i + 1] if token.i + 1 < len(doc) else None
    return following is None or not following.is_alpha or following.lower_ in lexicon.EDGE_WORDS or \
        following.lower_ in lexicon.PREPOSITIONS or following.lower_ in lexicon.MODALS or junk.verb_form(following.lower_)


def _adjective(word: str) -> bool:
    """An English adjective that is no noun ("chaotic", "nervous"; not "information", "OCR")."""
    classes = junk.word_classes()
    return word in classes.adjectives and word not in classes.nouns


@Language.factory("kg_urls")
def make_urls(nlp: Language, name: str):
    def urls(doc: Doc) -> Doc:
        doc._.kg_urls = patterns.find_urls(doc_text(doc))
        return doc
    return urls


@Language.factory("kg_citations")
def make_citations(nlp: Language, name: str):
    def citations(doc: Doc) -> Doc:
        doc._.kg_citations = patterns.find_citations(doc_text(doc))
        return doc
    return citations


@Language.factory("kg_asides")
def make_asides(nlp: Language, name: str):
    def asides(doc: Doc) -> Doc:
        doc._.kg_asides = patterns.find_asides(doc_text(doc))
        return doc
    return asides


@Language.factory("kg_acronyms")
def make_acronyms(nlp: Language, name: str):
    def acronyms(doc: Doc) -> Doc:
        doc._.kg_acronyms = patterns.find_acronyms(doc_text(doc))
        return doc
    return acronyms


@Language.factory("kg_concepts")
class ConceptFinder:
    """Typed concept mentions: the trained recogniser's entities, known names, "we propose X"
    objects and acronyms of typed long forms; among
    overlapping mentions the longer one of the more reliable tier is kept. Methods the paper
    introduces are marked ``proposed``."""

    def __init__(self, nlp: Language, name: str):
        self.exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.folded = PhraseMatcher(nlp.vocab, attr="LOWER")
        for type_, names in lexicon.KNOWN_NAMES.items():
            case_sensitive = [n for n in names if any(c.isupper() for c in n) and len(n) <= 6]
            folded = [n for n in names if n not in case_sensitive]
            self.exact.add(type_, [nlp.make_doc(n) for n in case_sensitive])
            self.folded.add(type_, [nlp.make_doc(n.lower()) for n in folded])

    def __call__(self, doc: Doc) -> Doc:
        # the recogniser's Generic spans (and its Entities that are junk) take part in the overlap
        # decisions, so that no rule re-labels a span the recogniser read as a generic or other term
        found: list[dict] = [_recognised(doc, span, ent.label_) for ent in doc.ents
                             if ent.label_ in SCORED_LABELS + UNSCORED_LABELS and (span := concept_span(ent)) is not None]
        for matcher in (self.exact, self.folded):
            for match_id, start, end in matcher(doc):
                found.append(_mention(doc, doc[start:end], doc.vocab.strings[match_id], "gazetteer"))
        found = _concepts_only(doc, found)
        # nothing in an in-text citation, a URL or an aside is a concept ("Medina and Vassilvitskii (2017)", "Adam et
        # al.", "Fig. 3", "Brodsky and Lepage [8]", "(Sigma-Aldrich, St. Louis, MO, USA)")
        quoted = [(c["start"], c["end"]) for c in (doc._.kg_citations or []) + (doc._.kg_urls or []) + (doc._.kg_asides or [])]
        kept = resolve_overlaps(_outside(found, quoted))
        kept = consistent_types(resolve_overlaps(kept + _concepts_only(doc, self._proposed(doc, kept))))
        kept += self._acronyms(doc, kept)
        kept = resolve_overlaps(kept)
        kept = resolve_overlaps(kept + self._repeated(doc, kept))
        # the mentions found since the first check: acronyms and repeats ("US" for the United States)
        doc._.kg_mentions = [m for m in _concepts_only(doc, _outside(kept, quoted), rules=("acronym", "repeated"))
                             if m["type"] in CONCEPT_LABELS]
        doc.user_data.pop("_kg_sentences", None)
        return doc

    def _proposed(self, doc: Doc, mentions: list[dict]) -> list[dict]:
        """Mark the methods the paper introduces; a named object of "we propose" that no other
        rule found becomes a mention of its own."""
        extra = []
        for window_start, window_end in proposal_objects(doc):
            chars = (doc[window_start].idx, doc[window_end - 1].idx + len(doc[window_end - 1]))
            inside = [m for m in mentions if chars[0] <= m["start"] < chars[1]]
            for m in inside:
                if _derived_from(doc, m):  # "a new variant of AdaBoost": AdaBoost is used
                    continue
                if m["type"] == "Entity":  # "we introduce a lemma-based approach": a Method head
                    span = doc.char_span(m["start"], m["end"], alignment_mode="expand")
                    if span is None or head_type(span) != "Method":
                        continue
                    m["type"] = "Method"
                apposition = _apposition_type(doc, m)  # "FlashNet, a novel attention mechanism"
                if apposition is None and m["type"] != "Method" and _is_named(doc.char_span(m["start"], m["end"], alignment_mode="expand")):
                    apposition = _described_as(doc, window_start, m)  # "a ranking algorithm, TextRank, is proposed"
                if apposition and apposition != m["type"] and m["type"] != "Metric":
                    m["type"], m["proposed"] = apposition, (False if apposition == "Method" else None)
                if m["type"] == "Method":
                    m["proposed"] = True
            if not any(m["type"] == "Method" for m in inside):
                span = _named_object(doc[window_start:window_end])
                if span is not None:
                    extra.append(_mention(doc, span, head_type(span) or "Method", "we_propose", proposed=True))
            for span in _unfound_names(doc[window_start:window_end], inside):  # "..., TextRank, is proposed"
                extra.append(_mention(doc, span, "Method", "we_propose", proposed=True))
        for m in mentions:  # "a novel X", "our proposed X", "X, a novel ..."
            if m["type"] != "Method":
                continue
            span = doc.char_span(m["start"], m["end"], alignment_mode="expand")
            if span is None:
                continue
            before = doc[max(0, span.start - 2):span.start]
            if any(_is_own_marker(t) for t in before) or (len(before) and before[-1].lower_ == "our" and _is_named(span)):
                m["proposed"] = True
            after = doc[span.end:span.end + 4]
            if len(after) >= 3 and after[0].text == "," and after[1].lower_ in ("a", "an", "our") and \
                    any(t.lower_ in ("novel", "new") for t in after[2:]):
                m["proposed"] = True
        return extra

    def _repeated(self, doc: Doc, found: list[dict]) -> list[dict]:
        """Every other occurrence of a typed span's exact text is a mention of the same type
        (an abstract keeps calling a thing by the name it introduced)."""
        extra = []
        text = doc_text(doc)
        seen = set()
        for m in found:
            name = m["text"]
            if name in seen or len(name) < 2:
                continue
            seen.add(name)
            start = 0
            while (start := text.find(name, start)) >= 0:
                end = start + len(name)
                if (start == 0 or not text[start - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
                    span = doc.char_span(start, end)
                    if span is not None:
                        mention = _mention(doc, span, m["type"], "repeated", proposed=m["proposed"])
                        extra.append(mention)
                start = end
        return extra

    def _acronyms(self, doc: Doc, found: list[dict]) -> list[dict]:
        """Every occurrence of an acronym whose long form holds a typed mention, of that mention's type. An
        acronym names what its long form names: none when the long form is no concept ("Society for
        Vascular Surgery (SVS)"), an Entity when only a junk part of it was read as one ("acute respiratory"
        of "Severe acute respiratory syndrome coronavirus-2 (SARS-CoV-2)"). A mention that ends the long form
        but starts inside it, alone there, is the long form ("sequence repeats" of "simple sequence repeats
        (SSRs)")."""
        extra = []
        text = doc_text(doc)
        taken = [(m["start"], m["end"]) for m in found]
        for acronym in doc._.kg_acronyms or []:
            typed = [m for m in found if m["start"] < acronym["long_end"] and acronym["long_start"] < m["end"]]
            if not typed:
                continue
            long_form = doc.char_span(acronym["long_start"], acronym["long_end"], alignment_mode="expand")
            if long_form is None or junk.junk_reason(long_form):
                continue
            best = max(typed, key=lambda m: (m["end"] - m["start"], RULE_PRIORITY[m["rule"]]))
            type_ = RECOGNISED_AS.get(best["type"], best["type"])  # a junk other term stands in for its span
            if best["end"] == acronym["long_end"] and best["start"] > acronym["long_start"] and len(typed) == 1 and \
                    _plain_words(text[acronym["long_start"]:best["start"]]):
                # the name its letters spell, cut by the recogniser: "sequence repeats" of "simple sequence repeats (SSRs)"
                best.update(start=acronym["long_start"], text=text[acronym["long_start"]:best["end"]])
            short = acronym["short"]
            start = 0
            while (start := text.find(short, start)) >= 0:
                end = start + len(short)
                boundary_ok = (start == 0 or not text[start - 1].isalnum()) and (end == len(text) or not text[end].isalnum())
                span = doc.char_span(start, end, alignment_mode="expand")
                if boundary_ok and span is not None and not any(s <= start and end <= e for s, e in taken
                                                                if (s, e) != (start, end)):
                    mention = _mention(doc, span, type_, "acronym", proposed=best["proposed"])
                    mention.update(start=start, end=end, text=short, alias_of=best["text"])
                    extra.append(mention)
                start = end
        return extra


def _plain_words(text: str) -> bool:
    """One to three words, no function word or sign among them ("simple ", not "(WF+CE/lignin) and in the ")."""
    words = text.split()
    return 1 <= len(words) <= 3 and text.endswith(" ") and \
        all(w.replace("-", "").isalnum() and w.lower() not in lexicon.EDGE_WORDS for w in words)


def concept_span(span: Span) -> Span | None:
    """A recognised span as a name (``clean_span``) without a heading, a unit or a verb at its
    edges (``junk.trim``), or None (also when markup sits inside it: "$\\delta$-function interaction")."""
    if junk.broken_by_markup(span):
        return None
    span = clean_span(span)
    trimmed = junk.trim(span) if span is not None else None
    return clean_span(trimmed) if trimmed is not None and trimmed != span else trimmed


def _concepts_only(doc: Doc, mentions: list[dict], rules: tuple[str, ...] | None = None) -> list[dict]:
    """The mentions (of ``rules``, default all) of a concept type that ``junk.junk_reason`` lets pass;
    the unscored types, and the recogniser's Entities that are junk, stay: they block other rules."""
    kept = []
    text = doc_text(doc)
    for m in mentions:
        if m["type"] in CONCEPT_LABELS and (rules is None or m["rule"] in rules):
            span = doc.char_span(m["start"], m["end"], alignment_mode="expand")
            if span is not None and junk.junk_reason(span, text[m["sentence"][0]:m["sentence"][0] + 40]):
                if m["type"] != "Entity" or m["rule"] != "scierc_ner":
                    continue
                m = dict(m, type="OtherScientificTerm")  # no concept, but it still blocks other rules, as before
        kept.append(m)
    return kept


def _outside(mentions: list[dict], ranges: list[tuple[int, int]]) -> list[dict]:
    """The mentions that overlap none of these character ranges."""
    return [m for m in mentions if not any(start < m["end"] and m["start"] < end for start, end in ranges)]


def _is_named(span: Span) -> bool:
    """A name rather than a description: a capital after the first letter, or a digit ("FlashNet", "GPT-4")."""
    return any(any(c.isupper() for c in t.text[1:]) or any(c.isdigit() for c in t.text) for t in span) or \
        any(t.is_upper and len(t) > 1 for t in span)


_MARKUP = frozenset({"(", "[", ")", "]", "{", "}", "*", "**", "$", "$$", "_"})
_OPENING = frozenset({"(", "["})
_CLOSING = frozenset({")", "]"})


def clean_span(span: Span) -> Span | None:
    """A recognised span as a name: without the bracket it ends in or opens ("large language
    models (LLMs)" and "language models (LLMs" -> "large language models", "LLMs)" -> "LLMs":
    an acronym in brackets is a mention of its own), markup, or a function word at either end
    ("information extraction and" -> "information extraction"; "IS", "A*" stay) or a preposition at its
    end ("adjuvant therapy prior" -> "adjuvant therapy"); None if nothing
    is left, or if the span holds a possessive other than a person's name ("AION-1's first encoder
    block", "the model's accuracy"; "Cohen's kappa" stays: 20 of SciERC's 6,700 spans hold one)."""
    doc = span.doc
    if any(t.lower_ in ("'s", "’s") and (t.i == span.start or not _is_plain_name(doc[t.i - 1])) for t in span):
        return None
    span = _before_parenthesis(_bracket_closed(span))
    start, end = span.start, span.end
    while start < end and _is_edge_word(doc[start]) and doc[start].whitespace_:
        start += 1
    while end > start and (_is_edge_word(doc[end - 1]) or doc[end - 1].lower_ in lexicon.TRAILING_WORDS):
        end -= 1
    return doc[start:end] if end > start else None


def _is_edge_word(token) -> bool:
    return token.lower_ in lexicon.EDGE_WORDS and not (token.is_upper and len(token) > 1)  # "IS", "OR" are acronyms


def _is_plain_name(token) -> bool:
    return token.is_title and token.is_alpha


def _before_parenthesis(span: Span) -> Span:
    """The span without markup at its edges, and cut at a bracket it opens or ends in."""
    doc, start, end = span.doc, span.start, span.end
    # markup is no part of a name: "{\sl fair representations}" -> "fair representations"
    while start < end - 1 and (doc[start].text in _MARKUP or doc[start].text.startswith("\\")):
        start += 1
    while end > start + 1 and (doc[end - 1].text in _MARKUP or doc[end - 1].text.startswith("\\")) \
            and doc[end - 1].text not in _CLOSING:
        end -= 1
    for i in range(start + 1, end):
        if doc[i].text in _OPENING or (doc[i].text in _CLOSING and not any(_opens(t.text) for t in doc[start:i])):
            end = i
            break
    return doc[start:end]


def _bracket_closed(span: Span) -> Span:
    """The span with the bracket that closes one opened inside a word of it: "poly(ethylene glycol" ->
    "poly(ethylene glycol)", "uranium(VI" -> "uranium(VI)" (the tokenizer splits the closing bracket off)."""
    doc, end = span.doc, span.end
    if end < len(doc) and doc[end].text in _CLOSING and not doc[end - 1].whitespace_ and _opens(span.text):
        return doc[span.start:end + 1]
    return span


def _opens(text: str) -> bool:
    """More brackets opened than closed in ``text``."""
    return text.count("(") > text.count(")") or text.count("[") > text.count("]")


def _apposition_type(doc: Doc, mention: dict) -> str | None:
    """The type that an apposition after a mention gives it: "FlashNet, a novel attention
    mechanism for ..." is a Method whatever the recogniser said."""
    span = doc.char_span(mention["start"], mention["end"], alignment_mode="expand")
    if span is None or span.end + 2 >= len(doc) or doc[span.end].text != "," or \
            doc[span.end + 1].lower_ not in ("a", "an", "the", "our"):
        return None
    end = span.end + 2
    while end < len(doc) and doc[end].lower_ not in lexicon.OBJECT_STOPS and end - span.end < 10:
        end += 1
    return head_type(doc[span.end + 2:end]) if end > span.end + 2 else None


def _described_as(doc: Doc, window_start: int, mention: dict) -> str | None:
    """The type that the words before a name in a proposal give it: a Method head noun and no
    Dataset one ("a novel ranking algorithm, TextRank") make it a Method."""
    types = {lexicon.HEAD_TYPES.get(singular(t.lower_)) for t in doc[window_start:] if t.idx < mention["start"]}
    return "Method" if "Method" in types and "Dataset" not in types else None


def _unfound_names(window: Span, found: list[dict]) -> list[Span]:
    """Names (inner capitals or digits: "TextRank", "GPT-4o") in a proposal window that no
    mention covers."""
    doc = window.doc
    names = []
    i = window.start
    while i < window.end:
        token = doc[i]
        covered = any(m["start"] <= token.idx < m["end"] for m in found)
        if not covered and token.text[:1].isalnum() and _is_named(doc[i:i + 1]) and not token.like_num:
            j = i + 1
            while j < window.end and (doc[j - 1].text == "-" or doc[j].text == "-" or not doc[j - 1].whitespace_) \
                    and not doc[j].is_punct or (j < window.end and doc[j].text == "-"):
                j += 1
            names.append(doc[i:j])
            i = j
        else:
            i += 1
    return names


def _named_object(window: Span) -> Span | None:
    """The named thing or typed noun phrase that a "we propose" object starts with, if any."""
    doc = window.doc
    start = window.start
    while start < window.end and (doc[start].lower_ in _SKIP_LEADING_LOWER or doc[start].is_punct
                                  or doc[start].tag_ in ("DT", "PRP$", "CD")):
        start += 1
    end = start
    while end < window.end and not doc[end].is_punct or (end < window.end and doc[end].text == "-"):
        if doc[end].lower_ in ("and", "or", "of"):
            break
        end += 1
    if end <= start:
        return None
    span = doc[start:end]
    if _is_named(span) or (len(span) >= 2 and head_type(span) == "Method"):
        return span
    return None


def _is_own_marker(token) -> bool:
    """"novel", "new" or "proposed" opening the paper's own noun phrase ("a novel X", "the proposed
    X"), not a verb or another's work ("recent studies have proposed alternative X", "the recently
    proposed X", "their new X")."""
    if token.lower_ not in lexicon.OWN_MARKERS:
        return False
    return token.i == 0 or bool(token.is_sent_start) or token.doc[token.i - 1].lower_ in lexicon.OWN_DETERMINERS


def _prior_work_passive(doc: Doc, verb_index: int, auxiliary_index: int) -> bool:
    """A passive proposal that reports others' work: "X has been proposed", "X was previously
    proposed", "X was proposed by Smith"."""
    if doc[auxiliary_index].lower_ == "been" or any(doc[k].lower_ in lexicon.PRIOR_ADVERBS for k in range(auxiliary_index, verb_index)):
        return True
    after = doc[verb_index + 1:verb_index + 3]
    return len(after) == 2 and after[0].lower_ == "by" and after[1].lower_ not in ("us", "this", "the", "our")


def _object_stop(token) -> bool:
    """A word that ends what a proposal verb names ("for", "that", "combining"), not inside a compound ("graph-based")."""
    return token.lower_ in lexicon.OBJECT_STOPS and not junk.in_compound(token)


def _component_cue(token) -> bool:
    """A word before what a proposal is made of ("combining", "based on"), not inside a compound ("graph-based")."""
    return token.lower_ in lexicon.COMPONENT_CUES and not junk.in_compound(token)


def _derived_from(doc: Doc, mention: dict) -> bool:
    """A mention the proposal only starts from: "a new variant of AdaBoost", "an extension of the X"."""
    span = doc.char_span(mention["start"], mention["end"], alignment_mode="expand")
    k = span.start - 1 if span is not None else -1
    while k > 0 and doc[k].lower_ in lexicon.OWN_DETERMINERS:
        k -= 1
    return k > 0 and doc[k].lower_ == "of" and doc[k - 1].lower_ in lexicon.DERIVED_FROM


def _earlier_work(doc: Doc, verb_index: int) -> bool:
    """"In recent work, we introduced X", "In our previous paper we presented X": the paper reports its
    authors' earlier proposal."""
    sentence_start = doc[verb_index].sent.start if doc.has_annotation("SENT_START") else 0
    words = [t.lower_ for t in doc[sentence_start:verb_index]]
    return any(w == "in" and any(x in lexicon.EARLIER for x in words[i + 1:i + 3]) and
               any(singular(x) in lexicon.SELF_NOUNS for x in words[i + 2:i + 4])
               for i, w in enumerate(words))


_REPORT_PREPOSITIONS = load.words("report_prepositions")


def _report_on(doc: Doc, start: int, end: int) -> bool:
    """A window that reports on methods rather than proposes one: "an overview on model-based control",
    "the results of lap shear tests", "the underlying theory behind ARIMA models"."""
    return any(doc[k].lower_ in lexicon.REPORT_NOUNS and k + 1 < end and doc[k + 1].lower_ in _REPORT_PREPOSITIONS
               for k in range(start, min(end, start + 4)))


_BE_FORMS = load.words("be_forms")


def proposal_objects(doc: Doc) -> list[tuple[int, int]]:
    """Token windows holding what the paper proposes: the object of "we (also) propose ...",
    "this paper presents ...", "in this work, we introduce ...", and the subject of
    "... is proposed"; a window ends at a preposition or clause word ("for", "that", ",") and at what
    the proposal is made of ("combining", "based", ``lexicon.COMPONENT_CUES``); a report on methods
    ("an overview of ...") and the authors' earlier work ("in recent work, we introduced") propose nothing."""
    windows = []
    n = len(doc)
    for i, token in enumerate(doc):
        if token.lower_ not in lexicon.PROPOSE_FORMS:
            continue
        j = i - 1
        while j >= 0 and doc[j].lower_ in lexicon.PROPOSE_ADVERBS:
            j -= 1
        subject = doc[j].lower_ if j >= 0 else ""
        self_subject = subject == "we" or (subject in lexicon.SELF_NOUNS and j >= 1 and doc[j - 1].lower_ in ("this", "our"))
        if self_subject and not token.lower_.endswith("ing") and not _earlier_work(doc, i):
            end = i + 1
            while end < n and not _object_stop(doc[end]) and not doc[end].is_sent_start:
                end += 1
            # "we propose X, called Y", "X, or Y,", "an architecture, the Transformer,": the name joins the object
            if end + 1 < n and doc[end].text == ",":
                after = end + 1
                while after < n and after - end <= 5 and not _object_stop(doc[after]):
                    after += 1
                segment = doc[end + 1:after]
                if len(segment) and (segment[0].lower_ in lexicon.NAMING_WORDS
                                     or _is_named(segment) or any(t.is_title and t.is_alpha for t in segment)):
                    end = after
            if end > i + 1 and not _report_on(doc, i + 1, end):
                windows.append((i + 1, end))
        elif subject in _BE_FORMS and token.lower_.endswith("ed") and \
                not _prior_work_passive(doc, i, j) and not (j > 0 and doc[j - 1].lower_ in ("that", "which", "who")):
            # "a new parser, FooNet, is proposed": the subject is before the verb in the same sentence (not a relative
            # clause's: "an error corrector that is designed to ..." describes what the sentence names)
            sent = token.sent if doc.has_annotation("SENT_START") else doc[:]
            start = sent.start
            if _component_cue(doc[start]):  # "Based on the proposed framework, a novel algorithm ..."
                start = next((k + 1 for k in range(start, j) if doc[k].text == ","), j)
            end = next((k for k in range(start, j) if _component_cue(doc[k])), j)
            if end > start and not _report_on(doc, start, end):
                windows.append((start, end))
            # "a learning system incorporating X, called Rank-HLapSVM, is proposed": the name is proposed too
            named = next((k for k in range(end, j) if doc[k].lower_ in lexicon.NAMING_WORDS), None)
            if named is not None and named + 1 < j:
                windows.append((named + 1, j))
    return windows


def consistent_types(mentions: list[dict]) -> list[dict]:
    """One type per name in a document: the type of a mention the paper proposes, else the most
    frequent one (the first on a tie)."""
    by_text: dict[str, list[dict]] = {}
    for m in mentions:
        by_text.setdefault(m["text"], []).append(m)
    for group in by_text.values():
        if len({m["type"] for m in group}) < 2:
            continue
        proposed = [m for m in group if m.get("proposed")]
        if proposed:
            type_ = proposed[0]["type"]
        else:
            counts: dict[str, int] = {}
            for m in group:
                counts[m["type"]] = counts.get(m["type"], 0) + 1
            type_ = max(counts, key=lambda t: counts[t])  # dicts keep insertion order: first wins a tie
        for m in group:
            if m["type"] != type_:
                m["type"] = type_
                m["proposed"] = bool(proposed) if type_ == "Method" else None
    return mentions


def resolve_overlaps(mentions: list[dict]) -> list[dict]:
    """Keep, among overlapping mentions, the one of the higher tier, then the longer one
    ("GRU decoder" over "GRU"), then the one of the more reliable rule."""
    ranked = sorted(mentions, key=lambda m: (-RULE_TIER[m["rule"]], -(m["end"] - m["start"]),
                                             -RULE_PRIORITY[m["rule"]], m["start"]))
    kept: list[dict] = []
    for mention in ranked:
        if all(mention["end"] <= k["start"] or k["end"] <= mention["start"] for k in kept):
            kept.append(mention)
        else:  # the same span said twice: remember that the paper proposes it
            for k in kept:
                if (k["start"], k["end"]) == (mention["start"], mention["end"]) and mention.get("proposed"):
                    k["proposed"] = True if k["type"] == "Method" else None
    return sorted(kept, key=lambda m: m["start"])


@Language.factory("kg_rare_nouns")
def make_rare_nouns(nlp: Language, name: str):
    def add_rare_nouns(doc: Doc) -> Doc:
        doc._.kg_mentions = resolve_overlaps((doc._.kg_mentions or []) + rare_nouns(doc))
        doc.user_data.pop("_kg_sentences", None)
        return doc
    return add_rare_nouns


def rare_nouns(doc: Doc) -> list[dict]:
    """In a paper outside computing (``entities.outside_computing``: the recogniser learnt its terms on computing),
    the mentions of a rare noun heading its phrase (``rare_head``) that the abstract writes twice or more and nothing
    covers, typed as the recogniser's other terms are (``span_type``); kept as an Entity only ("alloy", "neutrino";
    not "cohort", a Dataset's head)."""
    domains = {d["name"] for d in doc._.kg_domains or []}
    if not entities.outside_computing(domains, set(doc._.kg_domain_hints or ())):
        return []
    counts = Counter(singular(t.lower_) for t in doc if t.is_alpha)
    covered = [(m["start"], m["end"]) for m in doc._.kg_mentions or []] + [(e.start_char, e.end_char) for e in doc.ents] + \
        [(c["start"], c["end"]) for c in (doc._.kg_citations or []) + (doc._.kg_urls or []) + (doc._.kg_asides or [])]
    found = [_recognised(doc, doc[t.i:t.i + 1], "OtherScientificTerm", rule="rare_noun") for t in doc
             if counts[singular(t.lower_)] >= 2 and rare_head(t) and not any(s <= t.idx < e for s, e in covered)]
    # a word that names a type alone is what names of that type end in, no name ("cohort", "assay")
    return [m for m in _concepts_only(doc, found) if m["type"] == "Entity"]


@Language.factory("kg_domains")
class DomainTagger:
    """Research domains from the project's taxonomy, with the phrases that were evidence."""

    def __init__(self, nlp: Language, name: str):
        self.matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.strong = {d: {p.lower() for p in phrases} for d, phrases in lexicon.DOMAIN_STRONG.items()}
        for domain, phrases in lexicon.DOMAINS.items():
            self.matcher.add(domain, [nlp.make_doc(p.lower()) for p in (*phrases, *lexicon.DOMAIN_STRONG.get(domain, ()))])
        self.hints = PhraseMatcher(nlp.vocab, attr="LOWER")
        for domain, phrases in lexicon.DOMAIN_HINTS.items():
            self.hints.add(domain, [nlp.make_doc(p) for p in phrases])

    def __call__(self, doc: Doc) -> Doc:
        evidence: dict[str, list[dict]] = {}
        for match_id, start, end in self.matcher(doc):
            mention = _mention(doc, doc[start:end], "Domain", "gazetteer")
            mention["rule"] = DOMAIN_RULE
            evidence.setdefault(doc.vocab.strings[match_id], []).append(mention)
        domains = []
        for domain, mentions in evidence.items():
            distinct = {m["text"].lower() for m in mentions}
            strong = distinct & self.strong.get(domain, set())
            weight = len(distinct) + len(strong)  # a strong phrase counts twice
            if weight >= lexicon.DOMAIN_MIN_EVIDENCE:
                confidence = round(min(0.95, 0.3 + 0.15 * weight), 2)
                for m in mentions:
                    m["confidence"] = confidence
                domains.append({"name": domain, "mentions": mentions, "confidence": confidence})
        doc._.kg_domains = domains
        hinted = {doc.vocab.strings[match_id] for match_id, _, _ in self.hints(doc)}
        doc._.kg_domain_hints = sorted(set(evidence) | hinted)  # a domain any one phrase names, too weak to assign
        doc.user_data.pop("_kg_sentences", None)
        return doc
