// name: concepts
// description: The concepts one paper names, the most salient first (how much each matters to the paper: where and how often it is named, whether the paper proposes or defines it), how it relates to it, and the evidence.
// param: paper str -- a paper id
// param: top int 10 -- the most salient concepts listed
// param: all bool false -- every concept the paper names, the vocabulary's links too, not only the top
// example: kg query run papers/concepts -p paper=p-198679ab53b48580
MATCH (p:Paper {id: $paper})-[r]->(c:Concept)
WHERE $all OR type(r) <> 'MENTIONS'
WITH type(r) AS relation, c.type AS type, c.name AS concept, coalesce(r.salience, 0.0) AS salience,
     r.extractor AS extractor, r.confidence AS confidence, r.evidence AS evidence
ORDER BY salience DESC, relation, type, toLower(concept), concept
WITH collect({relation: relation, type: type, concept: concept, salience: salience, extractor: extractor,
              confidence: confidence, evidence: evidence}) AS ranked
UNWIND CASE WHEN $all THEN ranked ELSE ranked[0..$top] END AS row
RETURN row.relation AS relation, row.type AS type, row.concept AS concept, row.salience AS salience,
       row.extractor AS extractor, row.confidence AS confidence, row.evidence AS evidence
