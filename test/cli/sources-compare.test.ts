import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { HISTORY_ZIP, historyCsvText, parseHistoryCsv } from '../helpers/ecb-history-csv.js';
import { divide, formatHalfUp6, multiply, parseDecimal, perEuro, subtract, type Rational } from '../helpers/oracle.js';
import { PROVIDER_FILES, providerText } from '../helpers/provider-fixtures.js';

/**
 * `sources compare` as a user runs it, on the recorded files: the ECB's history ZIP
 * and the NBP, CNB, NBU and BoC documents. Expected lines come from the files' own numbers through
 * the BigInt oracle: the ECB's figure, or a bank's P(EUR) / P(X), and (b − a) / a × 100.
 */

const ONE: Rational = { num: 1n, den: 1n };
const DAY = '2026-03-04';

/** Each bank's P(c) on DAY, from its JSON (numbers of at most 15 digits print back as written). */
function nbpDay(): Map<string, Rational> {
  const values = new Map<string, Rational>();
  for (const file of [PROVIDER_FILES.nbpA, PROVIDER_FILES.nbpB]) {
    for (const table of JSON.parse(providerText(file)) as { effectiveDate: string; rates: { code: string; mid: number }[] }[]) {
      if (table.effectiveDate === DAY) for (const rate of table.rates) values.set(rate.code, parseDecimal(String(rate.mid)));
    }
  }
  return values.set('PLN', ONE);
}
function cnbDay(): Map<string, Rational> {
  const { rates } = JSON.parse(providerText(PROVIDER_FILES.cnb)) as { rates: { currencyCode: string; amount: number; validFor: string; rate: number }[] };
  const values = new Map<string, Rational>([['CZK', ONE]]);
  for (const r of rates) if (r.validFor === DAY) values.set(r.currencyCode, divide(parseDecimal(String(r.rate)), parseDecimal(String(r.amount))));
  return values;
}
function nbuDay(): Map<string, Rational> {
  const rows = JSON.parse(providerText(PROVIDER_FILES.nbu)) as { exchangedate: string; cc: string; rate: number; units: number }[];
  const values = new Map<string, Rational>([['UAH', ONE]]);
  for (const r of rows) if (r.exchangedate === '04.03.2026') values.set(r.cc, divide(parseDecimal(String(r.rate)), parseDecimal(String(r.units))));
  return values;
}

/** X per 1 EUR from a bank's P: P(EUR) / P(X). */
const perEurOf = (p: Map<string, Rational>, code: string): Rational => divide(p.get('EUR')!, p.get(code)!);
const pct = (a: Rational, b: Rational) => formatHalfUp6(multiply(divide(subtract(b, a), a), parseDecimal('100')));
/** One line of the table, laid out as the usage text shows it. */
function line(code: string, [sa, a]: [string, Rational], [sb, b]: [string, Rational]): string {
  const rate = (r: Rational) => formatHalfUp6(r).padStart(18);
  return `${code.padEnd(8)} ${sa.padEnd(6)} ${rate(a)}  ${sb.padEnd(6)} ${rate(b)}  ${pct(a, b).padStart(12)}`;
}

const dir = mkdtempSync(join(tmpdir(), 'currency-rates-compare-'));
const env = serviceEnv(join(dir, 'rates.db'));
let ecb: Map<string, string>;
after(() => rmSync(dir, { recursive: true, force: true }));

before(async () => {
  const ingest = [
    ['--file', HISTORY_ZIP],
    ['--source', 'nbp', '--file', fixture(`providers/${PROVIDER_FILES.nbpA}`)],
    ['--source', 'nbp', '--file', fixture(`providers/${PROVIDER_FILES.nbpB}`)],
    ['--source', 'cnb', '--file', fixture(`providers/${PROVIDER_FILES.cnb}`)],
    ['--source', 'nbu', '--file', fixture(`providers/${PROVIDER_FILES.nbu}`)],
    ['--source', 'boc', '--file', fixture(`providers/${PROVIDER_FILES.boc}`)],
  ];
  for (const args of ingest) {
    const run = await runCli(['ingest', ...args], env);
    assert.equal(run.code, 0, describeRun(run));
  }
  ecb = new Map(Object.entries(parseHistoryCsv(await historyCsvText()).get(DAY)!));
});

const compare = (sources: string, ...args: string[]) => runCli(['sources', 'compare', ...args], { ...env, SOURCES: sources });

