import assert from 'node:assert/strict';
import { test } from 'node:test';
import { askedQuestion, ConversionQuestions } from '../../src/http/conversion-questions.js';

const cut = (url: string) => askedQuestion(url, url.indexOf('?'), 'amount');

test('when a conversion URL has a plain amount, then the question is the URL without its value', () => {
  assert.deepEqual(cut('/c?from=USD&to=JPY&amount=12.5'), { key: '/c?from=USD&to=JPY&amount=', amount: '12.5' });
  assert.deepEqual(cut('/c?amount=.5&from=USD'), { key: '/c?amount=&from=USD', amount: '.5' });
  assert.deepEqual(cut('/c?xamount=1&amount=2&b=3'), { key: '/c?xamount=1&amount=&b=3', amount: '2' });
  // The first amount is cut; a second one stays in the key (and fails validation as a repeat).
  assert.deepEqual(cut('/c?amount=1&amount=2'), { key: '/c?amount=&amount=2', amount: '1' });
});

test('when the amount needs decoding or is not a plain decimal, then there is no question to reuse', () => {
  for (const amount of ['', '-1', '+1', '%31', '1e3', '1.', '1.2.3', ' 1', '1+', '0x10', '１'])
    assert.equal(cut(`/c?from=USD&to=JPY&amount=${amount}`), undefined, amount);
  assert.equal(cut('/c?from=USD&to=JPY'), undefined);
  assert.equal(cut('/c?xamount=1'), undefined);
  assert.equal(askedQuestion('/c', -1, 'amount'), undefined);
});

test('when a question was validated with its amount as cut, then a new amount gets that query back; otherwise nothing is kept', () => {
  const questions = new ConversionQuestions(2);
  const first = cut('/c?from=usd&to=JPY&amount=5')!;
  questions.remember(first, 'amount', { from: 'usd', to: 'JPY', amount: '5' });
  assert.deepEqual(questions.withAmount(cut('/c?from=usd&to=JPY&amount=7.25')!, 'amount'), { from: 'usd', to: 'JPY', amount: '7.25' });

  const decoded = cut('/c?from=EUR&to=JPY&amount=5')!;
  questions.remember(decoded, 'amount', { from: 'EUR', to: 'JPY', amount: '6' });
  assert.equal(questions.withAmount(decoded, 'amount'), undefined);

  // Bounded: the oldest question goes first.
  questions.remember(cut('/c?a=1&amount=1')!, 'amount', { amount: '1' });
  questions.remember(cut('/c?a=2&amount=1')!, 'amount', { amount: '1' });
  assert.equal(questions.withAmount(first, 'amount'), undefined);
  assert.deepEqual(questions.withAmount(cut('/c?a=2&amount=3')!, 'amount'), { amount: '3' });
});
