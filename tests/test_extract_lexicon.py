"""Rules become data (issue 30): the word lists of extraction are data files of kg/lexicon,
no Python module that reads words of abstracts writes one, and each file is well-formed and read by a rule."""

import ast
import re
from fnmatch import fnmatch
from pathlib import Path

import pytest

from kg.lexicon import load

KG = load.FOLDER.parent  # kg/, the lexicon's package is kg/lexicon
ROOT = KG.parent
# the modules that read words of abstracts: extraction, the keys of names, the vocabulary pass beside the build
WORD_READERS = [*sorted((KG / "extract").rglob("*.py")), *sorted(load.FOLDER.glob("*.py")), KG / "normalize.py", KG / "vocabulary.py", KG / "name_matching.py"]
MAX_WORDS = 8  # a literal with more plain words than this is a word list
ALLOWED = {"FIELDS"}  # literals of words that are no word list: the fields of a concept record (kg.extract.FIELDS)
_WORD = re.compile(r"[^\W\d_]+(?:[-'’ .][^\W\d_]+)*\.?")
_ALTERNATION = re.compile(r"[^\W\d_]+\??(?:\|[^\W\d_]+\??)+")  # "two|three|four" in a regular expression


def _plain_word(value) -> bool:
    """A word or phrase of letters with a small letter in it ("acid", "in situ", "Pascal VOC"), not a part-of-speech
    tag ("NNS"), a sign or an identifier ("kg_urls")."""
    return isinstance(value, str) and _WORD.fullmatch(value) is not None and any(c.islower() for c in value)


def _split_string(node: ast.Call) -> list[str] | None:
    """The parts of a string constant split by ``node`` ("a b".split(), "a|b".replace(...).split("|")), else None."""
    if not (isinstance(node.func, ast.Attribute) and node.func.attr == "split"):
        return None
    text = node.func.value
    while isinstance(text, ast.Call) and isinstance(text.func, ast.Attribute):  # .replace("\n", ""), .lower()
        text = text.func.value
    if not (isinstance(text, ast.Constant) and isinstance(text.value, str)):
        return None
    separator = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
    return text.value.split(separator)


def _strings(nodes) -> list:
    return [n.value for n in nodes if isinstance(n, ast.Constant)]


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def word_lists(source: str) -> list[tuple[int, int]]:
    """(line, words) of each literal in ``source`` with more than ``MAX_WORDS`` plain words: a list, set or
    tuple of them, a dict of constants whose keys and values are them, a string split into them, or a
    regular expression's alternation of them ("two|three|four"). Docstrings and ``ALLOWED`` names are no lists.

    >>> word_lists('UNITS = frozenset("mg kg ml cm mm nm km min hour day".split())')
    [(1, 10)]
    >>> word_lists('TAGS = {"DT", "PDT", "PRP$", "PRP", "CD", "IN", "CC", "HYPH", "VBG", "WDT"}')
    []
    """
    tree = ast.parse(source)
    skipped = _docstrings(tree) | {id(n) for node in ast.walk(tree) if isinstance(node, ast.Assign)
                                   and any(isinstance(t, ast.Name) and t.id in ALLOWED for t in node.targets)
                                   for n in ast.walk(node.value)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, (ast.List, ast.Set, ast.Tuple)):
            items = _strings(node.elts)
        elif isinstance(node, ast.Dict):  # a table of constants, not a record built of values ({"id": paper.id})
            constant = [(k, v) for k, v in zip(node.keys, node.values) if isinstance(v, (ast.Constant, ast.Tuple))]
            items = _strings([k for k, _ in constant if k is not None]) + _strings([v for _, v in constant])
        elif isinstance(node, ast.Call):
            items = _split_string(node) or []
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            runs = [run.replace("?", "").split("|") for run in _ALTERNATION.findall(node.value)]
            items = max(runs, key=lambda run: sum(map(_plain_word, run)), default=[])
        else:
            continue
        words = sum(map(_plain_word, items))
        if words > MAX_WORDS:
            found.append((node.lineno, words))
    return sorted(found)


def test_no_module_of_extraction_writes_a_word_list():
    """Every word list is a data file: a rule names the list it reads (``words("entity_heads")``)."""
    lists = {str(path.relative_to(ROOT)): found for path in WORD_READERS
             if (found := word_lists(path.read_text(encoding="utf-8")))}
    assert lists == {}


