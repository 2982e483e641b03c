import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowser, skipWithoutChromium } from '../helpers/chromium.js';
import { read, startTestServer } from '../helpers/test-server.js';

/**
 * The currency fields of the page at `/` in Debian's headless Chromium: typing part of a code or
 * of a name shows the matching currencies with their names, as /api/v1/currencies names them
 * (SOURCES=all: 160), as an ARIA combobox; the keyboard or the pointer takes one, and the
 * converter then answers for the codes taken.
 */

type Currency = { code: string; name: string };

test(
  'when part of a code or a name is typed in a currency field, then the matching currencies are suggested with their names, and one can be taken',
  { skip: skipWithoutChromium(), timeout: 120_000 },
  async (t) => {
    const server = await startTestServer(t, { ingest: ['daily.xml'], env: { SOURCES: 'all' } });
    const api = async (path: string) => {
      const answer = await read(await server.get(path));
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      return answer.json;
    };
    const names = new Map((await api('/api/v1/currencies') as Currency[]).map(({ code, name }) => [code, name]));
    assert.equal(names.size, 160);
    const shown = (...codes: string[]) => codes.map((code) => `${code} ${names.get(code)!}`);

    const { page, elsewhere, close } = await openBrowser(t, server.url);
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    await page.goto(`${server.url}/`);
    await page.getByLabel('API key', { exact: true }).fill(server.key);
    await page.getByLabel('API key', { exact: true }).press('Enter');
    await page.locator('body[data-currencies="160"]').waitFor({ state: 'attached' });

    const from = page.getByRole('combobox', { name: 'From' });
    const to = page.getByRole('combobox', { name: 'To', exact: true });
    const fromList = page.getByRole('listbox').and(page.locator('#convert-from-suggestions'));
    const toList = page.locator('#convert-to-suggestions');

    await t.test('a word of the name ("won") suggests each currency so named, code and name, as a listbox the field controls', async () => {
      await from.fill('');
      await from.pressSequentially('won');
      await fromList.waitFor();
      assert.deepEqual(await optionTexts(page, '#convert-from-suggestions'), shown('KPW', 'KRW'));
      assert.deepEqual(shown('KPW', 'KRW'), ['KPW North Korean Won', 'KRW South Korean Won']);
      assert.equal(await from.getAttribute('aria-expanded'), 'true');
      assert.equal(await from.getAttribute('aria-controls'), 'convert-from-suggestions');
      assert.equal(await page.getByRole('option', { name: 'KRW South Korean Won' }).count(), 1);
    });

    await t.test('the arrow keys move through the suggestions and Enter takes one, without submitting the form', async () => {
      await from.press('ArrowDown');
      await from.press('ArrowDown');
      const second = page.locator('#convert-from-suggestions [role="option"]').nth(1);
      assert.equal(await from.getAttribute('aria-activedescendant'), await second.getAttribute('id'));
      assert.equal(await second.getAttribute('aria-selected'), 'true');
      await from.press('Enter');
      assert.equal(await from.inputValue(), 'KRW');
      assert.equal(await fromList.isHidden(), true);
      assert.equal(await from.getAttribute('aria-expanded'), 'false');
      assert.equal(await page.locator('#convert-output').textContent(), '', 'nothing was converted');
    });

    await t.test('the start of a code suggests the codes so beginning first, then names holding it; a click takes one', async () => {
      await to.fill('');
      await to.pressSequentially('xa');
      await toList.waitFor();
      assert.deepEqual(await optionTexts(page, '#convert-to-suggestions'), shown('XAF', 'XAG', 'XAU'));
      await page.getByRole('option', { name: 'XAU Gold' }).click();
      assert.equal(await to.inputValue(), 'XAU');
      assert.equal(await toList.isHidden(), true);
    });

    await t.test('a name typed in any case, accents aside, finds its currency; Escape closes the suggestions', async () => {
      await to.fill('');
      await to.pressSequentially('COLON');
      await toList.waitFor();
      assert.deepEqual(await optionTexts(page, '#convert-to-suggestions'), shown('CRC', 'SVC'));
      assert.deepEqual(shown('CRC', 'SVC'), ['CRC Costa Rican Colón', 'SVC Salvadoran Colón']);
      await to.press('Escape');
      assert.equal(await toList.isHidden(), true);
      assert.equal(await to.inputValue(), 'COLON', 'Escape leaves what was typed');
    });

    await t.test('the codes taken from names convert as the API does', async () => {
      for (const [field, typed, code] of [[from, 'swiss', 'CHF'], [to, 'japan', 'JPY']] as const) {
        await field.fill('');
        await field.pressSequentially(typed);
        await page.locator(`[role="option"][data-code="${code}"]`).waitFor();
        await field.press('ArrowDown');
        await field.press('Enter');
        assert.equal(await field.inputValue(), code);
      }
      const expected = (await api('/api/v1/convert?from=CHF&to=JPY&amount=100')) as { result: string; date: string };
      await page.getByLabel('Amount').fill('100');
      await page.getByLabel('Amount').press('Enter');
      await page.locator(`#convert-result[data-result="${expected.result}"]`).waitFor();
      assert.equal(expected.date, '2026-07-06');
    });

    await t.test('at phone width (375 px) the suggestions of every field stay on the screen', async () => {
      await page.setViewportSize({ width: 375, height: 812 });
      for (const id of ['convert-from', 'convert-to', 'chart-base', 'chart-symbol', 'latest-base']) {
        const field = page.locator(`#${id}`);
        await field.fill('');
        await field.pressSequentially('bo'); // Bosnia-Herzegovina Convertible Mark, the longest name among them
        await page.locator(`#${id}-suggestions`).waitFor();
        const box = (await page.locator(`#${id}-suggestions`).boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= 375, `${id}: the list spans ${box.x}..${box.x + box.width}`);
        assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth), 375, id);
        await field.press('Escape');
      }
    });

    await close(); // before the server stops: see openBrowser
    assert.deepEqual(elsewhere, [], 'the page asked for nothing outside the server');
    assert.deepEqual(problems, [], 'no script error, failed load or CSP violation');
  },
);

async function optionTexts(page: Page, list: string): Promise<string[]> {
  return (await page.locator(`${list} [role="option"]`).allTextContents()).map((text) => text.trim());
}
