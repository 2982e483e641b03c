import assert from 'node:assert/strict';
import { test } from 'node:test';
import { askedQuestion, ConversionQuestions, ENTRY_OVERHEAD_BYTES } from '../../src/http/conversion-questions.js';

const cut = (url: string) => askedQuestion(url, url.indexOf('?'), 'amount');

test('when a conversion URL has a plain amount, then the question is the URL without its value', () => {
  assert.deepEqual(cut('/c?from=USD&to=JPY&amount=12.5'), { key: '/c?from=USD&to=JPY&amount=', name: 'amount', amount: '12.5' });
  assert.deepEqual(cut('/c?amount=.5&from=USD'), { key: '/c?amount=&from=USD', name: 'amount', amount: '.5' });
  assert.deepEqual(cut('/c?xamount=1&amount=2&b=3'), { key: '/c?xamount=1&amount=&b=3', name: 'amount', amount: '2' });
  // The first amount is cut; a second one stays in the key (and fails validation as a repeat).
  assert.deepEqual(cut('/c?amount=1&amount=2'), { key: '/c?amount=&amount=2', name: 'amount', amount: '1' });
});

test('when the amount needs decoding or is not a plain decimal, then there is no question to reuse', () => {
  for (const amount of ['', '-1', '+1', '%31', '1e3', '1.', '1.2.3', ' 1', '1+', '0x10', '１'])
    assert.equal(cut(`/c?from=USD&to=JPY&amount=${amount}`), undefined, amount);
  assert.equal(cut('/c?from=USD&to=JPY'), undefined);
  assert.equal(cut('/c?xamount=1'), undefined);
  assert.equal(askedQuestion('/c', -1, 'amount'), undefined);
});

test('when a question was validated with its amount as cut, then a new amount gets that query back; otherwise nothing is kept', () => {
  // Room for two entries with keys of this test's 14-character shape (`/c?a=1&amount=`).
  const questions = new ConversionQuestions(2 * (14 + ENTRY_OVERHEAD_BYTES));
  const first = cut('/c?from=usd&to=JPY&amount=5')!;
  questions.remember(first, { from: 'usd', to: 'JPY', amount: '5' });
  assert.deepEqual(questions.withAmount(cut('/c?from=usd&to=JPY&amount=7.25')!), { from: 'usd', to: 'JPY', amount: '7.25' });

  const decoded = cut('/c?from=EUR&to=JPY&amount=5')!;
  questions.remember(decoded, { from: 'EUR', to: 'JPY', amount: '6' });
  assert.equal(questions.withAmount(decoded), undefined);

  // Bounded by size: the oldest question goes first.
  const firstKept = questions.withAmount(first);
  assert.ok(firstKept);
  questions.remember(cut('/c?a=1&amount=1')!, { amount: '1' });
  questions.remember(cut('/c?a=2&amount=1')!, { amount: '1' });
  assert.equal(questions.withAmount(first), undefined);
  assert.deepEqual(questions.withAmount(cut('/c?a=1&amount=3')!), { amount: '3' });
  assert.deepEqual(questions.withAmount(cut('/c?a=2&amount=3')!), { amount: '3' });
  questions.remember(cut('/c?a=3&amount=1')!, { amount: '1' });
  assert.equal(questions.withAmount(cut('/c?a=1&amount=3')!), undefined);
  // A question larger than the whole budget is not kept (and evicts nothing).
  questions.remember(cut(`/c?x=${'y'.repeat(600)}&amount=1`)!, { amount: '1' });
  assert.equal(questions.withAmount(cut(`/c?x=${'y'.repeat(600)}&amount=2`)!), undefined);
  assert.deepEqual(questions.withAmount(cut('/c?a=3&amount=3')!), { amount: '3' });
});

test('when a client sends many distinct valid conversion questions of maximal size, then the questions kept stay within their budget', () => {
  const questions = new ConversionQuestions();
  let kept = 0;
  for (let i = 0; i < 2000; i++) {
    const asked = cut(`/api/v1/convert?from=USD&to=JPY&junk${i}=${'x'.repeat(8000)}&amount=1`)!;
    questions.remember(asked, { from: 'USD', to: 'JPY', amount: '1' });
    if (questions.withAmount(asked)) kept++;
  }
  assert.equal(kept, 2000, 'each question is kept when it is remembered');
  let held = 0;
  for (let i = 0; i < 2000; i++) if (questions.withAmount(cut(`/api/v1/convert?from=USD&to=JPY&junk${i}=${'x'.repeat(8000)}&amount=2`)!)) held++;
  assert.ok(held * (8040 + ENTRY_OVERHEAD_BYTES) <= 2 * 1024 * 1024, `within 2 MiB (${held} of 8 KB questions held)`);
  assert.ok(held >= 200, `the budget is used (${held} held)`);
});