test('when four sources publish on a day, then each pair of them is one line per currency, exact to the oracle', async () => {
  const run = await compare('ecb,nbp,cnb,nbu', '--date', DAY);
  assert.equal(run.code, 0, describeRun(run));
  const lines = run.stdout.trimEnd().split('\n');
  assert.equal(lines[0], `Rates per 1 EUR on ${DAY} from ecb, nbp, cnb, nbu; difference = (b - a) / a x 100`);
  assert.equal(lines[1], 'currency a                  rate a  b                  rate b  difference %');
  const nbp = nbpDay();
  const cnb = cnbDay();
  const nbu = nbuDay();
  const of = (code: string) =>
    [
      ['ecb', ecb.has(code) ? perEuro(Object.fromEntries(ecb), code) : undefined],
      ['nbp', nbp.has(code) ? perEurOf(nbp, code) : undefined],
      ['cnb', cnb.has(code) ? perEurOf(cnb, code) : undefined],
      ['nbu', nbu.has(code) ? perEurOf(nbu, code) : undefined],
    ].filter((entry): entry is [string, Rational] => entry[1] !== undefined);
  for (const code of ['USD', 'JPY', 'PLN', 'CZK', 'UAH', 'XDR']) {
    const sources = of(code);
    const expected = sources.flatMap((a, i) => sources.slice(i + 1).map((b) => line(code, a, b)));
    assert.deepEqual(lines.filter((text) => text.startsWith(`${code} `)), expected, code);
  }
  // PLN: all four sources (NBP's own base: P(EUR) / 1); UAH: NBP and NBU only; XDR: the three banks.
  assert.deepEqual(
    ['PLN', 'UAH', 'XDR'].map((code) => lines.filter((text) => text.startsWith(`${code} `)).length),
    [6, 1, 3],
  );
  // Lines sorted by currency; a currency one source alone gives (NBP's AFN) has none.
  const codes = lines.slice(2).map((text) => text.slice(0, 3));
  assert.deepEqual(codes, [...codes].sort());
  assert.ok(!codes.includes('AFN'));
});

test('when --json is given, then the same comparison comes as one JSON object', async () => {
  const run = await compare('ecb,nbp', '--date', DAY, '--json');
  assert.equal(run.code, 0, describeRun(run));
  const body = JSON.parse(run.stdout) as { date: string; sources: string[]; comparisons: Record<string, string>[] };
  assert.equal(body.date, DAY);
  assert.deepEqual(body.sources, ['ecb', 'nbp']);
  const a = perEuro(Object.fromEntries(ecb), 'USD');
  const b = perEurOf(nbpDay(), 'USD');
  assert.deepEqual(body.comparisons.find((row) => row['currency'] === 'USD'), {
    currency: 'USD', source_a: 'ecb', rate_a: formatHalfUp6(a), source_b: 'nbp', rate_b: formatHalfUp6(b), difference_pct: pct(a, b),
  });
  // Every currency both give: the ECB's codes of that day, NBP's and its base PLN.
  assert.equal(body.comparisons.length, [...ecb.keys()].filter((code) => code === 'PLN' || nbpDay().has(code)).length);
});

test('when no --date is given, then the latest day on which two enabled sources have values is compared', async () => {
  // NBP's last day is 2026-03-05; with CNB the ECB shares days until 2026-04-02; BoC's until 2026-03-18.
  for (const [sources, day] of [['ecb,nbp', '2026-03-05'], ['nbp,ecb,cnb', '2026-04-02'], ['boc,nbu', '2026-03-16'], ['nbp,boc', undefined]] as const) {
    const run = await compare(sources);
    if (day === undefined) {
      assert.equal(run.code, 1, describeRun(run));
      assert.match(run.stderr, /no day on which two of the enabled sources \(nbp, boc\) have rates per 1 EUR/);
      continue;
    }
    assert.equal(run.code, 0, describeRun(run));
    assert.match(run.stdout, new RegExp(`^Rates per 1 EUR on ${day} from `), sources);
  }
});

test('when the comparison cannot be made, then the command exits non-zero and says why', async () => {
  const saturday = await compare('ecb,nbp,nbu', '--date', '2026-03-07');
  assert.equal(saturday.code, 1, describeRun(saturday));
  assert.match(saturday.stderr, /on 2026-03-07 fewer than two enabled sources have rates per 1 EUR \(nbu of ecb, nbp, nbu\)/);
  const one = await compare('ecb');
  assert.equal(one.code, 1, describeRun(one));
  assert.match(one.stderr, /sources compare needs at least two sources in SOURCES/);
  const badDate = await compare('ecb,nbp', '--date', '2026-02-30');
  assert.equal(badDate.code, 2, describeRun(badDate));
  assert.match(badDate.stderr, /--date must be a calendar date YYYY-MM-DD: 2026-02-30/);
  const badSub = await runCli(['sources', 'list'], env);
  assert.equal(badSub.code, 2, describeRun(badSub));
  assert.match(badSub.stderr, /unknown sources subcommand: list/);
});
