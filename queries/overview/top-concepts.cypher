// name: top-concepts
// description: The concepts named by the most papers, for each concept type (ties: the most mentions first).
// param: per_type int 5 -- concepts listed per type
// example: kg query run overview/top-concepts -p per_type=3
// papers and mentions are the concept's totals, kept by the build (kg.store.vocabulary.Totals)
MATCH (c:Concept)
WHERE c.papers > 0
WITH c.type AS type, c.name AS concept, c.papers AS papers, c.mentions AS mentions
ORDER BY type, papers DESC, mentions DESC, concept
WITH type, collect({concept: concept, papers: papers, mentions: mentions}) AS ranked
UNWIND ranked[0..$per_type] AS top
RETURN type, top.concept AS concept, top.papers AS papers, top.mentions AS mentions
ORDER BY type, papers DESC, mentions DESC, concept
