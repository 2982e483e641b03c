import zlib from 'node:zlib';

/**
 * A minimal ZIP writer for tests that need ZIPs no archiver would make: members whose headers
 * lie about their size or checksum, bombs, several members. Local headers, central directory and
 * end record as in APPNOTE 6.3; no ZIP64, no data descriptors.
 */
export interface ZipMember {
  name: string;
  /** The member's bytes; deflated unless `stored`. Ignored when `deflated` is given. */
  data?: Buffer;
  /** Already-deflated bytes (raw deflate), e.g. a bomb built by deflateZeros. */
  deflated?: Buffer;
  stored?: boolean;
  /** Declared uncompressed size and CRC-32; by default the true ones of `data`. */
  size?: number;
  crc?: number;
}

export function buildZip(members: ZipMember[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const name = Buffer.from(member.name, 'utf8');
    const data = member.data ?? Buffer.alloc(0);
    const method = member.deflated || !member.stored ? 8 : 0;
    const body = member.deflated ?? (method === 8 ? zlib.deflateRawSync(data) : data);
    const crc = member.crc ?? zlib.crc32(data);
    const size = member.size ?? data.length;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * `bytes` zero bytes, raw-deflated without ever holding them: a ZIP bomb's payload (about a
 * thousandth of its inflated size), with the CRC-32 of what it inflates to.
 */
export async function deflateZeros(bytes: number): Promise<{ deflated: Buffer; crc: number }> {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const chunk = Buffer.alloc(1024 * 1024);
  let crc = 0;
  for (let left = bytes; left > 0; left -= chunk.length) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    crc = zlib.crc32(piece, crc);
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return { deflated: Buffer.concat(out), crc };
}
