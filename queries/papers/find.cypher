// name: find
// description: Papers whose id is the text, or whose title or abstract has it where a word begins, newest first (to find a paper's id).
// param: text str -- the text to look for, in any case: a word, words or an id
// param: top int 20 -- papers listed
// example: kg query run papers/find -p text=LoRA
// the papers with a word that begins with the text's rarest indexed word are found through kg
// similar's text index (its words lower-cased, plurals folded as kg.textsim.fold_plural does) and each
// read for the whole text: "lora" finds LoRA-based and LoRAs, not QLoRA. A text none of whose words is
// indexed (a part of a word, a stop word) is looked for anywhere in every paper
UNWIND split(toLower($text), ' ') AS piece
WITH CASE
  WHEN size(piece) > 3 AND piece ENDS WITH 'ies' AND NOT (piece ENDS WITH 'eies' OR piece ENDS WITH 'aies')
    THEN left(piece, size(piece) - 3) + 'y'
  WHEN size(piece) > 3 AND piece ENDS WITH 'es' AND NOT (piece ENDS WITH 'aes' OR piece ENDS WITH 'ees' OR piece ENDS WITH 'oes')
    THEN left(piece, size(piece) - 1)
  WHEN size(piece) > 3 AND piece ENDS WITH 's' AND NOT (piece ENDS WITH 'us' OR piece ENDS WITH 'ss' OR piece ENDS WITH 'is')
    THEN left(piece, size(piece) - 1)
  ELSE piece END AS word
OPTIONAL MATCH (t:Term {id: word})
WITH t ORDER BY coalesce(t.df, 0) = 0, t.df, t.id
WITH collect(t)[0] AS rarest
CALL {
  WITH rarest
  WITH rarest WHERE rarest IS NOT NULL
  MATCH (t:Term) WHERE t.id STARTS WITH rarest.id
  MATCH (t)-[:OCCURS_IN]->(p:Paper)
  RETURN p
  UNION
  WITH rarest
  WITH rarest WHERE rarest IS NULL
  MATCH (p:Paper)
  RETURN p
  UNION
  UNWIND [$text, toLower($text), toUpper($text)] AS id
  MATCH (p:Paper {id: id})
  RETURN p
}
WITH p
WHERE toLower(p.id) = toLower($text)
   OR toLower(coalesce(p.title, '')) CONTAINS toLower($text)
   OR toLower(coalesce(p.abstract, '')) CONTAINS toLower($text)
RETURN p.id AS id, p.title AS title, p.year AS year, p.venue AS venue
ORDER BY coalesce(year, 0) DESC, id
LIMIT $top
