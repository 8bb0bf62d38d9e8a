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
// rows hold element ids, not nodes: a paper's record (its abstract and vectors) per row would
// hold more than the store's query memory for a work thousands of papers cite
MATCH (w)<-[:CITES]-(citer:Paper)-[:CITES]->(other)
WHERE other <> w
WITH elementId(w) AS work, elementId(other) AS other, count(DISTINCT elementId(citer)) AS co_cited
ORDER BY co_cited DESC
WITH work, collect({other: other, co_cited: co_cited}) AS counted
UNWIND [c IN counted WHERE c.co_cited >= coalesce(counted[$top - 1].co_cited, 0)] AS found
MATCH (o) WHERE elementId(o) = found.other
WITH work, found.other AS other, found.co_cited AS co_cited, coalesce(o.id, o.key) AS id
ORDER BY co_cited DESC, id
LIMIT $top
MATCH (w) WHERE elementId(w) = work
MATCH (o) WHERE elementId(o) = other
MATCH (w)<-[:CITES]-(citer:Paper)-[:CITES]->(o)
WITH o, id, co_cited, citer.id AS citer ORDER BY citer
WITH o, id, co_cited, collect(DISTINCT citer) AS citers
RETURN CASE WHEN o:Paper THEN 'Paper' ELSE 'Reference' END AS kind, id,
       CASE WHEN o:Paper OR o.title IS NOT NULL THEN o.title
            WHEN size(coalesce(o.authors, [])) = 0 THEN null
            ELSE reduce(s = head(o.authors), a IN tail(o.authors) | s + ', ' + a) END AS title,
       co_cited, citers
ORDER BY co_cited DESC, id
