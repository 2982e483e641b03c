import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { DEFAULT_TRACKED } from '../../../src/domain/currencies.js';
import { Day } from '../../../src/domain/day.js';
import { RatesSnapshot } from '../../../src/domain/snapshot.js';
import { OXR_PREAMBLE } from '../../../src/http/drop-in/oxr-rates.js';
import { historyCsvText, HISTORY_ZIP, parseHistoryCsv } from '../../helpers/ecb-history-csv.js';
import { expectedRange } from '../../helpers/range-oracle.js';
import { loadWebFiles } from '../../../src/http/routes/web-page.js';
import { FIXTURES, read, startTestApp, startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * DECISIONS §14 on the drop-in ranges (DECISIONS §16): a whole-history answer is produced day by
 * day in pieces that take their turns of the event loop, so other requests are answered between
 * them, and its bytes are those the whole-body writer gave: hand-checked ends, the day count,
 * and every byte against the BigInt oracle (test/helpers/range-oracle.ts).
 */

const history = parseHistoryCsv(await historyCsvText());
/** Days in eurofxref-hist.csv, 1999-01-04 .. 2026-04-13. */
const DAYS = 6983;
const LATEST = '/api/v1/rates/latest';

/** A 6-place decimal as the peers' JSON number: trailing fractional zeros dropped (written here, not by money.ts). */
const number = (text: string) => text.replace(/\.?0+$/, '');

/** The rates of one day as a JSON object of numbers, the oracle's order (alphabetical), `without` left out. */
const ratesText = (rates: Record<string, string>, without?: string) =>
  `{${Object.entries(rates)
    .filter(([code]) => code !== without)
    .map(([code, rate]) => `"${code}":${number(rate)}`)
    .join(',')}}`;

/** The whole history in `base`, every tracked currency, from the oracle. */
function wholeHistory(base: string) {
  const range = expectedRange(history, '1999-01-04', undefined, base, DEFAULT_TRACKED);
  if (range === undefined) throw new Error(`oracle: no days for ${base}`);
  return range;
}

/** How the server produced one answer: the rates it read (Day.rate) in each turn of the event loop. */
interface Production {
  total(): number;
  byTurn: Map<number, number>;
  stop(): void;
}

/** Counts the rates the server reads from now on, by turn of the event loop (one tick per turn). */
function watchProduction(t: TestContext): Production {
  let turn = 0;
  let ticking = true;
  let total = 0;
  const byTurn = new Map<number, number>();
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  // By hand, not t.mock.method: that records every call, and the whole history reads 200,000 rates.
  const rate = Day.prototype.rate;
  Day.prototype.rate = function counted(this: Day, code: string) {
    total++;
    byTurn.set(turn, (byTurn.get(turn) ?? 0) + 1);
    return rate.call(this, code);
  };
  const stop = () => {
    ticking = false;
    Day.prototype.rate = rate;
  };
  t.after(stop);
  return { total: () => total, byTurn, stop };
}

/**
 * GET `path` while /health and a kept latest are asked again and again: the answer's text, and
 * how many of those probes were answered while the answer was being produced (some of its rates
 * read, not all), which a body built in one piece of work leaves at none.
 */
async function producedWhileProbed(t: TestContext, server: TestServer, path: string) {
  assert.equal((await server.get(LATEST)).status, 200, 'latest, now kept');
  const production = watchProduction(t);
  let finished = false;
  const heavy = server
    .get(path)
    .then(read)
    .finally(() => (finished = true));
  const readWhenAnswered: number[] = [];
  while (!finished) {
    for (const probe of ['/health', LATEST]) {
      const answer = await server.get(probe);
      await answer.arrayBuffer();
      assert.equal(answer.status, 200, probe);
      readWhenAnswered.push(production.total());
    }
  }
  const answer = await heavy;
  production.stop();
  const total = production.total();
  const between = readWhenAnswered.filter((reads) => reads > 0 && reads < total).length;
  const largest = Math.max(...production.byTurn.values());
  return { answer, total, between, turns: production.byTurn.size, largest };
}

function assertInPieces(t: TestContext, produced: Awaited<ReturnType<typeof producedWhileProbed>>) {
  const { total, between, turns, largest } = produced;
  t.diagnostic(`${between} probes answered meanwhile; ${total} rates read over ${turns} turns, at most ${largest} in one`);
  assert.ok(between >= 3, `probes answered while the answer was produced: ${between}`);
  assert.ok(turns >= 20, `its rates were read over ${turns} turns of the event loop`);
  assert.ok(largest <= total / 20, `no turn read more than a twentieth of them (largest: ${largest} of ${total})`);
}

test('drop-in ranges of the whole history, in pieces', async (t) => {
  const server = await startTestServer(t, { ingest: [HISTORY_ZIP] }, { webFiles: loadWebFiles(`${FIXTURES}web-page/`) });
  const kept = new Map<string, string>();

  await t.test('when /v1/1999-01-04.. is produced, then /health and a kept latest are answered between its pieces, and it is the whole-body answer', async (t) => {
    const produced = await producedWhileProbed(t, server, '/v1/1999-01-04..');
    const { answer } = produced;
    kept.set('/v1/1999-01-04..', answer.text);
    assert.equal(answer.status, 200, answer.text);
    assertInPieces(t, produced);
    // The ECB's first and last days, as eurofxref-hist.csv quotes them, in euros.
    assert.ok(
      answer.text.startsWith('{"amount":1,"base":"EUR","start_date":"1999-01-04","end_date":"2026-04-13","rates":{"1999-01-04":{"AUD":1.91,"CAD":1.8004,"CHF":1.6168,"CZK":35.107,'),
      answer.text.slice(0, 200),
    );
    assert.ok(answer.text.endsWith(',"THB":37.728,"TRY":52.2478,"USD":1.1684,"ZAR":19.3849}}}'), answer.text.slice(-200));
    assert.equal(Object.keys((answer.json as { rates: object }).rates).length, DAYS);
    const oracle = wholeHistory('EUR');
    const days = Object.entries(oracle.rates).map(([date, rates]) => `"${date}":${ratesText(rates, 'EUR')}`);
    assert.equal(answer.text, `{"amount":1,"base":"EUR","start_date":"1999-01-04","end_date":"2026-04-13","rates":{${days.join(',')}}}`);
  });

  await t.test('when an OXR time-series of the whole history is produced, then the probes are answered between its pieces, and it is the whole-body answer', async (t) => {
    const produced = await producedWhileProbed(t, server, '/api/time-series.json?start=1999-01-04&end=2026-04-13');
    const { answer } = produced;
    kept.set('/api/time-series.json?start=1999-01-04&end=2026-04-13', answer.text);
    assert.equal(answer.status, 200, answer.text);
    assertInPieces(t, produced);
    // In dollars (OXR's default base): 1.91 / 1.1789 = 1.6201543…; on the last day 19.3849 / 1.1684 = 16.5909791…
    assert.ok(
      answer.text.startsWith(`{${OXR_PREAMBLE},"start_date":"1999-01-04","end_date":"2026-04-13","base":"USD","rates":{"1999-01-04":{"AUD":1.620154,`),
      answer.text.slice(0, 400),
    );
    assert.ok(answer.text.endsWith(',"USD":1,"ZAR":16.590979}}}'), answer.text.slice(-200));
    assert.equal(Object.keys((answer.json as { rates: object }).rates).length, DAYS);
    const oracle = wholeHistory('USD');
    const days = Object.entries(oracle.rates).map(([date, rates]) => `"${date}":${ratesText(rates)}`);
    assert.equal(answer.text, `{${OXR_PREAMBLE},"start_date":"1999-01-04","end_date":"2026-04-13","base":"USD","rates":{${days.join(',')}}}`);
  });

  await t.test('when /v2/rates?from=1999-01-04 is produced, then the probes are answered between its pieces, and it is the whole-body answer', async (t) => {
    const produced = await producedWhileProbed(t, server, '/v2/rates?from=1999-01-04');
    const { answer } = produced;
    kept.set('/v2/rates?from=1999-01-04', answer.text);
    assert.equal(answer.status, 200, answer.text.slice(0, 200));
    assertInPieces(t, produced);
    assert.ok(answer.text.startsWith('[{"date":"1999-01-04","base":"EUR","quote":"AUD","rate":1.91},{"date":"1999-01-04","base":"EUR","quote":"CAD","rate":1.8004},'));
    assert.ok(answer.text.endsWith(',{"date":"2026-04-13","base":"EUR","quote":"ZAR","rate":19.3849}]'), answer.text.slice(-200));
    const oracle = wholeHistory('EUR');
    const records = Object.entries(oracle.rates).flatMap(([date, rates]) =>
      Object.entries(rates).map(([quote, rate]) => `{"date":"${date}","base":"EUR","quote":"${quote}","rate":${number(rate)}}`),
    );
    assert.equal(new Set((answer.json as { date: string }[]).map((record) => record.date)).size, DAYS);
    assert.equal(answer.text, `[${records.join(',')}]`);
  });

  await t.test('when none of them can be kept (RESPONSE_CACHE_MB=1), then each is written again as the client reads it, the same bytes', async (t) => {
    const small = await startTestApp(t, { ingest: [HISTORY_ZIP], env: { RESPONSE_CACHE_MB: '1' } });
    assert.equal(kept.size, 3);
    const passes = t.mock.method(RatesSnapshot.prototype, 'daysBetween');
    for (const [path, text] of kept) {
      const before = passes.mock.callCount();
      const again = await read(await small.get(path));
      assert.equal(again.status, 200, path);
      assert.equal(passes.mock.callCount() - before, 2, `${path}: a first pass for the ETag and length, a second for the bytes`);
      assert.equal(again.headers.get('content-length'), String(Buffer.byteLength(text)), path);
      assert.ok(again.text === text, `${path}: the same ${Buffer.byteLength(text)} bytes`);
    }
  });
});
