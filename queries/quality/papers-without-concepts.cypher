// name: papers-without-concepts
// description: Papers from which no concept was extracted (empty or unusual abstracts).
// param: top int 100 -- papers listed
// example: kg query run quality/papers-without-concepts
MATCH (p:Paper)
WHERE NOT EXISTS { MATCH (p)-->(:Concept) }
RETURN p.id AS id, p.title AS title, p.source AS source, size(coalesce(p.abstract, '')) AS abstract_chars
ORDER BY id
LIMIT $top
