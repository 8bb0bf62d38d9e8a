// name: concepts-by-year
// description: The concepts named by the most papers in each year.
// param: type str '' -- only concepts of this type (Method, Task, Dataset, Metric, Domain); '' for all
// param: per_year int 5 -- concepts listed per year
// example: kg query run trends/concepts-by-year -p type=Method -p per_year=3
MATCH (p:Paper)-->(c:Concept)
WHERE p.year IS NOT NULL AND ($type = '' OR toLower(c.type) = toLower($type))
WITH p.year AS year, c, count(DISTINCT p) AS papers
ORDER BY year, papers DESC, toLower(c.name), c.type
WITH year, collect({concept: c.name, type: c.type, papers: papers}) AS ranked
UNWIND range(0, size(ranked) - 1) AS rank
WITH year, rank, ranked[rank] AS top
WHERE rank < $per_year
RETURN year, top.type AS type, top.concept AS concept, top.papers AS papers
ORDER BY year, rank
