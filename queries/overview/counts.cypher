// name: counts
// description: How many nodes of each label and relationships of each type the graph holds.
// example: kg query run overview/counts
CALL {
  MATCH (n)
  UNWIND labels(n) AS label
  RETURN 'node' AS kind, label AS name, count(*) AS total
  UNION ALL
  MATCH ()-[r]->()
  RETURN 'relationship' AS kind, type(r) AS name, count(*) AS total
}
RETURN kind, name, total AS count
ORDER BY kind, name
