// name: most-connected-papers
// description: The papers with the most links: concepts they name, works they cite, papers citing them.
// param: top int 10 -- papers listed
// example: kg query run overview/most-connected-papers -p top=5
MATCH (p:Paper)
WITH p,
     COUNT { (p)-->(:Concept) } AS concepts,
     COUNT { (p)-[:CITES]->() } AS references,
     COUNT { (p)<-[:CITES]-(:Paper) } AS cited_by
RETURN p.id AS id, p.title AS title, concepts, references, cited_by, concepts + references + cited_by AS links
ORDER BY links DESC, id
LIMIT $top
