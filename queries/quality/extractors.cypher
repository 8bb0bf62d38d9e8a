// name: extractors
// description: How many concept links each extraction rule made, and their confidence.
// example: kg query run quality/extractors
MATCH (:Paper)-[r]->(:Concept)
WITH coalesce(r.extractor, 'unknown') AS extractor, r
RETURN extractor, count(r) AS links, round(avg(r.confidence), 3) AS avg_confidence,
       round(min(r.confidence), 3) AS min_confidence
ORDER BY links DESC, extractor
