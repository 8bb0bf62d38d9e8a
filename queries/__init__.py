"""Cypher query packs: ``queries/<pack>/<name>.cypher`` files, and their runner.

A query file starts with a header of ``//`` comments::

    // name: top-concepts
    // description: The most frequent concepts of each type.
    // param: per_type int 5 -- concepts listed per type
    // example: kg query run overview/top-concepts -p per_type=3

A ``param`` line gives a name, a type (str, int, float, bool, list) and an
optional default, then optionally ``--`` and a short description; a parameter
without a default is required. ``''`` is the empty string, ``[]`` the empty
list; a list is written ``a,b,c`` (or as a JSON list). Values reach Cypher
only as parameters, and a query may use no ``$name`` it does not declare.

>>> from queries import get_query
>>> q = get_query("overview/top-concepts")
>>> q.params[0].name, q.bind({"per_type": "3"})
('per_type', {'per_type': 3, 'all': False})
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from kg.cypher import is_read_only, used_params, write_clause  # noqa: F401  (read-only is decided on tokens there)
from kg.errors import BadInput

PACKS_DIR = Path(__file__).parent
PARAM_TYPES = ("str", "int", "float", "bool", "list")


class QueryError(BadInput):
    """A query that cannot be found, parsed or given its parameters."""


@dataclass
class Param:
    name: str
    type: str
    default: object = None
    required: bool = True
    description: str = ""

    def spec(self) -> str:
        """``name:type`` or ``name:type=default``, as ``kg query list`` shows it."""
        return f"{self.name}:{self.type}" + ("" if self.required else f"={format_value(self.default)}")


@dataclass
class Query:
    name: str  # "pack/name"
    description: str
    cypher: str
    params: list[Param] = field(default_factory=list)
    example: str = ""
    path: Path | None = None

    def bind(self, given: dict[str, object]) -> dict[str, object]:
        """Check and convert ``given`` (strings from the command line, or Python values) to parameters."""
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

    def example_values(self) -> dict[str, str]:
        """The ``-p name=value`` pairs of the example call."""
        try:
            words = shlex.split(self.example)
        except ValueError:
            return {}
        pairs = [b for a, b in zip(words, words[1:]) if a in ("-p", "--param") and "=" in b]
        return dict(pair.split("=", 1) for pair in pairs)

    def browser_script(self, given: dict[str, object] | None = None) -> str:
        """``:param`` lines and the query, to paste into Neo4j Browser.

        Values come from ``given``, else the example call, else the defaults.
        """
        declared = {p.name for p in self.params}
        values = {k: v for k, v in self.example_values().items() if k in declared} | (given or {})
        bound = self.bind(values)
        lines = [f":param {name} => {cypher_literal(value)}" for name, value in bound.items()]
        return "\n".join(lines + ([""] if lines else []) + [self.cypher + ";"])


def _bool(value) -> bool:
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("1", "true", "yes", "y"):
        return True
    if str(value).lower() in ("0", "false", "no", "n"):
        return False
    raise ValueError(value)


def _int(value) -> int:
    if isinstance(value, bool) or isinstance(value, float):
        raise ValueError(value)
    return int(value)


def _float(value) -> float:
    if isinstance(value, bool):
        raise ValueError(value)
    return float(value)


def _str(value) -> str:
    if not isinstance(value, str):
        raise ValueError(value)
    return value


def _list(value) -> list:
    """A list from a list, a JSON list (``["a,b", "c"]``) or comma-separated text (``a,b``)."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if not isinstance(value, str):
        raise ValueError(value)
    text = value.strip()
    if text.startswith("["):
        parsed = json.loads(text)
        if not isinstance(parsed, list):
            raise ValueError(value)
        return parsed
    return [part.strip() for part in text.split(",") if part.strip()]


CONVERTERS = {"str": _str, "int": _int, "float": _float, "bool": _bool, "list": _list}


def convert(param: Param, value, where: str):
    try:
        return CONVERTERS[param.type](value)
    except (ValueError, TypeError):
        raise QueryError(f"{where}: parameter {param.name} expects {param.type}, got {value!r}") from None


def format_value(value) -> str:
    """A default as a header or ``kg query list`` writes it."""
    if value == "":
        return "''"
    if isinstance(value, list):
        return ",".join(map(str, value)) if value else "[]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def cypher_literal(value) -> str:
    """``value`` written as a Cypher literal (for Neo4j Browser's ``:param``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(cypher_literal(v) for v in value) + "]"
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _parse_param(spec: str, where: str) -> Param:
    spec, _, description = spec.partition(" -- ")
    parts = spec.split(None, 2)
    if len(parts) < 2 or parts[1] not in PARAM_TYPES:
        raise QueryError(f"{where}: bad param line {spec!r}; expected 'name type [default] [-- description]' "
                         f"with a type among {', '.join(PARAM_TYPES)}")
    p = Param(parts[0], parts[1], required=len(parts) < 3, description=description.strip())
    if len(parts) == 3:
        raw = parts[2].strip()
        if raw in ("''", '""'):
            raw = ""
        p.default = [] if (p.type == "list" and raw == "[]") else convert(p, raw, where)
    return p


def parse(text: str, name: str, path: Path | None = None) -> Query:
    """A Query from the text of a ``.cypher`` file."""
    where = str(path or name)
    header: dict[str, list[str]] = {}
    body = []
    for line in text.splitlines():
        match = re.match(r"^\s*//\s*(name|description|param|example):\s*(.*)$", line)
        if match:
            header.setdefault(match[1], []).append(match[2].strip())
        elif not line.strip().startswith("//"):
            body.append(line)
    params = [_parse_param(spec, where) for spec in header.get("param", [])]
    cypher = "\n".join(body).strip().rstrip(";").rstrip()
    if not cypher:
        raise QueryError(f"{where}: holds no Cypher")
    undeclared = sorted(used_params(cypher) - {p.name for p in params})
    if undeclared:
        raise QueryError(f"{where}: uses ${', $'.join(undeclared)} without declaring it; "
                         f"add a header line such as '// param: {undeclared[0]} str'")
    return Query(name=header.get("name", [name])[0] if path is None else name,
                 description=" ".join(header.get("description", [""])), cypher=cypher, params=params,
                 example=" ".join(header.get("example", [])), path=path)


def list_queries() -> list[Query]:
    """Every query of every pack, sorted by name."""
    return [load_file(path, f"{path.parent.name}/{path.stem}") for path in sorted(PACKS_DIR.glob("*/*.cypher"))]


def load_file(path: Path, name: str | None = None) -> Query:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise QueryError(f"{path}: {getattr(err, 'strerror', None) or err}") from err
    return parse(text, name or Path(path).stem, Path(path))


def get_query(name: str) -> Query:
    """The query ``pack/name``."""
    path = PACKS_DIR / f"{name}.cypher"
    if "/" not in name or ".." in name or not path.is_file():
        known = ", ".join(q.name for q in list_queries())
        raise QueryError(f"no query {name!r}; known: {known}")
    return load_file(path, name)
