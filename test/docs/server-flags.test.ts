import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * The server runs with V8's young generation capped (`--max-semi-space-size=4`: RSS ~30 MB lower
 * under load, throughput unchanged, measured with the benchmark). Every way of starting it must
 * carry the flag, or the memory measured is not the memory users get.
 */
const FLAG = '--max-semi-space-size=4';

test('when the server is started by the bin, npm start, the Dockerfile, the benchmark or the soak, then V8 gets the same flag', () => {
  const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
  assert.equal(read('src/cli/main.ts').split('\n')[0], `#!/usr/bin/env -S node ${FLAG}`);
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  assert.equal(scripts.start, `node ${FLAG} dist/src/cli/main.js serve`);
  assert.match(read('Dockerfile'), new RegExp(`ENTRYPOINT \\["node", "${FLAG}", "dist/src/cli/main.js"\\]`));
  assert.ok(read('bench/processes.ts').includes(`'${FLAG}', MAIN_JS, 'serve'`));
  assert.ok(read('scripts/soak.ts').includes(`'${FLAG}', MAIN_JS, 'serve'`));
});
