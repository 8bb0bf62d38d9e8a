// name: coupling
// description: Papers whose reference lists overlap with one paper's, by how many works both cite (bibliographic coupling).
// param: paper str -- a paper id
// param: top int 10 -- papers listed
// example: kg query run citations/coupling -p paper=p-6fea34d5ce28421a
MATCH (p:Paper {id: $paper})-[:CITES]->(w)<-[:CITES]-(other:Paper)
WHERE other <> p
WITH other, coalesce(w.id, w.key) AS work ORDER BY work
WITH other, collect(DISTINCT work) AS shared
RETURN other.id AS id, other.title AS title, size(shared) AS shared_count, shared AS shared_references
ORDER BY shared_count DESC, id
LIMIT $top
