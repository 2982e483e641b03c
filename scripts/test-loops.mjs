// The test files of each loop:
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

// The build loop's longest files, started first (longest first) so that none of them starts near
// the end and runs on alone. Most of the first ones mostly wait (a 30 s stalled reader, outages,
// stalls); the crash suite starts among them, before the machine is at its busiest, as its
// PostgreSQL connections are slow to open on a saturated machine.
const LONGEST = [
  'test/process/heavy-answers.test.ts',
  'test/robustness/crash.test.ts',
  'test/scale-out/postgres-outage.test.ts',
  'test/scale-out/redis-stall.test.ts',
  'test/scale-out/postgres-quota-faults.test.ts',
  'test/storage/postgres-adapters.test.ts',
  'test/cli/key-quotas.test.ts',
  'test/process/workers.test.ts',
  'test/scale-out/redis-faults.test.ts',
  'test/storage/one-source-migration.test.ts',
  'test/robustness/limits.test.ts',
  'test/web/page.test.ts',
];

const all = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .map((name) => `test/${name.split('\\').join('/')}`)
  .filter((path) => path.endsWith('.test.ts'))
  .sort();
const isUnit = (path) => UNIT.some((prefix) => path.startsWith(prefix)) && !BUILD_ONLY.has(path);

/** The unit loop's files (TypeScript sources), or the build loop's (dist/…/*.js, the longest first). */
export function loopFiles(loop) {
  if (loop === 'unit') return all.filter(isUnit);
  if (loop !== 'build') throw new Error(`no test loop ${loop}: unit or build`);
  const build = all.filter((path) => !isUnit(path));
  const missing = LONGEST.filter((path) => !build.includes(path));
  if (missing.length > 0) throw new Error(`LONGEST names files outside the build loop: ${missing.join(', ')}`);
  return [...LONGEST, ...build.filter((path) => !LONGEST.includes(path))].map((path) => `dist/${path.slice(0, -3)}.js`);
}
