// name: profile
// description: One concept: its type and aliases, the papers naming it (newest first) and the concepts it appears with most.
// param: concept str -- a concept id (bert), name or alias, in any case
// param: top int 10 -- co-occurring concepts listed
// param: papers int 50 -- papers listed, newest first (paper_count counts them all)
// example: kg query run concepts/profile -p concept=LoRA -p top=5
// the concept with this id or name is found by its index; a name in another case or an alias
// only when none is, by reading every concept
CALL {
  MATCH (c:Concept {id: $concept}) RETURN c
  UNION
  MATCH (c:Concept {id: toLower($concept)}) RETURN c
  UNION
  MATCH (c:Concept {name: $concept}) RETURN c
  UNION
  OPTIONAL MATCH (a:Concept {id: $concept})
  OPTIONAL MATCH (b:Concept {id: toLower($concept)})
  OPTIONAL MATCH (n:Concept {name: $concept})
  WITH a, b, n WHERE a IS NULL AND b IS NULL AND n IS NULL
  MATCH (c:Concept)
  WHERE toLower(c.name) = toLower($concept)
     OR any(alias IN coalesce(c.aliases, []) WHERE toLower(alias) = toLower($concept))
  RETURN c
}
// a broad concept has the concepts it appears with most kept on it by the build (kg.store.counts);
// another, or a longer list, is counted now
OPTIONAL MATCH (s:BuildState {id: 'build'})
CALL {
  WITH c, s
  WITH c, s WHERE c.co_occurring IS NOT NULL AND s.co_occurring_kept IS NOT NULL
              AND ($top <= s.co_occurring_kept OR size(c.co_occurring) < s.co_occurring_kept)
  UNWIND range(0, size(c.co_occurring) - 1) AS i
  MATCH (other:Concept {id: c.co_occurring[i]})
  RETURN other, c.co_occurring_papers[i] AS shared
  UNION ALL
  WITH c, s
  WITH c, s WHERE c.co_occurring IS NULL OR s.co_occurring_kept IS NULL
              OR ($top > s.co_occurring_kept AND size(c.co_occurring) >= s.co_occurring_kept)
  OPTIONAL MATCH (c)<--(q:Paper)-->(other:Concept)
  WHERE other <> c
  RETURN other, count(DISTINCT q) AS shared
}
WITH c, other, shared
ORDER BY shared DESC, toLower(other.name), other.type, other.id
// the few co-occurring concepts first: grouping the papers' rows by a list of every paper would hold it per row
WITH c, collect(CASE WHEN other IS NULL THEN null ELSE {name: other.name, type: other.type, papers: shared} END)[0..$top] AS co_occurring
OPTIONAL MATCH (p:Paper)-[r]->(c)
WITH c, co_occurring, p, r ORDER BY coalesce(p.year, 0) DESC, p.id, type(r)
WITH c, co_occurring, collect(CASE WHEN p IS NULL THEN null ELSE {id: p.id, title: p.title, year: p.year, relation: type(r)} END) AS papers,
     count(DISTINCT p) AS paper_count
RETURN c.id AS id, c.name AS name, c.type AS type, c.aliases AS aliases, paper_count,
       papers[0..$papers] AS papers, co_occurring
ORDER BY type, id
