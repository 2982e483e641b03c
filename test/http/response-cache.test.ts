import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { notModified, render, ResponseCache } from '../../src/http/response-cache.js';

test('when a body is cached for a data version, then that version finds it and any other does not', () => {
  const cache = new ResponseCache();
  const body = render({ base: 'EUR', rates: { USD: '1.1789' } });
  cache.set(1, '/api/v1/rates/latest', body);
  assert.equal(cache.get(1, '/api/v1/rates/latest')?.body, body);
  assert.equal(cache.get(2, '/api/v1/rates/latest'), undefined);
  cache.set(2, '/api/v1/currencies', body);
  assert.equal(cache.get(1, '/api/v1/rates/latest'), undefined, 'a new version empties the cache');
  assert.equal(cache.set(1, '/old', body), undefined, 'a body of an older version is not kept');
  assert.equal(cache.get(2, '/api/v1/currencies')?.body, body, 'nor does it empty the cache');
});

test('when the cache is full, then the oldest entries go first and it never holds more than its bound', () => {
  const cache = new ResponseCache(100);
  const body = render('x'.repeat(20)); // 22 bytes
  for (let i = 0; i < 10; i++) cache.set(1, `/u${i}`, body); // 25 with the key: four fit
  assert.equal(cache.get(1, '/u5'), undefined);
  for (const i of [6, 7, 8, 9]) assert.equal(cache.get(1, `/u${i}`)?.body, body);
  cache.set(1, '/big', render('y'.repeat(200)));
  assert.equal(cache.get(1, '/big'), undefined, 'a body larger than the whole cache is not kept');
});

test('when kept bodies are being sent, then nothing evicts them: a new body or a reservation that needs their room is refused', () => {
  const cache = new ResponseCache(100);
  const body = render('x'.repeat(20)); // 25 bytes with a 3-letter key
  const sent = ['/u0', '/u1', '/u2'].map((key) => cache.set(1, key, body)!);
  for (const kept of sent) kept.senders++;
  assert.ok(cache.set(1, '/u3', body), 'the fourth fits beside them');
  assert.ok(cache.reserve(1, 25), 'room is found by evicting the one no connection sends');
  assert.equal(cache.get(1, '/u3'), undefined);
  assert.equal(cache.reserve(1, 1), false, 'full of bodies being sent and reserved bytes');
  assert.equal(cache.set(1, '/u4', body), undefined);
  sent[0]!.senders--;
  assert.ok(cache.set(1, '/u4', render('x'.repeat(19))), 'once one is sent, its room can be taken');
  assert.equal(cache.get(1, '/u0'), undefined);
  for (const key of ['/u1', '/u2']) assert.equal(cache.get(1, key)?.body, body, 'the bodies still being sent stay');
});

test('when a reservation becomes the body it was made for, then the bytes are counted once', () => {
  const cache = new ResponseCache(100);
  assert.ok(cache.reserve(1, 60));
  assert.equal(cache.reserve(1, 41), false, '60 + 41 > 100');
  const body = render('z'.repeat(55)); // 57 bytes, 60 with its key
  assert.ok(cache.set(1, '/a1', body, 60));
  assert.ok(cache.reserve(1, 40), 'what is left: 100 - 60');
  cache.unreserve(40);
  assert.ok(cache.set(1, '/b2', render('w'.repeat(35))), 'an unreserved room is free again');
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
