// name: concept-timeline
// description: How many papers name a concept in each year.
// param: concept str -- a concept id, name or alias, in any case
// example: kg query run trends/concept-timeline -p concept=LLMs
// the papers per year are the concept's totals, kept by the build (kg.store.vocabulary.Totals)
MATCH (c:Concept)
WHERE c.id = $concept OR toLower(c.name) = toLower($concept)
   OR any(alias IN coalesce(c.aliases, []) WHERE toLower(alias) = toLower($concept))
UNWIND range(0, size(coalesce(c.years, [])) - 1) AS i
RETURN c.type AS type, c.name AS concept, c.years[i] AS year, c.year_papers[i] AS papers
ORDER BY type, concept, year
