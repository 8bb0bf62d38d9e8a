// name: similar
// description: Papers ranked by the concepts they share with one paper, weighed as kg similar weighs them: type weight (Metric 0.5, Entity 0.5, Domain 0.25, else 1) x ln(1 + (N - df + 0.5) / (df + 0.5)) x quality (how likely a reader keeps the concept; 0.5 where the graph keeps none), df = papers naming the concept.
// param: paper str -- a paper id
// param: top int 10 -- papers listed
// param: types list [] -- only concepts of these types (e.g. Method,Dataset); [] for all
// example: kg query run papers/similar -p paper=p-198679ab53b48580 -p types=Method,Task
MATCH (any_paper:Paper)
WITH count(any_paper) AS total
MATCH (p:Paper {id: $paper})-->(c:Concept)
WHERE size($types) = 0 OR toLower(c.type) IN [t IN $types | toLower(t)]
WITH DISTINCT total, p, c
MATCH (c)<--(holder:Paper)
WITH total, p, c, collect(DISTINCT holder) AS holders
WITH p, c, holders, CASE c.type WHEN 'Metric' THEN 0.5 WHEN 'Entity' THEN 0.5 WHEN 'Domain' THEN 0.25 ELSE 1.0 END
     * log(1.0 + (toFloat(total) - size(holders) + 0.5) / (size(holders) + 0.5)) * coalesce(c.quality, 0.5) AS weight
UNWIND holders AS other
WITH p, c, weight, other
WHERE other <> p
WITH other, c, weight ORDER BY weight DESC, toLower(c.name), c.type
WITH other, sum(weight) AS total_weight, collect({name: c.name, type: c.type, weight: round(weight, 4)}) AS shared
RETURN other.id AS id, other.title AS title, round(total_weight, 4) AS score, shared
ORDER BY score DESC, size(shared) DESC, id
LIMIT $top
