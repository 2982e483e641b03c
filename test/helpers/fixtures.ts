import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../../src/domain/quota.js';

/**
 * The test suites' fixtures in one module: where the repository and its data files are, and a
 * clock tests move by hand. Paths are found from the repository root, so they are the same when a
 * test runs from its TypeScript source (npm run test:unit) and from the build (dist/test/).
 */

function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The repository root, with a trailing slash. */
export const REPO_ROOT = `${repositoryRoot(dirname(fileURLToPath(import.meta.url)))}/`;
/** test/fixtures/, with a trailing slash. */
export const FIXTURES = `${REPO_ROOT}test/fixtures/`;
/** The ECB's own files (test/fixtures/ecb/, ends with a slash). */
export const ECB_FIXTURES = `${FIXTURES}ecb/`;
/** The built CLI (npm run build): the process suites run it as a user would. */
export const MAIN_JS = `${REPO_ROOT}dist/src/cli/main.js`;

/** A clock tests move by hand instead of sleeping. */
export class ManualClock implements Clock {
  constructor(public current = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export { tempDir } from './temp-dir.js';
