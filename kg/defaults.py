"""Defaults the command line and the Python API share, so ``kg viz`` and ``graph.view()``
draw the same picture when given nothing.

>>> from kg import defaults
>>> defaults.DB, defaults.TOP
('kg-data', 10)
"""

DB = "kg-data"            # the embedded store's folder (env KG_DB overrides it)
TOP = 10                  # rows of kg similar and kg citations
ALPHA = 0.85              # PageRank's damping factor
SIMILAR_BY = "all"        # kg similar's ranking: text, concepts and dense together
VIEW = "overview"         # kg viz's view
VIEW_TOP = 300            # most nodes a view draws
DEPTH = 2                 # links from a view's focus
MIN_WEIGHT = 0.0          # weakest link a view draws
MIN_PAPERS = 2            # a view shows concepts named by at least this many papers
SIZE_BY = "pagerank"      # what a view's node size shows
SIZES = ("pagerank", "degree")  # what it may show
PROCESSES = 1             # spaCy worker processes
RECOGNISER = "fast"       # the entity recogniser: fast (spaCy CNN) or accurate (transformer, an extra)
RECORDS_PER_PART = 500    # kg extract --cluster: lines of a JSON-lines file per task
# seconds between requests of `kg fetch` by source (arXiv asks for 3)
FETCH_MIN_INTERVAL = {"openalex": 0.1, "arxiv": 3.0}
