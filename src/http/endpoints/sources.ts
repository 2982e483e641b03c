import { z } from 'zod';
import type { SourceDescription, StoredSpan } from '../../domain/source-values.js';
import { apiResponses } from '../openapi/route-docs.js';
import { code, isoDate } from '../openapi/response-schemas.js';
import { defineEndpoint } from './endpoint.js';

/** GET /sources' entry of one enabled source (docs/api.md): no codes and null days before its first ingestion. */
export const sourceEntry = (source: SourceDescription, span: StoredSpan | undefined) => ({
  id: source.id,
  name: source.name,
  base: source.base,
  url: source.url,
  country: source.country,
  rate_type: source.rateType,
  cadence: source.cadence,
  publishes_from: source.publishesFrom,
  codes: span?.codes ?? [],
  first_day: span?.firstDay ?? null,
  last_day: span?.lastDay ?? null,
});

export const Source = z
  .strictObject({
    id: z.string().regex(/^[a-z]+$/).meta({ description: 'The id used in SOURCES and `ingest --source`', examples: ['nbp'] }),
    name: z.string().meta({ description: "The bank's name", examples: ['Narodowy Bank Polski'] }),
    base: code.describe('The currency the bank quotes against'),
    url: z.url().meta({ description: "The bank's page describing the feed", examples: ['https://api.nbp.pl/en.html'] }),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .nullable()
      .meta({ description: 'ISO 3166 alpha-2 country of the bank; "EU" for the ECB, null for an international body (the IMF)', examples: ['PL'] }),
    rate_type: z.string().meta({ description: 'What the number is, in the bank\'s sense', examples: ['reference', 'official fixing', 'average of the day'] }),
    cadence: z.string().meta({ description: 'How often the bank publishes', examples: ['daily', 'weekly'] }),
    publishes_from: isoDate.nullable().describe('The first day the bank publishes, when known; null when not'),
    codes: z.array(code).describe('Every currency stored from this source, alphabetical; the base itself is not listed'),
    first_day: isoDate.nullable().describe('The first stored day of this source; null before its first ingestion'),
    last_day: isoDate.nullable().describe('The last stored day of this source; null before its first ingestion'),
  })
  .meta({ id: 'Source' });

export const SourceList = z.array(Source).meta({
  id: 'SourceList',
  description: 'Each enabled rate source, in the priority order of SOURCES',
  examples: [
    [
      {
        id: 'ecb',
        name: 'European Central Bank',
        base: 'EUR',
        url: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
        country: 'EU',
        rate_type: 'reference',
        cadence: 'daily',
        publishes_from: '1999-01-04',
        codes: ['AUD', 'BGN', 'USD'],
        first_day: '1999-01-04',
        last_day: '2026-04-13',
      },
    ],
  ],
});

/** The enabled rate sources and what is stored of each. */
export const sourcesEndpoint = defineEndpoint({
  path: '/api/v1/sources',
  // DECISIONS §9: from the snapshot, so kept by its version like the rates.
  cacheable: true,
  doc: {
    operationId: 'listSources',
    summary: 'Enabled rate sources',
    description:
      'Each central bank the server is set to use (SOURCES), in priority order, with its country, the kind of rate it ' +
      'publishes, how often and since when, the currencies stored from it and its first and last stored day (null ' +
      'before its first ingestion). Works before any ingestion.',
    tags: ['Currencies'],
    conditional: true,
    responses: apiResponses({ body: SourceList, description: 'The sources' }, undefined, false),
  },
  body: ({ snapshot, sources }) => sources.map((source) => sourceEntry(source, snapshot.spanOf(source.id))),
});
