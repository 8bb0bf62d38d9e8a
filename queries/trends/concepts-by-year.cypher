// name: concepts-by-year
// description: The concepts named by the most papers in each year.
// param: type str '' -- only concepts of this type (Method, Task, Dataset, Metric, Entity, Domain); '' for all
// param: per_year int 5 -- concepts listed per year
// example: kg query run trends/concepts-by-year -p type=Method -p per_year=3
// the papers per year are the concept's totals, kept by the build (kg.store.vocabulary.Totals)
MATCH (c:Concept)
WHERE size(coalesce(c.years, [])) > 0 AND ($type = '' OR toLower(c.type) = toLower($type))
UNWIND range(0, size(c.years) - 1) AS i
WITH c.years[i] AS year, c, c.year_papers[i] AS papers
ORDER BY year, papers DESC, toLower(c.name), c.type
WITH year, collect({concept: c.name, type: c.type, papers: papers}) AS ranked
UNWIND range(0, size(ranked) - 1) AS rank
WITH year, rank, ranked[rank] AS top
WHERE rank < $per_year
RETURN year, top.type AS type, top.concept AS concept, top.papers AS papers
ORDER BY year, rank
