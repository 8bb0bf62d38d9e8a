// name: new-concepts
// description: For each year, how many concepts appear for the first time (with examples) among its papers.
// param: examples int 5 -- new concepts listed per year
// example: kg query run trends/new-concepts -p examples=3
// the build keeps the papers per year and each year's new concepts with their first 20 names
// (kg.store.counts); more examples, or a graph no build has counted, are read from the concepts'
// papers per year (kg.store.vocabulary.Totals)
CALL {
  MATCH (s:BuildState {id: 'build'}) WHERE s.new_years IS NOT NULL AND $examples <= s.years_kept
  WITH s.years AS years, s.year_papers AS year_papers, s.new_years AS new_years, s.new_counts AS new_counts,
       s.new_name_years AS name_years, s.new_names AS new_names
  UNWIND range(0, size(years) - 1) AS i
  WITH years[i] AS year, year_papers[i] AS papers, new_years, new_counts, name_years, new_names
  WITH year, papers, [j IN range(0, size(new_years) - 1) WHERE new_years[j] = year | new_counts[j]] AS counts,
       [j IN range(0, size(name_years) - 1) WHERE name_years[j] = year | new_names[j]] AS names
  RETURN year, papers, coalesce(head(counts), 0) AS new_concepts, names
  UNION ALL
  // (the kept lists' absence is carried as a grouping key: an aggregate over no rows would make one)
  OPTIONAL MATCH (s:BuildState {id: 'build'}) WHERE s.new_years IS NOT NULL AND $examples <= s.years_kept
  WITH s IS NULL AS counting WHERE counting
  MATCH (c:Concept)
  WHERE size(coalesce(c.years, [])) > 0
  WITH counting, c.years[0] AS first_year, c ORDER BY toLower(c.name), c.type
  WITH counting, first_year, collect(c.name) AS names
  WITH counting, collect({year: first_year, names: names}) AS firsts
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
  RETURN year, papers, size(names) AS new_concepts, names
}
RETURN year, papers, new_concepts, names[0..$examples] AS examples
ORDER BY year
