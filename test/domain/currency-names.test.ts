import assert from 'node:assert/strict';
import { test } from 'node:test';
import { currencyName } from '../../src/domain/currencies.js';

/** The name of a code when the running Node.js's CLDR data lacks it (DECISIONS §5, §9). */

const knowsNothing = () => undefined;

test('when CLDR names a code, then that name is used', () => {
  assert.equal(currencyName('XCG', () => 'Caribbean Guilder (newer CLDR)'), 'Caribbean Guilder (newer CLDR)');
  assert.equal(currencyName('CYP'), 'Cypriot Pound');
});

test('when the running CLDR predates a recent ISO code, then CLDR\'s own later name is given', () => {
  assert.equal(currencyName('XCG', knowsNothing), 'Caribbean guilder');
  assert.equal(currencyName('ZWG', knowsNothing), 'Zimbabwean Gold');
  assert.equal(currencyName('SLE', knowsNothing), 'Sierra Leonean Leone');
});

test('when no one knows a code, then its name is the code', () => {
  assert.equal(currencyName('QQQ'), 'QQQ');
  assert.equal(currencyName('XCG', knowsNothing) === 'XCG', false);
});
