// name: missing-metadata
// description: Papers lacking a year, a venue or authors, or whose title was derived from the abstract.
// param: top int 100 -- papers listed
// example: kg query run quality/missing-metadata
// the build keeps the first papers it lists on BuildState (kg.store.counts), each checked again here;
// more, or a graph no build has counted, are read now
CALL {
  MATCH (s:BuildState {id: 'build'})
  WHERE s.missing_metadata IS NOT NULL AND ($top <= s.quality_kept OR size(s.missing_metadata) < s.quality_kept)
  UNWIND s.missing_metadata AS id
  MATCH (p:Paper {id: id})
  RETURN p
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'})
  WITH s WHERE s IS NULL OR s.missing_metadata IS NULL OR ($top > s.quality_kept AND size(s.missing_metadata) >= s.quality_kept)
  MATCH (p:Paper)
  RETURN p
}
WITH p, COUNT { (:Author)-[:WROTE]->(p) } AS authors
WITH p, [gap IN [
       CASE WHEN p.year IS NULL THEN 'year' END,
       CASE WHEN coalesce(p.venue, '') = '' THEN 'venue' END,
       CASE WHEN authors = 0 THEN 'authors' END,
       CASE WHEN coalesce(p.title_derived, false) THEN 'title' END
     ] WHERE gap IS NOT NULL] AS missing
WHERE size(missing) > 0
RETURN p.id AS id, p.title AS title, missing
ORDER BY id
LIMIT $top
