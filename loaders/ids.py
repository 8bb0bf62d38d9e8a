"""Normalised ids and names shared by the bibliographic readers.

Each source keeps its own ids, written one way everywhere, so that a reference
and the paper it names meet on the same key:

>>> openalex_id("https://openalex.org/W2100301546"), doi("https://doi.org/10.1227/ABC.8")
('openalex:W2100301546', '10.1227/abc.8')
>>> arxiv_id("arXiv:2101.00001v3"), person("Rush, Alexander M.")
('arxiv:2101.00001', 'Alexander M. Rush')
"""

from __future__ import annotations

import re
import unicodedata

_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
_OPENALEX = re.compile(r"^(?:https?://openalex\.org/)?(?:openalex:)?([WwAaSsVvIi]\d+)$")
_ARXIV_PREFIX = re.compile(r"^(?:https?://arxiv\.org/abs/|arxiv:)", re.I)
_ARXIV_VERSION = re.compile(r"v\d+$")


def doi(value: object) -> str | None:
    """A DOI without its resolver prefix, lowercased (DOIs are case-insensitive)."""
    text = _DOI_PREFIX.sub("", str(value or "").strip()).strip().lower()
    return text if text.startswith("10.") else None


def openalex_id(value: object) -> str | None:
    """``openalex:W123`` from a full OpenAlex URL, a bare ``W123`` or the prefixed form."""
    match = _OPENALEX.match(str(value or "").strip())
    return f"openalex:{match[1].upper()}" if match else None


def arxiv_id(value: object) -> str | None:
    """``arxiv:2101.00001`` (version dropped) from an arXiv id, ``arXiv:`` or abs URL."""
    text = _ARXIV_VERSION.sub("", _ARXIV_PREFIX.sub("", str(value or "").strip()))
    return f"arxiv:{text}" if text else None


def person(name: object) -> str:
    """A person's name as "Given Family": "Rush, Alexander M." -> "Alexander M. Rush"."""
    text = " ".join(str(name or "").split())
    if text.count(",") == 1:
        family, given = (part.strip() for part in text.split(","))
        return f"{given} {family}".strip()
    return text


def title_key(title: str) -> str:
    """A reference key for a reference known only by its title ("title:attention is all you need")."""
    folded = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    return "title:" + " ".join(re.findall(r"[a-z0-9]+", folded))
