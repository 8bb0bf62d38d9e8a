// name: same-name-types
// description: Names given to concepts of more than one type (e.g. a metric also typed as a task): likely mistyped.
// param: top int 50 -- names listed
// example: kg query run quality/same-name-types
MATCH (c:Concept)
WITH toLower(c.name) AS folded, c ORDER BY c.type
WITH folded, collect(c.type) AS types, collect(c.id) AS ids, collect(c.name)[0] AS name
WHERE size(types) > 1
RETURN name, types, ids
ORDER BY toLower(name), name
LIMIT $top
