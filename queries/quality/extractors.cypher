// name: extractors
// description: How many concept links each extraction rule made, and their confidence.
// example: kg query run quality/extractors
// the build keeps these rows on BuildState (kg.store.counts); a graph no build has counted is counted now
CALL {
  MATCH (s:BuildState {id: 'build'}) WHERE s.extractors IS NOT NULL
  UNWIND range(0, size(s.extractors) - 1) AS i
  RETURN s.extractors[i] AS extractor, s.extractor_links[i] AS links, s.extractor_avg[i] AS avg_confidence,
         s.extractor_min[i] AS min_confidence
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'})
  WITH s WHERE s IS NULL OR s.extractors IS NULL
  MATCH (:Paper)-[r]->(:Concept)
  WITH coalesce(r.extractor, 'unknown') AS extractor, r
  RETURN extractor, count(r) AS links, round(avg(r.confidence), 3) AS avg_confidence,
         round(min(r.confidence), 3) AS min_confidence
}
RETURN extractor, links, avg_confidence, min_confidence
ORDER BY links DESC, extractor
