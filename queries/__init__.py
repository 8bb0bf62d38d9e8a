"""Cypher query packs: ``queries/<pack>/<name>.cypher`` files, and their runner.

A query file starts with a header of ``//`` comments::

    // name: top-concepts
    // description: The most frequent concepts of each type.
    // param: per_type int 5
    // example: kg query run overview/top-concepts -p per_type=3

A ``param`` line gives a name, a type (str, int, float, bool) and an optional
default; a parameter without a default is required. Values reach Cypher only
as parameters.

>>> from queries import get_query
>>> get_query("overview/top-concepts").params[0].name
'per_type'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

PACKS_DIR = Path(__file__).parent
TYPES = {"str": str, "int": int, "float": float, "bool": lambda v: _bool(v)}
_WRITE = re.compile(r"\b(CREATE|MERGE|DELETE|DETACH|SET|REMOVE|DROP|LOAD\s+CSV|FOREACH)\b", re.I)


class QueryError(Exception):
    """A query that cannot be found, parsed or given its parameters."""


@dataclass
class Param:
    name: str
    type: str
    default: object = None
    required: bool = True


@dataclass
class Query:
    name: str  # "pack/name"
    description: str
    cypher: str
    params: list[Param] = field(default_factory=list)
    example: str = ""
    path: Path | None = None

    def bind(self, given: dict[str, str]) -> dict[str, object]:
        """Check and convert ``given`` (strings from the command line) to parameters."""
        known = {p.name: p for p in self.params}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise QueryError(f"{self.name}: unknown parameter(s) {', '.join(unknown)}; known: {', '.join(known) or 'none'}")
        bound = {}
        for p in self.params:
            if p.name in given:
                bound[p.name] = convert(p, given[p.name], self.name)
            elif p.required:
                raise QueryError(f"{self.name}: parameter {p.name} ({p.type}) is required")
            else:
                bound[p.name] = p.default
        return bound


def _bool(value: str) -> bool:
    if str(value).lower() in ("1", "true", "yes", "y"):
        return True
    if str(value).lower() in ("0", "false", "no", "n"):
        return False
    raise ValueError(value)


def convert(param: Param, value: str, where: str):
    try:
        return TYPES[param.type](value)
    except (ValueError, TypeError):
        raise QueryError(f"{where}: parameter {param.name} expects {param.type}, got {value!r}") from None


def parse(text: str, name: str, path: Path | None = None) -> Query:
    """A Query from the text of a ``.cypher`` file."""
    header: dict[str, list[str]] = {}
    body = []
    for line in text.splitlines():
        match = re.match(r"^\s*//\s*(name|description|param|example):\s*(.*)$", line)
        if match:
            header.setdefault(match[1], []).append(match[2].strip())
        elif not line.strip().startswith("//"):
            body.append(line)
    params = []
    for spec in header.get("param", []):
        parts = spec.split(None, 2)
        if len(parts) < 2 or parts[1] not in TYPES:
            raise QueryError(f"{path or name}: bad param line {spec!r}; expected 'name type [default]'")
        p = Param(parts[0], parts[1], required=len(parts) < 3)
        if len(parts) == 3:
            p.default = convert(p, parts[2], name)
        params.append(p)
    cypher = "\n".join(body).strip().rstrip(";")
    if not cypher:
        raise QueryError(f"{path or name}: holds no Cypher")
    return Query(name=header.get("name", [name])[0] if path is None else name,
                 description=" ".join(header.get("description", [""])), cypher=cypher, params=params,
                 example=" ".join(header.get("example", [])), path=path)


def list_queries() -> list[Query]:
    """Every query of every pack, sorted by name."""
    return [load_file(path, f"{path.parent.name}/{path.stem}") for path in sorted(PACKS_DIR.glob("*/*.cypher"))]


def load_file(path: Path, name: str | None = None) -> Query:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise QueryError(f"{path}: {err.strerror or err}") from err
    return parse(text, name or Path(path).stem, Path(path))


def get_query(name: str) -> Query:
    """The query ``pack/name``."""
    path = PACKS_DIR / f"{name}.cypher"
    if "/" not in name or ".." in name or not path.is_file():
        known = ", ".join(q.name for q in list_queries())
        raise QueryError(f"no query {name!r}; known: {known}")
    return load_file(path, name)


def is_read_only(cypher: str) -> bool:
    """True when ``cypher`` has no clause that writes (strings and comments aside)."""
    stripped = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|//[^\n]*", "", cypher)
    return not _WRITE.search(stripped)
