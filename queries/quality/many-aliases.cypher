// name: many-aliases
// description: Concepts with many aliases (surface forms merged into one node): check the merges.
// param: min_aliases int 3 -- the fewest aliases listed
// param: top int 50 -- concepts listed
// example: kg query run quality/many-aliases -p min_aliases=2
MATCH (c:Concept)
WITH c, size(coalesce(c.aliases, [])) AS alias_count
WHERE alias_count >= $min_aliases
RETURN c.type AS type, c.name AS concept, alias_count, c.aliases AS aliases
ORDER BY alias_count DESC, toLower(concept), type
LIMIT $top
