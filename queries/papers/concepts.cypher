// name: concepts
// description: Every concept one paper names, how it relates to it, and the evidence (the sentence, the rule, its confidence).
// param: paper str -- a paper id
// example: kg query run papers/concepts -p paper=p-198679ab53b48580
MATCH (p:Paper {id: $paper})-[r]->(c:Concept)
RETURN type(r) AS relation, c.type AS type, c.name AS concept, r.extractor AS extractor,
       r.confidence AS confidence, r.evidence AS evidence
ORDER BY relation, type, toLower(concept), concept
