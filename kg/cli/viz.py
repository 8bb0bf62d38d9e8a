"""``kg viz``: interactive HTML views, one offline file each."""

from __future__ import annotations

import click

import kg
from kg import defaults
from kg.cli.app import handle_errors, main, store_options, write_view


@main.command()
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="HTML file to write.")
@click.option("--view", "view_name", default=defaults.VIEW, show_default=True,
              type=click.Choice(["overview", "paper", "concept", "cooccurrence", "similarity", "citations"]),
              help="What to draw (see Views above).")
@click.option("--focus", help="At the centre of a paper or citations view: a paper id or title; of a concept view: "
                               "a concept id, name or alias (any case).")
@click.option("--depth", default=defaults.DEPTH, show_default=True, type=click.IntRange(1, 6), help="Links from the focus to include.")
@click.option("--types", help="Node types to keep, comma-separated: Paper,Method,Task,Dataset,Metric,Entity,Domain,Reference.")
@click.option("--top", default=defaults.VIEW_TOP, show_default=True, type=click.IntRange(1),
              help="Most nodes to draw; a cap keeps the links that explain the view and says what it left out.")
@click.option("--min-weight", default=defaults.MIN_WEIGHT, show_default=True, type=float,
              help="Weakest link to draw: shared papers (cooccurrence) or summed concept weights, as kg similar (similarity).")
@click.option("--min-papers", default=defaults.MIN_PAPERS, show_default=True, type=click.IntRange(1),
              help="Show concepts named by at least this many papers (overview, cooccurrence).")
@click.option("--size", "size_by", default=defaults.SIZE_BY, show_default=True, type=click.Choice(defaults.SIZES),
              help="What node size shows.")
@store_options
@handle_errors
def viz(output, view_name, focus, depth, types, top, min_weight, min_papers, size_by, db_dir, uri):
    """Write an interactive HTML view of the graph: one self-contained file that works offline.

    \b
    Views:
      overview      the concepts most papers name, with the papers naming them
      paper         everything within --depth links of one paper (--focus), the nearest
                    first: a farther hop is not read once the nearer ones fill --top,
                    and at most 20 x --top links are read a hop
      concept       the same around one concept (--focus)
      cooccurrence  concepts linked by the papers they share, coloured by community
      similarity    papers linked by shared concepts, rare concepts weighing more (IDF)
      citations     (:Paper)-[:CITES]->(:Paper|:Reference), all or around --focus:
                    the most cited works with the papers citing them

    \b
    Example:
      kg viz -o overview.html
      kg viz --view concept --focus LoRA --depth 2 -o lora.html
      kg viz --view paper --focus p-198679ab53b48580 -o paper.html
      kg viz --view cooccurrence --types Method,Task --top 200 -o concepts.html
      kg viz --view similarity --min-weight 2 -o similar.html
      kg viz --view citations -o citations.html
    """
    with kg.open(db_dir, uri) as graph:
        view = graph.view(view_name, focus=focus, depth=depth, types=types, top=top, min_weight=min_weight,
                          min_papers=min_papers, size_by=size_by)
    write_view(view, output)
