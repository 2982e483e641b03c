import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { DEFAULT_TRACKED } from '../../src/domain/currencies.js';
import { decimal, ScaleFactor, scaledBy } from '../../src/domain/money.js';
import { conversionPlan, type BulkConversion } from '../../src/domain/rate-queries.js';
import { bulkAnswer } from '../../src/http/conversion-answers.js';
import { arenaRounds, KernelTemplate } from '../../src/http/conversion-kernel.js';
import { fullHistoryView } from '../helpers/full-history-view.js';
import { kernelAmount as amountOf } from '../helpers/kernel-amounts.js';
import { seededRandom } from '../helpers/seeded-random.js';

const HEAD = '{"amount":';
const AFTER_AMOUNT = ',"results":["';
const separators = (count: number) => Array.from({ length: count }, (_, i) => (i === count - 1 ? '"]}' : `","`));

/** What the BigInt path of conversion-answers.ts writes for the same parts. */
function bigIntAnswer(amount: string, factors: readonly ScaleFactor[], afterResults: readonly string[]): string {
  const value = decimal(amount);
  return `${HEAD}"${amount}"${AFTER_AMOUNT}${factors.map((factor, i) => scaledBy(value, factor) + afterResults[i]!).join('')}`;
}

function kernelOf(factors: readonly ScaleFactor[]): { template: KernelTemplate; afterResults: string[] } {
  const afterResults = separators(factors.length);
  const template = KernelTemplate.of(HEAD, AFTER_AMOUNT, afterResults, factors);
  assert.ok(template, 'the kernel takes these factors');
  return { template, afterResults };
}

const factor = (numerator: string, denominator: string) => new ScaleFactor(decimal(numerator), decimal(denominator));

test('when the kernel writes answers from real rates of days across the history, then every byte equals the BigInt path\'s', async (t) => {
  const { view } = await fullHistoryView(t);
  const random = seededRandom(20261125);
  const dates = view.snapshot.datesNewestFirst;
  let asked = 0;
  let answered = 0;
  for (let d = 0; d < 60; d++) {
    const day = view.snapshot.day(dates[Math.floor(random() * dates.length)]!)!;
    const codes = DEFAULT_TRACKED.filter((code) => day.rate(code) !== undefined);
    const from = codes[Math.floor(random() * codes.length)]!;
    const targets = Array.from({ length: 1 + Math.floor(random() * 25) }, () => codes[Math.floor(random() * codes.length)]!);
    const factors = targets.map((to) => new ScaleFactor(day.rate(to)!, day.rate(from)!));
    const { template, afterResults } = kernelOf(factors);
    for (let i = 0; i < 150; i++) {
      const amount = amountOf(random, 12);
      const written = template.answer(amount);
      asked++;
      if (written === undefined) continue;
      answered++;
      assert.equal(written, bigIntAnswer(amount, factors, afterResults), `${day.date} ${from} → ${targets.join(',')}, amount ${amount}`);
    }
  }
  // Amounts of up to 12 digits mostly fit: the kernel, not the fallback, is what was compared.
  assert.ok(answered > asked * 0.9, `the kernel wrote ${answered} of ${asked} answers`);
});

test('when a result is exactly half a millionth, then the kernel rounds it half up, as the BigInt path does', () => {
  const { template } = kernelOf([factor('1', '200')]);
  // 0.0001 / 200 = 0.0000005, 0.0003 / 200 = 0.0000015, 0.0002 / 200 = 0.000001
  assert.equal(template.answer('0.0001'), `${HEAD}"0.0001"${AFTER_AMOUNT}0.000001"]}`);
  assert.equal(template.answer('0.0003'), `${HEAD}"0.0003"${AFTER_AMOUNT}0.000002"]}`);
  assert.equal(template.answer('0.0002'), `${HEAD}"0.0002"${AFTER_AMOUNT}0.000001"]}`);
  assert.equal(template.answer('+.5'), `${HEAD}"+.5"${AFTER_AMOUNT}0.002500"]}`);
  assert.equal(template.answer('0007'), `${HEAD}"0007"${AFTER_AMOUNT}0.035000"]}`);
});

test('when a whole part passes 2^32, then the kernel writes all its digits', () => {
  const { template } = kernelOf([factor('50000', '1'), factor('1234.5678', '0.0001')]);
  assert.equal(template.answer('100000'), `${HEAD}"100000"${AFTER_AMOUNT}5000000000.000000","1234567800000.000000"]}`);
});

