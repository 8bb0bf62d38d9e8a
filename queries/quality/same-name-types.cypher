// name: same-name-types
// description: Concepts that papers read as more than one type (a metric also read as a task): the node takes the type most papers read; check the others.
// param: top int 50 -- concepts listed
// example: kg query run quality/same-name-types
// the build keeps the first such concepts on BuildState (kg.store.counts); more, or a graph no build has
// counted, are found now
CALL {
  MATCH (s:BuildState {id: 'build'})
  WHERE s.same_name IS NOT NULL AND ($top <= s.same_name_kept OR size(s.same_name) < s.same_name_kept)
  UNWIND s.same_name AS id
  MATCH (c:Concept {id: id})
  RETURN c
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'})
  WITH s WHERE s IS NULL OR s.same_name IS NULL OR ($top > s.same_name_kept AND size(s.same_name) >= s.same_name_kept)
  MATCH (c:Concept)
  RETURN c
}
MATCH (p:Paper)-[r:PROPOSES|USES|ADDRESSES|EVALUATES_ON|MEASURES|INVOLVES]->(c)
WITH c, CASE type(r) WHEN 'ADDRESSES' THEN 'Task' WHEN 'EVALUATES_ON' THEN 'Dataset' WHEN 'MEASURES' THEN 'Metric' WHEN 'INVOLVES' THEN 'Entity' ELSE 'Method' END AS read_as,
     count(DISTINCT p) AS papers
ORDER BY read_as
WITH c, collect(read_as) AS types, collect(papers) AS papers
WHERE size(types) > 1
RETURN c.name AS name, c.type AS type, types, papers, c.id AS id
ORDER BY toLower(name), name, id
LIMIT $top
