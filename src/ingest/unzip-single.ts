import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { IngestFormatError } from './parsed-day.js';

const MAX_SHOWN_NAME = 200;
/** C0 and C1 controls, DEL, bidirectional marks, overrides and isolates, line and paragraph separators. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A ZIP member's name as error messages show it: control characters (a terminal escape, a newline
 * that would forge a log line), bidirectional overrides and line separators written as escapes
 * (`\u001b`, `\n`), and a very long name cut short. The name comes from the file, not the user.
 */
export function printableName(name: string): string {
  const cut = name.length > MAX_SHOWN_NAME ? `${name.slice(0, MAX_SHOWN_NAME)}…` : name;
  return cut.replace(UNPRINTABLE, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Reads the one file inside a ZIP (the ECB's history ZIP holds a single CSV). Directory entries
 * are ignored; zero or several files is an error. `maxBytes` caps the bytes actually inflated,
 * whatever the headers claim, so a ZIP bomb stops early instead of filling memory.
 */
export async function readZipMember(
  zip: Buffer,
  source: string,
  maxBytes: number,
): Promise<{ name: string; data: Buffer }> {
  const zipfile = await openZip(zip, source);
  try {
    const entry = await findSingleFile(zipfile, source);
    const where = `${source}:${printableName(entry.fileName)}`;
    const data = await readEntry(zipfile, entry, where, maxBytes);
    // yauzl checks sizes but not the checksum; without this a damaged stored member would pass.
    if ((crc32(data) >>> 0) !== (entry.crc32 >>> 0)) {
      throw new IngestFormatError(`${where}: CRC-32 mismatch, the ZIP is corrupt`);
    }
    return { name: entry.fileName, data };
  } finally {
    zipfile.close();
  }
}

function openZip(zip: Buffer, source: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (err, zipfile) => {
      if (err) reject(corrupt(source, err));
      else resolve(zipfile);
    });
  });
}

/** Walks the central directory, stopping as soon as a second file shows up. */
function findSingleFile(zipfile: ZipFile, source: string): Promise<Entry> {
  return new Promise((resolve, reject) => {
    let found: Entry | undefined;
    const onEntry = (entry: Entry): void => {
      if (entry.fileName.endsWith('/')) {
        zipfile.readEntry();
        return;
      }
      if (found !== undefined) {
        finish(new IngestFormatError(
          `${source}: the ZIP holds more than one file (${printableName(found.fileName)}, ${printableName(entry.fileName)}), expected exactly one`,
        ));
        return;
      }
      found = entry;
      zipfile.readEntry();
    };
    const onEnd = (): void => {
      finish(found ?? new IngestFormatError(`${source}: the ZIP holds no file`));
    };
    const onError = (err: Error): void => finish(corrupt(source, err));
    const finish = (result: Entry | Error): void => {
      zipfile.off('entry', onEntry);
      zipfile.off('end', onEnd);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    zipfile.on('entry', onEntry);
    zipfile.once('end', onEnd);
    // Stays attached: yauzl may still emit an error after we are done, and an 'error' event with
    // no listener would crash the process.
    zipfile.on('error', onError);
    zipfile.readEntry();
  });
}

function readEntry(zipfile: ZipFile, entry: Entry, where: string, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (err, stream) => {
      if (err) {
        reject(corrupt(where, err));
        return;
      }
      collect(stream, where, maxBytes).then(resolve, reject);
    });
  });
}

function collect(stream: Readable, where: string, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const settle = (result: Buffer | Error): void => {
      if (settled) return;
      settled = true;
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        stream.destroy(new IngestFormatError(`${where}: inflates to more than ${maxBytes} bytes, refusing it`));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('error', (err) => settle(err instanceof IngestFormatError ? err : corrupt(where, err)));
    stream.on('end', () => settle(Buffer.concat(chunks, total)));
    // Neither 'end' nor 'error' after a close would otherwise leave the caller waiting forever.
    stream.on('close', () => settle(new IngestFormatError(`${where}: the ZIP member stream closed early`)));
  });
}

/** yauzl's messages may quote a member's name (`absolute path: /…`), so they are escaped too. */
function corrupt(where: string, err: Error): IngestFormatError {
  return new IngestFormatError(`${where}: not a readable ZIP file: ${printableName(err.message)}`);
}

// zlib.crc32 arrived in Node 20.15; the package promises >= 20.12, so keep a table fallback.
const CRC_TABLE = ((): Uint32Array => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Buffer): number {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(data);
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = (CRC_TABLE[(c ^ (data[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
