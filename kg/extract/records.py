"""The public ``kg extract`` record of one paper (the contract: docs/schema.md), made of its doc: each mention
retyped where the paper's field decides, a coordination split into its parts, an acronym folded into its long
form, and one concept per type and canonical key (``ConceptDraft``), ranked by ``salience``."""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.tokens import Doc

from kg.extract import edges, english, entities, junk, salience
from kg.extract.mentions import Mention, doc_text
from kg.lexicon import DEGREE_WORDS, GENERIC_MODIFIERS, GENERIC_WORDS
from kg.model import Paper
from kg.normalize import clean_name, concept_key, concept_parts, display_name, plain_key, singular


def to_record(paper: Paper, doc: Doc) -> dict:
    """The public ``kg extract`` record of one paper (the contract: docs/schema.md)."""
    concepts: dict[tuple[str, str], ConceptDraft] = {}
    # An acronym defined in this paper is an alias of its long form here, and only here:
    # "BC" is breast cancer in one paper and bladder cancer in another.
    expansions = {a["short"]: a["long"] for a in doc._.kg_acronyms or []}
    domains = {d["name"] for d in doc._.kg_domains or []}
    hints = set(doc._.kg_domain_hints or ())
    natural_science = entities.natural_science(domains, hints)
    outside = entities.outside_computing(domains, hints)
    natural_reading = entities.reads_as_natural_science(domains, hints)
    unnamed = entities.field_unnamed(domains, hints)
    # a lone everyday word names nothing outside computing; there "alignment", "distribution" are terms
    everyday = not entities.computing(domains)
    of_computing = entities.reads_as_computing(domains, hints)

    def typed_by_name(mention: Mention, name: str) -> dict:
        # each part of a coordination by its own head ("kernel density estimation and covariance-weighted
        # distance"); a gazetteer's type stands
        if mention["rule"] == "gazetteer":
            return mention
        if (natural_science or outside) and entities.metric_outside_computing(name, mention["type"], natural_science):
            return dict(mention, type="Metric", proposed=None)
        # SciERC's Material: the recogniser reads a language as data ("Slavonic languages", "Basque")
        if mention["type"] == "Dataset" and entities.language(name):
            return dict(mention, type="Entity", proposed=None)
        # where nothing names the paper's field, data and tasks need a head of their kind ("xanthan gum" is no data)
        if unnamed and mention["type"] in ("Dataset", "Task") and not mention.get("context") and \
                entities.entity_in_natural_science(name, mention["type"]):
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
            if entities.population(long_form):
                continue  # "HCs" of "healthy controls (HCs)": the people a study read
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
        "text": doc_text(doc),
        "venue": paper.venue,
        "year": paper.year,
        "authors": paper.authors,
        "doi": paper.doi,
        "references": paper.references,
        "reference_details": paper.reference_details,
        "source": paper.source,
        "position": paper.position,
        "concepts": [c.record() for c in _entities_joined(concepts).values()],
        "citations": doc._.kg_citations or [],
        "urls": [u["url"] for u in doc._.kg_urls or []],
        "acronyms": [{"short": a["short"], "long": a["long"]} for a in doc._.kg_acronyms or []],
    }
    context = salience.Context.of_record(record)
    for concept in record["concepts"]:
        concept["salience"] = salience.salience(concept, context)
    return record


def _entities_joined(concepts: dict[tuple[str, str], ConceptDraft]) -> dict[tuple[str, str], ConceptDraft]:
    """A name the paper also reads as a Method, Task, Dataset or Metric is that in its Entity mentions
    too: the recogniser's other-term reading is the weaker one."""
    for (type_, key) in [k for k in concepts if k[0] == "Entity"]:
        other = next((k for k in concepts if k[1] == key and k[0] not in ("Entity", "Domain")), None)
        if other is not None:
            concepts[other].join(concepts.pop((type_, key)))
    return concepts


