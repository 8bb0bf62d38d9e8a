"""SciERC documents in the DyGIE JSON-lines shape (``doc_key``, tokenised
``sentences``, ``ner``, ``relations``): the abstract is the sentences joined.

A ``doc_key`` that is an ACL Anthology id (``P02-1040``) is kept as the paper
id, so these abstracts join the AAN papers of the same id; other keys become
``scierc:<doc_key>``.

>>> detokenize(["We", "use", "a", "CRF", "(", "Lafferty", ",", "2001", ")", "."])
'We use a CRF (Lafferty, 2001).'

The Penn Treebank's bracket and quote tokens become brackets and quotes, so a name is written as elsewhere:

>>> detokenize(["word", "error", "rate", "-LRB-", "WER", "-RRB-", "and", "-LSB-", "1", "-RSB-"])
'word error rate (WER) and [1]'
>>> detokenize(["a", "``", "black-box", "''", "methodology", "."])
'a "black-box" methodology.'
"""

from __future__ import annotations

import re
from typing import Iterator, TextIO

from kg.model import Paper
from loaders.fields import FieldError, SkipRecord, describe, text
from loaders.jsondocs import read_papers

ACL_ID = re.compile(r"^[A-Z]\d{2}-\d{4}$")
_NO_SPACE_BEFORE = re.compile(r" ([.,;:!?%)\]}]|'s|n't)")
_NO_SPACE_AFTER = re.compile(r"([(\[{]) ")
# Penn Treebank bracket and quote tokens, as SciERC writes brackets and quotes ("-LRB- MT -RRB-", "`` X ''")
PTB_BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
PTB_TOKENS = {**PTB_BRACKETS, "``": '"', "''": '"'}


def detect(head: str) -> bool:
    return '"doc_key"' in head and '"sentences"' in head


def detokenize(tokens: list[str]) -> str:
    pieces: list[str] = []
    opened = False  # an opening quote is glued to the word after it, a closing one to the word before
    for token in tokens:
        plain = PTB_TOKENS.get(token, token)
        if pieces and (token == "''" or opened):
            pieces[-1] += plain
        else:
            pieces.append(plain)
        opened = token == "``"
    return _NO_SPACE_AFTER.sub(r"\1", _NO_SPACE_BEFORE.sub(r"\1", " ".join(pieces)))


def doc_fields(doc: dict) -> dict:
    key = (text(doc.get("doc_key"), "doc_key", numbers=True) or "").strip()
    if not key:
        raise FieldError("no doc_key")
    sentences = doc.get("sentences")
    if not isinstance(sentences, list) or not all(isinstance(s, list) for s in sentences):
        raise FieldError(f"sentences: expected a list of token lists, got {describe(sentences)}")
    for number, sentence in enumerate(sentences):
        odd = next((t for t in sentence if not isinstance(t, str)), None)
        if odd is not None:
            raise FieldError(f"sentences[{number}]: expected tokens (text), got {describe(odd)}")
    return {
        "id": key if ACL_ID.match(key) else f"scierc:{key}",
        "abstract": " ".join(detokenize(sentence) for sentence in sentences),
        "references": [],
    }


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    return read_papers(stream, source, doc_fields)
