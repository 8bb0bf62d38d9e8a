import { readFileSync } from 'node:fs';
import { lintCypherQuery, testData } from '@neo4j-cypher/language-support';
const PLUGIN = /^(apoc|gds)\./;
function neo4jOwn(byVersion, keep) { const own = {}; for (const [v, e] of Object.entries(byVersion)) own[v] = Object.fromEntries(Object.entries(e).filter(([, x]) => keep(x))); return own; }
const functions = neo4jOwn(testData.mockSchema.functions, (f) => f.isBuiltIn);
const procedures = neo4jOwn(testData.mockSchema.procedures, (p) => !PLUGIN.test(p.name));
const st = JSON.parse(readFileSync('/tmp/stm.json', 'utf8'));
for (let pass = 0; pass < 1; pass++) {
const t00 = performance.now();
const times = [];
st.forEach(({query, params}, i) => {
  const parameters = Object.fromEntries((params ?? []).map((n) => [n, null]));
  const t0 = performance.now();
  lintCypherQuery(query, { functions, procedures, parameters, defaultLanguage: 'CYPHER 5' });
  times.push([performance.now() - t0, i, query.length, query.slice(0, 70).replace(/\n/g, ' ')]);
});
console.log("total", (performance.now() - t00).toFixed(0)); }
process.exit(0); times.sort((a, b) => b[0] - a[0]);
for (const t of times.slice(0, 30)) console.log(t[0].toFixed(0), t[1], t[2], t[3]);
