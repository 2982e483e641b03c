// Prints the test files one loop runs, for `node --test`:
//   unit   the HTTP contract in-process, the domain and the parsers, from the TypeScript sources (tsx, no build)
//   build  everything else, from the build (dist/test/): processes, PostgreSQL and Redis, the browser
// A file is in exactly one loop, so `npm test` (unit, then build) runs each once.
import { readdirSync } from 'node:fs';

const UNIT = ['test/domain/', 'test/http/', 'test/config/', 'test/ingest/', 'test/live/', 'test/metrics/', 'test/logger.test.ts'];

// Under those, but run from the build: they start the CLI as a process (dist/src/cli/main.js), serve
// the built page over sockets (keep-alive, raw requests, servers sharing a database), or check
// whole histories against an oracle, which takes longer than the unit loop's budget.
const BUILD_ONLY = new Set([
  'test/config/numbers.test.ts',
  'test/config/sources.test.ts',
  'test/ingest/hostile-files.test.ts',
  'test/ingest/limits.test.ts',
  'test/http/all-sources.test.ts',
  'test/http/blended-oracle.test.ts',
  'test/http/blended-rates.test.ts',
  'test/http/currency-names.test.ts',
  'test/http/history-oracle.test.ts',
  'test/http/keep-alive-keys.test.ts',
  'test/http/key-quotas.test.ts',
  'test/http/metrics-exposure.test.ts',
  'test/http/quota.test.ts',
  'test/http/request-id.test.ts',
]);

const all = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .map((name) => `test/${name.split('\\').join('/')}`)
  .filter((path) => path.endsWith('.test.ts'))
  .sort();
const isUnit = (path) => UNIT.some((prefix) => path.startsWith(prefix)) && !BUILD_ONLY.has(path);

const loop = process.argv[2];
if (loop === 'unit') console.log(all.filter(isUnit).join('\n'));
else if (loop === 'build') console.log(all.filter((path) => !isUnit(path)).map((path) => `dist/${path.slice(0, -3)}.js`).join('\n'));
else {
  console.error('usage: node scripts/test-files.mjs unit|build');
  process.exitCode = 2;
}
