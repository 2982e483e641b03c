import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ECB_FIXTURES } from './fixtures.js';
import { PROVIDER_FIXTURES } from './provider-fixtures.js';

/**
 * Every bank's recorded file the repository holds, with its source: test/fixtures/ecb/…,
 * providers/<id>-…, providers/more/<id>/…; the set `SOURCES=all` is tested with.
 */

const MORE = join(PROVIDER_FIXTURES, 'more');

export const ALL_RECORDED: readonly { source: string; file: string }[] = [
  ...readdirSync(ECB_FIXTURES).map((name) => ({ source: 'ecb', file: join(ECB_FIXTURES, name) })),
  ...readdirSync(PROVIDER_FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => ({ source: entry.name.slice(0, entry.name.indexOf('-')), file: join(PROVIDER_FIXTURES, entry.name) })),
  ...readdirSync(MORE, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((folder) => readdirSync(join(MORE, folder.name)).map((name) => ({ source: folder.name, file: join(MORE, folder.name, name) }))),
];

/**
 * The recorded files their adapter refuses by design, each kept for a test of that refusal: a
 * range with no rates, another list than the one read, the bank's HTML page.
 */
export const REFUSED_RECORDED: readonly string[] = [
  'bna-taxa-ref-SDG-2026-05-18_2026-05-21.json',
  'hnb-tecajn-hrk-v2-2022-12-31.json',
  'imf-rms-rep-2026-03.tsv',
  'nbkr-historical-EUR-2005-06-04_2005-06-25.html',
  'nbkr-historical-USD-2005-06-04_2005-06-25.html',
  'nbrb-dynamics-CZK-2026-03-01_2026-03-17.json',
];

/** Every recorded file an adapter reads: what an operator loads to serve SOURCES=all. */
export const RECORDED: readonly { source: string; file: string }[] = ALL_RECORDED.filter(({ file }) => !REFUSED_RECORDED.includes(basename(file)));
