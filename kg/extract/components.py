"""The project's spaCy components, registered by name, each with one job and the ``doc._`` attributes it
``assigns`` (plain data, so docs cross process boundaries). The concept mentions are found in steps that each
add theirs to ``doc._.kg_found`` and settle overlaps there; ``kg_mentions`` keeps those that name concepts.
No component needs a tagger or a parse (docs/extraction.md, "The pipeline").
"""

from __future__ import annotations

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc

from kg import lexicon
from kg.extract import patterns, proposals, rare_nouns, repeats
from kg.extract.mentions import (
    CONCEPT_LABELS,
    DOMAIN_RULE,
    SCORED_LABELS,
    UNSCORED_LABELS,
    Mention,
    concepts_only,
    consistent_types,
    doc_text,
    new_mention,
    outside,
    quoted,
    resolve_overlaps,
)
from kg.extract.spans import concept_span, recognised
from kg.normalize import singular

for _name in ("kg_urls", "kg_citations", "kg_asides", "kg_acronyms", "kg_found", "kg_mentions", "kg_domains", "kg_domain_hints"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=None)


def _text_patterns(attribute: str, find):
    """The component that writes what ``find`` finds in the text to ``doc._.<attribute>``."""
    def component(doc: Doc) -> Doc:
        setattr(doc._, attribute, find(doc_text(doc)))
        return doc
    return component


for _name, _find in (("kg_urls", patterns.find_urls), ("kg_citations", patterns.find_citations),
                     ("kg_asides", patterns.find_asides), ("kg_acronyms", patterns.find_acronyms)):
    Language.component(_name, assigns=[f"doc._.{_name}"], func=_text_patterns(_name, _find))


@Language.component("kg_recognised", requires=["doc.ents"], assigns=["doc._.kg_found"])
def recognised_spans(doc: Doc) -> Doc:
    """The recogniser's spans as mentions, its Generic spans and junk Entities too: they take part in
    the overlap decisions, so that no rule re-labels them."""
    doc._.kg_found = concepts_only(doc, [recognised(doc, span, ent.label_) for ent in doc.ents
                                         if ent.label_ in SCORED_LABELS + UNSCORED_LABELS and (span := concept_span(ent)) is not None])
    return doc


@Language.factory("kg_known_names", assigns=["doc._.kg_found"],
                   requires=["doc._.kg_found", "doc._.kg_citations", "doc._.kg_urls", "doc._.kg_asides"])
class KnownNames:
    """Known names (``lexicon.KNOWN_NAMES``; short ones with a capital matched as written) join the recognised
    spans, none in a citation, URL or aside."""

    def __init__(self, nlp: Language, name: str):
        self.exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.folded = PhraseMatcher(nlp.vocab, attr="LOWER")
        for type_, names in lexicon.KNOWN_NAMES.items():
            case_sensitive = [n for n in names if any(c.isupper() for c in n) and len(n) <= 6]
            folded = [n for n in names if n not in case_sensitive]
            self.exact.add(type_, [nlp.make_doc(n) for n in case_sensitive])
            self.folded.add(type_, [nlp.make_doc(n.lower()) for n in folded])

    def __call__(self, doc: Doc) -> Doc:
        known = [new_mention(doc, doc[start:end], doc.vocab.strings[match_id], "gazetteer")
                 for matcher in (self.exact, self.folded) for match_id, start, end in matcher(doc)]
        doc._.kg_found = resolve_overlaps(outside(doc._.kg_found + concepts_only(doc, known), quoted(doc)))
        return doc


@Language.component("kg_proposals", requires=["doc._.kg_found"], assigns=["doc._.kg_found"])
def proposed(doc: Doc) -> Doc:
    """Marks what the paper proposes (``proposals.mark_proposed``), adds the named objects of its proposals
    that nothing found, and gives a name one type in the paper (``consistent_types``)."""
    found = doc._.kg_found
    doc._.kg_found = consistent_types(resolve_overlaps(found + concepts_only(doc, proposals.mark_proposed(doc, found))))
    return doc


