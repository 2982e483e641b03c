import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { notModified, render, ResponseCache } from '../../src/http/response-cache.js';

test('when a body is cached for a data version, then that version finds it and any other does not', () => {
  const cache = new ResponseCache();
  const body = render({ base: 'EUR', rates: { USD: '1.1789' } });
  cache.set(1, '/api/v1/rates/latest', body);
  assert.equal(cache.get(1, '/api/v1/rates/latest'), body);
  assert.equal(cache.get(2, '/api/v1/rates/latest'), undefined);
  cache.set(2, '/api/v1/currencies', body);
  assert.equal(cache.get(1, '/api/v1/rates/latest'), undefined, 'a new version empties the cache');
});

test('when the cache is full, then the oldest entries go first and it never holds more than its bound', () => {
  const cache = new ResponseCache(100);
  const body = render('x'.repeat(20)); // 22 bytes
  for (let i = 0; i < 10; i++) cache.set(1, `/u${i}`, body); // 25 with the key: four fit
  assert.equal(cache.get(1, '/u5'), undefined);
  for (const i of [6, 7, 8, 9]) assert.equal(cache.get(1, `/u${i}`), body);
  cache.set(1, '/big', render('y'.repeat(200)));
  assert.equal(cache.get(1, '/big'), undefined, 'a body larger than the whole cache is not kept');
});

test('when a body holds non-ASCII text, then its ETag is the SHA-1 of its UTF-8 bytes', () => {
  const wide = render({ name: 'Złoty — €' });
  const bytes = Buffer.from(JSON.stringify({ name: 'Złoty — €' }), 'utf8');
  assert.equal(wide.etag, `"${createHash('sha1').update(bytes).digest('base64url')}"`);
});

test('when If-None-Match names the ETag, weakly, in a list or as *, then the answer is not modified', () => {
  const etag = '"abc"';
  assert.equal(notModified(undefined, etag), false);
  assert.equal(notModified('"abc"', etag), true);
  assert.equal(notModified('W/"abc"', etag), true);
  assert.equal(notModified('"x", "abc"', etag), true);
  assert.equal(notModified(' * ', etag), true);
  assert.equal(notModified('"abcd"', etag), false);
});
