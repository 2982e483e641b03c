import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openBrowser, skipWithoutChromium } from '../helpers/chromium.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestServer } from '../helpers/test-server.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

/**
 * /docs in a real browser: Debian's headless Chromium driven by playwright-core. The page must
 * list the seven endpoints and send a request that gets a real answer, with every request it makes
 * going to the server itself (no CDN: the reference works offline). With UPDATE_SCREENSHOT=1 it
 * refreshes docs/reference-page.png, the picture the README shows; otherwise the shot goes to a
 * temp dir, so a test run leaves the work tree as it was.
 */

const ROOT = REPO_ROOT;
const SCREENSHOT = join(ROOT, 'docs', 'reference-page.png');
const ENDPOINTS = [
  '/api/v1/rates/latest',
  '/api/v1/rates/{date}',
  '/api/v1/rates/{start}..{end}',
  '/api/v1/fluctuation/{start}..{end}',
  '/api/v1/convert',
  '/api/v1/convert/bulk',
  '/api/v1/currencies',
];


test(
  'when /docs is opened in Chromium, then it lists the seven endpoints and a request sent from it gets a real 200',
  { skip: skipWithoutChromium(), timeout: 60_000 },
  async (t) => {
    const server = await startTestServer(t, { ingest: ['hist.csv'] });
    // Offline for real: anything not addressed to the server is refused and remembered.
    const { page, elsewhere, close } = await openBrowser(t, server.url);
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${server.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    const listed = await page.locator('.opblock-summary-path').evaluateAll((paths) => paths.map((path) => path.getAttribute('data-path')));
    for (const path of ENDPOINTS) assert.ok(listed.includes(path), `${path} is listed (listed: ${listed.join(', ')})`);

    // Enter the key in the Authorize dialog, as a reader would.
    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('.modal-ux #auth-bearer-value').fill(server.key);
    await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
    await page.locator('.modal-ux .auth-btn-wrapper button.btn-done').click();

    // Send GET /api/v1/rates/latest with the parameters the page fills in.
    const operation = page.locator('#operations-Rates-getLatestRates');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.execute').click();
    const live = operation.locator('.live-responses-table');
    await live.locator('tr.response .response-col_status').first().waitFor();
    assert.equal((await live.locator('tr.response .response-col_status').first().innerText()).trim(), '200');
    const body = JSON.parse(await live.locator('tr.response .response-col_description pre.microlight').first().innerText());
    assert.deepEqual(body, {
      base: 'EUR',
      date: '2026-04-13',
      rates: { GBP: '0.870580', JPY: '186.750000', USD: '1.168400' },
    });

    assert.deepEqual(elsewhere, [], 'the page asked for nothing outside the server');
    assert.deepEqual(pageErrors, [], 'no script errors');

    // The README's picture: the endpoints and the live answer. The documented responses of the
    // expanded operation (several screens of schemas and headers) are folded away for it.
    await page.addStyleTag({
      content: `#operations-Rates-getLatestRates .responses-inner > div > h4,
        #operations-Rates-getLatestRates .responses-inner > table.responses-table { display: none; }`,
    });
    const bottom = await page
      .locator('#operations-Currencies-listCurrencies')
      .evaluate((element) => element.getBoundingClientRect().bottom + (globalThis as unknown as { scrollY: number }).scrollY);
    const target = process.env.UPDATE_SCREENSHOT === '1' ? SCREENSHOT : join(tempDir(t), 'reference-page.png');
    mkdirSync(join(target, '..'), { recursive: true });
    await page.screenshot({ path: target, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.ceil(bottom + 16) } });
    await close(); // before the server stops: see openBrowser
  },
);
