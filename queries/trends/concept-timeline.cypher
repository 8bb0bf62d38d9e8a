// name: concept-timeline
// description: How many papers name a concept in each year.
// param: concept str -- a concept id, name or alias, in any case
// example: kg query run trends/concept-timeline -p concept=LLMs
MATCH (c:Concept)
WHERE c.id = $concept OR toLower(c.name) = toLower($concept)
   OR any(alias IN coalesce(c.aliases, []) WHERE toLower(alias) = toLower($concept))
MATCH (p:Paper)-->(c)
WHERE p.year IS NOT NULL
RETURN c.type AS type, c.name AS concept, p.year AS year, count(DISTINCT p) AS papers
ORDER BY type, concept, year
