import { readFile } from 'node:fs/promises';
import type { IngestSourceName } from '../config.js';
import { IngestFormatError } from './parsed-day.js';

/** The ECB's public feeds (rates per 1 EUR). */
export const ECB_URLS: Record<IngestSourceName, string> = {
  'ecb-daily': 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml',
  'ecb-90d': 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml',
  'ecb-hist': 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip',
};

export type IngestSource = { file: string } | { url: string };

/** Bigger than any ECB file by far (the full-history XML is about 8 MB). */
const MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;

export class SourceUnavailableError extends Error {
  override name = 'SourceUnavailableError';
}

export function describeSource(source: IngestSource): string {
  return 'file' in source ? source.file : source.url;
}

async function download(url: string, timeoutMs: number): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (err) {
    const reason = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    throw new SourceUnavailableError(`${url}: cannot be fetched (${reason})`);
  }
  if (!response.ok) throw new SourceUnavailableError(`${url}: the server answered ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_DOWNLOAD_BYTES) throw new IngestFormatError(`${url}: larger than ${MAX_DOWNLOAD_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > MAX_DOWNLOAD_BYTES) throw new IngestFormatError(`${url}: larger than ${MAX_DOWNLOAD_BYTES} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

export async function readSource(source: IngestSource, timeoutMs = 60_000): Promise<Buffer> {
  if ('url' in source) return download(source.url, timeoutMs);
  try {
    return await readFile(source.file);
  } catch (err) {
    throw new SourceUnavailableError(`${source.file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}