test('when an amount or a product is past what the kernel computes in 64 bits, then it leaves the answer to the BigInt path', () => {
  const { template } = kernelOf([factor('16000.12', '0.8571')]);
  assert.equal(template.answer('1.00001'), undefined, 'five places: no terms for that scale');
  assert.equal(template.answer('1234567890123456789'), undefined, 'nineteen digits');
  assert.equal(template.answer('0'), undefined, 'zero is not positive');
  assert.equal(template.answer('0.000'), undefined, 'zero is not positive');
  assert.equal(template.answer('-5'), undefined, 'a sign other than +');
  assert.equal(template.answer('123456789012345678'), undefined, 'units × quotient past 2^63');
  assert.equal(template.answer(`1${'0'.repeat(200)}`), undefined, 'longer than the amount area');
  assert.equal(template.answer('12.5'), `${HEAD}"12.5"${AFTER_AMOUNT}${scaledBy(decimal('12.5'), factor('16000.12', '0.8571'))}"]}`);
});

test('when a template has a part that is not ASCII, a ratio that is not positive or a term past 64 bits, then the kernel does not take it', () => {
  assert.equal(KernelTemplate.of('{"café":', AFTER_AMOUNT, separators(1), [factor('1', '2')]), undefined);
  assert.equal(KernelTemplate.of(HEAD, AFTER_AMOUNT, separators(1), [factor('-1', '2')]), undefined);
  assert.equal(KernelTemplate.of(HEAD, AFTER_AMOUNT, separators(1), [factor('123456789012345678901234567', '3')]), undefined, 'a term past 2^63');
});

test('when more templates are answered than the arena holds, then it starts over and every template is placed again, answering right', () => {
  const random = seededRandom(7);
  const rate = () => `${1 + Math.floor(random() * 20000)}.${String(Math.floor(random() * 10000)).padStart(4, '0')}`;
  // ~5.6 KB each: 400 of them are twice the arena.
  const kernels = Array.from({ length: 400 }, () => {
    const factors = Array.from({ length: 25 }, () => factor(rate(), rate()));
    return { factors, ...kernelOf(factors) };
  });
  const before = arenaRounds();
  for (let pass = 0; pass < 2; pass++) {
    for (const { template, factors, afterResults } of kernels) {
      const amount = amountOf(random, 6);
      assert.equal(template.answer(amount), bigIntAnswer(amount, factors, afterResults), amount);
    }
  }
  assert.ok(arenaRounds() >= before + 2, `the arena started over ${arenaRounds() - before} times`);
});

test('when one bulk question is asked again and again with amounts of up to 4 places, then every answer equals JSON.stringify of the plain conversion', async (t) => {
  const { view, tracked } = await fullHistoryView(t);
  const random = seededRandom(20261126);
  const to = DEFAULT_TRACKED.filter((code) => code !== 'GBP').slice(0, 25).join(',');
  const plan = conversionPlan(view.snapshot, tracked, 'GBP', to);
  for (let i = 0; i < 2000; i++) {
    const amount = amountOf(random, 10);
    const plain: BulkConversion = {
      from: plan.from,
      amount,
      date: plan.date,
      conversions: plan.targets.map(({ to: code, rate, factor: scale }) => ({ to: code, result: scaledBy(decimal(amount), scale), rate })),
    };
    assert.equal(bulkAnswer(plan, amount).text, JSON.stringify(plain), amount);
  }
});

test('when Node.js runs without WebAssembly (--jitless), then conversions are answered the BigInt way, the same bytes', () => {
  const module = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
  // A plan as conversionPlan makes one, answered three times: the kernel would take it from the second.
  const script = `
    const { decimal, ScaleFactor } = await import(${module('../../src/domain/money.js')});
    const { bulkAnswer } = await import(${module('../../src/http/conversion-answers.js')});
    const { KernelTemplate } = await import(${module('../../src/http/conversion-kernel.js')});
    const factor = new ScaleFactor(decimal('161.45'), decimal('0.8571'));
    const plan = { from: 'GBP', date: '2026-11-20', targets: [{ to: 'JPY', rate: '188.367757', factor }] };
    const answers = ['12.5', '12.5', '99.99'].map((amount) => bulkAnswer(plan, amount).text);
    process.stdout.write(JSON.stringify({ taken: KernelTemplate.of('{', ',', ['}'], [factor]) !== undefined, answers }));
  `;
  const out = execFileSync(process.execPath, ['--jitless', '--no-warnings', '--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const { taken, answers } = JSON.parse(out) as { taken: boolean; answers: string[] };
  assert.equal(taken, false, 'no kernel without WebAssembly');
  const factor = new ScaleFactor(decimal('161.45'), decimal('0.8571'));
  const expected = (amount: string): BulkConversion => ({
    from: 'GBP',
    amount,
    date: '2026-11-20',
    conversions: [{ to: 'JPY', result: scaledBy(decimal(amount), factor), rate: '188.367757' }],
  });
  assert.deepEqual(answers, ['12.5', '12.5', '99.99'].map((amount) => JSON.stringify(expected(amount))));
});
