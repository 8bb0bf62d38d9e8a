"""The views of ``kg viz``, read from the store as networkx graphs and ready to render.

>>> from kg.store import open_store                                # doctest: +SKIP
>>> from visuals.views import build_view
>>> with open_store("kg-data") as store:                           # doctest: +SKIP
...     view = build_view(store, "concept", focus="low rank adaptation", depth=2)
...     view.write("lora.html")
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from kg import defaults
from kg.errors import BadInput
from kg.similar import concept_weight, most_naming, proposes, shared_weights
from kg.store import counts
from kg.store.reads import citations as citation_reads
from kg.store.reads import concepts as concept_reads
from kg.store.reads import papers as paper_reads
from visuals.reads import (
    CONCEPT_TYPES,
    MENTIONS,
    NODE_TYPES,
    checked_types,
    describe,
    find_focus,
    naming_papers,
)
from visuals.render import Omitted, cap, render_html, write_html

VIEWS = ("overview", "paper", "concept", "cooccurrence", "similarity", "citations")
REFERENCES_SHOWN = 20     # a paper or concept view draws the most cited references only
NEIGHBOURS_PER_PAPER = 8   # similarity keeps each paper's strongest links only, so the picture stays readable
# Up to this many papers a whole-graph view reads every concept's papers and counts exactly what it
# leaves out (4 s at 10,000 papers); above, it reads the concepts it shows, ranked by the store from
# their kept totals, and says what it leaves out from those totals (110 s against ~ s at 100,000).
WHOLE_GRAPH_PAPERS = 20_000
LINKING_CONCEPTS = 300  # of a large graph, the concepts whose links choose the similarity view's papers


@dataclass
class View:
    """A graph to draw, with what the page should say about it."""
    graph: nx.Graph
    heading: str
    subtitle: str = ""
    omitted: Omitted = field(default_factory=Omitted)
    size_by: str = "pagerank"
    color_by: str = "type"

    def render(self) -> str:
        return render_html(self.graph, self.heading, self.subtitle, size_by=self.size_by, color_by=self.color_by,
                           omitted=self.omitted)

    def write(self, path: str | Path) -> Path:
        return write_html(self.graph, path, self.heading, self.subtitle, size_by=self.size_by, color_by=self.color_by,
                          omitted=self.omitted)

    def pyvis(self, **options):
        """The view as a ``pyvis.network.Network`` (see :func:`visuals.notebook.pyvis_network`)."""
        from visuals.notebook import pyvis_network

        return pyvis_network(self.graph, size_by=self.size_by, color_by=self.color_by, **options)


def build_view(store, view: str = defaults.VIEW, *, focus: str | None = None, depth: int = defaults.DEPTH, types=None,
               top: int = defaults.VIEW_TOP, min_weight: float = defaults.MIN_WEIGHT, min_papers: int = defaults.MIN_PAPERS,
               size_by: str = defaults.SIZE_BY) -> View:
    """Build one of :data:`VIEWS` from ``store`` (an open :class:`kg.store.Store`)."""
    if view not in VIEWS:
        raise BadInput(f"unknown view {view!r}: choose from {', '.join(VIEWS)}")
    if top < 1 or depth < 1:
        raise BadInput("--top and --depth must be at least 1")
    if view in ("paper", "concept"):
        if not focus:
            raise BadInput(f"the {view} view needs --focus (a {view} id or name)")
        built = ego(store, view, focus, depth, checked_types(types), top, size_by)
    elif view == "overview":
        built = overview(store, top, min_papers, checked_types(types), size_by)
    elif view == "cooccurrence":
        built = cooccurrence(store, top, min_papers, min_weight, checked_types(types, CONCEPT_TYPES), size_by)
    elif view == "similarity":
        built = similarity(store, top, min_weight, checked_types(types, CONCEPT_TYPES), size_by)
    else:
        built = citations(store, top, focus, depth, checked_types(types, ("Paper", "Reference")), size_by)
    built.size_by = size_by
    return built


def overview(store, top: int = 300, min_papers: int = 2, types=NODE_TYPES, size_by: str = "pagerank") -> View:
    """Papers and the concepts that at least ``min_papers`` of them share. Capped, it keeps
    structure: the concepts that matter most (their weight: papers extracting them x quality^4) with the papers naming the most of them.
    Only what is shown becomes a networkx graph; what is left out is counted (on a large graph,
    from the kept totals: ``WHOLE_GRAPH_PAPERS``)."""
    concept_types = [t for t in types if t in CONCEPT_TYPES] or CONCEPT_TYPES
    total = paper_reads.count(store)
    whole = total <= WHOLE_GRAPH_PAPERS
    named = (naming_papers(store, concept_types) if whole
             else concept_reads.most_weighted(store, concept_types, min_papers, max(1, top // 3)))
    shared = {c: found.papers for c, found in named.items() if len(found.papers) >= min_papers}
    if not whole:
        shared = _choosable_by_id(store, shared, top)
    with_papers = "Paper" in types
    papers = set().union(*shared.values()) if with_papers else set()
    nodes = set(shared) | papers
    total_edges = sum(map(len, shared.values())) if with_papers else 0
    shown = nodes
    if len(nodes) > top:
        # the concepts that matter most (docs/extraction.md: Ranking concepts)
        ranked = sorted(shared, key=lambda c: (-named[c].weight, -len(shared[c]), c))[:max(1, top // 3)]
        shown = set(choose_citers(ranked, {c: sorted(shared[c]) for c in ranked}, top)) & nodes
    concepts_shown = sorted(shown.intersection(shared))
    graph = nx.Graph()
    graph.add_nodes_from(sorted(shown))
    if with_papers:
        graph.add_edges_from((p, c) for c in concepts_shown for p in sorted(shared[c] & shown))
    named_in_all = len(named)
    if not whole:  # the graph's kept totals: the papers naming these concepts are at most the graph's papers
        named_in_all, concepts_total, links_total = concept_reads.kept_totals(store, concept_types, min_papers)
        nodes = range(concepts_total + (min(total, links_total) if with_papers else 0))
        total_edges = links_total if with_papers else 0
    omitted = Omitted(total_nodes=len(nodes))
    if len(nodes) > graph.number_of_nodes():
        omitted = Omitted(nodes=len(nodes) - graph.number_of_nodes(), edges=total_edges - graph.number_of_edges(),
                          total_nodes=len(nodes), about=not whole,
                          rule=named_rule(len(concepts_shown), graph.number_of_nodes() - len(concepts_shown)))
    _keep_types(describe(store, graph), types)
    shown_papers = sum(1 for _, d in graph.nodes(data=True) if d.get("type") == "Paper")
    subtitle = (f"{shown_papers:,} papers and {graph.number_of_nodes() - shown_papers:,} concepts; a concept is shown when at "
                f"least {min_papers} papers name it ({named_in_all:,} concepts in all). A link: the paper names the concept.")
    return View(graph, "Papers and the concepts they share", subtitle, omitted)


def ego(store, kind: str, focus: str, depth: int, types, top: int, size_by: str) -> View:
    """Everything within ``depth`` links of one paper or concept; the nearest first when capped
    (a hop is not read when the nearer ones fill the view: at most ``top * 20`` links a hop).

    References are capped first: the :data:`REFERENCES_SHOWN` most cited stay, the focus
    paper's others become one node "+ N references".
    """
    centre = find_focus(store, kind, focus)
    graph, distance, frontier = nx.Graph(), {centre: 0}, {centre}
    graph.add_node(centre)
    budget = top * 20
    every_type = set(types) >= set(NODE_TYPES)
    for hop in range(1, depth + 1):
        if every_type and graph.number_of_nodes() > top:
            break  # the nearer nodes fill the view already: the farther ones would be capped away unread
        rows = _neighbour_rows(store, sorted(frontier), budget)
        frontier = set()
        for row in rows:
            graph.add_edge(row["source"], row["target"], title=row["rel"])
            for node in (row["source"], row["target"]):
                if node not in distance:
                    distance[node] = hop
                    frontier.add(node)
        if not frontier:
            break
    describe(store, graph)
    _keep_types(graph, types, keep=centre)
    folded = fold_references(graph, centre, REFERENCES_SHOWN)
    for node in graph:
        graph.nodes[node]["rank"] = (depth - distance.get(node, 1)) * 1e6 + graph.degree(node)
    graph.nodes[centre]["focus"] = True
    graph, omitted = cap(graph, top, size_by, rule=f"the {top:,} nearest to the focus, then the best linked; "
                         f"a farther hop is not read once the nearer ones fill the view")
    omitted.note = folded
    name = graph.nodes[centre].get("name") or centre
    subtitle = (f"Everything within {depth} link{'s' if depth > 1 else ''} of the {kind} “{name}” ({centre}), "
                f"marked with a ring: the concepts papers name, the papers naming them, and citations.")
    return View(graph, f"Around the {kind} {name}", subtitle, omitted)


def fold_references(graph: nx.Graph, centre, shown: int) -> str:
    """Keep the ``shown`` most cited references of ``graph`` (by their ``cited_by``); the focus
    paper's others become one node "+ N references"; return the sentence saying so.

    >>> g = nx.Graph([("p", "r1"), ("p", "r2"), ("p", "r3"), ("q", "r1")])
    >>> nx.set_node_attributes(g, {"p": "Paper", "q": "Paper", "r1": "Reference", "r2": "Reference", "r3": "Reference"}, "type")
    >>> nx.set_node_attributes(g, {"r1": 2, "r2": 1, "r3": 1}, "cited_by")
    >>> fold_references(g, "p", 1)
    '2 references cited by only 1 loaded paper are left out; the focus paper’s 2 are one node “+ 2 references”.'
    >>> sorted(g["p"]), g.nodes["+references"]["label"]
    (['+references', 'r1'], '+ 2 references')
    """
    refs = [n for n, d in graph.nodes(data=True) if d.get("type") == "Reference"]
    if len(refs) <= shown:
        return ""
    ranked = sorted(refs, key=lambda n: (-(graph.nodes[n].get("cited_by") or graph.degree(n)), -graph.degree(n), str(n)))
    dropped = ranked[shown:]
    most = max(graph.nodes[n].get("cited_by") or graph.degree(n) for n in dropped)
    own = sum(1 for n in dropped if graph.has_edge(centre, n) or graph.has_edge(n, centre))
    graph.remove_nodes_from(dropped)
    sentence = (f"{len(dropped):,} references cited by {'only ' if most == 1 else 'at most '}{most:,} loaded "
                f"paper{'s' if most != 1 else ''} are left out")
    if own and graph.nodes[centre].get("type") == "Paper":
        label = f"+ {own:,} references"
        graph.add_node("+references", type="Reference", label=label, summary=True, rank=0,
                       title=f"{own:,} more references of this paper, each cited by {most:,} or fewer loaded papers")
        graph.add_edge(centre, "+references", title="CITES")
        sentence += f"; the focus paper’s {own:,} are one node “{label}”"
    return sentence + "."


def _choosable_by_id(store, shared: dict[str, set], top: int) -> dict[str, set]:
    """``shared`` (each concept's or work's papers by element id) with only the papers
    ``choose_citers`` may choose, by their ids: those naming (citing) as many of them as the
    ``top``-th most does, and each one's best-linked ones (ties broken by id as on a whole read)."""
    links = Counter(e for papers in shared.values() for e in papers)
    most = sorted(links.values(), reverse=True)
    floor = most[min(top, len(most)) - 1] if most else 0
    needed = {e for e, n in links.items() if n >= floor}
    for papers in shared.values():
        best = max((links[e] for e in papers), default=0)
        needed |= {e for e in papers if links[e] == best}
    ids = concept_reads.paper_ids(store, needed)
    return {c: {ids[e] for e in papers if e in ids} for c, papers in shared.items()}


