import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * The server runs with V8's young generation fixed at 4 MB semi-spaces and its old generation
 * collected before it grows by more than 30 %: resident memory ~110-125 MB through the
 * benchmark's routes instead of up to ~200 MB, at the same throughput; and without allocation-site
 * pretenuring, whose decisions, taken at random in the first seconds of load, left some servers
 * promoting every answer's objects at about half the throughput; and without Maglev, the compiler
 * Node.js 22 and later add between the baseline and the optimising one, whose code held ~13 MB more
 * at the same throughput on Node.js 24 (see docs/performance.md, "Memory").
 * Every way of starting it must carry the flags, or the memory measured is not the memory users get.
 */
const FLAGS = ['--max-semi-space-size=4', '--min-semi-space-size=4', '--heap-growing-percent=30', '--no-allocation-site-pretenuring', '--no-maglev'];
const FLAG = FLAGS.join(' ');

test('when the server is started by the bin, npm start, the Dockerfile, the benchmark or the soak, then V8 gets the same flags', () => {
  const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
  assert.equal(read('src/cli/main.ts').split('\n')[0], `#!/usr/bin/env -S node ${FLAG}`);
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  assert.equal(scripts.start, `node ${FLAG} dist/src/cli/main.js serve`);
  const quoted = (quote: string) => FLAGS.map((flag) => `${quote}${flag}${quote}`).join(', ');
  assert.ok(read('Dockerfile').includes(`ENTRYPOINT ["node", ${quoted('"')}, "dist/src/cli/main.js"]`));
  assert.ok(read('bench/processes.ts').includes(`[${quoted("'")}, MAIN_JS, 'serve']`));
  // The soak starts the server with the benchmark's own command line.
  assert.match(read('scripts/soak.ts'), /^import \{[^}]*\bSERVE\b[^}]*\} from '\.\.\/bench\/processes\.js';$/m);
  assert.match(read('scripts/soak.ts'), /spawn\(process\.execPath, SERVE,/);
});
