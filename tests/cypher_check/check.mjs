// Neo4j's own Cypher parser and semantic analysis (@neo4j-cypher/language-support, the library
// behind Neo4j's editors) over the statements kg sends, as tests/test_cypher_check.py feeds them.
//
//   node check.mjs [VERSION ...] < statements.json      (VERSION: "CYPHER 5", the default, or "CYPHER 25")
// stdin:  JSON [{"query": "MATCH ...", "params": ["rows", ...]}, ...], or those objects one a line
//         (what KG_CAPTURE_CYPHER=FILE makes kg write)
// stdout: JSON {"package": "...@version", "results": [{"index": 0, "version": "CYPHER 5",
//          "errors": [{"message", "line", "column"}], "warnings": [{..., "deprecated": true}]}, ...]}
//
// Cypher 5 is the default language of Neo4j 5 and 2025.x databases. A parameter a statement reads
// but kg did not send is an error; so is a function or procedure that a Neo4j server without plugins
// lacks (APOC and GDS are left out of the known ones). About 0.1-0.3 s a statement and version.
import { readFileSync } from 'node:fs';
import { allCypherVersions, lintCypherQuery, testData } from '@neo4j-cypher/language-support';

const VERSIONS = process.argv.length > 2 ? process.argv.slice(2) : ['CYPHER 5'];
const unknown = VERSIONS.filter((version) => !allCypherVersions.includes(version));
if (unknown.length) {
  process.stderr.write(`unknown Cypher version ${unknown.join(', ')}: choose from ${allCypherVersions.join(', ')}\n`);
  process.exit(2);
}
const PLUGIN = /^(apoc|gds)\./;
const ERROR = 1; // vscode-languageserver DiagnosticSeverity.Error; 2 is Warning
const DEPRECATED = 2; // DiagnosticTag.Deprecated

function neo4jOwn(byVersion, keep) {
  const own = {};
  for (const [version, entries] of Object.entries(byVersion)) {
    own[version] = Object.fromEntries(Object.entries(entries).filter(([, entry]) => keep(entry)));
  }
  return own;
}

const functions = neo4jOwn(testData.mockSchema.functions, (f) => f.isBuiltIn);
const procedures = neo4jOwn(testData.mockSchema.procedures, (p) => !PLUGIN.test(p.name));

function diagnostic(d) {
  const shown = { message: d.message, line: d.range.start.line + 1, column: d.range.start.character + 1 };
  if ((d.tags ?? []).includes(DEPRECATED) || /deprecated/i.test(d.message)) shown.deprecated = true;
  return shown;
}

const input = readFileSync(0, 'utf8');
const statements = input.trimStart().startsWith('[')
  ? JSON.parse(input)
  : input.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
const results = [];
statements.forEach(({ query, params }, index) => {
  const parameters = Object.fromEntries((params ?? []).map((name) => [name, null]));
  for (const version of VERSIONS) {
    const schema = { functions, procedures, parameters, defaultLanguage: version };
    const { diagnostics } = lintCypherQuery(query, schema);
    results.push({
      index,
      version,
      errors: diagnostics.filter((d) => d.severity === ERROR).map(diagnostic),
      warnings: diagnostics.filter((d) => d.severity !== ERROR).map(diagnostic),
    });
  }
});
const { version } = JSON.parse(readFileSync(new URL('./node_modules/@neo4j-cypher/language-support/package.json', import.meta.url)));
process.stdout.write(JSON.stringify({ package: `@neo4j-cypher/language-support@${version}`, results }));
