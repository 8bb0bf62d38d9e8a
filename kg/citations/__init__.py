"""Citations: how a load linked them (linking is part of the load, ``kg.store.load``) and analysing the
citation graph (``kg.citations.analytics``: most cited, PageRank, co-citation,
bibliographic coupling, citation paths)."""

from kg.store.load import CitationReport

__all__ = ["CitationReport"]
