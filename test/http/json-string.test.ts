import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonString } from '../../src/http/json-string.js';

test('when a string is quoted, then it is exactly what JSON.stringify makes of it', () => {
  const strings = ['', 'plain', '/api/v1/rates/latest?base=USD', '4f1c2a8e-1b7d-4c55-9a0e-3f2b8c1d9e70', 'a"b', 'a\\b', 'tab\there', '\u0000\u001f', '\u007f\u0080\u00ff', '\u2028\u2029', '\ud83d\ude00', '\ud800', 'x\udfff', '\ud83d'];
  for (let code = 0; code < 0x10000; code += 1) strings.push(`a${String.fromCharCode(code)}b`);
  for (const text of strings) assert.equal(jsonString(text), JSON.stringify(text), JSON.stringify(text));
});