def _neighbour_rows(store, ids: list[str], limit: int) -> list[dict]:
    """The links out of and into ``ids``: mentions, and citations either way."""
    return (citation_reads.out_of(store, ids, [*MENTIONS, "CITES"], limit) + citation_reads.citing(store, ids, limit=limit)
            + concept_reads.named_by(store, ids, MENTIONS, limit))


def cooccurrence(store, top: int, min_papers: int, min_weight: float, types, size_by: str) -> View:
    """Concepts linked by the papers that name both, coloured by community (Louvain, networkx).
    Capped, the ``top`` concepts that matter most (their weight, ``kg.store.counts.weight``) stay; only their links are built, those
    of the others counted (:func:`count_cooccurring`)."""
    whole = paper_reads.count(store) <= WHOLE_GRAPH_PAPERS
    named = naming_papers(store, types) if whole else concept_reads.most_weighted(store, types, min_papers, top)
    papers_of = {c: found.papers for c, found in named.items()}
    kept = sorted((c for c, ps in papers_of.items() if len(ps) >= min_papers),
                  key=lambda c: (-named[c].weight, -len(papers_of[c]), str(c)))
    shown = kept[:top]
    by_paper: dict[str, list] = {}
    for concept in shown:
        for paper in papers_of[concept]:
            by_paper.setdefault(paper, []).append(concept)
    weights: Counter = Counter()
    for concepts in by_paper.values():
        weights.update(itertools.combinations(sorted(concepts), 2))
    threshold = max(min_weight, 1)
    graph = nx.Graph()
    graph.add_nodes_from(shown)
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in weights.items() if w >= threshold)
    for concept in shown:
        graph.nodes[concept]["rank"] = len(papers_of[concept])
    # on a large graph the concepts left out are counted from the kept totals, their links not at all
    total = len(kept) if whole else concept_reads.kept_totals(store, types, min_papers)[1]
    omitted = Omitted(total_nodes=total)
    if total > len(shown):
        left = count_cooccurring([papers_of[c] for c in kept], threshold) - graph.number_of_edges() if whole else None
        omitted = Omitted(nodes=total - len(shown), total_nodes=total, edges=left, about=not whole,
                          rule=f"the {top:,} concepts that matter most (papers extracting them x quality^4)")
    describe(store, graph)
    for u, v, d in graph.edges(data=True):
        d["title"] = f"{d['weight']:g} shared paper{'s' if d['weight'] != 1 else ''}"
    communities = _communities(graph)
    subtitle = (f"Concepts named by at least {min_papers} papers, linked when papers name both (width: shared papers); "
                f"colour shows {communities} communities found by Louvain modularity.")
    return View(graph, "Concepts that appear together", subtitle, omitted, color_by="community")


