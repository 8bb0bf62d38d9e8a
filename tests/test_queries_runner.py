"""The pack runner without a store: headers, parameter checks, the read-only check, and rules every pack file keeps."""

import re
import shlex

import pytest

from queries import QueryError, get_query, is_read_only, list_queries, load_file, parse, write_clause


def test_header_gives_name_description_params_with_types_defaults_and_descriptions():
    q = parse("""// name: demo
// description: A demo query.
// param: paper str -- a paper id
// param: top int 5 -- rows listed
// param: kinds list Method,Task
// param: none list []
// param: label str ''
// param: exact bool false
// param: cutoff float 0.5
// example: kg query run x/demo -p paper=p1
MATCH (p:Paper {id: $paper}) WHERE $exact OR $cutoff > 0 OR $label = '' OR size($kinds) > size($none)
RETURN p LIMIT $top;
""", "demo")
    assert (q.name, q.description, q.example) == ("demo", "A demo query.", "kg query run x/demo -p paper=p1")
    assert [(p.name, p.type, p.required, p.default, p.description) for p in q.params] == [
        ("paper", "str", True, None, "a paper id"), ("top", "int", False, 5, "rows listed"),
        ("kinds", "list", False, ["Method", "Task"], ""), ("none", "list", False, [], ""), ("label", "str", False, "", ""),
        ("exact", "bool", False, False, ""), ("cutoff", "float", False, 0.5, "")]
    assert q.cypher.endswith("LIMIT $top")  # the header and the final semicolon are not sent
    assert q.bind({"paper": "p1"}) == {"paper": "p1", "top": 5, "kinds": ["Method", "Task"], "none": [], "label": "",
                                       "exact": False, "cutoff": 0.5}


def test_bind_converts_and_checks_types():
    q = get_query("papers/similar")
    assert q.bind({"paper": "p1", "top": "3", "types": "Method, Task"}) == {"paper": "p1", "top": 3, "types": ["Method", "Task"]}
    assert q.bind({"paper": "p1", "types": '["a,b", "c"]'})["types"] == ["a,b", "c"]  # JSON for values with commas
    assert q.bind({"paper": "p1", "top": 4, "types": ("Method",)})["types"] == ["Method"]  # Python values too
    with pytest.raises(QueryError, match="parameter top expects int, got 'many'"):
        q.bind({"paper": "p1", "top": "many"})
    with pytest.raises(QueryError, match="parameter top expects int"):
        q.bind({"paper": "p1", "top": True})
    with pytest.raises(QueryError, match="parameter paper expects str"):
        q.bind({"paper": 12})
    with pytest.raises(QueryError, match="parameter types expects list"):
        q.bind({"paper": "p1", "types": '["unclosed"'})
    with pytest.raises(QueryError, match=r"parameter paper \(str\) is required"):
        q.bind({})
    with pytest.raises(QueryError, match="unknown parameter.*pape; known: paper, top, types"):
        q.bind({"pape": "p1"})


def test_a_query_may_not_use_a_parameter_it_does_not_declare(tmp_path):
    path = tmp_path / "mine.cypher"
    path.write_text("// param: year int\nMATCH (p:Paper) WHERE p.year = $year AND p.venue = $venue RETURN p\n")
    with pytest.raises(QueryError, match=r"mine.cypher: uses \$venue without declaring it"):
        load_file(path)
    # strings and comments are not parameters
    path.write_text("MATCH (p:Paper) WHERE p.title = '$5 $bill' // about $money\nRETURN p\n")
    assert load_file(path).params == []


def test_bad_files_are_clear_errors(tmp_path):
    with pytest.raises(QueryError, match="bad param line 'top integer 5'"):
        parse("// param: top integer 5\nRETURN 1", "x")
    with pytest.raises(QueryError, match="holds no Cypher"):
        parse("// name: empty\n// just comments\n", "x")
    with pytest.raises(QueryError, match="nothing.cypher"):
        load_file(tmp_path / "nothing.cypher")
    with pytest.raises(QueryError, match="no query 'papers/nope'; known: .*papers/similar"):
        get_query("papers/nope")
    with pytest.raises(QueryError, match="no query"):
        get_query("../queries/papers/similar")


