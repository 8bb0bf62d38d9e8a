// name: method-dataset-matrix
// description: Which methods are evaluated on which datasets: one row per (method, dataset) cell, with the papers behind it.
// param: min_papers int 1 -- leave out cells with fewer papers
// param: top int 50 -- cells listed, fullest first
// example: kg query run concepts/method-dataset-matrix -p min_papers=2 --format csv
MATCH (p:Paper)-[:EVALUATES_ON]->(d:Dataset)
MATCH (p)-[:PROPOSES|USES]->(m:Method)
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
