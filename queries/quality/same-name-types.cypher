// name: same-name-types
// description: Concepts that papers read as more than one type (a metric also read as a task): the node takes the type most papers read; check the others.
// param: top int 50 -- concepts listed
// example: kg query run quality/same-name-types
MATCH (p:Paper)-[r:PROPOSES|USES|ADDRESSES|EVALUATES_ON|MEASURES|INVOLVES]->(c:Concept)
WITH c, CASE type(r) WHEN 'ADDRESSES' THEN 'Task' WHEN 'EVALUATES_ON' THEN 'Dataset' WHEN 'MEASURES' THEN 'Metric' WHEN 'INVOLVES' THEN 'Entity' ELSE 'Method' END AS read_as,
     count(DISTINCT p) AS papers
ORDER BY read_as
WITH c, collect(read_as) AS types, collect(papers) AS papers
WHERE size(types) > 1
RETURN c.name AS name, c.type AS type, types, papers, c.id AS id
ORDER BY toLower(name), name
LIMIT $top
