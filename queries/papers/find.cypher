// name: find
// description: Papers whose id, title or abstract contains a text, newest first (to find a paper's id).
// param: text str -- the text to look for, in any case
// param: top int 20 -- papers listed
// example: kg query run papers/find -p text=LoRA
MATCH (p:Paper)
WHERE toLower(p.id) = toLower($text)
   OR toLower(coalesce(p.title, '')) CONTAINS toLower($text)
   OR toLower(coalesce(p.abstract, '')) CONTAINS toLower($text)
RETURN p.id AS id, p.title AS title, p.year AS year, p.venue AS venue
ORDER BY coalesce(year, 0) DESC, id
LIMIT $top