def count_cooccurring(paper_sets: list[set], threshold: float = 1) -> int:
    """How many pairs of these concepts (each given by the papers naming it) at least
    ``threshold`` papers name together: a sparse product, as pairs in Python cost a minute at
    100,000 papers.

    >>> count_cooccurring([{"a", "b"}, {"b", "c"}, {"c"}, {"d"}])
    2
    """
    from scipy import sparse

    naming = incidence(paper_sets, sorted(set().union(*paper_sets)))
    together = sparse.triu(naming @ naming.T, k=1)
    return int((together.data >= threshold).sum())


def incidence(sets: list, members: list):
    """A 0/1 scipy sparse matrix: a row per set, a column per member in the order of ``members``.

    >>> incidence([{"x"}, {"x", "y"}], ["x", "y"]).toarray().tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    from scipy import sparse

    column = {member: i for i, member in enumerate(members)}
    rows = [i for i, found in enumerate(sets) for _ in found]
    cols = [column[member] for found in sets for member in found]
    return sparse.csr_matrix(([1.0] * len(rows), (rows, cols)), shape=(len(sets), len(members)))


def similarity(store, top: int, min_weight: float, types, size_by: str) -> View:
    """Papers linked by shared concepts, each weighing as in ``kg similar`` (``kg.similar.concept_weight``).

    The ``top`` papers shown are those with the largest total similarity to all others, summed
    per concept (a concept of weight w named by k papers gives each of them w * (k - 1)), so no
    pair of the whole graph is formed (100,000 papers have billions); the links are then scored
    among them, each paper keeping its strongest. On a large graph (``WHOLE_GRAPH_PAPERS``) the
    sum runs over the ``LINKING_CONCEPTS`` concepts that add most to it, chosen by their kept totals."""
    total = paper_reads.count(store)
    if total <= WHOLE_GRAPH_PAPERS:
        concepts_of, weight_of, naming, similar_to_all = _similar_to_all(store, types, total)
    else:
        concepts_of, weight_of, naming, similar_to_all = _similar_to_all_by_kept_totals(store, types, total, top)
    linked = sorted(similar_to_all, key=lambda p: (-similar_to_all[p], p))
    shown = linked[:top]
    weights = idf_similarity({p: concepts_of[p] for p in shown}, total, weight_of, naming)
    graph = nx.Graph()
    for paper, links in _strongest(weights, NEIGHBOURS_PER_PAPER).items():
        for other, w in links:
            if w >= min_weight:
                graph.add_edge(paper, other, weight=round(w, 3), title=f"similarity {w:.2f} (shared concepts' weights, as kg similar)")
    for node in graph:
        graph.nodes[node]["rank"] = graph.degree(node, weight="weight")
    # on a large graph: of about the graph's papers, through the concepts that link most
    linkable, rule = len(linked), f"the {top:,} papers most similar to all others"
    if total > WHOLE_GRAPH_PAPERS:
        linkable, rule = max(total, len(linked)), f"{rule} through the {LINKING_CONCEPTS:,} concepts that link most"
    omitted = Omitted(total_nodes=linkable)
    if linkable > len(shown):
        omitted = Omitted(nodes=linkable - graph.number_of_nodes(), edges=None, total_nodes=linkable, rule=rule,
                          about=total > WHOLE_GRAPH_PAPERS)
    describe(store, graph)
    communities = _communities(graph)
    _name_by_shared_concepts(store, graph, concepts_of)
    subtitle = (f"Papers linked by the concepts they share, a rare concept weighing more (IDF, as kg similar); each paper "
                f"keeps its {NEIGHBOURS_PER_PAPER} strongest links; colour shows {communities} communities.")
    return View(graph, "Papers that share concepts", subtitle, omitted, color_by="community")


def _similar_to_all(store, types, total: int) -> tuple[dict, dict, dict, Counter]:
    """Every paper's concepts, every concept's weight and papers, and each paper's similarity to all others."""
    concepts_of: dict[str, set] = {}
    weight_of: dict[str, float] = {}
    naming: dict[str, int] = {}
    similar_to_all: Counter = Counter()
    for concept, named in naming_papers(store, types).items():
        naming[concept] = len(named.papers)
        weight_of[concept] = concept_weight(len(named.papers), total, named.type, counts.quality(named._asdict()))
        for paper in named.papers:
            concepts_of.setdefault(paper, set()).add(concept)
        if len(named.papers) >= 2 and proposes(len(named.papers), total):
            similar_to_all.update(dict.fromkeys(named.papers, weight_of[concept] * (len(named.papers) - 1)))
    return concepts_of, weight_of, naming, similar_to_all


