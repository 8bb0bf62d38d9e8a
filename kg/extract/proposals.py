"""What a paper proposes: the windows of "we propose ..." and "... is proposed" (``proposal_objects``), and the
methods in them marked ``proposed`` (``mark_proposed``); what a proposal starts from or is made of, and the
authors' earlier work, is used."""

from __future__ import annotations

import bisect

from spacy.tokens import Doc, Span

from kg import lexicon
from kg.extract import english, junk
from kg.extract.mentions import Mention, new_mention, span_of
from kg.extract.spans import head_type, is_named
from kg.lexicon import load
from kg.normalize import singular

_REPORT_PREPOSITIONS = load.words("report_prepositions")
_BE_FORMS = load.words("be_forms")


def mark_proposed(doc: Doc, mentions: list[Mention]) -> list[Mention]:
    """Mark the methods the paper introduces; a name in a proposal ("..., TextRank, is proposed") that
    no other rule found becomes a mention of its own."""
    extra = []
    order = sorted(range(len(mentions)), key=lambda i: mentions[i]["start"])  # a long abstract has thousands
    starts = [mentions[i]["start"] for i in order]
    for window_start, window_end in proposal_objects(doc):
        chars = (doc[window_start].idx, doc[window_end - 1].idx + len(doc[window_end - 1]))
        found = order[bisect.bisect_left(starts, chars[0]):bisect.bisect_left(starts, chars[1])]
        inside = [mentions[i] for i in sorted(found)]  # as they come
        for m in inside:
            if _derived_from(doc, m):  # "a new variant of AdaBoost": AdaBoost is used
                continue
            if m["type"] == "Entity":  # "we introduce a lemma-based approach": a Method head
                span = span_of(doc, m)
                if span is None or head_type(span) != "Method":
                    continue
                m["type"] = "Method"
            apposition = _apposition_type(doc, m)  # "FlashNet, a novel attention mechanism"
            if apposition is None and m["type"] != "Method" and is_named(span_of(doc, m)):
                apposition = _described_as(doc, window_start, m)  # "a ranking algorithm, TextRank, is proposed"
            if apposition and apposition != m["type"] and m["type"] != "Metric":
                m["type"], m["proposed"] = apposition, (False if apposition == "Method" else None)
            if m["type"] == "Method":
                m["proposed"] = True
        for span in _unfound_names(doc[window_start:window_end], inside):  # "..., TextRank, is proposed"
            extra.append(new_mention(doc, span, "Method", "we_propose", proposed=True))
    for m in mentions:  # "a novel X", "our proposed X", "X, a novel ..."
        if m["type"] != "Method":
            continue
        span = span_of(doc, m)
        if span is None:
            continue
        before = doc[max(0, span.start - 2):span.start]
        if any(_is_own_marker(t) for t in before) or (len(before) and before[-1].lower_ == "our" and is_named(span)):
            m["proposed"] = True
        after = doc[span.end:span.end + 4]
        if len(after) >= 3 and after[0].text == "," and after[1].lower_ in ("a", "an", "our") and \
                any(t.lower_ in ("novel", "new") for t in after[2:]):
            m["proposed"] = True
    return extra


def proposal_objects(doc: Doc) -> list[tuple[int, int]]:
    """Token windows holding what the paper proposes: the object of "we (also) propose ...", "this paper
    presents ...", and the subject of "... is proposed"; a window ends at a preposition or clause word and at
    what the proposal is made of ("combining", "based"); a report on methods and earlier work propose nothing."""
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
            while end < n and not _one_of(doc[end], lexicon.OBJECT_STOPS) and not doc[end].is_sent_start:
                end += 1
            # "we propose X, called Y", "X, or Y,", "an architecture, the Transformer,": the name joins the object
            if end + 1 < n and doc[end].text == ",":
                after = end + 1
                while after < n and after - end <= 5 and not _one_of(doc[after], lexicon.OBJECT_STOPS):
                    after += 1
                segment = doc[end + 1:after]
                if len(segment) and (segment[0].lower_ in lexicon.NAMING_WORDS
                                     or is_named(segment) or any(t.is_title and t.is_alpha for t in segment)):
                    end = after
            if end > i + 1 and not _report_on(doc, i + 1, end):
                windows.append((i + 1, end))
        elif subject in _BE_FORMS and token.lower_.endswith("ed") and \
                not _prior_work_passive(doc, i, j) and not (j > 0 and doc[j - 1].lower_ in ("that", "which", "who")):
            # "a new parser, FooNet, is proposed": the subject is before the verb in the same sentence (not a relative
            # clause's: "an error corrector that is designed to ..." describes what the sentence names)
            start = junk.sentence_of(doc[i:i + 1]).start
            if _one_of(doc[start], lexicon.COMPONENT_CUES):  # "Based on the proposed framework, a novel algorithm ..."
                start = next((k + 1 for k in range(start, j) if doc[k].text == ","), j)
            end = next((k for k in range(start, j) if _one_of(doc[k], lexicon.COMPONENT_CUES)), j)
            if end > start and not _report_on(doc, start, end):
                windows.append((start, end))
            # "a learning system incorporating X, called Rank-HLapSVM, is proposed": the name is proposed too
            named = next((k for k in range(end, j) if doc[k].lower_ in lexicon.NAMING_WORDS), None)
            if named is not None and named + 1 < j:
                windows.append((named + 1, j))
    return windows


