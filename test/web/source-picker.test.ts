import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowser, skipWithoutChromium } from '../helpers/chromium.js';
import { HISTORY_ZIP } from '../helpers/ecb-history-csv.js';
import { PROVIDER_FILES, PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';
import { read, startTestServer } from '../helpers/test-server.js';

/**
 * The source picker of the page at `/` in Debian's headless Chromium, with the ECB's history,
 * NBP's tables A and B and the CNB's year enabled as `cnb,ecb,nbp` (the fixtures of
 * test/http/source-parameter.test.ts): by default the page shows the blend (the CNB's figures
 * first); a bank picked, by keyboard or pointer, sends `source=ID` on every rate request, the
 * figures shown are the API's answer for that source, and the answer names the bank.
 */

const ORDER = 'cnb,ecb,nbp';
const DAY = '2026-03-04';
/** NBP's newest recorded day; the page's one-month range of NBP then starts a month before it. */
const NBP_NEWEST = '2026-03-05';
const NBP_MONTH_START = '2026-02-05';
const DEFAULT_CHOICE = 'Each rate from the first bank that publishes it (default)';
/** The countries /sources gives these banks, as a reader reads them. */
const COUNTRY_NAMES: Record<string, string> = { CZ: 'Czechia', EU: 'European Union', PL: 'Poland' };

type Json = Record<string, unknown>;
type Browser = { document: { querySelector(selector: string): { textContent: string | null } | null } };
type Source = { id: string; name: string; country: string; rate_type: string; cadence: string; first_day: string; last_day: string };

test(
  'when several sources are enabled, then / offers them, asks the picked one with source=ID, shows its figures and names the bank; the default shows the blend',
  { skip: skipWithoutChromium(), timeout: 180_000 },
  async (t) => {
    const server = await startTestServer(t, {
      ingest: [HISTORY_ZIP],
      ingestSources: [
        { source: 'nbp', file: join(PROVIDER_FIXTURES, PROVIDER_FILES.nbpA) },
        { source: 'nbp', file: join(PROVIDER_FIXTURES, PROVIDER_FILES.nbpB) },
        { source: 'cnb', file: join(PROVIDER_FIXTURES, PROVIDER_FILES.cnb) },
      ],
      env: { SOURCES: ORDER },
    });
    const api = async (path: string) => {
      const answer = await read(await server.get(path));
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      return answer.json as Json;
    };
    const sources = (await api('/api/v1/sources')) as unknown as Source[];
    assert.deepEqual(sources.map(({ id, country }) => [id, country]), [['cnb', 'CZ'], ['ecb', 'EU'], ['nbp', 'PL']]);
    const bank = (id: string) => {
      const source = sources.find((s) => s.id === id)!;
      return `${source.name} (${COUNTRY_NAMES[source.country]!})`;
    };
    assert.equal(bank('nbp'), 'Narodowy Bank Polski (Poland)');

    const { page, elsewhere, close } = await openBrowser(t, server.url);
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    // Every rate question the page sends, as its URL: the source it carries is checked below.
    const rateRequests: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (/^\/api\/v1\/(rates|convert)/.test(url.pathname)) rateRequests.push(url);
    });
    const sentSince = (count: number) => rateRequests.slice(count).map((url) => url.searchParams.getAll('source').join(','));

    await page.goto(`${server.url}/`);
    assert.equal(await page.locator('#source-panel').isHidden(), true, 'no choice before the key tells the sources');
    await page.getByLabel('API key', { exact: true }).fill(server.key);
    await page.getByLabel('API key', { exact: true }).press('Enter');
    await page.locator('#source-panel:not([hidden])').waitFor();
    const picker = page.getByRole('combobox', { name: 'Bank', exact: true });

    await t.test('the choice lists the default first, then each enabled bank by name and country, in the server\'s order', async () => {
      const options = (await picker.locator('option').allTextContents()).map((text) => text.trim());
      assert.deepEqual(options, [DEFAULT_CHOICE, bank('cnb'), bank('ecb'), bank('nbp')]);
      assert.equal(await picker.inputValue(), '');
      assert.equal(await textOf(page, '#source-detail'), 'Each rate comes from the first of the 3 enabled banks that publishes it that day, in the server\'s order.');
    });

    const convert = async (from: string, to: string, amount: string, date: string) => {
      await page.getByLabel('Amount').fill(amount);
      await page.getByLabel('From').fill(from);
      await page.getByLabel('To', { exact: true }).fill(to);
      await page.locator('#convert-date').fill(date);
      await page.getByLabel('Amount').press('Enter');
    };
    const blendUsd = await api(`/api/v1/convert?from=EUR&to=USD&amount=100&date=${DAY}`);
    const nbpUsd = await api(`/api/v1/convert?from=EUR&to=USD&amount=100&date=${DAY}&source=nbp`);
    const ecbUsd = await api(`/api/v1/convert?from=EUR&to=USD&amount=100&date=${DAY}&source=ecb`);
    // Three different figures, so the page's answer tells which one it asked for.
    assert.equal(new Set([blendUsd.result, nbpUsd.result, ecbUsd.result]).size, 3);

    await t.test('by default the converter and the latest rates show the blend\'s figures, name no bank, and send no source', async () => {
      const before = rateRequests.length;
      await convert('EUR', 'USD', '100', DAY);
      await page.locator(`#convert-result[data-result="${String(blendUsd.result)}"]`).waitFor();
      assert.equal(await page.locator('#convert-result').getAttribute('data-rate'), blendUsd.rate);
      assert.equal(await page.locator('#convert-output .source-note').count(), 0);

      const latest = await api('/api/v1/rates/latest?base=EUR');
      await page.locator('#latest-base').fill('EUR');
      await page.locator('#latest-base').press('Enter');
      await page.waitForFunction((date) => (globalThis as unknown as Browser).document.querySelector('#latest-caption')?.textContent === `Units of each currency per 1 EUR, ${date}`, String(latest.date));
      const rows = await page.locator('#latest-table tbody tr').evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td.num')?.textContent]),
      );
      assert.deepEqual(Object.fromEntries(rows), latest.rates);
      assert.equal(await page.locator('#latest-output .source-note').count(), 0);
      assert.deepEqual(sentSince(before), ['', '']);
    });

    await t.test('a bank picked by keyboard: the converter shows that bank\'s answer and names it', async () => {
      await picker.focus();
      for (let i = 0; i < 3; i += 1) await picker.press('ArrowDown');
      assert.equal(await picker.inputValue(), 'nbp');
      const nbp = sources.find((s) => s.id === 'nbp')!;
      assert.equal(
        await textOf(page, '#source-detail'),
        `${bank('nbp')}: ${nbp.rate_type}, ${nbp.cadence}; rates stored here from ${nbp.first_day} to ${nbp.last_day}. Every answer below is asked of its figures alone.`,
      );
      const before = rateRequests.length;
      await convert('EUR', 'USD', '100', DAY);
      await page.locator(`#convert-result[data-result="${String(nbpUsd.result)}"]`).waitFor();
      assert.equal(await page.locator('#convert-result').getAttribute('data-rate'), nbpUsd.rate);
      assert.equal(await textOf(page, '#convert-result'), `100 EUR = ${String(nbpUsd.result)} USD`);
      assert.equal(await textOf(page, '#convert-output .source-note[data-source="nbp"]'), `Rates from ${bank('nbp')} alone.`);
      assert.deepEqual(sentSince(before), ['nbp']);
    });

    await t.test('the chart of a bank ends on that bank\'s newest day, with one point per day of its range', async () => {
      const expected = await api(`/api/v1/rates/${NBP_MONTH_START}..?base=EUR&symbols=USD&source=nbp`);
      const days = Object.keys(expected.rates as Json);
      assert.equal(days.at(-1), NBP_NEWEST);
      const before = rateRequests.length;
      await page.getByLabel('Base').first().fill('EUR');
      await page.getByLabel('Currency', { exact: true }).fill('USD');
      await page.getByLabel('Range').selectOption('1m');
      await page.getByRole('button', { name: 'Draw' }).click();
      await page.locator(`#chart[data-points="${days.length}"][data-first="${days[0]}"][data-last="${NBP_NEWEST}"]`).waitFor();
      await page.locator('#chart-output .source-note[data-source="nbp"]').waitFor();
      assert.ok((await textOf(page, '#chart-output')).startsWith(`USD per 1 EUR, ${days.length} days from ${days[0]} to ${NBP_NEWEST}: lowest `));
      assert.equal(await textOf(page, '#chart-output .source-note'), `Rates from ${bank('nbp')} alone.`);
      // The blend's newest day is known (the default's latest rates above), NBP's not: asked first, then the range.
      assert.deepEqual(sentSince(before), ['nbp', 'nbp']);
      assert.deepEqual(rateRequests.slice(before).map((url) => url.pathname), ['/api/v1/rates/latest', `/api/v1/rates/${NBP_MONTH_START}..`]);
    });

    await t.test('with a bank picked, the latest rates are that bank\'s, on its own newest day, and the bank is named', async () => {
      const expected = await api('/api/v1/rates/latest?base=USD&source=nbp');
      assert.equal(expected.date, NBP_NEWEST);
      const blend = await api('/api/v1/rates/latest?base=USD');
      assert.notEqual(blend.date, expected.date, 'the blend\'s newest day is not NBP\'s');
      const before = rateRequests.length;
      await page.locator('#latest-base').fill('USD');
      await page.locator('#latest-base').press('Enter');
      await page.locator('#latest-output .source-note[data-source="nbp"]').waitFor();
      const rows = await page.locator('#latest-table tbody tr').evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td.num')?.textContent]),
      );
      assert.deepEqual(Object.fromEntries(rows), expected.rates);
      assert.equal(await textOf(page, '#latest-caption'), `Units of each currency per 1 USD, ${NBP_NEWEST}, from ${bank('nbp')}`);
      assert.equal(await textOf(page, '#latest-output .source-note'), `Rates from ${bank('nbp')} alone.`);
      assert.deepEqual(sentSince(before), ['nbp']);
    });

    await t.test('another bank picked from the list: the ECB\'s own figures, where the blend takes the CNB\'s', async () => {
      const ecbGbp = await api(`/api/v1/convert?from=GBP&to=JPY&amount=1234.567&date=${DAY}&source=ecb`);
      const blendGbp = await api(`/api/v1/convert?from=GBP&to=JPY&amount=1234.567&date=${DAY}`);
      assert.notEqual(ecbGbp.result, blendGbp.result);
      await picker.selectOption({ label: bank('ecb') });
      const before = rateRequests.length;
      await convert('GBP', 'JPY', '1234.567', DAY);
      await page.locator(`#convert-result[data-result="${String(ecbGbp.result)}"]`).waitFor();
      assert.equal(await textOf(page, '#convert-output .source-note[data-source="ecb"]'), `Rates from ${bank('ecb')} alone.`);
      assert.deepEqual(sentSince(before), ['ecb']);

      // Back to the default: the blend again, no bank named, no source sent.
      await picker.selectOption('');
      const again = rateRequests.length;
      await convert('GBP', 'JPY', '1234.567', DAY);
      await page.locator(`#convert-result[data-result="${String(blendGbp.result)}"]`).waitFor();
      assert.equal(await page.locator('#convert-output .source-note').count(), 0);
      assert.deepEqual(sentSince(again), ['']);
    });

    await close(); // before the server stops: see openBrowser
    assert.deepEqual(elsewhere, [], 'the page asked for nothing outside the server');
    assert.deepEqual(problems, [], 'no script error, failed load or CSP violation');
  },
);

async function textOf(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').trim();
}