def _similar_to_all_by_kept_totals(store, types, total: int, top: int) -> tuple[dict, dict, dict, Counter]:
    """As :func:`_similar_to_all`, with each paper's similarity to all others summed over the
    ``LINKING_CONCEPTS`` concepts that add most to it, a concept's papers counted by its kept total,
    and the concepts read for the ``top`` papers most similar to all others only."""
    def weight(row):
        return concept_weight(row["papers"], total, row["type"], counts.quality(row))

    candidates = concept_reads.linking_most(store, types, total, most_naming(total), LINKING_CONCEPTS)
    linking = sorted(candidates, key=lambda r: (-weight(r) * r["papers"] * (r["papers"] - 1), r["id"]))[:LINKING_CONCEPTS]
    papers_of = concept_reads.papers_of(store, [r["id"] for r in linking])  # element ids
    by_element: Counter = Counter()
    for row in linking:
        by_element.update(dict.fromkeys(papers_of.get(row["id"], []), weight(row) * (row["papers"] - 1)))
    # the ids of the papers shown (ties: by id, as in the whole graph's view)
    best = sorted(by_element.values(), reverse=True)[top - 1] if len(by_element) >= top else 0
    ids = concept_reads.paper_ids(store, [e for e, s in by_element.items() if s >= best])
    similar_to_all = Counter({ids.get(e, e): s for e, s in by_element.items()})
    chosen = sorted(similar_to_all, key=lambda p: (-similar_to_all[p], p))[:top]
    concepts_of: dict[str, set] = {}
    weight_of: dict[str, float] = {}
    naming: dict[str, int] = {}
    for row in concept_reads.of_papers(store, chosen, MENTIONS, types):
        concepts_of.setdefault(row["paper"], set()).add(row["id"])
        weight_of[row["id"]], naming[row["id"]] = weight(row), row["papers"]
    return concepts_of, weight_of, naming, similar_to_all


