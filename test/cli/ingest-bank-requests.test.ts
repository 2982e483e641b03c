import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { recentDays } from '../../src/ingest/sources/day-range.js';
import { openSqliteStores } from '../../src/storage/sqlite/open-sqlite-stores.js';
import { bankEndpoint, soapOperation } from '../helpers/bank-endpoint.js';
import { describeRun, parseIngestSummary, runCli, serviceEnv } from '../helpers/cli.js';
import { PROVIDER_FIXTURES } from '../helpers/provider-fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * `ingest --source ID --url URL` as an operator runs it against a mirror of a bank whose endpoint
 * is not a plain GET: the source's own requests (a SOAP POST per currency for the Banco Central
 * del Uruguay, the Accept header Bank Negara Malaysia insists on) are sent to URL, and the
 * recorded answers land.
 */

const more = (id: string, name: string) => readFileSync(join(PROVIDER_FIXTURES, 'more', id, name));

test('when a POSTed or header-bound bank is ingested with --url, then its own requests go there and one summary line tells what landed', async (t) => {
  const bcuFiles = readdirSync(join(PROVIDER_FIXTURES, 'more', 'bcu'));
  const byMoneda = new Map(bcuFiles.map((name) => [Number(/<Moneda>(\d+)<\/Moneda>/.exec(more('bcu', name).toString('utf8'))![1]), name]));
  const { base, received } = await bankEndpoint(t, (request) => {
    if (request.url === '/bcu' && request.method === 'POST' && request.headers['content-type'] === 'text/xml; charset=utf-8') {
      const entrada = soapOperation(request.body).element['Entrada'] as { Moneda: { item: string } };
      const file = byMoneda.get(Number(entrada.Moneda.item));
      if (file !== undefined) return { body: more('bcu', file) };
    }
    if (request.url === '/bnm' && request.method === 'GET' && request.headers['accept'] === 'application/vnd.BNM.API.v1+json') {
      return { body: more('bnm', 'bnm-latest-0900-2026-03-19.json') };
    }
    return { status: 415, body: 'not what this endpoint takes' };
  });
  const path = join(tempDir(t), 'rates.db');
  const env = serviceEnv(path);

  const bcu = await runCli(['ingest', '--source', 'bcu', '--url', `${base}/bcu`], env);
  assert.equal(bcu.code, 0, describeRun(bcu));
  assert.deepEqual(parseIngestSummary(bcu.stdout), { days: 3, rates: 81, added: 81, changed: 0 }, bcu.stdout);
  assert.match(bcu.stdout, new RegExp(`^ingested bcu POST ${base}/bcu \\(ARS \\+ BRL \\+ CAD \\+ .* \\+ ZAR\\): 3 days \\(2026-03-27 \\.\\. 2026-03-31\\)`));
  assert.equal(received.length, 27, 'one POST per currency');
  const week = recentDays(7);
  const entrada = soapOperation(received[0]!.body).element['Entrada'] as { FechaDesde: string; FechaHasta: string };
  assert.deepEqual([entrada.FechaDesde, entrada.FechaHasta], [week.from, week.to], 'the latest week asked for');

  const bnm = await runCli(['ingest', '--source', 'bnm', '--url', `${base}/bnm`], env);
  assert.equal(bnm.code, 0, describeRun(bnm));
  assert.deepEqual(parseIngestSummary(bnm.stdout), { days: 1, rates: 27, added: 27, changed: 0 }, bnm.stdout);

  const stores = openSqliteStores(path);
  t.after(() => stores.close());
  const { rows } = await stores.rates.rowsSince(0);
  const value = (source: string, date: string, code: string) => rows.find((row) => row.source === source && row.date === date && row.currency === code)?.value;
  assert.equal(value('bcu', '2026-03-27', 'USD'), '40.56', '<CodigoISO>DLS.</CodigoISO> <TCC>40.560000</TCC>');
  assert.equal(value('bcu', '2026-03-31', 'EUR'), /<Fecha>2026-03-31<\/Fecha>[\s\S]*?<TCC>([0-9.]+?)0*<\/TCC>/.exec(more('bcu', byMoneda.get(1111)!).toString('utf8'))![1]);
  assert.ok(value('bnm', '2026-03-19', 'USD') !== undefined);
});
