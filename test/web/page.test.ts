import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowser, skipWithoutChromium } from '../helpers/chromium.js';
import { HISTORY_ZIP } from '../helpers/ecb-history-csv.js';
import { randomAmount } from '../helpers/random-amounts.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { tempDir } from '../helpers/temp-dir.js';
import { read, startTestServer } from '../helpers/test-server.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

/**
 * The page at `/` in a real browser, Debian's headless Chromium driven by playwright-core,
 * against the whole ECB history. The converter shows the API's own answer for a random pair and
 * amount, the chart draws one point per day the ranges endpoint returns, a bad key is refused in
 * words, and every request stays on the server, with no script error or CSP violation. With
 * UPDATE_SCREENSHOT=1 it refreshes docs/web-page-desktop.png and docs/web-page-phone.png; otherwise
 * the shots go to a temp dir, so a test run leaves the work tree as it was.
 */

const ROOT = REPO_ROOT;
const SEED = 40;
const NEWEST = '2026-04-13';
/** The first day of each range the page offers, the history ending on NEWEST. */
const RANGES = { '1m': '2026-03-13', '1y': '2025-04-13', '5y': '2021-04-13', all: '1999-01-04' } as const;
const INVALID_KEY = 'Invalid API key. Check the key, or ask the operator for one (currency-rates keys create).';


type Json = Record<string, unknown>;
/** The few browser globals the checks read inside the page (the server's tsconfig has no DOM lib). */
type Browser = {
  localStorage: { length: number; getItem(key: string): string | null };
  document: {
    querySelector(selector: string): { textContent: string | null; getBoundingClientRect(): { width: number } } | null;
    documentElement: { scrollWidth: number };
  };
};

