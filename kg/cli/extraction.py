"""``kg eval`` (extraction quality against human annotations) and ``kg train``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli.app import fail, handle_errors, main


@main.group(name="eval")
def eval_group():
    """Measure extraction against human annotations.

    \b
    Example:
      kg eval scierc ../shared/data/scierc/dev.json
    """


@eval_group.command(name="scierc")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--baseline/--no-baseline", default=True, show_default=True,
              help="Also score the noun-chunk baseline in the same run.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--processes", default=1, show_default=True, help="spaCy worker processes.")
@click.option("--model", type=click.Path(exists=True, file_okay=False), default=None,
              help="A recogniser written by `kg train -o DIR` (default: the shipped one).")
@handle_errors
def eval_scierc(path, baseline, fmt, processes, model):
    """Score the extractor `kg build` uses on a SciERC file (DyGIE JSON).

    Prints precision, recall and F1 per type and micro-averaged, for exact span
    match and for overlap match: SciERC Method, Task, Metric and Material (as
    Dataset); other SciERC types are not scored.

    \b
    Examples:
      kg eval scierc ../shared/data/scierc/dev.json
      kg eval scierc ../shared/data/scierc/dev.json --model my-ner --no-baseline
    """
    from kg.evaluation import evaluate_scierc
    from kg.extract import load_pipeline

    nlp = load_pipeline(ner=model) if model else None
    try:
        report = evaluate_scierc(path, nlp=nlp, baseline=baseline, n_process=processes)
    except (ValueError, KeyError) as err:
        fail(f"{path}: not SciERC DyGIE JSON ({err})")
    if fmt == "json":
        click.echo(json.dumps(report.as_dict(), indent=2))
    else:
        click.echo(report.table())
        click.echo(f"({report.seconds} s; pipeline: {', '.join(report.pipeline)})", err=True)


@main.command()
@click.option("--data", "train_path", type=click.Path(exists=True, dir_okay=False), required=True,
              help="SciERC training split (DyGIE JSON), e.g. ../shared/data/scierc/train.json.")
@click.option("-o", "--output", type=click.Path(file_okay=False), default=None,
              help="Where to write the trained recogniser (default: the packaged kg/extract/models/scierc_ner).")
@click.option("--config", type=click.Path(exists=True, dir_okay=False), default=None,
              help="spaCy training config (default: kg/extract/models/scierc_ner.cfg).")
@click.option("--max-steps", type=int, default=None, help="Override the config's training.max_steps.")
@handle_errors
def train(train_path, output, config, max_steps):
    """Train the SciERC entity recogniser the extractor ships with.

    \b
    Examples:
      kg train --data ../shared/data/scierc/train.json
      kg train --data ../shared/data/scierc/train.json -o my-ner    # then: kg eval scierc DEV --model my-ner
    """
    from kg.extract import training

    overrides = {"training.max_steps": max_steps} if max_steps else {}
    result = training.train(train_path, output or training.MODEL_DIR, config or training.CONFIG, overrides)
    size = sum(f.stat().st_size for f in Path(result["output"]).rglob("*") if f.is_file())
    click.echo(f"Trained in {result['seconds']} s; model {size / 1e6:.1f} MB at {result['output']}")
