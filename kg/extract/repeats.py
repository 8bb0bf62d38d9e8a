"""Names said again: every other occurrence of a found name (``repeated``), and of a defined acronym whose long
form holds a mention (``acronym_mentions``)."""

from __future__ import annotations

from typing import Iterator

from spacy.tokens import Doc

from kg import lexicon
from kg.extract import junk
from kg.extract.mentions import RECOGNISED_AS, RULE_PRIORITY, Mention, doc_text, new_mention


def repeated(doc: Doc, found: list[Mention]) -> list[Mention]:
    """Every other occurrence of a typed span's exact text is a mention of the same type
    (an abstract keeps calling a thing by the name it introduced)."""
    text = doc_text(doc)
    first: dict[str, Mention] = {}  # each name's first mention
    for m in found:
        first.setdefault(m["text"], m)
    return [new_mention(doc, span, m["type"], "repeated", proposed=m["proposed"])
            for name, m in first.items() if len(name) >= 2
            for start, end in whole_words(text, name) if (span := doc.char_span(start, end)) is not None]


def acronym_mentions(doc: Doc, found: list[Mention]) -> list[Mention]:
    """Every occurrence of an acronym whose long form holds a typed mention, of that mention's type (none
    when the long form is junk: "Society for Vascular Surgery (SVS)"). A lone mention ending the long form
    but starting inside it stands for the whole ("sequence repeats" of "simple sequence repeats (SSRs)")."""
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
        for start, end in whole_words(text, short):
            span = doc.char_span(start, end, alignment_mode="expand")
            if span is not None and not any(s <= start and end <= e for s, e in taken if (s, e) != (start, end)):
                mention = new_mention(doc, span, type_, "acronym", proposed=best["proposed"])
                mention.update(start=start, end=end, text=short, alias_of=best["text"])
                extra.append(mention)
    return extra


def whole_words(text: str, name: str) -> Iterator[tuple[int, int]]:
    """Where ``name`` stands in ``text`` as whole words: no letter or digit glued to either end.

    >>> list(whole_words("LoRA and QLoRA use LoRA.", "LoRA"))
    [(0, 4), (19, 23)]
    """
    start = 0
    while (start := text.find(name, start)) >= 0:
        end = start + len(name)
        if (start == 0 or not text[start - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
            yield start, end
        start = end


def _plain_words(text: str) -> bool:
    """One to three words, no function word or sign among them ("simple ", not "(WF+CE/lignin) and in the ")."""
    words = text.split()
    return 1 <= len(words) <= 3 and text.endswith(" ") and \
        all(w.replace("-", "").isalnum() and w.lower() not in lexicon.EDGE_WORDS for w in words)