def _apposition_type(doc: Doc, mention: Mention) -> str | None:
    """The type an apposition gives a mention: "FlashNet, a novel attention mechanism" is a Method."""
    span = span_of(doc, mention)
    if span is None or span.end + 2 >= len(doc) or doc[span.end].text != "," or \
            doc[span.end + 1].lower_ not in ("a", "an", "the", "our"):
        return None
    end = span.end + 2
    while end < len(doc) and doc[end].lower_ not in lexicon.OBJECT_STOPS and end - span.end < 10:
        end += 1
    return head_type(doc[span.end + 2:end]) if end > span.end + 2 else None


def _described_as(doc: Doc, window_start: int, mention: Mention) -> str | None:
    """Method when the words before a name in a proposal hold a Method head and no Dataset one
    ("a novel ranking algorithm, TextRank")."""
    types = {lexicon.HEAD_TYPES.get(singular(t.lower_)) for t in doc[window_start:] if t.idx < mention["start"]}
    return "Method" if "Method" in types and "Dataset" not in types else None


def _unfound_names(window: Span, found: list[Mention]) -> list[Span]:
    """Names (inner capitals or digits: "TextRank", "GPT-4o") in a proposal window that no mention covers."""
    doc = window.doc
    names = []
    i = window.start
    while i < window.end:
        token = doc[i]
        covered = any(m["start"] <= token.idx < m["end"] for m in found)
        if not covered and token.text[:1].isalnum() and is_named(doc[i:i + 1]) and not token.like_num:
            j = i + 1
            while j < window.end and (doc[j - 1].text == "-" or doc[j].text == "-" or not doc[j - 1].whitespace_) \
                    and not doc[j].is_punct or (j < window.end and doc[j].text == "-"):
                j += 1
            names.append(doc[i:j])
            i = j
        else:
            i += 1
    return names


def _is_own_marker(token) -> bool:
    """"novel", "new" or "proposed" opening the paper's own noun phrase ("a novel X", "the proposed X"),
    not a verb or another's work ("studies have proposed X", "their new X")."""
    if token.lower_ not in lexicon.OWN_MARKERS:
        return False
    return token.i == 0 or bool(token.is_sent_start) or token.doc[token.i - 1].lower_ in lexicon.OWN_DETERMINERS


def _prior_work_passive(doc: Doc, verb_index: int, auxiliary_index: int) -> bool:
    """A passive proposal of others' work: "X has been proposed", "X was proposed by Smith"."""
    if doc[auxiliary_index].lower_ == "been" or any(doc[k].lower_ in lexicon.PRIOR_ADVERBS for k in range(auxiliary_index, verb_index)):
        return True
    after = doc[verb_index + 1:verb_index + 3]
    return len(after) == 2 and after[0].lower_ == "by" and after[1].lower_ not in ("us", "this", "the", "our")


def _one_of(token, words: frozenset[str]) -> bool:
    """The token is one of ``words`` ("for", "based"), not inside a compound ("graph-based")."""
    return token.lower_ in words and not english.in_compound(token)


def _derived_from(doc: Doc, mention: Mention) -> bool:
    """A mention the proposal only starts from: "a new variant of AdaBoost", "an extension of the X"."""
    span = span_of(doc, mention)
    k = span.start - 1 if span is not None else -1
    while k > 0 and doc[k].lower_ in lexicon.OWN_DETERMINERS:
        k -= 1
    return k > 0 and doc[k].lower_ == "of" and doc[k - 1].lower_ in lexicon.DERIVED_FROM


def _earlier_work(doc: Doc, verb_index: int) -> bool:
    """The authors' earlier proposal: "In recent work, we introduced X"."""
    sentence_start = junk.sentence_of(doc[verb_index:verb_index + 1]).start
    words = [t.lower_ for t in doc[sentence_start:verb_index]]
    return any(w == "in" and any(x in lexicon.EARLIER for x in words[i + 1:i + 3]) and
               any(singular(x) in lexicon.SELF_NOUNS for x in words[i + 2:i + 4])
               for i, w in enumerate(words))


def _report_on(doc: Doc, start: int, end: int) -> bool:
    """A window that reports on methods rather than proposes one: "an overview on model-based control"."""
    return any(doc[k].lower_ in lexicon.REPORT_NOUNS and k + 1 < end and doc[k + 1].lower_ in _REPORT_PREPOSITIONS
               for k in range(start, min(end, start + 4)))
