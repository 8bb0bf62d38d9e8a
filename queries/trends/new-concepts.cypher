// name: new-concepts
// description: For each year, how many concepts appear for the first time (with examples) among its papers.
// param: examples int 5 -- new concepts listed per year
// example: kg query run trends/new-concepts -p examples=3
// a concept's first year and the papers per year are totals kept by the build (kg.store.vocabulary.Totals,
// kg.store.counts)
MATCH (c:Concept)
WHERE size(coalesce(c.years, [])) > 0
WITH c.years[0] AS first_year, c ORDER BY toLower(c.name), c.type
WITH first_year, collect(c.name) AS names
WITH collect({year: first_year, names: names}) AS firsts
CALL {
  MATCH (s:BuildState {id: 'build'}) WHERE s.years IS NOT NULL
  UNWIND range(0, size(s.years) - 1) AS i
  RETURN s.years[i] AS year, s.year_papers[i] AS papers
  UNION ALL
  // a graph no build has counted: count its papers per year
  OPTIONAL MATCH (s:BuildState {id: 'build'}) WHERE s.years IS NOT NULL
  WITH s WHERE s IS NULL
  MATCH (p:Paper) WHERE p.year IS NOT NULL
  RETURN p.year AS year, count(p) AS papers
}
WITH firsts, year, papers
WITH year, papers, [f IN firsts WHERE f.year = year | f.names] AS found
WITH year, papers, CASE WHEN size(found) = 0 THEN [] ELSE found[0] END AS names
RETURN year, papers, size(names) AS new_concepts, names[0..$examples] AS examples
ORDER BY year