def _generic_part(part: str, type_: str, everyday: bool, natural: bool) -> bool:
    """A part of a coordination (or a whole name) that names nothing alone: a number, a generic word ("data"),
    a place, an adjective for a head ("colorectal" of "colorectal or lung cancer"), a vague phrase, a degree
    compound ("high-quality"), people ("healthy controls") or an everyday word ("hand") where the paper's
    field (``everyday``, ``natural``) or its plural ("rules") says it names nothing."""
    words = [w for w in part.lower().split() if w not in GENERIC_MODIFIERS]
    if not words or not any(c.isalpha() for c in part) or entities.population(part):
        return True
    if len(words) == 1 and "-" in words[0] and words[0].split("-")[0] in DEGREE_WORDS:
        return True  # a degree compound alone: "high-quality" of "low-quality or high-quality" ("fine-tuning" stays)
    if len(words) == 1 and (any(w in GENERIC_WORDS for w in english.word_forms(words[0])) or english.only_adjective(words[0])):
        return True
    if english.ends_in_adjective(part) or junk.is_place(part) or junk.is_vague(part):
        return True
    return type_ != "Domain" and english.everyday_word(part) and (
        natural or type_ == "Entity" and (everyday or _plural(part)))


def _plural(word: str) -> bool:
    """A lower-case plural ("rules", "clusters"): an everyday word's plural is a heap of things, not a term."""
    return word.islower() and singular(word) != word


def _add(concepts: dict[tuple[str, str], ConceptDraft], mention: Mention, canonical: str, name: str | None = None,
         acronym: bool = False, spelling: str | None = None) -> None:
    # one record concept per type read and canonical key: the graph joins the types of one key
    # into one node (kg.store.vocabulary votes its type), each paper's reading kept on its edge
    key = (mention["type"], concept_key(canonical))
    concept = concepts.setdefault(key, ConceptDraft(name or display_name(canonical), mention["type"], key[1]))
    concept.add(mention, spelling or clean_name(mention["text"]), acronym)


FIELDS = ("name", "type", "key", "aliases", "merges", "mentions", "evidence", "proposed", "confidence")


@dataclass
class ConceptDraft:
    """A concept of one paper while its mentions are gathered: what ``record`` makes its ``FIELDS`` of."""

    name: str
    type: str
    key: str
    spellings: list[str] = field(default_factory=list)
    acronyms: set[str] = field(default_factory=set)  # the spellings that are acronyms the paper defines
    mentions: list[list[int]] = field(default_factory=list)
    evidence: list[Mention] = field(default_factory=list)
    proposed: bool | None = None
    confidence: float = 0.0

    def add(self, mention: Mention, spelling: str, acronym: bool) -> None:
        """One more mention of the concept, written ``spelling``."""
        self.spellings.append(spelling)
        if acronym:
            self.acronyms.add(spelling)
        self.mentions.append([mention["start"], mention["end"]])
        self.evidence.append({"sentence": mention["sentence"], "rule": mention["rule"], "confidence": mention["confidence"]})
        self.confidence = max(self.confidence, mention["confidence"])
        if mention["type"] == "Method":
            self.proposed = bool(self.proposed) or bool(mention["proposed"])

    def join(self, other: ConceptDraft) -> None:
        """Takes in the mentions of ``other``, a reading of the same name."""
        self.spellings.extend(other.spellings)
        self.mentions.extend(other.mentions)
        self.evidence.extend(other.evidence)
        self.acronyms |= other.acronyms

    def record(self) -> dict:
        """The record of the concept: its aliases are the other spellings, with why they are the same concept."""
        name = self.name
        if " " not in name:  # a long form the paper writes names the concept better than its acronym
            name = next((n for n in map(display_name, self.spellings) if " " in n), name)
        seen = {name.lower()}
        aliases = [s for s in self.spellings if not (s.lower() in seen or seen.add(s.lower()))]
        merges = [] if self.type == "Domain" else [  # a domain's "aliases" are its evidence phrases, not spellings of it
            {"alias": a, "reason": "acronym" if a in self.acronyms else "spelling" if plain_key(a) == plain_key(name) else "known_acronym"}
            for a in aliases]
        values = {"name": name, "type": self.type, "key": self.key, "aliases": aliases, "merges": merges, "mentions": self.mentions,
                  "evidence": self.evidence, "proposed": self.proposed, "confidence": self.confidence}
        return {k: values[k] for k in FIELDS}
