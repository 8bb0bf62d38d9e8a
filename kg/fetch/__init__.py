"""Fetching paper records from online APIs (OpenAlex, arXiv) into files that
``kg build`` reads. Only these commands use the network."""

from kg.fetch.polite import Client, FetchError

__all__ = ["Client", "FetchError"]
