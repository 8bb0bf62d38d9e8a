// name: papers-without-concepts
// description: Papers from which no concept was extracted (empty or unusual abstracts).
// param: top int 100 -- papers listed
// example: kg query run quality/papers-without-concepts
// the build keeps the first papers it lists on BuildState (kg.store.counts), each checked again here;
// more, or a graph no build has counted, are read now
CALL {
  MATCH (s:BuildState {id: 'build'})
  WHERE s.without_concepts IS NOT NULL AND ($top <= s.quality_kept OR size(s.without_concepts) < s.quality_kept)
  UNWIND s.without_concepts AS id
  MATCH (p:Paper {id: id})
  RETURN p
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'})
  WITH s WHERE s IS NULL OR s.without_concepts IS NULL OR ($top > s.quality_kept AND size(s.without_concepts) >= s.quality_kept)
  MATCH (p:Paper)
  RETURN p
}
WITH p
WHERE NOT EXISTS { MATCH (p)-->(:Concept) }
RETURN p.id AS id, p.title AS title, p.source AS source, size(coalesce(p.abstract, '')) AS abstract_chars
ORDER BY id
LIMIT $top