def idf_similarity(concepts_of: dict[str, set], total: int | None = None, weight_of: dict[str, float] | None = None,
                   naming: dict[str, int] | None = None) -> Counter:
    """Pair weights as ``kg similar`` scores them (``kg.similar.shared_weights``): the sum of the
    shared concepts' weights (``weight_of``, by default ``kg.similar.concept_weight`` of a concept
    of no type and no quality). As there, a concept too common to propose pairs
    (``kg.similar.proposes``) adds its weight only to pairs the others link.

    ``total`` is the number of papers (default: the papers given), ``naming`` the number of
    papers naming each concept in the whole graph (default: among the papers given).

    >>> w = idf_similarity({"a": {"x", "y"}, "b": {"x", "y"}, "c": {"y"}})
    >>> round(w[("a", "b")], 3), round(w[("a", "c")], 3)
    (0.604, 0.134)
    """
    from scipy import sparse

    if not any(concepts_of.values()):
        return Counter()
    n = total or len(concepts_of)
    papers = sorted(concepts_of)
    concepts = sorted(set().union(*concepts_of.values()))
    named = incidence([concepts_of[p] for p in papers], concepts)
    naming = naming or dict(zip(concepts, named.sum(axis=0).A1.astype(int)))
    weight_of = weight_of or {c: concept_weight(naming[c], n) for c in concepts}
    # the pairs a concept that proposes links (a sparse product: pairs in Python cost minutes at 100,000 papers)
    proposing = sparse.diags([1.0 if proposes(naming[c], n) else 0.0 for c in concepts])
    linked = sparse.triu(named @ proposing @ named.T, k=1).tocoo()
    weighted = {p: {c: (weight_of[c], True) for c in concepts_of[p]} for p in papers}
    pairs = Counter()
    for i, j in zip(linked.row, linked.col):
        a, b = papers[i], papers[j]
        pairs[a, b] = sum(shared_weights(weighted[a], concepts_of[b]).values())
    return Counter({pair: w for pair, w in pairs.items() if w > 0})


