// name: method-dataset-matrix
// description: Which methods are evaluated on which datasets: one row per (method, dataset) cell, with the papers behind it.
// param: min_papers int 1 -- leave out cells with fewer papers
// param: top int 50 -- cells listed, fullest first
// example: kg query run concepts/method-dataset-matrix -p min_papers=2 --format csv
// the build keeps the fullest cells on BuildState (kg.store.counts: a method id, then a dataset id); more,
// or a graph no build has counted, are counted now
CALL {
  MATCH (s:BuildState {id: 'build'})
  WHERE s.method_dataset IS NOT NULL AND ($top <= s.cells_kept OR size(s.method_dataset) < s.cells_kept)
  UNWIND range(0, size(s.method_dataset) / 2 - 1) AS i
  MATCH (m:Concept {id: s.method_dataset[2 * i]})
  MATCH (d:Concept {id: s.method_dataset[2 * i + 1]})
  MATCH (p:Paper)-[:EVALUATES_ON]->(d)
  MATCH (p)-[:PROPOSES|USES]->(m)
  RETURN m, d, p
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'})
  WITH s WHERE s IS NULL OR s.method_dataset IS NULL OR ($top > s.cells_kept AND size(s.method_dataset) >= s.cells_kept)
  MATCH (p:Paper)-[:EVALUATES_ON]->(d:Dataset)
  MATCH (p)-[:PROPOSES|USES]->(m:Method)
  RETURN m, d, p
}
WITH m, d, collect(DISTINCT p.id) AS ids
WHERE size(ids) >= $min_papers
WITH m, d, ids ORDER BY size(ids) DESC, toLower(m.name), toLower(d.name), m.name, d.name
LIMIT $top
// the paper ids of the cells listed are sorted, not those of every cell
UNWIND ids AS id
WITH m, d, id ORDER BY id
WITH m, d, collect(id) AS ids
RETURN m.name AS method, d.name AS dataset, size(ids) AS papers, ids
ORDER BY papers DESC, toLower(method), toLower(dataset), method, dataset
