"""Named reads of the graph: every query the views, the analytics, ``kg similar`` and the
exports run, with its Cypher, one module per concern. Callers get rows, dicts or networkx
graphs and never hold Cypher of their own; values reach Cypher only as parameters.

- :mod:`kg.store.reads.papers`: counts, titles, details, finding a paper by id or title;
- :mod:`kg.store.reads.concepts`: paper-concept pairs, details, finding a concept, the
  concepts two papers share (``kg similar``);
- :mod:`kg.store.reads.citations`: the citation graph, most cited works, citations around papers,
  bibliographic coupling and co-citation of one paper;
- :mod:`kg.store.reads.text`: the BM25 text index at query time;
- :mod:`kg.store.reads.export`: every node and relationship, streamed.

>>> from kg.store import open_store                                  # doctest: +SKIP
>>> from kg.store.reads import papers
>>> with open_store("kg-data") as store:                             # doctest: +SKIP
...     papers.count(store)
57
"""
