// name: method-task-matrix
// description: Which methods are applied to which tasks: one row per (method, task) cell, with the papers behind it.
// param: min_papers int 1 -- leave out cells with fewer papers
// param: top int 50 -- cells listed, fullest first
// example: kg query run concepts/method-task-matrix -p min_papers=2 --format csv
// the build keeps the fullest cells on BuildState (kg.store.counts: a method id, then a task id); more,
// or a graph no build has counted, are counted now
CALL {
  MATCH (s:BuildState {id: 'build'})
  WHERE s.method_task IS NOT NULL AND ($top <= s.cells_kept OR size(s.method_task) < s.cells_kept)
  UNWIND range(0, size(s.method_task) / 2 - 1) AS i
  MATCH (m:Concept {id: s.method_task[2 * i]})
  MATCH (t:Concept {id: s.method_task[2 * i + 1]})
  MATCH (p:Paper)-[:ADDRESSES]->(t)
  MATCH (p)-[:PROPOSES|USES]->(m)
  RETURN m, t, p
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'})
  WITH s WHERE s IS NULL OR s.method_task IS NULL OR ($top > s.cells_kept AND size(s.method_task) >= s.cells_kept)
  MATCH (p:Paper)-[:ADDRESSES]->(t:Task)
  MATCH (p)-[:PROPOSES|USES]->(m:Method)
  RETURN m, t, p
}
WITH m, t, collect(DISTINCT p.id) AS ids
WHERE size(ids) >= $min_papers
WITH m, t, ids ORDER BY size(ids) DESC, toLower(m.name), toLower(t.name), m.name, t.name
LIMIT $top
// the paper ids of the cells listed are sorted, not those of every cell
UNWIND ids AS id
WITH m, t, id ORDER BY id
WITH m, t, collect(id) AS ids
RETURN m.name AS method, t.name AS task, size(ids) AS papers, ids
ORDER BY papers DESC, toLower(method), toLower(task), method, task
