// name: sharing-concepts
// description: The papers sharing the most concepts with one paper, with the shared concepts listed.
// param: paper str -- a paper id
// param: top int 5 -- papers listed
// example: kg query run papers/sharing-concepts -p paper=p-198679ab53b48580 -p top=3
MATCH (p:Paper {id: $paper})-->(c:Concept)<--(other:Paper)
WHERE other <> p
WITH other, c ORDER BY toLower(c.name), c.name
WITH other, collect(DISTINCT c.name) AS shared
RETURN other.id AS id, other.title AS title, size(shared) AS shared_count, shared
ORDER BY shared_count DESC, id
LIMIT $top
