import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, which .ci/run installs; playwright-core drives it (no browser download). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * The `skip` option of a browser test: a reason outside CI when Chromium is missing, else false.
 * Under CI=true a missing browser throws, so the browser tests can never be skipped there.
 */
export function skipWithoutChromium(): string | false {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package; the browser test must run in CI`);
  return `${CHROMIUM} is missing (apt-get install chromium): the browser test is skipped outside CI`;
}

export interface OpenBrowser {
  browser: BrowserContext;
  page: Page;
  /** Every URL the pages asked for outside `serverUrl`: refused, and listed here. */
  elsewhere: string[];
  /**
   * Closes the browser; the test's after hook calls it again (then a no-op). Call it once the
   * pages are done: after hooks run in the order they were added, so the server's stop runs
   * first, and a connection Chromium opened ahead and never used would hold that stop for its
   * whole 25 s allowance (DECISIONS §11 keeps every accepted connection open for a request).
   */
  close(): Promise<void>;
}

/**
 * Headless Chromium on a fresh profile, closed after the test, that reaches `serverUrl` alone:
 * anything else is refused and remembered, so a test can show a page needs nothing from outside.
 * The flags keep Chromium from calling out on its own (refused on this machine's closed network).
 */
export async function openBrowser(t: TestContext, serverUrl: string, viewport = { width: 1280, height: 900 }): Promise<OpenBrowser> {
  // Not tempDir's: Chromium writes its profile while it closes, so it is removed after the close.
  const profile = mkdtempSync(join(tmpdir(), 'currency-rates-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport,
  });
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= browser.close().then(() => rmSync(profile, { recursive: true, force: true })));
  t.after(close);
  const elsewhere: string[] = [];
  await browser.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${serverUrl}/`)) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });
  return { browser, page: browser.pages()[0] ?? (await browser.newPage()), elsewhere, close };
}
