import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { RatesSnapshot } from '../../src/domain/snapshot.js';
import { expectError, MSG, noDataInRange } from '../helpers/http-expect.js';
import { read, startTestApp } from '../helpers/test-server.js';

/**
 * DECISIONS §14 over HTTP: `format=json|csv|ndjson` on ranges (winning over Accept), NDJSON, and
 * unknown parameters that neither change an answer nor make it computed again. hist.csv's values
 * are worked out by hand in test/fixtures/README.md.
 */

const V1 = '/api/v1';
const NDJSON_TYPE = 'application/x-ndjson; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const FORMAT = 'format must be one of: json, csv, ndjson';
const PRECISION = 'precision must be an integer from 0 to 12';
const RANGE = '/rates/2025-12-31..2026-04-13?symbols=usd,BGN';

test('range formats over hist.csv', async (t) => {
  const server = await startTestApp(t, { ingest: ['hist.csv'] });
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => server.get(V1 + path, { headers, method });

  await t.test('when format=ndjson is asked, then one line per day, {"date","base","rates"}, each ended by \\n', async () => {
    const answer = await read(await get(`${RANGE}&format=ndjson`));
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers.get('content-type'), NDJSON_TYPE);
    assert.equal(answer.headers.get('vary'), 'Accept');
    assert.equal(
      answer.text,
      '{"date":"2025-12-31","base":"EUR","rates":{"BGN":"1.955800","USD":"1.175000"}}\n' +
        '{"date":"2026-04-10","base":"EUR","rates":{"USD":"1.171100"}}\n' +
        '{"date":"2026-04-13","base":"EUR","rates":{"USD":"1.168400"}}\n',
    );
    assert.equal(answer.headers.get('etag'), `"${createHash('sha1').update(answer.text).digest('base64url')}"`);
  });

  await t.test('when Accept: application/x-ndjson is sent, then the same bytes as format=ndjson, each line the JSON answer\'s day', async () => {
    const byAccept = await read(await get('/rates/2026-04-10..?base=USD', { accept: 'application/x-ndjson' }));
    const byFormat = await read(await get('/rates/2026-04-10..?base=USD&format=ndjson'));
    assert.equal(byAccept.headers.get('content-type'), NDJSON_TYPE);
    assert.equal(byAccept.text, byFormat.text);
    assert.equal(byAccept.headers.get('etag'), byFormat.headers.get('etag'));
    const json = (await read(await get('/rates/2026-04-10..?base=USD'))).json as { base: string; rates: Record<string, Record<string, string>> };
    const lines = byAccept.text.split('\n');
    assert.equal(lines.pop(), '', 'the last line ends with \\n too');
    assert.deepEqual(lines, Object.entries(json.rates).map(([date, rates]) => JSON.stringify({ date, base: json.base, rates })));
    assert.equal(lines.length, 2);
  });

  await t.test('when format and Accept disagree, then format wins; format=csv gives what Accept: text/csv gives', async () => {
    const json = await read(await get(`${RANGE}&format=json`, { accept: 'text/csv' }));
    assert.equal(json.headers.get('content-type'), JSON_TYPE);
    assert.deepEqual(json.json, (await read(await get(RANGE))).json);
    const csv = await read(await get(`${RANGE}&format=csv`, { accept: 'application/x-ndjson' }));
    assert.equal(csv.headers.get('content-type'), CSV_TYPE);
    assert.equal(csv.text, 'date,BGN,USD\r\n2025-12-31,1.955800,1.175000\r\n2026-04-10,,1.171100\r\n2026-04-13,,1.168400\r\n');
    assert.equal(csv.text, (await read(await get(RANGE, { accept: 'text/csv' }))).text);
  });

  await t.test('when format is anything else, then 400 with its message after every other rule\'s', async () => {
    for (const format of ['xml', 'JSON', '', 'ndjson&format=ndjson']) await expectError(get(`/rates/2026-04-10..?format=${format}`), 400, [FORMAT]);
    await expectError(get('/rates/2026-04-10..?format=tsv&precision=13&base=1&symbols=US'), 400, [MSG.base, MSG.symbols, PRECISION, FORMAT]);
    await expectError(get('/rates/x..?format=tsv'), 400, [MSG.start, FORMAT]);
  });

  await t.test('when an NDJSON answer fails, then the error is JSON', async () => {
    await expectError(get('/rates/2026-04-14..?format=ndjson'), 404, noDataInRange('2026-04-14', undefined));
    await expectError(get('/rates/2026-04-14..', { accept: 'application/x-ndjson' }), 404, noDataInRange('2026-04-14', undefined));
  });

  await t.test('when HEAD asks for NDJSON, then the headers of the GET and no body', async () => {
    const get200 = await get(`${RANGE}&format=ndjson`);
    const head = await get(`${RANGE}&format=ndjson`, {}, 'HEAD');
    assert.equal(head.status, 200);
    for (const name of ['content-type', 'content-length', 'etag']) assert.equal(head.headers.get(name), get200.headers.get(name), name);
    assert.equal(await head.text(), '');
  });

  await t.test('when unknown parameters are added, then the answer is the same, kept once: not computed again', async (t) => {
    const days = t.mock.method(RatesSnapshot.prototype, 'daysBetween');
    const first = await read(await get('/rates/2022-08-31..?symbols=GBP,USD&u=1'));
    const computed = days.mock.callCount();
    assert.ok(computed >= 1, 'the first is computed');
    for (const extra of ['u=2', 'zzz=9&u=3', 'cache=no']) {
      const again = await read(await get(`/rates/2022-08-31..?${extra}&symbols=GBP,USD`));
      assert.equal(again.text, first.text, extra);
      assert.equal(again.headers.get('etag'), first.headers.get('etag'), extra);
    }
    assert.equal(days.mock.callCount(), computed, 'the others come from the one kept answer');
  });
});
