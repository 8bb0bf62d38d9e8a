// name: profile
// description: One concept: its type and aliases, the papers naming it (newest first) and the concepts it appears with most.
// param: concept str -- a concept id (bert), name or alias, in any case
// param: top int 10 -- co-occurring concepts listed
// example: kg query run concepts/profile -p concept=LoRA -p top=5
MATCH (c:Concept)
WHERE c.id = $concept OR toLower(c.name) = toLower($concept)
   OR any(alias IN coalesce(c.aliases, []) WHERE toLower(alias) = toLower($concept))
OPTIONAL MATCH (c)<--(q:Paper)-->(other:Concept)
WHERE other <> c
WITH c, other, count(DISTINCT q) AS shared
ORDER BY shared DESC, toLower(other.name), other.type
// the few co-occurring concepts first: grouping the papers' rows by a list of every paper would hold it per row
WITH c, collect(CASE WHEN other IS NULL THEN null ELSE {name: other.name, type: other.type, papers: shared} END)[0..$top] AS co_occurring
OPTIONAL MATCH (p:Paper)-[r]->(c)
WITH c, co_occurring, p, r ORDER BY coalesce(p.year, 0) DESC, p.id, type(r)
WITH c, co_occurring, collect(CASE WHEN p IS NULL THEN null ELSE {id: p.id, title: p.title, year: p.year, relation: type(r)} END) AS papers,
     count(DISTINCT p) AS paper_count
RETURN c.id AS id, c.name AS name, c.type AS type, c.aliases AS aliases, paper_count,
       papers, co_occurring
ORDER BY type, id
