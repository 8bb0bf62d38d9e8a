"""The project's spaCy components, registered by name.

Each writes plain data to a ``doc._.kg_*`` attribute (so docs cross process
boundaries intact in ``nlp.pipe(n_process=...)``). A mention is a dict with
``start``/``end`` (character offsets into ``doc.text``), ``type``, ``rule``,
``confidence``, ``proposed`` and the offsets of its sentence.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span

from kg.extract import lexicon, patterns

for _name in ("kg_urls", "kg_citations", "kg_acronyms", "kg_mentions", "kg_domains"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=None)

# Higher wins when two mentions overlap.
RULE_PRIORITY = {"gazetteer": 4, "we_propose": 3, "acronym": 2, "head_noun": 1}
RULE_CONFIDENCE = {"gazetteer": 0.9, "we_propose": 0.8, "acronym": 0.75, "head_noun": 0.6}

_SKIP_LEADING_POS = {"DET", "PRON", "PUNCT", "NUM", "ADP", "CCONJ"}
_SKIP_LEADING_LOWER = {"novel", "new", "proposed", "simple", "standard", "existing", "various", "several",
                       "different", "many", "multiple", "recent", "current", "such", "other", "same",
                       "first", "second", "single", "two", "three", "both", "all", "more", "most", "lightweight"}


def _sentence(doc: Doc, start: int) -> tuple[int, int]:
    span = doc.char_span(start, start + 1, alignment_mode="expand")
    sent = span.sent if span is not None else doc[:]
    return sent.start_char, sent.end_char


def _mention(doc: Doc, span: Span, type_: str, rule: str, proposed: bool | None = None) -> dict:
    sent_start, sent_end = _sentence(doc, span.start_char)
    return {
        "start": span.start_char, "end": span.end_char, "text": span.text, "type": type_,
        "rule": rule, "confidence": RULE_CONFIDENCE[rule],
        "proposed": proposed if type_ == "Method" else None,
        "sentence": [sent_start, sent_end],
    }


def trim(span: Span) -> Span:
    """A noun phrase without leading determiners, pronouns, numbers and vague adjectives."""
    start = span.start
    # a token glued to the next ("two-stage") belongs to the name
    while start < span.end - 1 and span.doc[start].whitespace_ and (
            span.doc[start].pos_ in _SKIP_LEADING_POS or span.doc[start].lower_ in _SKIP_LEADING_LOWER):
        start += 1
    end = span.end
    while end > start + 1 and span.doc[end - 1].pos_ == "PUNCT":
        end -= 1
    return span.doc[start:end]


def head_type(span: Span) -> str | None:
    """The concept type a noun phrase's head gives it, if any."""
    lower = span.text.lower()
    for phrase, type_ in lexicon.PHRASE_HEADS.items():
        if lower.endswith(phrase):
            return type_
    head = span.root
    return lexicon.HEAD_TYPES.get(head.lemma_.lower()) or lexicon.HEAD_TYPES.get(head.lower_)


@Language.factory("kg_urls")
def make_urls(nlp: Language, name: str):
    def urls(doc: Doc) -> Doc:
        doc._.kg_urls = patterns.find_urls(doc.text)
        return doc
    return urls


@Language.factory("kg_citations")
def make_citations(nlp: Language, name: str):
    def citations(doc: Doc) -> Doc:
        doc._.kg_citations = patterns.find_citations(doc.text)
        return doc
    return citations


@Language.factory("kg_acronyms")
def make_acronyms(nlp: Language, name: str):
    def acronyms(doc: Doc) -> Doc:
        doc._.kg_acronyms = patterns.find_acronyms(doc.text)
        return doc
    return acronyms


