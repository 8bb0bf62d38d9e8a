"""The pages of the graph itself: home, search, a paper, a concept, a cited work.

Each page function takes the ``KnowledgeGraph`` and the request and returns a
``Response``; what it reads is in ``kg.store.reads.browse`` (and ``graph.similar()``).
"""

from __future__ import annotations

from kg.errors import BadInput, NotFound, PaperNotFound
from kg.serve.app import Request, Response
from kg.serve.render import link_of, page
from kg.store.reads import browse

SEARCH_HITS = 20       # papers and concepts listed per search
LISTED = 50            # references, citing papers, a concept's papers
CONCEPTS_LISTED = 20   # co-occurring concepts, method x dataset/task partners, narrower concepts
SIMILAR = 8            # similar papers on a paper's page
GRAPH_TOP = 60         # nodes of a page's neighbourhood graph
# links from the focus it draws: a paper's concepts and citations (two links read the papers of its
# concepts too, 1-2 s at 10,000 papers, bench/serve.py); a concept's papers and their concepts
GRAPH_DEPTH = {"paper": 1, "concept": 2}
PROPOSE_RELATIONS = ("PROPOSES", "USES")


def home(graph, request: Request) -> Response:
    """The search box, and what the graph holds (the counts the last build kept)."""
    return page("home.html.j2", title="kg", description=graph.description, stats=graph.stats())


def search(graph, request: Request, catalogue) -> Response:
    """Papers (id, title, abstract) and concepts (name, alias) matching the box's text, ranked
    (``catalogue``: the server's ``kg.serve.search.Catalogue``)."""
    text = request.get("q").strip()
    if not text:
        return home(graph, request)
    found = catalogue.current()
    papers = found.search_papers(text, SEARCH_HITS + 1)
    concepts = found.search_concepts(text, SEARCH_HITS + 1)
    return page("search.html.j2", title=f"Search: {text}", q=text, papers=papers[:SEARCH_HITS],
                more_papers=len(papers) > SEARCH_HITS, concepts=concepts[:SEARCH_HITS],
                more_concepts=len(concepts) > SEARCH_HITS)


def required(request: Request, name: str = "id") -> str:
    value = request.get(name)
    if not value:
        raise BadInput(f"this page needs ?{name}=...")
    return value


def highlighted(abstract: str | None, concepts: list[dict]) -> list[tuple[str, dict | None]]:
    """The abstract cut into ``(text, concept or None)`` pieces at the first mention of each
    concept (the offsets the graph keeps). Where mentions overlap, a method, task, dataset,
    metric or entity wins over a domain (whose span is the phrase that suggested it), then
    the earlier one; the other is left plain.

    >>> parts = highlighted("We use BERT here.", [{"start": 0, "end": 11, "name": "NLP", "type": "Domain"},
    ...                                           {"start": 7, "end": 11, "name": "BERT", "type": "Method"}])
    >>> [(text, c and c["name"]) for text, c in parts]
    [('We use ', None), ('BERT', 'BERT'), (' here.', None)]
    """
    text = abstract or ""
    spans = [c for c in concepts if isinstance(c.get("start"), int) and isinstance(c.get("end"), int)
             and 0 <= c["start"] < c["end"] <= len(text)]
    chosen: list[dict] = []
    for concept in sorted(spans, key=lambda c: (c.get("type") == "Domain", c["start"], -c["end"])):
        if all(concept["end"] <= other["start"] or other["end"] <= concept["start"] for other in chosen):
            chosen.append(concept)
    pieces, at = [], 0
    for concept in sorted(chosen, key=lambda c: c["start"]):
        if concept["start"] > at:
            pieces.append((text[at:concept["start"]], None))
        pieces.append((text[concept["start"]:concept["end"]], concept))
        at = concept["end"]
    if at < len(text):
        pieces.append((text[at:], None))
    return pieces


def paper(graph, request: Request) -> Response:
    """A paper: metadata, the abstract with its concepts, what it proposes and uses, its
    references and citing papers, and its neighbourhood graph; its similar papers (``similar``)
    and the graph (``kg.serve.tools.neighbourhood``) load after it, each by itself."""
    key = required(request)
    found = browse.paper(graph.store, key)
    if found is None:
        raise PaperNotFound(key, f"no paper has the id {key!r}")
    concepts = browse.paper_concepts(graph.store, key)
    cited_total, cited = browse.references(graph.store, key, LISTED)
    citing_total, citing = browse.citing(graph.store, key, LISTED)
    methods = {rel: [c for c in concepts if c["relation"] == rel] for rel in PROPOSE_RELATIONS}
    return page("paper.html.j2", title=found["title"] or key, paper=found, concepts=concepts,
                abstract=highlighted(found["abstract"], concepts), methods=methods, cited=cited,
                cited_total=cited_total, citing=citing, citing_total=citing_total, graph_top=GRAPH_TOP,
                graph_depth=GRAPH_DEPTH["paper"])


def similar(graph, request: Request) -> Response:
    """The papers most like a paper, with why (``graph.similar()``, as ``kg similar``): a part
    of the paper's page that it loads after showing itself (``fragment=1``), or a page."""
    key = required(request)
    title = graph.title(key)  # PaperNotFound when there is no such paper
    context = {"similar": graph.similar(key, top=SIMILAR), "paper_id": key}
    if request.get("fragment"):
        return page("similar.html.j2", **context)
    return page("similar-page.html.j2", title=f"Similar to {title or key}", paper_title=title or key, **context)


def timeline(years: list | None, counts: list | None) -> list[dict]:
    """``{year, papers, share}`` per year from the concept's kept totals, every year between
    the first and the last (a gap shows as 0); ``share`` of the busiest year, for the bars.

    >>> [(r["year"], r["papers"]) for r in timeline([2020, 2022], [3, 1])]
    [(2020, 3), (2021, 0), (2022, 1)]
    """
    by_year = {y: n for y, n in zip(years or [], counts or []) if isinstance(y, int)}
    if not by_year:
        return []
    most = max(by_year.values()) or 1
    return [{"year": y, "papers": by_year.get(y, 0), "share": round(100 * by_year.get(y, 0) / most)}
            for y in range(min(by_year), max(by_year) + 1)]


def concept(graph, request: Request) -> Response:
    """A concept: type, aliases, broader and narrower, its papers newest first, its timeline,
    the concepts it co-occurs with, the methods x datasets / tasks cells it is part of."""
    key = required(request)
    store = graph.store
    found = browse.concept(store, key, CONCEPTS_LISTED)
    if found is None:
        resolved = browse.resolve_concept(store, key)
        if resolved is None:
            raise NotFound(f"no concept has the id or name {key!r}")
        found = browse.concept(store, resolved, CONCEPTS_LISTED)
    cid = found["id"]
    return page("concept.html.j2", title=found["name"], concept=found,
                papers=browse.concept_papers(store, cid, LISTED), timeline=timeline(found["years"], found["year_papers"]),
                co_occurring=browse.co_occurring(store, cid, CONCEPTS_LISTED),
                partners=browse.partners(store, cid, CONCEPTS_LISTED), graph_top=GRAPH_TOP,
                graph_depth=GRAPH_DEPTH["concept"])


def work(graph, request: Request) -> Response:
    """A cited work that is not loaded (a Reference): what its source said, and who cites it."""
    key = required(request)
    found = browse.reference(graph.store, key, LISTED)
    if found is None:
        if browse.paper(graph.store, key):
            return Response("", 303, headers={"Location": link_of("paper", key)})
        raise NotFound(f"no cited work has the key {key!r}")
    return page("work.html.j2", title=found["title"] or key, work=found)