@pytest.mark.parametrize("source", [
    'VAGUE_HEADS = frozenset("property effect profile pattern outcome consequence role change difference".split())',
    'HEAD_TYPES = {**dict.fromkeys("model network method algorithm approach framework architecture encoder decoder".split(), '
    '"Method")}',
    'LEADING = {"a", "an", "the", "our", "their", "its", "this", "these", "that", "those"}',
    'ENDINGS = ("kinase", "protease", "lipase", "amylase", "merase", "synthase", "synthetase", "cyclase", "oxidase")',
    'PLURALS = {"corpora": "corpus", "criteria": "criterion", "phenomena": "phenomenon", "matrices": "matrix", '
    '"indices": "index"}',
    'NON_CONCEPTS = "book review|editorial|erratum|corrigendum|retraction|commentary|obituary|front matter|home".split("|")',
    'FOLD = re.compile(r"(?:\\d+|two|three|four|five|six|seven|eight|nine|ten)fold")',
    'NOT_NAMES = "January|February|March|April|May|June|July|August|September|Publishers?"\nNAME = rf"(?!{NOT_NAMES})"',
])
def test_the_check_finds_a_planted_word_list(source):
    assert len(word_lists(source)) == 1


@pytest.mark.parametrize("source", [
    'TAGS = frozenset({"DT", "PDT", "PRP$", "PRP", "CD", "IN", "CC", "HYPH", "VBG", "WDT", ",", ":"})',
    'def f(paper):\n    """A docstring of many words, more than eight of them in one sentence here."""\n'
    '    return {"id": paper.id, "title": paper.title, "venue": paper.venue, "year": paper.year, "authors": paper.authors, '
    '"doi": paper.doi, "source": paper.source, "position": paper.position, "text": paper.text}',
    'FIELDS = ("name", "type", "key", "aliases", "merges", "mentions", "evidence", "proposed", "confidence")',
    'SMALL = frozenset("is was are were be been".split())',
    'URL = re.compile(r"(?:https?://|www\\.|github\\.com/)")',
    'ENTITY_HEADS = words("entity_heads")',
])
def test_the_check_leaves_what_is_no_word_list(source):
    assert word_lists(source) == []


def _data_files() -> list[Path]:
    return sorted(p for p in load.FOLDER.iterdir() if p.suffix in (".txt", ".tsv"))


def test_each_data_file_says_what_it_means_and_has_clean_entries():
    """A file opens with what its list means and says which rule reads it; an entry is its line exactly
    (no space at either end, no tab in a word list, the same fields in each row of a table), once."""
    assert len(_data_files()) > 100
    for path in _data_files():
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        assert text.endswith("\n") and lines[0].startswith("# ") and re.search(r"^# Read (as|into) ", text, re.M), path.name
        entries = load.entries(path.name)
        assert entries and len(set(entries)) == len(entries), path.name
        assert all(e == e.strip() for e in entries), path.name
        fields = {e.count("\t") for e in entries}
        assert fields == ({0} if path.suffix == ".txt" else {2} if path.stem == "known_acronyms" else {1}), path.name


def test_each_data_file_is_read_by_a_rule():
    """No file lies unused: some module that reads words names it."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in WORD_READERS)
    assert [p.name for p in _data_files() if f'"{p.stem}"' not in code and f"'{p.stem}'" not in code] == []


def test_a_wheel_carries_the_data_files():
    """pyproject's package data names every data file, so that an installed kg has its word lists."""
    section = (ROOT / "pyproject.toml").read_text(encoding="utf-8").split("[tool.setuptools.package-data]")[1].split("\n[")[0]
    listed = section[section.index("\nkg = ") + len("\nkg = "):]  # the list may run over several lines
    patterns = ast.literal_eval(listed[:listed.index("]") + 1])
    unshipped = [p.name for p in _data_files() if not any(fnmatch(str(p.relative_to(ROOT / "kg")), g) for g in patterns)]
    assert unshipped == []


def test_a_list_is_read_once():
    assert load.entries("units.txt") is load.entries("units.txt")
    assert load.words("units") is load.words("units")


def test_a_table_row_without_its_fields_is_named(tmp_path, monkeypatch):
    """A malformed row is an error that names the file and the row, not a silent wrong dict."""
    (tmp_path / "broken_table.tsv").write_text("# a table\n\nacid\tEntity\nprotein Entity\n", encoding="utf-8")
    monkeypatch.setattr(load, "FOLDER", tmp_path)
    with pytest.raises(ValueError, match=r"broken_table\.tsv.*'protein Entity'"):
        load.table("broken_table")
