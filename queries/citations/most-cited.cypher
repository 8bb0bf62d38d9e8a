// name: most-cited
// description: The most cited works, loaded papers and unresolved references alike; a reference's title is the one its source gave, else its authors.
// param: top int 10 -- works listed
// example: kg query run citations/most-cited -p top=20
MATCH (citer:Paper)-[:CITES]->(w)
WITH w, count(DISTINCT citer) AS cited_by
RETURN CASE WHEN w:Paper THEN 'Paper' ELSE 'Reference' END AS kind,
       coalesce(w.id, w.key) AS id,
       CASE WHEN w:Paper OR w.title IS NOT NULL THEN w.title
            WHEN size(coalesce(w.authors, [])) = 0 THEN null
            ELSE reduce(s = head(w.authors), a IN tail(w.authors) | s + ', ' + a) END AS title,
       w.year AS year, cited_by
ORDER BY cited_by DESC, id
LIMIT $top
