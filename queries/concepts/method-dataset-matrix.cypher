// name: method-dataset-matrix
// description: Which methods are evaluated on which datasets: one row per (method, dataset) cell, with the papers behind it.
// param: min_papers int 1 -- leave out cells with fewer papers
// param: top int 50 -- cells listed, fullest first
// example: kg query run concepts/method-dataset-matrix -p min_papers=2 --format csv
MATCH (m:Method)<-[:PROPOSES|USES]-(p:Paper)-[:EVALUATES_ON]->(d:Dataset)
WITH m, d, p ORDER BY p.id
WITH m, d, collect(DISTINCT p.id) AS ids
WHERE size(ids) >= $min_papers
RETURN m.name AS method, d.name AS dataset, size(ids) AS papers, ids
ORDER BY papers DESC, toLower(method), toLower(dataset), method, dataset
LIMIT $top
