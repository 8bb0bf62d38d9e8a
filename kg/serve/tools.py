"""The pages that run things: the query packs as forms, the read-only Cypher console, the
``kg viz`` views on demand, and the neighbourhood graph a paper or concept page embeds.

Queries run through ``graph.query()``, which refuses any query that writes
(``kg.errors.ReadOnlyError``, as ``kg query``); the views are ``graph.view()``.
"""

from __future__ import annotations

import itertools
import json
import re

from kg import defaults
from kg.errors import BadInput, NotFound
from kg.serve.app import Request, Response
from kg.serve.render import page, url
from kg.serve.tables import as_csv, as_json, table
from visuals.render import TYPE_STYLE, page_data
from visuals.views import VIEWS

PARAM_PREFIX = "p_"    # a pack's parameter in the form (the form's own fields have other names)
DOWNLOADS = {"csv": ("text/csv; charset=utf-8", as_csv), "json": ("application/json; charset=utf-8", as_json)}
MAX_ROWS = 100_000     # rows of the Cypher console read at most (on the page and in a download)
VIEW_OPTIONS = ("focus", "depth", "types", "top", "min_weight", "min_papers", "size")


def _rows_answer(request: Request, rows: list[dict], stem: str) -> Response | None:
    """The rows as a CSV or JSON file when the request asks ``format=csv|json``, else None."""
    fmt = request.get("format")
    if not fmt:
        return None
    if fmt not in DOWNLOADS:
        raise BadInput(f"format must be csv or json, not {fmt!r}")
    content_type, write = DOWNLOADS[fmt]
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem) + f".{fmt}"
    return Response(write(rows), content_type=content_type, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def queries_list(graph, request: Request) -> Response:
    """Every pack query, by pack, each a link to its form."""
    from queries import list_queries

    packs: dict[str, list] = {}
    for q in list_queries():
        packs.setdefault(q.name.split("/")[0], []).append(q)
    return page("queries.html.j2", title="Queries", packs=packs)


def form_values(query, request: Request) -> dict[str, str]:
    """The form's values: those given, else the example call's, else the defaults (as text)."""
    from queries import format_value

    example = query.example_values()
    values = {}
    for p in query.params:
        given = request.params.get(PARAM_PREFIX + p.name)
        if given is not None:
            values[p.name] = given
        elif p.name in example:
            values[p.name] = example[p.name]
        else:
            values[p.name] = "" if p.required else format_value(p.default)
    return values


def query_form(graph, request: Request) -> Response:
    """One pack query as a form built from its parameter header; with ``run``, its result as a
    table (cells linked to pages) and as CSV / JSON (``format=csv|json``)."""
    from queries import QueryError, get_query

    try:
        query = get_query(request.get("name"))
    except QueryError as err:  # no such pack query: a page that is not there
        raise NotFound(str(err)) from None
    values = form_values(query, request)
    result = error = None
    if request.get("run"):
        given = {name: value for name, value in values.items()
                 if value != "" or next(p for p in query.params if p.name == name).type == "str"}
        try:
            rows = graph.query(query, given)
        except BadInput as err:  # a parameter of the wrong type: said on the form
            error = str(err)
        else:
            download = _rows_answer(request, rows, query.name.replace("/", "-"))
            if download:
                return download
            result = table(graph.store, rows)
    downloads = {fmt: url("/query", name=query.name, run="1", format=fmt,
                          **{PARAM_PREFIX + k: v for k, v in values.items()}) for fmt in DOWNLOADS}
    return page("query.html.j2", 400 if error else 200, title=query.name, query=query, values=values,
                prefix=PARAM_PREFIX, result=result, error=error, downloads=downloads)


def cypher(graph, request: Request) -> Response:
    """The Cypher console: read-only (a query that writes is refused, as ``kg query cypher``),
    parameters as a JSON object."""
    text, params_text = request.get("text"), request.get("params").strip()
    result = error = None
    if text.strip():
        try:
            params = json.loads(params_text) if params_text else {}
            if not isinstance(params, dict):
                raise ValueError("not an object")
        except ValueError as err:
            error = f"parameters must be a JSON object such as {{\"year\": 2024}} ({err})"
        else:
            try:
                rows = read_rows(graph, text, params)
            except Exception as err:  # noqa: BLE001  (a refused or failed query is said on the page)
                error = _said(err)
            else:
                download = _rows_answer(request, rows, "cypher")
                if download:
                    return download
                result = table(graph.store, rows)
                result["capped"] = len(rows) >= MAX_ROWS
    downloads = {fmt: url("/cypher", text=text, params=params_text, format=fmt) for fmt in DOWNLOADS}
    return page("cypher.html.j2", 400 if error else 200, title="Cypher", text=text, params=params_text,
                result=result, error=error, downloads=downloads)


def read_rows(graph, text: str, params: dict) -> list[dict]:
    """At most ``MAX_ROWS`` rows of ad hoc Cypher, streamed from the store read-only (a query that
    writes is refused before it is sent, as ``graph.query()`` and ``kg query cypher`` refuse it)."""
    rows = graph.store.stream(text, params)
    try:
        return list(itertools.islice(rows, MAX_ROWS))
    finally:
        rows.close()  # the rest is never read: the session ends here


def _said(err: Exception) -> str:
    """An error as one line for the page (kg's own errors say it all; others name their kind)."""
    from kg.errors import KgError

    return str(err) if isinstance(err, KgError) else f"{type(err).__name__}: {' '.join(str(err).split())[:500]}"


def view_options(request: Request) -> dict:
    """``graph.view()``'s options from the request, as ``kg viz`` reads its flags."""
    def integer(name: str, default: int) -> int:
        text = request.get(name) or str(default)
        try:
            return int(text)
        except ValueError:
            raise BadInput(f"{name} must be a whole number, not {text!r}") from None

    try:
        min_weight = float(request.get("min_weight") or defaults.MIN_WEIGHT)
    except ValueError:
        raise BadInput(f"min_weight must be a number, not {request.get('min_weight')!r}") from None
    size = request.get("size") or defaults.SIZE_BY
    if size not in ("pagerank", "degree"):
        raise BadInput(f"size must be pagerank or degree, not {size!r}")
    return {"focus": request.get("focus") or None, "depth": integer("depth", defaults.DEPTH),
            "types": request.get("types") or None, "top": integer("top", defaults.VIEW_TOP), "min_weight": min_weight,
            "min_papers": integer("min_papers", defaults.MIN_PAPERS), "size_by": size}


def _view_name(request: Request) -> str:
    name = request.get("view") or defaults.VIEW
    if name not in VIEWS:
        raise BadInput(f"unknown view {name!r}: choose from {', '.join(VIEWS)}")
    return name


def views(graph, request: Request) -> Response:
    """The form of the ``kg viz`` views; the chosen view is drawn below it (``/view``) and
    downloadable as the same self-contained file."""
    name = _view_name(request)
    view_options(request)  # a bad option is said here, not inside the frame
    given = {k: request.get(k) for k in VIEW_OPTIONS if request.get(k)}
    shown = url("/view", view=name, **given)
    drawn = bool(request.get("view"))  # on demand: the bare page draws nothing (a whole-graph view takes seconds)
    return page("views.html.j2", title=f"View: {name}" if drawn else "Views", views=VIEWS, name=name, given=given,
                defaults=defaults, shown=shown if drawn else None, download=url("/view", view=name, download="1", **given))


def view_file(graph, request: Request) -> Response:
    """A ``kg viz`` page, byte for byte what ``kg viz`` writes (it carries its own policy);
    ``download=1`` sends it as a file."""
    name = _view_name(request)
    html = graph.view(name, **view_options(request)).render()
    headers = {"Content-Disposition": f'attachment; filename="kg-{name}.html"'} if request.get("download") else {}
    return Response(html, headers=headers, csp=False)


def neighbourhood(graph, request: Request) -> Response:
    """The graph around a paper or concept, drawn by the ``kg viz`` renderer inside the page that
    embeds it; a click on a node opens that node's page."""
    kind = request.get("kind") or "paper"
    if kind not in ("paper", "concept"):
        raise BadInput(f"kind must be paper or concept, not {kind!r}")
    options = view_options(request)
    options["focus"] = request.get("id") or None
    view = graph.view(kind, **options)
    data = page_data(view.graph, view.size_by, view.color_by)
    legend = [{"type": t, "glyph": TYPE_STYLE[t][2], "color": TYPE_STYLE[t][0], "count": n}
              for t, n in data["counts"].items() if t in TYPE_STYLE]
    return page("graph.html.j2", title=view.heading, view=view, data=data, legend=legend,
                left_out=view.omitted.sentence(), nodes=view.graph.number_of_nodes())
