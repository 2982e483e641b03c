import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestMetrics } from '../../src/metrics/request-metrics.js';
import { promClientPair } from '../helpers/prom-client-pair.js';

test('when answers are observed, then the exposition is byte for byte what prom-client writes for the same observations', async () => {
  const ours = new RequestMetrics();
  const theirs = promClientPair();
  const observations: [string, string, number, number][] = [
    ['/api/v1/rates/latest', 'GET', 200, 0.0003],
    ['/api/v1/rates/latest', 'GET', 200, 0.0005], // on a bound: in that bucket
    ['/api/v1/rates/latest', 'GET', 429, 0.0021],
    ['/api/v1/rates/:date', 'GET', 200, 0.07],
    ['unmatched', 'POST', 404, 3.5], // above every bound: +Inf only
    ['/api/v1/rates/latest', 'HEAD', 200, 0.01],
    ['/api/v1/rates/latest', 'GET', 200, 0.9],
  ];
  for (const [route, method, status, seconds] of observations) {
    ours.observe(route, method, status, seconds);
    theirs.observe(route, method, status, seconds);
  }
  assert.equal(ours.exposition(), await theirs.registry.metrics());
});

test('when nothing has been answered, then both families are there with no samples, as prom-client writes them', async () => {
  assert.equal(new RequestMetrics().exposition(), await promClientPair().registry.metrics());
});

test('when a label value holds a quote, a backslash or a line feed, then it is escaped as the text format requires', async () => {
  const ours = new RequestMetrics();
  const theirs = promClientPair();
  ours.observe('a"b\\c\nd', 'GET', 200, 0.001);
  theirs.observe('a"b\\c\nd', 'GET', 200, 0.001);
  const text = ours.exposition();
  assert.ok(text.includes('route="a\\"b\\\\c\\nd"'), text);
  assert.equal(text, await theirs.registry.metrics());
});
