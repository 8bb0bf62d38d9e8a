"""``kg eval`` (extraction quality against human annotations) and ``kg train``."""

from __future__ import annotations

import json
from pathlib import Path

import click

import kg
from kg.cli.app import handle_errors, main, recogniser_option


@main.group(name="eval")
def eval_group():
    """Measure extraction against human annotations.

    SciERC (Luan et al., 2018) is public: its processed JSON (train.json,
    dev.json, test.json) comes from the SciERC site
    (http://nlp.cs.washington.edu/sciIE/, sciERC_processed.tar.gz) or DyGIE++'s
    scripts/data/get_scierc.sh.

    \b
    Example:
      kg eval scierc scierc/dev.json
    """


@eval_group.command(name="scierc")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--baseline/--no-baseline", default=True, show_default=True,
              help="Also score the noun-chunk baseline in the same run.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--processes", default=1, show_default=True, help="spaCy worker processes.")
@recogniser_option
@click.option("--ner", type=click.Path(exists=True, file_okay=False), default=None,
              help="A recogniser of that kind written by `kg train -o DIR` (default: the packaged one).")
@handle_errors
def eval_scierc(path, baseline, fmt, processes, recogniser, ner):
    """Score the extractor `kg build` uses on a SciERC file (DyGIE JSON).

    Prints precision, recall and F1 per type and micro-averaged, for exact span
    match and for overlap match: SciERC Method, Task, Metric and Material (as
    Dataset); other SciERC types are not scored.

    \b
    Examples:
      kg eval scierc scierc/dev.json
      kg eval scierc scierc/dev.json --model accurate --no-baseline
      kg eval scierc scierc/dev.json --ner my-ner --no-baseline
    """
    report = kg.open().eval(path, baseline=baseline, processes=processes, model=recogniser, ner=ner)
    if fmt == "json":
        click.echo(json.dumps(report.as_dict(), indent=2))
    else:
        click.echo(report.table())
        click.echo(f"({report.seconds} s; pipeline: {', '.join(report.pipeline)})", err=True)


@main.command()
@click.option("--data", "train_path", type=click.Path(exists=True, dir_okay=False), required=True,
              help="SciERC training split (DyGIE JSON), e.g. scierc/train.json (see kg eval --help for where to get it).")
@click.option("-o", "--output", type=click.Path(file_okay=False), default=None,
              help="Where to write the trained recogniser (default: the packaged kg/extract/models/scierc_ner, "
                   "or kg/extract/models/accurate).")
@recogniser_option
@click.option("--config", type=click.Path(exists=True, dir_okay=False), default=None,
              help="fast: spaCy training config (default: kg/extract/models/scierc_ner.cfg).")
@click.option("--max-steps", type=int, default=None, help="fast: override the config's training.max_steps.")
@click.option("--epochs", type=click.IntRange(1), default=20, show_default=True, help="accurate: passes over the training split.")
@click.option("--max-minutes", type=float, default=50, show_default=True,
              help="accurate: fewer epochs when those asked for would take longer (the learning rate's decay follows).")
@click.option("--threads", type=click.IntRange(1), default=2, show_default=True, help="accurate: torch threads while training.")
@click.option("--seed", type=int, default=0, show_default=True, help="accurate: random seed.")
@handle_errors
def train(train_path, output, recogniser, config, max_steps, epochs, max_minutes, threads, seed):
    """Train a SciERC entity recogniser: the shipped fast one, or the accurate one.

    kg ships both trained; this retrains them. The accurate one fine-tunes
    all-MiniLM-L6-v2 with torch (pip install "kg[train-accurate]"): as many of
    --epochs as fit in --max-minutes (all 20 in about 45 minutes on two cores),
    then writes the ONNX graph kg runs. A held-out sample of the training split
    picks the best epoch; SciERC dev is never seen. SciERC's processed JSON comes
    from its site (see kg eval --help).

    \b
    Examples:
      kg train --data scierc/train.json
      kg train --data scierc/train.json -o my-ner    # then: kg eval scierc DEV --ner my-ner
      kg train --model accurate --data scierc/train.json -o my-accurate
    """
    result = kg.open().train(train_path, output, recogniser, config=config, max_steps=max_steps, epochs=epochs,
                             max_minutes=max_minutes, threads=threads, seed=seed, log=lambda line: click.echo(line, err=True))
    if recogniser == "accurate":
        click.echo(f"Best epoch {result['best_epoch']} (held-out exact F1 {result['holdout_f1']:.3f})", err=True)
        click.echo(f"Trained in {result['seconds']} s; model at {result['output']}")
        return
    size = sum(f.stat().st_size for f in Path(result["output"]).rglob("*") if f.is_file())
    click.echo(f"Trained in {result['seconds']} s; model {size / 1e6:.1f} MB at {result['output']}")
