import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { describeRun, fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { HISTORY_ZIP, historyCsvText, parseHistoryCsv } from '../helpers/ecb-history-csv.js';
import { divide, formatHalfUp6, multiply, parseDecimal, perEuro, subtract, type Rational } from '../helpers/oracle.js';
import { BANK_BASES, bankDays } from '../helpers/bank-text-oracle.js';
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
  // The table, up to the blank line before what the threshold flags (checked below).
  const all = run.stdout.trimEnd().split('\n');
  const lines = all.slice(0, all.indexOf(''));
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

/** Each source's rates per 1 EUR on `date`, by code, from the files' text: the ECB's own, a bank's P(EUR) / P(X). */
async function perEuroOn(date: string, sources: readonly string[]): Promise<Map<string, Map<string, Rational>>> {
  const banks = bankDays();
  const history = parseHistoryCsv(await historyCsvText());
  return new Map(
    sources.map((source) => {
      if (source === 'ecb') {
        const day = history.get(date) ?? {};
        return [source, new Map(Object.keys(day).map((code) => [code, perEuro(day, code)]))];
      }
      const values = new Map(banks.get(source)!.get(date) ?? []).set(BANK_BASES[source]!, ONE);
      return [source, new Map([...values].filter(([code]) => code !== 'EUR').map(([code]) => [code, perEurOf(values, code)]))];
    }),
  );
}

/** The pairs' lines the oracle puts beyond `threshold` percent, exactly: |b − a| × 100 > threshold × a. */
function beyond(rates: Map<string, Map<string, Rational>>, threshold: string): string[] {
  const sources = [...rates.keys()];
  const codes = [...new Set([...rates.values()].flatMap((byCode) => [...byCode.keys()]))].sort();
  const flagged: string[] = [];
  for (const code of codes) {
    for (let i = 0; i < sources.length; i++) {
      for (let j = i + 1; j < sources.length; j++) {
        const [a, b] = [rates.get(sources[i]!)!.get(code), rates.get(sources[j]!)!.get(code)];
        if (a === undefined || b === undefined) continue;
        const difference = subtract(b, a);
        const size = multiply({ num: difference.num < 0n ? -difference.num : difference.num, den: difference.den }, parseDecimal('100'));
        const excess = subtract(size, multiply(parseDecimal(threshold), a));
        if (excess.num * excess.den > 0n) flagged.push(line(code, [sources[i]!, a], [sources[j]!, b]));
      }
    }
  }
  return flagged;
}

/** What follows the table: the summary line, then the flagged lines again. */
function flaggedPart(stdout: string): string[] {
  const lines = stdout.trimEnd().split('\n');
  return lines.slice(lines.indexOf('') + 1);
}

test('when sources differ by more than 1 % (the default), then those currencies are named after the table, with their lines', async () => {
  const date = '2026-03-03';
  const sources = ['ecb', 'nbp', 'cnb', 'nbu'];
  const flagged = beyond(await perEuroOn(date, sources), '1');
  const codes = [...new Set(flagged.map((text) => text.slice(0, 3)))];
  assert.ok(codes.length >= 3, `some currencies differ by more than 1 % on ${date}: ${codes.join(', ')}`);
  const run = await compare(sources.join(','), '--date', date);
  assert.equal(run.code, 0, describeRun(run));
  const all = run.stdout.trimEnd().split('\n');
  const compared = new Set(all.slice(2, all.indexOf('')).map((text) => text.slice(0, 3))).size;
  assert.deepEqual(flaggedPart(run.stdout), [`Sources differ by more than 1% on ${codes.length} of ${compared} currencies: ${codes.join(', ')}`, ...flagged]);
  // Each flagged line is one of the table's, as it stands there.
  for (const text of flagged) assert.ok(all.slice(2, all.indexOf('')).includes(text), text);
});

test('when --threshold is given, then it is the percentage, decided on the exact difference, not the rounded one shown', async () => {
  const rates = await perEuroOn(DAY, ['nbp', 'nbu']);
  const half = beyond(rates, '0.5');
  assert.ok(half.length >= 3 && beyond(rates, '1').length === 0, 'some lines between 0.5 % and 1 %');
  const run = await compare('nbp,nbu', '--date', DAY, '--threshold', '0.5');
  assert.equal(run.code, 0, describeRun(run));
  assert.deepEqual(flaggedPart(run.stdout).slice(1), half);
  assert.deepEqual(flaggedPart(await compare('nbp,nbu', '--date', DAY).then((r) => r.stdout)), ['No currency on which two sources differ by more than 1%']);

  // At a threshold equal to a difference as shown (rounded to 6 places), the exact difference decides.
  const uah = half.find((text) => text.startsWith('UAH '))!;
  const shown = uah.trim().split(/\s+/).at(-1)!.replace('-', '');
  const exact = beyond(rates, shown).some((text) => text.startsWith('UAH '));
  const atShown = await compare('nbp,nbu', '--date', DAY, '--threshold', shown, '--json');
  assert.equal(atShown.code, 0, describeRun(atShown));
  const body = JSON.parse(atShown.stdout) as { threshold_pct: string; beyond_threshold: string[] };
  assert.equal(body.threshold_pct, shown);
  assert.equal(body.beyond_threshold.includes('UAH'), exact, `UAH at ${shown} %: ${exact ? 'beyond' : 'within'} by its exact difference`);
  assert.deepEqual(body.beyond_threshold, [...new Set(beyond(rates, shown).map((text) => text.slice(0, 3)))]);
  // 0: every difference that is not exactly nought.
  const zero = JSON.parse((await compare('nbp,nbu', '--date', DAY, '--threshold', '0', '--json')).stdout) as { beyond_threshold: string[] };
  assert.deepEqual(zero.beyond_threshold, [...new Set(beyond(rates, '0').map((text) => text.slice(0, 3)))]);
});

test('when --threshold is not a plain non-negative percentage, then the command exits 2 and says so, comparing nothing', async () => {
  for (const bad of ['abc', '-1', '1e3', '', '1%', '.5', '0.5.1', '1,5', ' 1', '1234567', '0.1234567890123']) {
    const run = await compare('ecb,nbp', `--threshold=${bad}`);
    assert.equal(run.code, 2, `${JSON.stringify(bad)}: ${describeRun(run)}`);
    assert.ok(run.stderr.includes(`--threshold must be a percentage, a decimal number such as 0.5 (for 0.5 %): ${bad}\n`), `${JSON.stringify(bad)}: ${run.stderr}`);
    assert.equal(run.stdout, '');
  }
});
