// name: most-connected-papers
// description: The papers with the most links: concepts they name, works they cite, papers citing them.
// param: top int 10 -- papers listed
// example: kg query run overview/most-connected-papers -p top=5
// the build keeps the most connected papers on BuildState (kg.store.counts); more, or a graph no build
// has counted, are counted now
CALL {
  MATCH (s:BuildState {id: 'build'})
  WHERE s.connected IS NOT NULL AND ($top <= s.connected_kept OR size(s.connected) < s.connected_kept)
  UNWIND s.connected AS id
  MATCH (p:Paper {id: id})
  RETURN p
  UNION ALL
  OPTIONAL MATCH (s:BuildState {id: 'build'})
  WITH s WHERE s IS NULL OR s.connected IS NULL OR ($top > s.connected_kept AND size(s.connected) >= s.connected_kept)
  MATCH (p:Paper)
  RETURN p
}
WITH p,
     COUNT { (p)-->(:Concept) } AS concepts,
     COUNT { (p)-[:CITES]->() } AS references,
     COUNT { (p)<-[:CITES]-(:Paper) } AS cited_by
RETURN p.id AS id, p.title AS title, concepts, references, cited_by, concepts + references + cited_by AS links
ORDER BY links DESC, id
LIMIT $top
