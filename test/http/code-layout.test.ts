import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { API_ENDPOINTS } from '../../src/http/endpoints/api-endpoints.js';

/**
 * Where things are written in src/: an endpoint's path once, in its module (routes, the OpenAPI
 * document, 405s and the tools' texts take it from there, so a path changed in one place cannot
 * leave another behind); the request's chain of hooks in app.ts, from src/http/hooks/; and no
 * state held per module in the HTTP layer, where two apps in one process must not share any.
 */
const SRC = new URL('../../src/', import.meta.url).pathname;

const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  // Code only: a comment may name the route it is about.
  .map((name) => ({ name, text: readFileSync(join(SRC, name), 'utf8').split('\n').filter((line) => !/^\s*(\/\/|\/?\*)/.test(line)).join('\n') }));

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The drop-in paths are not among them: their descriptions name the peer's own path, which is theirs too.
test('each API path is written once in the code of src/, as a string of its own', () => {
  const paths = API_ENDPOINTS.map(({ path }) => path);
  assert.ok(paths.length >= 9, `only ${paths.length} endpoints found`);
  for (const path of paths) {
    // As a string (quoted, or a template's text) ending at a quote, a query or a space: `/api/v1/convert/bulk` is not `/api/v1/convert`.
    const literal = new RegExp(`(?<=['"\`\\s])${escaped(path)}(?=['"\`?\\s.,)])`, 'g');
    const places = sources.flatMap(({ name, text }) => [...text.matchAll(literal)].map(() => name));
    assert.deepEqual(places.length, 1, `${path} is written in ${places.length} places: ${places.join(', ')}`);
  }
});

test('hooks are added in app.ts alone, where the whole chain is listed in order', () => {
  const adding = sources.filter(({ text }) => /\.addHook\(/.test(text)).map(({ name }) => name);
  assert.deepEqual(adding, ['app.ts']);
});

test('no module of src/http holds a WeakMap of its own at the top level', () => {
  const held = sources.filter(({ name, text }) => name.startsWith('http/') && /^(export )?(const|let) \w+ = new WeakMap/m.test(text)).map(({ name }) => name);
  assert.deepEqual(held, []);
});
