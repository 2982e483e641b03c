import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextPublicationRun } from '../../src/ingest/publication-time.js';
import { boc } from '../../src/ingest/sources/boc.js';
import { cbr } from '../../src/ingest/sources/cbr.js';
import { nbp } from '../../src/ingest/sources/nbp.js';

const at = (iso: string) => Date.parse(iso);
const next = (now: string, schedule = nbp.schedule) => {
  const run = nextPublicationRun(at(now), schedule, 30);
  return { at: new Date(run.at).toISOString(), day: run.day };
};

test("when a source's next run is asked, then it is 30 minutes after its publication time in its own zone, on its weekdays", () => {
  // NBP: 12:15 Europe/Warsaw, CET (UTC+1) in November.
  assert.deepEqual(next('2026-11-26T10:00:00Z'), { at: '2026-11-26T11:45:00.000Z', day: '2026-11-26' });
  // At the run's own instant the next one is the following day's.
  assert.deepEqual(next('2026-11-26T11:45:00Z'), { at: '2026-11-27T11:45:00.000Z', day: '2026-11-27' });
  // Friday after the run: Monday.
  assert.deepEqual(next('2026-11-27T12:00:00Z'), { at: '2026-11-30T11:45:00.000Z', day: '2026-11-30' });
  // Summer time (UTC+2), and across the switch of Sunday 2026-03-29.
  assert.deepEqual(next('2026-07-06T00:00:00Z'), { at: '2026-07-06T10:45:00.000Z', day: '2026-07-06' });
  assert.deepEqual(next('2026-03-27T12:00:00Z'), { at: '2026-03-30T10:45:00.000Z', day: '2026-03-30' });
  // CBR: 15:30 Moscow, UTC+3 all year.
  assert.deepEqual(next('2026-11-26T00:00:00Z', cbr.schedule), { at: '2026-11-26T13:00:00.000Z', day: '2026-11-26' });
});

test("when the source's local date differs from the UTC date, then the slot's day is the local one", () => {
  // BoC: 16:30 America/Toronto (UTC-5 in November) + 30 min = 22:00 UTC.
  assert.deepEqual(next('2026-11-26T21:00:00Z', boc.schedule), { at: '2026-11-26T22:00:00.000Z', day: '2026-11-26' });
  // 03:00 UTC on Friday is still Thursday evening in Toronto, after Thursday's run: Friday's.
  assert.deepEqual(next('2026-11-27T03:00:00Z', boc.schedule), { at: '2026-11-27T22:00:00.000Z', day: '2026-11-27' });
  // Saturday 01:00 UTC is Friday 20:00 in Toronto, after Friday's run: Monday's.
  assert.deepEqual(next('2026-11-28T01:00:00Z', boc.schedule), { at: '2026-11-30T22:00:00.000Z', day: '2026-11-30' });
});
