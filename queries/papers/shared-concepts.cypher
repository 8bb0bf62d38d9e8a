// name: shared-concepts
// description: The concepts two papers have in common, how each paper relates to them and how many papers name them.
// param: a str -- one paper id
// param: b str -- the other paper id
// example: kg query run papers/shared-concepts -p a=p-198679ab53b48580 -p b=p-e05ae12b8313aaff
MATCH (p:Paper {id: $a})-[ra]->(c:Concept)<-[rb]-(q:Paper {id: $b})
RETURN c.type AS type, c.name AS concept, type(ra) AS relation_a, type(rb) AS relation_b,
       COUNT { (c)<--(:Paper) } AS papers
ORDER BY type, toLower(concept), concept
