import assert from 'node:assert/strict';
import { test } from 'node:test';
import { convert, exchangeRates } from 'exchange-rates-api';
import oxr from 'oxr';
import { startDropInServer, usedBy } from '../../helpers/drop-in-expect.js';

/**
 * Real client code, unchanged, pointed at the service (DECISIONS §16): the npm packages `oxr`
 * (by its own hostname/protocol/port options, with an app_id) and `exchange-rates-api` (by its own
 * setApiBaseUrl, for the calls it shares with Frankfurter v1, and for its convert(), which has no
 * such setting, by its host rewritten; it sends no key, so COMPAT_KEY carries them), and the
 * requests Sure's Frankfurter provider makes. Each value asserted is the
 * native API's exact string for the same question, read as a number, and is checked against it:
 * both ways are asked, both answer.
 */

test('the third-party clients read exact values from the drop-in paths', async (t) => {
  const server = await startDropInServer(t, { env: { COMPAT_KEY: 'test' } });
  const port = Number(new URL(server.url).port);
  /** The native API's rate of `quote` in `base` (on `day`, else the latest), as its exact string. */
  const native = async (base: string, quote: string, day = 'latest') => {
    const answer = await server.get(`/api/v1/rates/${day}?base=${base}&symbols=${quote}`);
    assert.equal(answer.status, 200);
    return ((await answer.json()) as { rates: Record<string, string> }).rates[quote]!;
  };

  await t.test('when the oxr package asks latest() with base and symbols, then the exact rates', async () => {
    const service = oxr.factory({ appId: server.key, protocol: 'http', hostname: '127.0.0.1', port });
    const latest = await service.latest({ base: 'GBP', symbols: 'EUR,JPY' });
    assert.equal(latest.base, 'GBP');
    assert.equal(latest.timestamp, Date.UTC(2026, 3, 13) / 1000);
    assert.deepEqual(latest.rates, { EUR: 1.14866, JPY: 214.512164 });
    assert.equal(await native('GBP', 'JPY'), '214.512164');
    assert.equal(latest.rates['JPY'], Number(await native('GBP', 'JPY')));
  });

  await t.test('when the oxr package asks historical() in its default base, then that day\'s rates in US dollars', async () => {
    const service = oxr.factory({ appId: server.key, protocol: 'http', hostname: '127.0.0.1', port });
    const day = await service.historical('2026-04-10', { symbols: 'EUR,HUF' });
    assert.equal(day.base, 'USD');
    // 1 / 1.1711 = 0.85389804…; 377.2 / 1.1711 = 322.09034241…
    assert.deepEqual(day.rates, { EUR: 0.853898, HUF: 322.090342 });
    assert.equal(day.rates['HUF'], Number(await native('USD', 'HUF', '2026-04-10')));
  });

  await t.test('when the oxr package asks currencies(), then the served list', async () => {
    const service = oxr.factory({ appId: server.key, protocol: 'http', hostname: '127.0.0.1', port });
    assert.deepEqual(Object.keys(await service.currencies()), ['BGN', 'CHF', 'EUR', 'GBP', 'HUF', 'JPY', 'USD']);
  });

  await t.test('when the oxr package sends a wrong app_id, then it rejects with OXR\'s error', async () => {
    const service = oxr.factory({ appId: 'not-a-key', protocol: 'http', hostname: '127.0.0.1', port });
    await assert.rejects(service.latest(), (error: unknown) => {
      assert.ok(error instanceof oxr.OxrError);
      assert.equal(error.status, 401);
      assert.equal(error.message, 'invalid_app_id');
      assert.equal(error.description, 'Invalid API key');
      return true;
    });
  });

  await t.test('when exchange-rates-api asks latest with base and symbols, then the exact rates, charged to COMPAT_KEY', async () => {
    const before = await usedBy(server.url, server.key);
    const rates = await exchangeRates().setApiBaseUrl(`${server.url}/v1/`).latest().base('USD').symbols(['EUR', 'JPY']).fetch();
    assert.deepEqual(rates, { EUR: 0.855871, JPY: 159.833961 });
    const single = await exchangeRates().setApiBaseUrl(`${server.url}/v1`).latest().base('USD').symbols('HUF').fetch();
    assert.equal(single, Number(await native('USD', 'HUF')));
    assert.equal(single, 314.019172);
    // Two client requests, the native one and the two usage requests.
    assert.equal(await usedBy(server.url, server.key), before + 2 + 1 + 1);
  });

  await t.test('when exchange-rates-api asks a Sunday, then the Friday before', async () => {
    const rates = await exchangeRates().setApiBaseUrl(`${server.url}/v1`).at('2026-04-12').symbols(['USD', 'GBP']).fetch();
    assert.deepEqual(rates, { GBP: 0.87105, USD: 1.1711 });
  });

  await t.test('when exchange-rates-api\'s own convert() asks, its hard-wired host alone rewritten, then the amount at the exact rate', async () => {
    // convert() makes its own client on https://api.ratesapi.io, with no base-URL setting: the
    // fetch it calls (the global one) gets that origin replaced by the service's Frankfurter v1 paths.
    const realFetch = globalThis.fetch;
    const asked: string[] = [];
    globalThis.fetch = (input, init) => {
      const url = String(input);
      asked.push(url);
      return realFetch(url.replace(/^https:\/\/api\.ratesapi\.io\//, `${server.url}/v1/`), init);
    };
    try {
      const latest = await convert(250, 'USD', 'JPY');
      const friday = await convert(1000, 'GBP', 'HUF', '2026-04-12');
      assert.deepEqual(asked, ['https://api.ratesapi.io/latest?base=USD&symbols=JPY', 'https://api.ratesapi.io/2026-04-12?base=GBP&symbols=HUF']);
      // The client multiplies in its own floats: the amount times the rate the service wrote.
      assert.equal(await native('USD', 'JPY'), '159.833961');
      assert.equal(latest, 250 * 159.833961);
      // A Sunday: Friday 2026-04-10's rate, 377.2 / 0.87105 = 433.04058320…
      assert.equal(await native('GBP', 'HUF', '2026-04-10'), '433.040583');
      assert.equal(friday, 1000 * 433.040583);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  await t.test('when Sure\'s Frankfurter provider asks one pair on a date and a range, then the exact values', async () => {
    // Sure (FRANKFURTER_URL): GET /v2/rate/{from}/{to}?date=, then GET /v2/rates?base&quotes&from&to.
    const base = server.url;
    const one = await fetch(`${base}/v2/rate/USD/GBP?date=2026-04-13`);
    assert.equal(one.status, 200);
    const pair = (await one.json()) as { date: string; base: string; quote: string; rate: number };
    assert.deepEqual(pair, { date: '2026-04-13', base: 'USD', quote: 'GBP', rate: 0.745104 });
    assert.equal(pair.rate, Number(await native('USD', 'GBP', '2026-04-13')));

    const many = await fetch(`${base}/v2/rates?base=USD&quotes=GBP&from=2026-04-09&to=2026-04-13`);
    assert.equal(many.status, 200);
    const series = (await many.json()) as { date: string; base: string; quote: string; rate: number }[];
    assert.deepEqual(
      series.map(({ date, rate }) => [date, rate]),
      // 0.87105 / 1.1711 = 0.74378789…; 0.87058 / 1.1684 = 0.74510441…
      [
        ['2026-04-10', 0.743788],
        ['2026-04-13', 0.745104],
      ],
    );
    assert.equal(series[0]!.rate, Number(await native('USD', 'GBP', '2026-04-10')));
  });
});