def _strongest(weights: Counter, k: int) -> dict[str, list]:
    links: dict[str, list] = {}
    for (a, b), w in weights.items():
        if w > 0:
            links.setdefault(a, []).append((b, w))
            links.setdefault(b, []).append((a, w))
    return {p: sorted(ls, key=lambda x: (-x[1], x[0]))[:k] for p, ls in links.items()}


def citations(store, top: int, focus: str | None, depth: int, types, size_by: str) -> View:
    """The citation graph, (:Paper)-[:CITES]->(:Paper|:Reference); around one paper with ``focus``.

    Capped, it keeps structure: the most cited works together with the papers citing them
    (see :func:`most_cited_with_citers`), so a view of a graph with citations always has some.
    """
    references = "Reference" in types
    if focus:
        centre = find_focus(store, "paper", focus)
        graph = citation_ego(store, centre, depth, references, top)
        if graph.number_of_edges() == 0:
            raise BadInput(f"the paper {centre} neither cites nor is cited by a loaded record")
        total_nodes, total_edges = graph.number_of_nodes(), graph.number_of_edges()
        graph, rule = most_cited_with_citers(graph, top, keep=centre)
        scope = f"Citations within {depth} link{'s' if depth > 1 else ''} of the paper"
    else:
        centre, scope = None, "All citations"
        graph, rule, total_nodes, total_edges = most_cited_in_store(store, top, references)
    omitted = Omitted(nodes=total_nodes - graph.number_of_nodes(), edges=total_edges - graph.number_of_edges(),
                      total_nodes=total_nodes, rule=rule)
    describe(store, graph)
    heading = "Who cites whom"
    if centre:
        graph.nodes[centre]["focus"] = True
        heading = f"Citations around {graph.nodes[centre].get('name') or centre}"
    refs = sum(1 for _, d in graph.nodes(data=True) if d.get("type") == "Reference")
    subtitle = (f"{scope}: an arrow points from the citing paper to the cited work; {refs:,} of the shown works are "
                f"references not loaded as papers.")
    return View(graph, heading, subtitle, omitted)


