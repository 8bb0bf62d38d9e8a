// name: paths
// description: The shortest citation chains from one paper to a cited work (a paper id or a reference key), up to 10 hops.
// param: citing str -- the id of the paper the chains start from
// param: cited str -- the id of the paper (or the key of the reference) they end at
// param: top int 10 -- paths listed
// example: kg query run citations/paths -p citing=p-6fea34d5ce28421a -p cited=loshchilov-2025
MATCH (a:Paper {id: $citing})
CALL {
  MATCH (b:Paper {id: $cited}) RETURN b
  UNION
  MATCH (b:Reference {key: $cited}) RETURN b
}
WITH a, b
WHERE a <> b
MATCH path = allShortestPaths((a)-[:CITES*..10]->(b))
WITH length(path) AS hops, [n IN nodes(path) | coalesce(n.id, n.key)] AS works, [n IN nodes(path) | CASE WHEN n:Paper OR n.title IS NOT NULL THEN n.title
                                            WHEN size(coalesce(n.authors, [])) = 0 THEN null
                                            ELSE reduce(s = head(n.authors), a IN tail(n.authors) | s + ', ' + a) END] AS titles
RETURN hops, works, titles
ORDER BY hops, reduce(s = '', w IN works | s + w + ' ')
LIMIT $top
