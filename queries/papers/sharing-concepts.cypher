// name: sharing-concepts
// description: The papers sharing the most concepts with one paper, with the shared concepts listed.
// param: paper str
// param: top int 5
// example: kg query run papers/sharing-concepts -p paper=p-2e0b5ad3a1e2c0f4 -p top=3
MATCH (p:Paper {id: $paper})-[]->(c:Concept)<-[]-(other:Paper)
WHERE other.id <> p.id
WITH other, collect(DISTINCT c.name) AS shared
RETURN other.id AS id, other.title AS title, size(shared) AS shared_count, shared
ORDER BY shared_count DESC, id
LIMIT $top