def citation_ego(store, centre: str, depth: int, references: bool, top: int) -> nx.DiGraph:
    """The citations within ``depth`` links of ``centre``, either way, read hop by hop."""
    graph, seen, frontier = nx.DiGraph(), {centre}, {centre}
    graph.add_node(centre)
    for _ in range(depth):
        rows = citation_reads.around(store, sorted(frontier), references, limit=top * 20)
        frontier = set()
        for row in rows:
            graph.add_edge(row["source"], row["target"])
            frontier |= {row["source"], row["target"]} - seen
        seen |= frontier
    return graph


def most_cited_in_store(store, top: int, references: bool = True) -> tuple[nx.DiGraph, str, int, int]:
    """:func:`most_cited_with_citers` read from the store's aggregates: the capped graph, its rule,
    and the citation graph's node and edge counts."""
    total_nodes, total_edges = citation_reads.totals(store, references)
    works = citation_reads.most_cited(store, max(1, top // 3), references)
    by_element = {w: set(found) for w, found in citation_reads.citers(store, works).items() if found}
    citers_of = {w: sorted(found) for w, found in _choosable_by_id(store, by_element, top).items()}
    chosen = choose_citers(works, citers_of, top)
    rule = cited_rule(works, chosen)
    graph = nx.DiGraph()
    graph.add_nodes_from(chosen)
    graph.add_edges_from(citation_reads.among(store, chosen))
    return graph, rule, total_nodes, total_edges


def most_cited_with_citers(graph: nx.DiGraph, top: int, keep=None) -> tuple[nx.DiGraph, str]:
    """At most ``top`` nodes of a citation graph that keep its structure, and the rule that chose them.

    A third of the places go to the most cited works (ties: id), the rest to the papers citing
    the most of those; every chosen work keeps its best-linked citer, so a graph with
    citations never comes out without edges. ``keep`` (a focus) is always kept, with the works
    it cites first.

    >>> g = nx.DiGraph([("a", "x"), ("b", "x"), ("c", "x"), ("a", "y"), ("d", "z")])
    >>> small, rule = most_cited_with_citers(g, 3)
    >>> sorted(small.edges), rule
    ([('a', 'x'), ('b', 'x')], 'the most cited work and 2 papers citing it')
    """
    if graph.number_of_nodes() <= top:
        return graph, ""
    cited = sorted((n for n in graph if graph.in_degree(n)), key=lambda n: (-graph.in_degree(n), str(n)))
    first = [keep, *sorted(graph.successors(keep), key=lambda n: (-graph.in_degree(n), str(n)))] if keep is not None else []
    works = list(dict.fromkeys(first + cited))[:max(1, top // 3) + (keep is not None)]
    chosen = choose_citers(works, {w: list(graph.predecessors(w)) for w in works}, top)
    return graph.subgraph(chosen).copy(), cited_rule(works, chosen)


def choose_citers(works: list, citers_of: dict, top: int) -> list:
    """``works`` (most cited first), each one's best citer, then the other citers by how many of
    the works they cite (ties: id); at most ``top`` in all. (Also: concepts and the papers naming them.)

    >>> choose_citers(["x", "y"], {"x": ["a", "b"], "y": ["b", "c"]}, 4)
    ['x', 'y', 'b', 'a']
    """
    links = Counter(citer for work in works for citer in set(citers_of.get(work, ())))
    order = sorted(links, key=lambda n: (-links[n], str(n)))
    rank = {n: i for i, n in enumerate(order)}
    best = [min(citers_of[w], key=rank.__getitem__) for w in works if citers_of.get(w)]
    return list(dict.fromkeys(works + best + order))[:top]


def named_rule(concepts: int, papers: int) -> str:
    """The overview's cap in words.

    >>> named_rule(1, 4), named_rule(100, 200)
    ('the concept that matters most and 4 papers naming it', 'the 100 concepts that matter most and 200 papers naming the most of them')
    """
    if concepts == 1:
        return f"the concept that matters most and {papers:,} papers naming it"
    return f"the {concepts:,} concepts that matter most and {papers:,} papers naming the most of them"


def cited_rule(works: list, chosen: list) -> str:
    """The rule of :func:`choose_citers` in words, with what it kept."""
    kept = set(chosen)
    shown = sum(1 for w in works if w in kept)
    if shown == 1:
        return f"the most cited work and {len(chosen) - shown:,} papers citing it"
    return f"the {shown:,} most cited works and {len(chosen) - shown:,} papers citing them"


def _communities(graph: nx.Graph) -> int:
    """Label each node with its Louvain community (largest first); return how many there are."""
    if graph.number_of_nodes() == 0:
        return 0
    found = nx.community.louvain_communities(graph, weight="weight", seed=7)
    for number, members in enumerate(sorted(found, key=lambda c: (-len(c), min(map(str, c))))):
        for node in members:
            graph.nodes[node]["community"] = number
    return len(found)


COMMUNITY_NAME_CONCEPTS = 3  # a community of papers is named by this many distinct concept names
_NAME_CANDIDATES = 12  # the most named concepts read per community, so that names repeated across types can be skipped


def _name_by_shared_concepts(store, graph: nx.Graph, concepts_of: dict[str, set]) -> None:
    """Name each community of papers by the three concepts most of its papers name."""
    counts: dict[int, Counter] = {}
    for node, number in nx.get_node_attributes(graph, "community").items():
        counts.setdefault(number, Counter()).update(concepts_of.get(node, ()))
    ranked = {number: [c for c, _ in sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))[:_NAME_CANDIDATES]]
              for number, found in counts.items()}
    names = concept_reads.names(store, sorted({c for cs in ranked.values() for c in cs}))
    graph.graph["community_names"] = {number: ", ".join(distinct_names([names.get(c, c) for c in cs]))
                                      for number, cs in ranked.items()}
    graph.graph["community_naming"] = "the concepts most of its papers name"


def distinct_names(names: list[str], n: int = COMMUNITY_NAME_CONCEPTS) -> list[str]:
    """The first ``n`` names that differ in more than case: a Domain and a Method of the same name
    ("machine learning") are shown once, and the next concept takes the freed place.

    >>> distinct_names(["accuracy", "machine learning", "Machine Learning", "deep learning"])
    ['accuracy', 'machine learning', 'deep learning']
    """
    seen: set[str] = set()
    return [name for name in names if not (name.lower() in seen or seen.add(name.lower()))][:n]


def _keep_types(graph: nx.Graph, types, keep=None) -> nx.Graph:
    graph.remove_nodes_from([n for n, d in list(graph.nodes(data=True)) if n != keep and d.get("type") not in types])
    return graph