test(
  'when / is used in Chromium, then the converter shows the API\'s result, the chart one point per day of each range, and a bad key the 401 in words',
  { skip: skipWithoutChromium(), timeout: 180_000 },
  async (t) => {
    const server = await startTestServer(t, { ingest: [HISTORY_ZIP] });
    const api = async (path: string) => {
      const answer = await read(await server.get(path));
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      return answer.json as Json;
    };
    // Offline for real: anything not addressed to the server is refused and remembered.
    const { browser, page, elsewhere, close } = await openBrowser(t, server.url);
    page.setDefaultTimeout(15_000);
    // A CSP violation is reported as a console error, as is any failed load.
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    // The answers the test provokes (a bad key, a negative amount) are logged as failed loads: counted apart.
    const refused: number[] = [];
    page.on('console', (message) => {
      const status = /^Failed to load resource: the server responded with a status of (\d{3}) /.exec(message.text())?.[1];
      if (status !== undefined) refused.push(Number(status));
      else if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Convert' }).waitFor();

    await t.test('every control has a label, and a panel asked before any key says so in words', async () => {
      const unlabelled = await page.locator('input, select').evaluateAll((controls) =>
        controls.filter((control) => (control as unknown as { labels: { length: number } }).labels.length === 0).map((control) => control.id),
      );
      assert.deepEqual(unlabelled, []);
      await page.getByLabel('Amount').press('Enter');
      assert.equal(await textOf(page, '#convert-output'), 'Enter an API key first (above).');
    });

    await t.test('the key field has no name: a submit without the page\'s script (a GET) cannot put the key in the URL', async () => {
      assert.equal(await page.locator('#key-input').getAttribute('name'), null);
      assert.equal(await page.locator('#key-form').getAttribute('method'), null);
    });

    await t.test('a bad key shows the 401 message in words, and is not kept', async () => {
      await page.getByLabel('API key', { exact: true }).fill(`cr_${'x'.repeat(43)}`);
      await page.getByLabel('API key', { exact: true }).press('Enter');
      await page.locator('#usage[data-kind="error"]').waitFor();
      assert.equal(await textOf(page, '#usage'), INVALID_KEY);
      assert.equal(await page.evaluate(() => (globalThis as unknown as Browser).localStorage.length), 0);
    });

    await t.test('the right key is kept, used again on the next visit, and its usage shown: GET /usage, /currencies and /sources, three requests a visit', async () => {
      await page.getByLabel('API key', { exact: true }).fill(server.key);
      await page.getByLabel('API key', { exact: true }).press('Enter');
      await page.locator('body[data-currencies]').waitFor({ state: 'attached' });
      await page.waitForFunction(() => (globalThis as unknown as Browser).document.querySelector('#usage')?.textContent?.startsWith('Used 3 '));
      const usage = await api('/api/v1/usage');
      const until = String(usage.period_end).slice(0, 16).replace('T', ' ');
      assert.equal(await textOf(page, '#usage'), `Used 3 of ${usage.limit} requests this period; ${Number(usage.limit) - 3} left until ${until} UTC.`);
      assert.equal(await page.evaluate(() => (globalThis as unknown as Browser).localStorage.getItem('currency-rates.api-key')), server.key);
      // Entered once: a new visit uses the kept key (the test's own /usage above was the fourth request).
      // One source enabled (SOURCES=ecb): nothing to pick, so no choice is shown.
      assert.equal(await page.locator('#source-panel').isHidden(), true);
      await page.reload();
      await page.waitForFunction(() => (globalThis as unknown as Browser).document.querySelector('#usage')?.textContent?.startsWith('Used 7 '));
      assert.equal(await page.getByLabel('API key', { exact: true }).inputValue(), server.key);
    });

    const latest = await api(`/api/v1/rates/latest`);
    assert.equal(latest.date, NEWEST);
    const codes = ['EUR', ...Object.keys(latest.rates as Json)];
    const random = seededRandom(SEED);
    const pick = () => codes[Math.floor(random() * codes.length)]!;

    await t.test('the converter shows exactly the API\'s result and rate, for random pairs and amounts, latest and on a past day', async () => {
      for (const date of ['', '2019-07-15']) {
        const [from, to, amount] = [pick(), pick(), randomAmount(random, 9)];
        const query = new URLSearchParams({ from, to, amount, ...(date ? { date } : {}) });
        const expected = await api(`/api/v1/convert?${query}`);
        await page.getByLabel('Amount').fill(amount);
        await page.getByLabel('From').fill(from.toLowerCase());
        await page.getByLabel('To', { exact: true }).fill(to);
        await page.locator('#convert-date').fill(date);
        await page.getByLabel('Amount').press('Enter');
        const result = page.locator('#convert-result');
        await page.locator(`#convert-result[data-result="${String(expected.result)}"][data-date="${String(expected.date)}"]`).waitFor();
        assert.equal(await result.getAttribute('data-rate'), expected.rate);
        assert.equal(await textOf(page, '#convert-result'), `${amount} ${from} = ${String(expected.result)} ${to}`, `${query}`);
        assert.equal(
          await textOf(page, '#convert-output .detail'),
          `1 ${from} = ${String(expected.rate)} ${to}, at the reference rates of ${String(expected.date)}.`,
        );
      }
    });

    await t.test('the chart draws as many points as each range has days in the API', async () => {
      const [base, symbol] = [pick(), pick()];
      await page.getByLabel('Base').first().fill(base);
      await page.getByLabel('Currency', { exact: true }).fill(symbol);
      const firstDays = new Map<string, string>();
      for (const [range, start] of Object.entries(RANGES)) {
        const expected = await api(`/api/v1/rates/${start}..?base=${base}&symbols=${symbol}`);
        const days = Object.keys(expected.rates as Json);
        firstDays.set(range, days[0]!);
        await page.getByLabel('Range').selectOption(range);
        await page.getByRole('button', { name: 'Draw' }).click();
        await page.locator(`#chart[data-points="${days.length}"][data-first="${days[0]}"]`).waitFor();
        assert.equal(await page.locator('#chart').getAttribute('data-last'), NEWEST, range);
        // uPlot holds exactly the days handed to it, and has drawn them on its canvas.
        const drawn = await page.locator('#chart canvas').evaluate((canvas) => (canvas as unknown as { width: number }).width);
        assert.ok(drawn > 0, `${range}: a canvas was drawn`);
        assert.match(await textOf(page, '#chart-output'), new RegExp(`^${symbol} per 1 ${base}, ${days.length} days from ${days[0]} to ${NEWEST}: lowest `));
      }
      // The README's picture shows one year.
      await page.getByLabel('Range').selectOption('1y');
      await page.getByRole('button', { name: 'Draw' }).press('Enter');
      await page.locator(`#chart[data-first="${firstDays.get('1y')}"]`).waitFor();
      // With the pointer away from the chart, the legend shows the last day and its rate, as uPlot formats numbers.
      const newest = (await api(`/api/v1/rates/${NEWEST}?base=${base}&symbols=${symbol}`)).rates as Json;
      const shown = await page.evaluate((rate) => new Intl.NumberFormat((globalThis as unknown as { navigator: { language: string } }).navigator.language).format(rate), Number(newest[symbol]));
      await page.mouse.move(0, 0);
      assert.deepEqual(await page.locator('#chart .u-legend .u-value').allTextContents(), [NEWEST, shown]);
    });

    await t.test('the latest rates of a chosen base are the API\'s strings', async () => {
      const base = pick();
      const expected = await api(`/api/v1/rates/latest?base=${base}`);
      await page.locator('#latest-base').fill(base);
      await page.locator('#latest-base').press('Enter');
      await page.locator('#latest-table:not([hidden])').waitFor();
      await page.waitForFunction((b) => (globalThis as unknown as Browser).document.querySelector('#latest-caption')?.textContent?.includes(`per 1 ${b},`), base);
      const rows = await page.locator('#latest-table tbody tr').evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td.num')?.textContent]),
      );
      assert.deepEqual(Object.fromEntries(rows), expected.rates);
    });

    await t.test('an error of the API is shown in words, not as JSON', async () => {
      await page.getByLabel('Amount').fill('-5');
      await page.getByLabel('Amount').press('Enter');
      await page.locator('#convert-output[data-kind="error"]').waitFor();
      const words = await textOf(page, '#convert-output');
      const answer = await read(await server.get('/api/v1/convert?from=USD&to=JPY&amount=-5'));
      assert.equal(answer.status, 400);
      assert.equal(words, `${String((answer.json as Json).message)}.`);
      assert.doesNotMatch(words, /[{}"]/);
    });

    // The pictures: a converted amount, a year of history and the latest rates, at both widths.
    await page.getByLabel('Amount').fill('100');
    await page.getByLabel('From').fill('USD');
    await page.getByLabel('To', { exact: true }).fill('JPY');
    await page.locator('#convert-date').fill('');
    await page.getByLabel('Amount').press('Enter');
    await page.locator('#convert-output[data-kind="info"] #convert-result').waitFor();
    const shots = process.env.UPDATE_SCREENSHOT === '1' ? join(ROOT, 'docs') : tempDir(t);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'web-page-desktop.png'), fullPage: true });

    await t.test('at phone width (375 px) nothing is wider than the screen, and the chart follows the width', async () => {
      await page.setViewportSize({ width: 375, height: 812 });
      await page.waitForFunction(() => ((globalThis as unknown as Browser).document.querySelector('#chart canvas')?.getBoundingClientRect().width ?? 999) <= 375);
      assert.equal(await page.evaluate(() => (globalThis as unknown as Browser).document.documentElement.scrollWidth), 375);
      await page.screenshot({ path: join(shots, 'web-page-phone.png'), fullPage: true });
    });

    await t.test('/docs links to the page, and the link leads to it', async () => {
      const docs = await browser.newPage();
      await docs.goto(`${server.url}/docs`);
      // Swagger UI opens the description's links in a new tab.
      const link = docs.locator('.info a[href="/"]');
      assert.equal(await link.getAttribute('target'), '_blank');
      const [opened] = await Promise.all([browser.waitForEvent('page'), link.click()]);
      await opened.getByRole('heading', { name: 'Convert', exact: true }).waitFor();
      assert.equal(opened.url(), `${server.url}/`);
      await opened.close();
      await docs.close();
    });

    await close(); // before the server stops: see openBrowser
    assert.deepEqual(elsewhere, [], 'the page asked for nothing outside the server');
    assert.deepEqual(problems, [], 'no script error, failed load or CSP violation');
    assert.deepEqual(refused, [401, 400], 'the only failed loads: the bad key, the negative amount');
  },
);

async function textOf(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}
