// name: in-one-paper
// description: Concepts named by one paper only, with that paper (candidates for noise, or for what is new).
// param: type str '' -- only concepts of this type (Method, Task, Dataset, Metric, Entity, Domain); '' for all
// param: top int 100 -- rows listed
// example: kg query run concepts/in-one-paper -p type=Dataset
// papers is the concept's total, kept by the build (kg.store.vocabulary.Totals)
MATCH (c:Concept)
WHERE c.papers = 1 AND ($type = '' OR toLower(c.type) = toLower($type))
WITH c ORDER BY c.type, toLower(c.name), c.name
LIMIT $top
MATCH (c)<--(p:Paper)
WITH c, collect(DISTINCT p)[0] AS p
RETURN c.type AS type, c.name AS concept, p.id AS paper, p.title AS title
ORDER BY type, toLower(concept), concept
