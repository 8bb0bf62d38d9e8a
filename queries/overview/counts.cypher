// name: counts
// description: How many nodes of each label and relationships of each type the graph holds (as the last build counted them, else counted now).
// example: kg query run overview/counts
CALL {
  MATCH (s:BuildState {id: 'build'}) WHERE s.labels IS NOT NULL
  UNWIND range(0, size(s.labels) - 1) AS i
  RETURN 'node' AS kind, s.labels[i] AS name, s.label_counts[i] AS total
  UNION ALL
  MATCH (s:BuildState {id: 'build'}) WHERE s.types IS NOT NULL
  UNWIND range(0, size(s.types) - 1) AS i
  RETURN 'relationship' AS kind, s.types[i] AS name, s.type_counts[i] AS total
  UNION ALL
  // a graph no build has counted: count it
  OPTIONAL MATCH (s:BuildState {id: 'build'}) WHERE s.labels IS NOT NULL
  WITH s WHERE s IS NULL
  MATCH (n)
  UNWIND labels(n) AS label
  RETURN 'node' AS kind, label AS name, count(*) AS total
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'}) WHERE s.labels IS NOT NULL
  WITH s WHERE s IS NULL
  MATCH ()-[r]->()
  RETURN 'relationship' AS kind, type(r) AS name, count(*) AS total
}
RETURN kind, name, total AS count
ORDER BY kind, name