@pytest.mark.parametrize("cypher,clause", [
    ("MATCH (p:Paper) RETURN p", None),
    ("MATCH (p:Paper) WHERE p.title = 'SET theory; DELETE nothing' RETURN p", None),
    ("MATCH (p:Paper) // we never CREATE here\nRETURN p /* nor MERGE */", None),
    ("MATCH (p:Paper) RETURN p.`set` AS x", None),
    ("CALL db.labels() YIELD label RETURN label", None),
    ("CALL { MATCH (p:Paper) RETURN p } RETURN count(p)", None),
    ("MATCH (n) DETACH DELETE n", "DETACH"),
    ("match (p:Paper) set p.x = 1", "SET"),
    ("CREATE (:Paper {id: 'x'})", "CREATE"),
    ("MERGE (a:Author {name: 'x'})", "MERGE"),
    ("MATCH (p) REMOVE p.title", "REMOVE"),
    ("LOAD  CSV FROM 'file:///x' AS row RETURN row", "LOAD CSV"),
    ("MATCH (p) FOREACH (x IN [1] | SET p.y = x)", "FOREACH"),
    ("CALL apoc.create.node(['X'], {}) YIELD node RETURN node", "CALL apoc.create.node"),
    ("DROP CONSTRAINT paper_id", "DROP"),
])
def test_read_only_check(cypher, clause):
    assert write_clause(cypher) == clause
    assert is_read_only(cypher) is (clause is None)


def test_browser_script_sets_params_then_gives_the_query():
    q = get_query("concepts/profile")
    script = q.browser_script({"concept": "O'Brien net"})
    assert script.splitlines()[:4] == [":param concept => 'O\\'Brien net'", ":param top => 5",  # top from the example
                                       ":param papers => 50", ""]
    assert script.endswith(q.cypher + ";")
    lists = get_query("papers/similar").browser_script({"types": "Method,Task"})
    assert ":param types => ['Method', 'Task']" in lists and ":param top => 10" in lists
    with pytest.raises(QueryError, match=r"parameter x \(str\) is required"):
        parse("// param: x str\nRETURN $x AS x", "t").browser_script()


# Neo4j 5 and the embedded ArcadeDB share a subset of Cypher (see DESIGN.md); these stay out of the packs.
# elementId() is in both, as a key within one query (a pack never returns one: its values differ between stores).
NOT_PORTABLE = re.compile(r"\bapoc\.|\bgds\.|\bdbms\.|FULLTEXT|\bCALL\s*\(|\bCOLLECT\s*\{|\bid\s*\(|\bSHORTEST\s+\d", re.I)


@pytest.mark.parametrize("query", list_queries(), ids=lambda q: q.name)
def test_every_pack_file_is_complete_read_only_and_portable(query):
    pack, name = query.name.split("/")
    assert query.path.read_text(encoding="utf-8").startswith(f"// name: {name}\n")
    assert query.description and query.description.endswith(".")
    assert query.example.startswith(f"kg query run {query.name}")
    assert is_read_only(query.cypher), query.name
    assert not NOT_PORTABLE.search(query.cypher), query.name
    assert "elementid(" not in query.cypher[query.cypher.upper().rfind("RETURN"):].lower(), query.name
    used = set(re.findall(r"\$(\w+)", query.cypher))
    assert used == {p.name for p in query.params}, "every declared parameter is used, and only those"
    assert all(p.description for p in query.params)
    assert set(query.example_values()) <= used
    query.bind(query.example_values())  # the example's values are valid
    assert shlex.split(query.example)[4:5] in ([], ["-p"], ["--format"])
