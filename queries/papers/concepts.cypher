// name: concepts
// description: The concepts one paper names, the most salient first (how much each matters to the paper: where and how often it is named, whether the paper proposes or defines it), how it relates to it, and the evidence.
// param: paper str -- a paper id
// param: all bool false -- also the concepts named in passing (salience below 0.5) and the vocabulary's links
// example: kg query run papers/concepts -p paper=p-198679ab53b48580
MATCH (p:Paper {id: $paper})-[r]->(c:Concept)
WITH r, c, coalesce(r.salience, 0.0) AS salience
WHERE $all OR (type(r) <> 'MENTIONS' AND salience >= 0.5)
RETURN type(r) AS relation, c.type AS type, c.name AS concept, salience, r.extractor AS extractor,
       r.confidence AS confidence, r.evidence AS evidence
ORDER BY salience DESC, relation, type, toLower(concept), concept
