// name: proposing-methods
// description: Papers that propose a method, with how many other papers use that method.
// param: top int 50 -- rows listed, most used first
// example: kg query run papers/proposing-methods -p top=20
MATCH (p:Paper)-[:PROPOSES]->(m:Method)
WITH p, m, COUNT { (m)<-[:USES]-(user:Paper) WHERE user <> p } AS used_by
RETURN p.id AS id, p.title AS title, p.year AS year, m.name AS method, used_by
ORDER BY used_by DESC, toLower(method), id
LIMIT $top
