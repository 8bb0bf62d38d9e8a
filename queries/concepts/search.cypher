// name: search
// description: Concepts whose name or an alias contains a text, most named first (to find a concept's id).
// param: text str -- the text to look for, in any case
// param: top int 20 -- concepts listed
// example: kg query run concepts/search -p text=lora
MATCH (c:Concept)
WHERE toLower(c.name) CONTAINS toLower($text)
   OR any(alias IN coalesce(c.aliases, []) WHERE toLower(alias) CONTAINS toLower($text))
RETURN c.id AS id, c.type AS type, c.name AS name, c.aliases AS aliases, COUNT { (c)<--(:Paper) } AS papers
ORDER BY papers DESC, toLower(name), id
LIMIT $top
