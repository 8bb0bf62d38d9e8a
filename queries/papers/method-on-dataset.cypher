// name: method-on-dataset
// description: Papers that propose or use a method and evaluate on a dataset, newest first.
// param: method str -- a method id, name or alias, in any case
// param: dataset str -- a dataset id, name or alias, in any case
// example: kg query run papers/method-on-dataset -p 'method=self-supervised encoder' -p 'dataset=Natural Scenes Dataset'
MATCH (m:Method)
WHERE m.id = $method OR toLower(m.name) = toLower($method)
   OR any(alias IN coalesce(m.aliases, []) WHERE toLower(alias) = toLower($method))
MATCH (d:Dataset)
WHERE d.id = $dataset OR toLower(d.name) = toLower($dataset)
   OR any(alias IN coalesce(d.aliases, []) WHERE toLower(alias) = toLower($dataset))
MATCH (m)<-[r:PROPOSES|USES]-(p:Paper)-[:EVALUATES_ON]->(d)
RETURN p.id AS id, p.title AS title, p.year AS year, m.name AS method, type(r) AS relation, d.name AS dataset
ORDER BY coalesce(year, 0) DESC, id
