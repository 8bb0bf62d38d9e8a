// name: new-concepts
// description: For each year, how many concepts appear for the first time (with examples) among its papers.
// param: examples int 5 -- new concepts listed per year
// example: kg query run trends/new-concepts -p examples=3
MATCH (p:Paper)-->(c:Concept)
WHERE p.year IS NOT NULL
WITH c, min(p.year) AS first_year
WITH first_year, c ORDER BY toLower(c.name), c.type
WITH first_year, collect(c.name) AS names
WITH collect({year: first_year, names: names}) AS firsts
MATCH (p:Paper)
WHERE p.year IS NOT NULL
WITH firsts, p.year AS year, count(p) AS papers
WITH year, papers, [f IN firsts WHERE f.year = year | f.names] AS found
WITH year, papers, CASE WHEN size(found) = 0 THEN [] ELSE found[0] END AS names
RETURN year, papers, size(names) AS new_concepts, names[0..$examples] AS examples
ORDER BY year
