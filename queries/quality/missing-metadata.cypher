// name: missing-metadata
// description: Papers lacking a year, a venue or authors, or whose title was derived from the abstract.
// param: top int 100 -- papers listed
// example: kg query run quality/missing-metadata
MATCH (p:Paper)
WITH p, COUNT { (:Author)-[:WROTE]->(p) } AS authors
WITH p, [gap IN [
       CASE WHEN p.year IS NULL THEN 'year' END,
       CASE WHEN coalesce(p.venue, '') = '' THEN 'venue' END,
       CASE WHEN authors = 0 THEN 'authors' END,
       CASE WHEN coalesce(p.title_derived, false) THEN 'title' END
     ] WHERE gap IS NOT NULL] AS missing
WHERE size(missing) > 0
RETURN p.id AS id, p.title AS title, missing
ORDER BY id
LIMIT $top
