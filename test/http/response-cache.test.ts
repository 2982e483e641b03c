import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render, ResponseCache } from '../../src/http/response-cache.js';

test('when a body is cached, then the cache answers with its own entry of the same bytes and ETag, not the object handed in', () => {
  // Why it matters: render()'s bodies mostly die young (conversions are never cached); if the
  // cache kept them, V8 would pretenure render()'s allocation site and every conversion's body
  // would start in the old generation (README, "Memory").
  const cache = new ResponseCache();
  const body = render({ base: 'EUR', rates: { USD: '1.1789' } });
  cache.set(1, '/api/v1/rates/latest', body);
  const held = cache.get(1, '/api/v1/rates/latest');
  assert.notEqual(held, body);
  assert.deepEqual(held, body);
  assert.equal(held?.bytes, body.bytes);
  assert.equal(cache.get(2, '/api/v1/rates/latest'), undefined);
});
