// name: with-concepts
// description: Papers that name every one of a list of concepts (ids, names or aliases, in any case).
// param: concepts list -- concepts, comma-separated (or a JSON list)
// param: top int 50 -- papers listed
// example: kg query run papers/with-concepts -p 'concepts=LLMs,mathematical reasoning'
WITH reduce(acc = [], x IN $concepts | CASE WHEN toLower(x) IN acc THEN acc ELSE acc + toLower(x) END) AS wanted
UNWIND wanted AS w
MATCH (c:Concept)
WHERE toLower(c.id) = w OR toLower(c.name) = w OR any(alias IN coalesce(c.aliases, []) WHERE toLower(alias) = w)
MATCH (p:Paper)-->(c)
WITH wanted, p, w, c ORDER BY toLower(c.name), c.name
WITH wanted, p, collect(DISTINCT w) AS matched, collect(DISTINCT c.name) AS names
WHERE size(matched) = size(wanted)
RETURN p.id AS id, p.title AS title, p.year AS year, names AS concepts
ORDER BY coalesce(year, 0) DESC, id
LIMIT $top
