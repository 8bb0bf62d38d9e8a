// name: concepts
// description: The concepts one paper names, the most relevant first: how much each matters to the paper (its salience: where and how often it is named, whether the paper proposes or defines it) times how likely a reader keeps the concept (its quality); how the paper relates to it, and the evidence.
// param: paper str -- a paper id
// param: top int 10 -- the most relevant concepts listed
// param: all bool false -- every concept the paper names, the vocabulary's links too, not only the top
// example: kg query run papers/concepts -p paper=p-198679ab53b48580
MATCH (p:Paper {id: $paper})-[r]->(c:Concept)
WHERE $all OR type(r) <> 'MENTIONS'
WITH type(r) AS relation, c.type AS type, c.name AS concept, coalesce(r.salience, 0.0) AS salience,
     coalesce(c.quality, 0.5) AS quality, r.extractor AS extractor, r.confidence AS confidence, r.evidence AS evidence
WITH relation, type, concept, salience, quality, round(salience * quality, 3) AS relevance, extractor, confidence, evidence
ORDER BY relevance DESC, salience DESC, relation, type, toLower(concept), concept
WITH collect({relation: relation, type: type, concept: concept, relevance: relevance, salience: salience, quality: quality,
              extractor: extractor, confidence: confidence, evidence: evidence}) AS ranked
UNWIND CASE WHEN $all THEN ranked ELSE ranked[0..$top] END AS row
RETURN row.relation AS relation, row.type AS type, row.concept AS concept, row.relevance AS relevance,
       row.salience AS salience, row.quality AS quality, row.extractor AS extractor, row.confidence AS confidence,
       row.evidence AS evidence
