// name: concepts-by-year
// description: The concepts named by the most papers in each year.
// param: type str '' -- only concepts of this type (Method, Task, Dataset, Metric, Entity, Domain); '' for all
// param: per_year int 5 -- concepts listed per year
// example: kg query run trends/concepts-by-year -p type=Method -p per_year=3
// the build keeps each year's 20 first, of all types and of each type (kg.store.counts); more, or a
// graph no build has counted, are ranked now from the concepts' papers per year (kg.store.vocabulary.Totals)
CALL {
  MATCH (s:BuildState {id: 'build'}) WHERE s.by_year IS NOT NULL AND $per_year <= s.years_kept
  WITH s.by_year AS years, s.by_year_types AS types, s.by_year_ids AS ids, s.by_year_papers AS counts
  UNWIND range(0, size(years) - 1) AS i
  WITH years[i] AS year, types[i] AS type, ids[i] AS id, counts[i] AS papers
  WHERE toLower(type) = toLower($type)
  MATCH (c:Concept {id: id})
  RETURN year, c, papers
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'}) WHERE s.by_year IS NOT NULL AND $per_year <= s.years_kept
  WITH s WHERE s IS NULL
  MATCH (c:Concept)
  WHERE size(coalesce(c.years, [])) > 0 AND ($type = '' OR toLower(c.type) = toLower($type))
  UNWIND range(0, size(c.years) - 1) AS i
  RETURN c.years[i] AS year, c, c.year_papers[i] AS papers
}
WITH year, c, papers
ORDER BY year, papers DESC, toLower(c.name), c.type
WITH year, collect({concept: c.name, type: c.type, papers: papers}) AS ranked
UNWIND range(0, size(ranked) - 1) AS rank
WITH year, rank, ranked[rank] AS top
WHERE rank < $per_year
RETURN year, top.type AS type, top.concept AS concept, top.papers AS papers
ORDER BY year, rank