@Language.factory("kg_concepts")
class ConceptFinder:
    """Typed concept mentions from known names, "we propose X", typed noun-phrase
    heads and acronym definitions; overlaps go to the more reliable rule."""

    def __init__(self, nlp: Language, name: str):
        self.exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.folded = PhraseMatcher(nlp.vocab, attr="LOWER")
        for type_, names in lexicon.KNOWN_NAMES.items():
            case_sensitive = [n for n in names if any(c.isupper() for c in n) and len(n) <= 6]
            folded = [n for n in names if n not in case_sensitive]
            self.exact.add(type_, [nlp.make_doc(n) for n in case_sensitive])
            self.folded.add(type_, [nlp.make_doc(n.lower()) for n in folded])

    def __call__(self, doc: Doc) -> Doc:
        found: list[dict] = []
        for matcher in (self.exact, self.folded):
            for match_id, start, end in matcher(doc):
                found.append(_mention(doc, doc[start:end], doc.vocab.strings[match_id], "gazetteer"))
        found += self._proposed(doc)
        found += self._noun_phrases(doc)
        found += self._acronyms(doc, found)
        doc._.kg_mentions = resolve_overlaps(found)
        return doc

    def _proposed(self, doc: Doc) -> list[dict]:
        found = []
        for token in doc:
            if token.lemma_ not in lexicon.PROPOSE_VERBS or token.pos_ != "VERB":
                continue
            if not any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "we" for c in token.children):
                continue
            for obj in (c for c in token.children if c.dep_ == "dobj"):
                chunk = next((nc for nc in doc.noun_chunks if nc.start <= obj.i < nc.end), None)
                if chunk is None:
                    continue
                span = trim(chunk)
                type_ = head_type(span) or "Method"
                if len(span) == 1 and span.root.pos_ != "PROPN" and not span.root.is_upper:
                    continue  # "we propose a method": nothing named
                found.append(_mention(doc, span, type_, "we_propose", proposed=True))
        return found

    def _noun_phrases(self, doc: Doc) -> list[dict]:
        found = []
        for chunk in doc.noun_chunks:
            span = trim(chunk)
            type_ = head_type(span)
            if type_ is None or len(span) < 2 or span.root.i != span.end - 1:
                continue
            found.append(_mention(doc, span, type_, "head_noun", proposed=False))
        return found

    def _acronyms(self, doc: Doc, found: list[dict]) -> list[dict]:
        extra = []
        for acronym in doc._.kg_acronyms or []:
            typed = [m for m in found if m["start"] < acronym["long_end"] and acronym["long_start"] < m["end"]]
            if not typed:
                continue
            best = max(typed, key=lambda m: RULE_PRIORITY[m["rule"]])
            short = acronym["short"]
            start = 0
            while (start := doc.text.find(short, start)) >= 0:
                end = start + len(short)
                boundary_ok = (start == 0 or not doc.text[start - 1].isalnum()) and (end == len(doc.text) or not doc.text[end].isalnum())
                span = doc.char_span(start, end, alignment_mode="expand")
                if boundary_ok and span is not None:
                    mention = _mention(doc, span, best["type"], "acronym", proposed=best["proposed"])
                    mention.update(start=start, end=end, text=short, alias_of=best["text"])
                    extra.append(mention)
                start = end
        return extra


def resolve_overlaps(mentions: list[dict]) -> list[dict]:
    """Keep, among overlapping mentions, the longer one ("GRU decoder" over "GRU"), then the
    one of the more reliable rule."""
    ranked = sorted(mentions, key=lambda m: (-(m["end"] - m["start"]), -RULE_PRIORITY[m["rule"]], m["start"]))
    kept: list[dict] = []
    for mention in ranked:
        if all(mention["end"] <= k["start"] or k["end"] <= mention["start"] for k in kept):
            kept.append(mention)
    return sorted(kept, key=lambda m: m["start"])


@Language.factory("kg_domains")
class DomainTagger:
    """Research domains from the project's taxonomy, with the phrases that were evidence."""

    def __init__(self, nlp: Language, name: str):
        self.matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
        for domain, phrases in lexicon.DOMAINS.items():
            self.matcher.add(domain, [nlp.make_doc(p.lower()) for p in phrases])

    def __call__(self, doc: Doc) -> Doc:
        evidence: dict[str, list[dict]] = {}
        for match_id, start, end in self.matcher(doc):
            mention = _mention(doc, doc[start:end], "Domain", "gazetteer")
            mention["rule"] = "domain_taxonomy"
            evidence.setdefault(doc.vocab.strings[match_id], []).append(mention)
        domains = []
        for domain, mentions in evidence.items():
            distinct = {m["text"].lower() for m in mentions}
            if len(distinct) >= lexicon.DOMAIN_MIN_EVIDENCE:
                confidence = round(min(0.95, 0.3 + 0.15 * len(distinct)), 2)
                for m in mentions:
                    m["confidence"] = confidence
                domains.append({"name": domain, "mentions": mentions, "confidence": confidence})
        doc._.kg_domains = domains
        return doc
