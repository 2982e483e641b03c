import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCosts } from '../../bench/generator-parse.js';

test('bytes that are not exactly one answer are refused, not timed', () => {
  // An answer whose body runs until the connection closes never ends.
  assert.throws(() => parseCosts([Buffer.from('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n01234')], 10, 1), /parsed 0 answers of 10/);
  // An answer and a byte more: the next answer starts with that byte.
  assert.throws(() => parseCosts([Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n0123456789X')], 10, 1), /not an answer autocannon can read/);
});
