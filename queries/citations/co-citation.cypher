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
       CASE WHEN other:Paper OR other.title IS NOT NULL THEN other.title
            WHEN size(coalesce(other.authors, [])) = 0 THEN null
            ELSE reduce(s = head(other.authors), a IN tail(other.authors) | s + ', ' + a) END AS title,
       size(citers) AS co_cited, citers
ORDER BY co_cited DESC, id
LIMIT $top
