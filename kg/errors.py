"""The errors kg raises on purpose, one hierarchy: catch ``KgError`` for all of them.

Each says what went wrong in a sentence a user can act on; the command line prints it
as ``Error: ...`` and exits with the code of its kind (``kg.cli.app.EXIT_CODES``).

- ``NotFound``: something named is not there (a paper, a concept, a query, a file);
  ``PaperNotFound`` for a paper or reference id.
- ``BadInput``: input that cannot be used (an option, a parameter, a source);
  ``NoPapers`` when the sources held no paper at all.
- ``StoreError``: a store that cannot be reached, started or used;
  ``ReadOnlyError`` for a query that writes, run as a read.
- ``Missing``: something kg needs is not installed (a spaCy model).
- ``FetchError``: an online API that failed for good.

>>> from kg.errors import KgError, PaperNotFound
>>> try:
...     raise PaperNotFound("p-404")
... except KgError as err:
...     print(err)
no paper or reference with id 'p-404'; find ids with: kg query run papers/find -p text=WORD
"""

from __future__ import annotations


class KgError(Exception):
    """The base of every error kg raises on purpose; its message says what to do."""


class NotFound(KgError, LookupError):
    """Something named is not in the graph (or not on disk)."""


class PaperNotFound(NotFound):
    """A paper id (or reference key) that is not in the graph."""

    def __init__(self, paper: str, message: str | None = None):
        self.paper = paper
        super().__init__(message or f"no paper or reference with id {paper!r}; "
                                    "find ids with: kg query run papers/find -p text=WORD")


class BadInput(KgError, ValueError):
    """Input that cannot be used: an option, a parameter, a query, a source."""


class NoPapers(BadInput):
    """The sources held no paper at all (``loaders.NoPapers`` says why, file by file)."""


class StoreError(KgError):
    """A store could not be reached, started or used."""


class ReadOnlyError(StoreError):
    """A query that writes, run as a read (the embedded store ignores the driver's read sessions)."""


class Missing(KgError):
    """Something kg needs is not installed (an English spaCy pipeline, the trained recogniser)."""


class FetchError(KgError):
    """A request that failed for good (after its retries) or an answer that cannot be used."""
