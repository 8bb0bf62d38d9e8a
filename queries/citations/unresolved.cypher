// name: unresolved
// description: Cited works that are not loaded papers (references that did not resolve), most cited first; candidates lists the papers an ambiguous author-year citation could mean.
// param: top int 50 -- references listed
// example: kg query run citations/unresolved -p top=20
MATCH (r:Reference)<-[:CITES]-(p:Paper)
WITH r, p ORDER BY p.id
WITH r, collect(DISTINCT p.id) AS citers
RETURN r.key AS key, r.title AS title, r.authors AS authors, r.year AS year, size(citers) AS cited_by, citers,
       r.candidates AS candidates
ORDER BY cited_by DESC, key
LIMIT $top
