// name: most-cited
// description: The most cited works, loaded papers and unresolved references alike; a reference's title is the one its source gave, else its authors.
// param: top int 10 -- works listed
// example: kg query run citations/most-cited -p top=20
// the build keeps the most cited works on BuildState (kg.store.counts); a longer list, or a graph
// no build has counted, is counted now
CALL {
  MATCH (s:BuildState {id: 'build'})
  WHERE s.cited IS NOT NULL AND ($top <= s.cited_kept OR size(s.cited) < s.cited_kept)
  UNWIND range(0, size(s.cited) - 1) AS i
  WITH s.cited[i] AS key, s.cited_by[i] AS cited_by
  OPTIONAL MATCH (p:Paper {id: key})
  OPTIONAL MATCH (r:Reference {key: key})
  RETURN coalesce(p, r) AS w, cited_by
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'})
  WITH s WHERE s IS NULL OR s.cited IS NULL OR ($top > s.cited_kept AND size(s.cited) >= s.cited_kept)
  MATCH (citer:Paper)-[:CITES]->(w)
  RETURN w, count(DISTINCT citer) AS cited_by
}
RETURN CASE WHEN w:Paper THEN 'Paper' ELSE 'Reference' END AS kind,
       coalesce(w.id, w.key) AS id,
       CASE WHEN w:Paper OR w.title IS NOT NULL THEN w.title
            WHEN size(coalesce(w.authors, [])) = 0 THEN null
            ELSE reduce(s = head(w.authors), a IN tail(w.authors) | s + ', ' + a) END AS title,
       w.year AS year, cited_by
ORDER BY cited_by DESC, id
LIMIT $top
