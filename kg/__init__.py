"""kg: research papers to a citation graph and a knowledge graph.

>>> import kg
>>> graph = kg.open(db="kg-data")          # doctest: +SKIP
>>> graph.build(["examples/neurips2026"])  # doctest: +SKIP

See ``kg.api`` for the verbs.
"""

from kg.api import KnowledgeGraph, open  # noqa: A004

__all__ = ["KnowledgeGraph", "open"]
