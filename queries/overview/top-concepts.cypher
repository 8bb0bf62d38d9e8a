// name: top-concepts
// description: The concepts named by the most papers, for each concept type (ties: the most mentions first).
// param: per_type int 5 -- concepts listed per type
// example: kg query run overview/top-concepts -p per_type=3
// papers and mentions are the concept's totals (kg.store.vocabulary.Totals); the build keeps each type's
// 100 first (kg.store.counts); more, or a graph no build has counted, are ranked now
CALL {
  MATCH (s:BuildState {id: 'build'}) WHERE s.top_concepts IS NOT NULL AND $per_type <= s.top_kept
  UNWIND s.top_concepts AS id
  MATCH (c:Concept {id: id})
  RETURN c
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'}) WHERE s.top_concepts IS NOT NULL AND $per_type <= s.top_kept
  WITH s WHERE s IS NULL
  MATCH (c:Concept) WHERE c.papers > 0
  RETURN c
}
WITH c.type AS type, c.name AS concept, c.papers AS papers, c.mentions AS mentions
ORDER BY type, papers DESC, mentions DESC, concept
WITH type, collect({concept: concept, papers: papers, mentions: mentions}) AS ranked
UNWIND ranked[0..$per_type] AS top
RETURN type, top.concept AS concept, top.papers AS papers, top.mentions AS mentions
ORDER BY type, papers DESC, mentions DESC, concept
