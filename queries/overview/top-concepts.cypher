// name: top-concepts
// description: The concepts that matter most, for each concept type: the papers that extracted each (not those that only write its name), weighed by its quality to the fourth power (how likely a reader keeps it: the mean salience where it was extracted, the share of the papers writing it that extracted it, its type).
// param: per_type int 5 -- concepts listed per type
// param: all bool false -- also list concepts of quality below 0.5 (more likely vague or cut names than concepts)
// example: kg query run overview/top-concepts -p per_type=3
// papers, mentions and quality are the concept's totals (kg.store.vocabulary.Totals, kg.store.concept_quality) and the
// weight is kg.store.counts.weight; the build keeps each
// type's 100 first (kg.store.counts); more, all, or a graph no build has counted, are ranked now
CALL {
  MATCH (s:BuildState {id: 'build'}) WHERE s.top_concepts IS NOT NULL AND $per_type <= s.top_kept AND NOT $all
  UNWIND s.top_concepts AS id
  MATCH (c:Concept {id: id})
  RETURN c
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'}) WHERE s.top_concepts IS NOT NULL AND $per_type <= s.top_kept AND NOT $all
  WITH s WHERE s IS NULL
  MATCH (c:Concept) WHERE c.papers > 0
  RETURN c
}
WITH c.type AS type, c.name AS concept, c.papers AS papers, c.mentions AS mentions, coalesce(c.quality, 0.5) AS quality,
     coalesce(c.rated, c.papers) AS rated
WHERE $all OR quality >= 0.5
WITH type, concept, papers, mentions, quality, rated * quality * quality * quality * quality AS weight  // counts.QUALITY_POWER
ORDER BY type, weight DESC, papers DESC, mentions DESC, concept
WITH type, collect({concept: concept, papers: papers, mentions: mentions, quality: quality, weight: weight}) AS ranked
UNWIND ranked[0..$per_type] AS top
WITH type, top  // the whole list no longer rides on each row to the sort (ArcadeDB counts it against its query heap)
RETURN type, top.concept AS concept, top.papers AS papers, top.mentions AS mentions, top.quality AS quality
ORDER BY type, top.weight DESC, papers DESC, mentions DESC, concept
