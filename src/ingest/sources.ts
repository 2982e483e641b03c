import { open, type FileHandle } from 'node:fs/promises';
import { IngestFormatError } from './parsed-day.js';
import type { SourceRequest } from './sources/source-adapter.js';

/** What an operator names to ingest: a local file, or a URL holding one document of the source. */
export type IngestSource = { file: string } | { url: string };

/** Where one document is read from: a local file, or a request (a GET of a URL, or what the bank needs). */
export type DocumentSource = { file: string } | SourceRequest;

/** Bigger than any source's document by far (the ECB's full-history XML is about 8 MB). */
const MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;

/** The same cap for a local file, so a wrong path (a disk image, /dev/zero) cannot fill memory. */
export const MAX_FILE_BYTES = MAX_DOWNLOAD_BYTES;

export class SourceUnavailableError extends Error {
  override name = 'SourceUnavailableError';
  constructor(
    message: string,
    /** The HTTP status the server answered, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A file's path; a request's URL, with its method when a POST and what it asks for when labelled. */
export function describeSource(source: DocumentSource): string {
  if ('file' in source) return source.file;
  const what = source.label === undefined ? '' : ` (${source.label})`;
  return `${source.method === 'POST' ? 'POST ' : ''}${source.url}${what}`;
}

/**
 * Several documents in one line: requests to one URL told apart by their labels as one
 * (`POST …/awsbcucotizaciones (ARS + BRL + …)`), anything else each in turn, joined by " + ".
 */
export function describeSources(sources: readonly DocumentSource[]): string {
  const first = sources[0];
  const labels = sources.map((source) => ('url' in source && source.label !== undefined ? source.label : undefined));
  const sameUrl = first !== undefined && 'url' in first && sources.every((source) => 'url' in source && source.url === first.url && source.method === first.method);
  if (sources.length > 1 && sameUrl && labels.every((label) => label !== undefined)) {
    return describeSource({ ...first, label: labels.join(' + ') });
  }
  return sources.map(describeSource).join(' + ');
}

async function download(request: SourceRequest, timeoutMs: number): Promise<Buffer> {
  const what = describeSource(request);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'follow',
    });
  } catch (err) {
    const reason = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    throw new SourceUnavailableError(`${what}: cannot be fetched (${reason})`);
  }
  if (!response.ok) throw new SourceUnavailableError(`${what}: the server answered ${response.status}`, response.status);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_DOWNLOAD_BYTES) throw new IngestFormatError(`${what}: larger than ${MAX_DOWNLOAD_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > MAX_DOWNLOAD_BYTES) throw new IngestFormatError(`${what}: larger than ${MAX_DOWNLOAD_BYTES} bytes`);
      chunks.push(Buffer.from(chunk));
    }
  } catch (err) {
    if (err instanceof IngestFormatError) throw err;
    // The connection broke off or stalled mid-body: say which download, as for a failed fetch.
    const reason = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    throw new SourceUnavailableError(`${what}: the download broke off after ${size} bytes (${reason})`);
  }
  return Buffer.concat(chunks);
}

export async function readSource(source: DocumentSource, timeoutMs = 60_000): Promise<Buffer> {
  if ('url' in source) return download(source, timeoutMs);
  return readFileCapped(source.file, MAX_FILE_BYTES);
}

/**
 * Refused beyond `maxBytes`: a regular file by its size before a byte is read, anything else (a
 * pipe, a device) as soon as it has delivered that much.
 */
async function readFileCapped(file: string, maxBytes: number): Promise<Buffer> {
  const unreadable = (err: unknown) =>
    new SourceUnavailableError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  const tooLarge = () => new IngestFormatError(`${file}: larger than ${maxBytes} bytes, refusing it (no ECB file comes close)`);
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw unreadable(err);
  }
  try {
    const info = await handle.stat();
    if (info.isFile() && info.size > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(1024 * 1024);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw tooLarge();
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    throw err instanceof IngestFormatError ? err : unreadable(err);
  } finally {
    await handle.close();
  }
}
