// name: method-task-matrix
// description: Which methods are applied to which tasks: one row per (method, task) cell, with the papers behind it.
// param: min_papers int 1 -- leave out cells with fewer papers
// param: top int 50 -- cells listed, fullest first
// example: kg query run concepts/method-task-matrix -p min_papers=2 --format csv
MATCH (m:Method)<-[:PROPOSES|USES]-(p:Paper)-[:ADDRESSES]->(t:Task)
WITH m, t, p ORDER BY p.id
WITH m, t, collect(DISTINCT p.id) AS ids
WHERE size(ids) >= $min_papers
RETURN m.name AS method, t.name AS task, size(ids) AS papers, ids
ORDER BY papers DESC, toLower(method), toLower(task), method, task
LIMIT $top
