import { open, type FileHandle } from 'node:fs/promises';
import { IngestFormatError } from './parsed-day.js';

export type IngestSource = { file: string } | { url: string };

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
  if (!response.ok) throw new SourceUnavailableError(`${url}: the server answered ${response.status}`, response.status);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_DOWNLOAD_BYTES) throw new IngestFormatError(`${url}: larger than ${MAX_DOWNLOAD_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > MAX_DOWNLOAD_BYTES) throw new IngestFormatError(`${url}: larger than ${MAX_DOWNLOAD_BYTES} bytes`);
      chunks.push(Buffer.from(chunk));
    }
  } catch (err) {
    if (err instanceof IngestFormatError) throw err;
    // The connection broke off or stalled mid-body: say which download, as for a failed fetch.
    const reason = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    throw new SourceUnavailableError(`${url}: the download broke off after ${size} bytes (${reason})`);
  }
  return Buffer.concat(chunks);
}

export async function readSource(source: IngestSource, timeoutMs = 60_000): Promise<Buffer> {
  if ('url' in source) return download(source.url, timeoutMs);
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
