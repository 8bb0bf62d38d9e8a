// name: co-citation
// description: Works cited together with one work, by how many papers cite both (co-citation).
// param: work str -- a paper id or a reference key
// param: top int 10 -- works listed
// example: kg query run citations/co-citation -p work=yang-2021
CALL {
  MATCH (w:Paper {id: $work}) RETURN w
  UNION
  MATCH (w:Reference {key: $work}) RETURN w
}
MATCH (w)<-[:CITES]-(citer:Paper)-[:CITES]->(other)
WHERE other <> w
WITH other, citer ORDER BY citer.id
WITH other, collect(DISTINCT citer.id) AS citers
RETURN CASE WHEN other:Paper THEN 'Paper' ELSE 'Reference' END AS kind, coalesce(other.id, other.key) AS id,
       other.title AS title, size(citers) AS co_cited, citers
ORDER BY co_cited DESC, id
LIMIT $top
