"""Reading Cypher text as tokens: whether a query writes, and the parameters it uses.

Read-only is decided on tokens, not on words found in the text: comments (``//``
ended by any line break, ``\\r`` too, and ``/* */``), string literals and
backtick names hide nothing and contain no clause; a clause keyword is a word in
clause position (not a property ``p.set``, an alias ``AS set``, a label ``:Set``,
a map key ``{set: 1}`` or a parameter ``$set``), compared after Unicode
normalisation (NFKC) and case folding, so fullwidth or dotless-i spellings count.
Procedures are refused unless they are known to read (``CALL db.labels()``);
``CALL { ... }`` subqueries are read like the rest. Where servers may read a
string differently (a backslash before a quote), both readings are checked.

>>> write_clause("MATCH (p:Paper) WHERE p.title CONTAINS 'CREATE' RETURN p.title AS set")
>>> write_clause("MATCH (p) // a comment ended by a carriage return\\rSET p.x = 1")
'SET'
>>> write_clause("INSERT (:Paper {id: 'x'})"), write_clause("CALL db.labels() YIELD label RETURN label")
('INSERT', None)
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterator, NamedTuple

# Clause keywords that change the graph or the database; a read-only query has none of them.
WRITE_KEYWORDS = {"CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "FOREACH", "INSERT", "LOAD",
                  "ALTER", "RENAME", "GRANT", "DENY", "REVOKE", "TERMINATE", "DEALLOCATE", "REALLOCATE"}
# Administration commands of two words whose first word is no clause of its own.
WRITE_PAIRS = {("START", "DATABASE"), ("STOP", "DATABASE"), ("ENABLE", "SERVER")}
# Procedures a read-only query may call; any other ``CALL name`` counts as a write.
READ_PROCEDURES = {"db.labels", "db.relationshiptypes", "db.propertykeys", "db.schema.visualization",
                   "db.schema.nodetypeproperties", "db.schema.reltypeproperties", "db.index.fulltext.querynodes",
                   "db.index.fulltext.queryrelationships", "db.constraints", "db.indexes"}
LINE_BREAKS = "\n\r\u2028\u2029\x85\x0b\x0c"  # any of them ends a // comment, on some server or other
_WORD = re.compile(r"\w+")
_LINE_COMMENT_END = re.compile(f"[{LINE_BREAKS}]")


class Token(NamedTuple):
    kind: str  # "word", "name" (`backticked`), "string", "punct"
    text: str  # as written (a name or string: inside its quotes)
    key: str  # a word normalised for comparing with keywords (NFKC, upper case); else the text
    at: int  # where it starts in the query


def _quoted(cypher: str, start: int, quote: str, escapes: bool) -> tuple[str, int]:
    """The text of a quoted token starting at ``start`` and the index after it (the end of
    the query when it is never closed). ``escapes``: a backslash escapes the next character;
    a doubled quote stands for itself in both readings."""
    i, parts = start + 1, []
    while i < len(cypher):
        ch = cypher[i]
        if escapes and ch == "\\" and quote != "`":
            parts.append(cypher[i:i + 2])
            i += 2
        elif ch == quote:
            if cypher.startswith(quote, i + 1):
                parts.append(quote)
                i += 2
            else:
                return "".join(parts), i + 1
        else:
            parts.append(ch)
            i += 1
    return "".join(parts), len(cypher)


def tokens(cypher: str, escapes: bool = True) -> Iterator[Token]:
    """The tokens of ``cypher``, comments and spaces left out.

    >>> [t.key for t in tokens("match (p) /* x */ RETURN p.`set` // y")]
    ['MATCH', '(', 'P', ')', 'RETURN', 'P', '.', 'set']
    """
    i, n = 0, len(cypher)
    while i < n:
        ch = cypher[i]
        if ch.isspace():
            i += 1
        elif cypher.startswith("//", i):
            end = _LINE_COMMENT_END.search(cypher, i)
            i = end.start() if end else n
        elif cypher.startswith("/*", i):
            end = cypher.find("*/", i + 2)
            i = end + 2 if end >= 0 else n
        elif ch in "'\"`":
            start = i
            text, i = _quoted(cypher, i, ch, escapes)
            yield Token("name" if ch == "`" else "string", text, text, start)
        else:
            word = _WORD.match(cypher, i)
            if word:
                yield Token("word", word.group(), unicodedata.normalize("NFKC", word.group()).upper(), i)
                i = word.end()
            else:
                yield Token("punct", ch, ch, i)
                i += 1


def _procedure(after_call: list[Token]) -> str:
    """The dotted name after ``CALL`` (``db.labels``), as written, lower case."""
    parts, expect_part = [], True
    for token in after_call:
        if expect_part and token.kind in ("word", "name"):
            parts.append(token.key.lower())
        elif not expect_part and token.text == ".":
            pass
        else:
            break
        expect_part = not expect_part
    return ".".join(parts)


def _named_like_a_clause(found: list[Token], index: int) -> bool:
    """True when the word at ``index`` is a property (``p.set``), parameter (``$set``), label
    (``:Set``), alias (``AS set``), map key (``{set: 1}``) or a variable (``set.id``, ``(set:Paper)``)."""
    token = found[index]
    before = found[index - 1] if index else None
    after = found[index + 1] if index + 1 < len(found) else None
    if after is not None and (after.key == ":" or (after.key == "." and after.at == token.at + len(token.text))):
        return True  # a map key, a variable with a label, or a variable's property (set.id)
    if before is None:
        return False
    if before.key in (".", "$"):  # only right after it: "1. CREATE" or "$ CREATE" is no property or parameter
        owner = found[index - 2] if index > 1 else None
        number = owner is not None and owner.kind == "word" and owner.text[0].isdigit()
        return before.at + 1 == token.at and not (before.key == "." and (owner is None or number))
    return before.key == ":" or (before.kind == "word" and before.key == "AS")


def _first_write(found: list[Token]) -> str | None:
    for index, token in enumerate(found):
        if token.kind != "word" or _named_like_a_clause(found, index):
            continue
        after = found[index + 1] if index + 1 < len(found) else None
        if token.key == "CALL":
            if after is None or after.key in ("{", "("):
                continue  # a subquery: its clauses are read like any other
            name = _procedure(found[index + 1:])
            if name not in READ_PROCEDURES:
                return f"CALL {name}" if name else "CALL"
        elif token.key in WRITE_KEYWORDS:
            if token.key == "LOAD" and after is not None and after.key == "CSV":
                return "LOAD CSV"
            return token.key
        elif after is not None and (token.key, after.key) in WRITE_PAIRS:
            return f"{token.key} {after.key}"
    return None


def write_clause(cypher: str) -> str | None:
    """The first clause of ``cypher`` that writes (``CREATE``, ``CALL apoc.create.node`` ...), or None."""
    for escapes in (True, False):  # servers differ on a backslash before a quote; either reading may write
        clause = _first_write(list(tokens(cypher, escapes)))
        if clause:
            return clause
    return None


def is_read_only(cypher: str) -> bool:
    """True when ``cypher`` has no clause that writes (strings and comments aside).

    >>> is_read_only("MATCH (p:Paper) WHERE p.title = 'SET theory' RETURN p"), is_read_only("MATCH (n) DETACH DELETE n")
    (True, False)
    """
    return write_clause(cypher) is None


def used_params(cypher: str) -> set[str]:
    """The ``$names`` a query reads (strings and comments aside), as written.

    >>> sorted(used_params("MATCH (p {id: $id}) WHERE p.t = '$no' RETURN $`top`"))
    ['id', 'top']
    """
    found = list(tokens(cypher))
    return {after.text for token, after in zip(found, found[1:]) if token.key == "$" and after.kind in ("word", "name")}