def _adding(add):
    """The component that adds the mentions ``add`` finds to ``doc._.kg_found``, overlaps settled."""
    def component(doc: Doc) -> Doc:
        doc._.kg_found = resolve_overlaps(doc._.kg_found + add(doc, doc._.kg_found))
        return doc
    return component


# each occurrence of a defined acronym whose long form holds a mention; every other occurrence of a found name
Language.component("kg_acronym_mentions", requires=["doc._.kg_found", "doc._.kg_acronyms"], assigns=["doc._.kg_found"],
                   func=_adding(repeats.acronym_mentions))
Language.component("kg_repeats", requires=["doc._.kg_found"], assigns=["doc._.kg_found"], func=_adding(repeats.repeated))


@Language.component("kg_mentions", requires=["doc._.kg_found"], assigns=["doc._.kg_mentions"])
def concept_mentions(doc: Doc) -> Doc:
    """The found mentions that name concepts: of a concept type, outside citations, URLs and asides, and, for
    those found since the first check (acronyms and repeats: "US" for the United States), no junk."""
    doc._.kg_mentions = [m for m in concepts_only(doc, outside(doc._.kg_found, quoted(doc)), rules=("acronym", "repeated"))
                         if m["type"] in CONCEPT_LABELS]
    doc._.kg_found = None  # read by no later component: a doc sent to another process is the lighter
    doc.user_data.pop("_kg_sentences", None)
    return doc


@Language.factory("kg_domains", assigns=["doc._.kg_domains", "doc._.kg_domain_hints"])
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
        evidence: dict[str, list[Mention]] = {}
        for match_id, start, end in self.matcher(doc):
            mention = new_mention(doc, doc[start:end], "Domain", "gazetteer")
            mention["rule"] = DOMAIN_RULE
            evidence.setdefault(doc.vocab.strings[match_id], []).append(mention)
        # each domain's distinct phrases, a singular and its plural one ("agent", "agents")
        phrases = {domain: {singular(m["text"].lower()) for m in mentions} for domain, mentions in evidence.items()}
        domains = []
        for domain, mentions in evidence.items():
            strong = {m["text"].lower() for m in mentions} & self.strong.get(domain, set())
            weight = len(phrases[domain]) + len(strong)  # a strong phrase counts twice
            if weight >= lexicon.DOMAIN_MIN_EVIDENCE:
                confidence = round(min(0.95, 0.3 + 0.15 * weight), 2)
                for m in mentions:
                    m["confidence"] = confidence
                domains.append({"name": domain, "mentions": mentions, "confidence": confidence})
        doc._.kg_domains = domains
        for match_id, start, end in self.hints(doc):
            phrases.setdefault(doc.vocab.strings[match_id], set()).add(singular(doc[start:end].text.lower()))
        doc._.kg_domain_hints = hints(phrases)
        doc.user_data.pop("_kg_sentences", None)
        return doc


def hints(phrases: dict[str, set[str]]) -> list[str]:
    """The domains any one phrase names (``phrases``: each domain's phrases found), too weak to assign; a
    field of computing named by one phrase only is none where two or more name the natural sciences.

    >>> hints({"biology": {"protein"}, "chemistry": {"acid"}, "computer vision": {"image"}})
    ['biology', 'chemistry']
    >>> hints({"biology": {"species"}, "computer vision": {"visual"}})
    ['biology', 'computer vision']
    """
    natural = set().union(*(p for d, p in phrases.items() if d in lexicon.NATURAL_SCIENCE_DOMAINS))
    return sorted(d for d, p in phrases.items()
                  if not (d in lexicon.COMPUTING_DOMAINS and len(p) == 1 and len(natural) >= 2))


@Language.component("kg_rare_nouns", requires=["doc._.kg_mentions", "doc._.kg_domains"], assigns=["doc._.kg_mentions"])
def add_rare_nouns(doc: Doc) -> Doc:
    """Adds a paper's rare nouns outside computing (``rare_nouns.rare_nouns``) to its mentions."""
    doc._.kg_mentions = resolve_overlaps((doc._.kg_mentions or []) + rare_nouns.rare_nouns(doc))
    doc.user_data.pop("_kg_sentences", None)
    return doc
