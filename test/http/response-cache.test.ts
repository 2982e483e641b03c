import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { render, ResponseCache } from '../../src/http/response-cache.js';

test('when a body is cached, then the cache answers with its own entry of the same text and ETag, not the object handed in', () => {
  // Why it matters: render()'s bodies mostly die young (conversions are never cached); if the
  // cache kept them, V8 would pretenure render()'s allocation site and every conversion's body
  // would start in the old generation (docs/performance.md, "Memory").
  const cache = new ResponseCache();
  const body = render({ base: 'EUR', rates: { USD: '1.1789' } });
  cache.set(1, '/api/v1/rates/latest', body);
  const held = cache.get(1, '/api/v1/rates/latest');
  assert.notEqual(held, body);
  assert.deepEqual(held, body);
  assert.equal(held?.text, body.text);
  assert.equal(cache.get(2, '/api/v1/rates/latest'), undefined);
});

test('when a body is ASCII, then it is sent as latin1; when not, as UTF-8, with its length in bytes and the SHA-1 of those bytes', () => {
  const ascii = render({ base: 'EUR', rates: { USD: '1.1789' } });
  assert.equal(ascii.encoding, 'latin1');
  assert.equal(ascii.byteLength, ascii.text.length);
  const wide = render({ name: 'Złoty — €' });
  assert.equal(wide.encoding, 'utf8');
  const bytes = Buffer.from(JSON.stringify({ name: 'Złoty — €' }), 'utf8');
  assert.equal(wide.byteLength, bytes.length);
  assert.ok(wide.byteLength > wide.text.length);
  assert.deepEqual(Buffer.from(wide.text, wide.encoding), bytes);
  assert.equal(wide.etag, `"${createHash('sha1').update(bytes).digest('base64url')}"`);
});
