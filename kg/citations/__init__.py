"""Citations: linking them in the store (``kg.citations.link``) and analysing the
citation graph (``kg.citations.analytics``: most cited, PageRank, co-citation,
bibliographic coupling, citation paths)."""

from kg.citations.link import CitationReport

__all__ = ["CitationReport"]
