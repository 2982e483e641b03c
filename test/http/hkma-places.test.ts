import { test } from 'node:test';
import { expectJson } from '../helpers/http-expect.js';
import { MORE_PROVIDER_FILES, moreProviderPath } from '../helpers/more-provider-fixtures.js';
import { startTestApp } from '../helpers/test-server.js';

/**
 * HKMA writes its figures as JSON doubles (`"usd":7.8245000000000005` for 7.8245); the most
 * places a figure of the recorded answer carries is 8, the SDR's (`"special_drawing_rights":
 * 10.75757525`). Each is kept to its last published digit, from the parser through the store to
 * the answer, so `precision=12` shows every digit the bank wrote and no noise.
 */

const [FILE] = MORE_PROVIDER_FILES.hkma;

test('when HKMA is asked at precision 12, then its 8-decimal SDR and 7-decimal IDR figures come back to the last digit, the double noise gone', async (t) => {
  const server = await startTestApp(t, { ingestSources: [{ source: 'hkma', file: moreProviderPath('hkma', FILE!) }], env: { SOURCES: 'hkma' } });
  const get = (path: string) => server.get(path);
  // {"end_of_day":"2026-02-27",…,"idr":0.0004666,…,"special_drawing_rights":10.75757525}: HKD per 1 unit.
  await expectJson(get('/api/v1/rates/2026-02-27?source=hkma&base=XDR&symbols=HKD&precision=12'), 200, {
    base: 'XDR', date: '2026-02-27', rates: { HKD: '10.757575250000' },
  });
  await expectJson(get('/api/v1/rates/2026-02-27?source=hkma&base=IDR&symbols=HKD&precision=12'), 200, {
    base: 'IDR', date: '2026-02-27', rates: { HKD: '0.000466600000' },
  });
  // {"end_of_day":"2026-02-25",…,"special_drawing_rights":10.74250014}; and 2026-02-28's "usd":7.8245000000000005 is 7.8245.
  await expectJson(get('/api/v1/rates/2026-02-25?source=hkma&base=XDR&symbols=HKD&precision=12'), 200, {
    base: 'XDR', date: '2026-02-25', rates: { HKD: '10.742500140000' },
  });
  await expectJson(get('/api/v1/rates/2026-02-28?source=hkma&base=USD&symbols=HKD&precision=12'), 200, {
    base: 'USD', date: '2026-02-28', rates: { HKD: '7.824500000000' },
  });
});
