import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP relay to `host:port` that can stall as a stopped server (SIGSTOP) does: while stalled,
 * what clients send is held, as the server's kernel would hold it, and nothing comes back; on
 * resume the held bytes reach the server in order, and a client that hung up meanwhile is hung
 * up on after them. Closed after the test.
 */
export async function stallingRelay(host: string, port: number): Promise<{ port: number; stall(): void; resume(): void; close(): Promise<void> }> {
  let stalled = false;
  const pairs: { client: Socket; upstream: Socket; held: Buffer[]; clientClosed: boolean }[] = [];
  const server = createServer((client) => {
    const upstream = connect(port, host);
    const pair = { client, upstream, held: [] as Buffer[], clientClosed: false };
    pairs.push(pair);
    for (const socket of [client, upstream]) socket.on('error', () => undefined);
    client.on('data', (chunk: Buffer) => (stalled ? pair.held.push(chunk) : upstream.write(chunk)));
    upstream.on('data', (chunk: Buffer) => {
      if (!stalled) client.write(chunk);
    });
    client.on('close', () => {
      pair.clientClosed = true;
      if (!stalled) upstream.end();
    });
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    port: address.port,
    stall: () => void (stalled = true),
    resume: () => {
      stalled = false;
      for (const pair of pairs) {
        for (const chunk of pair.held) pair.upstream.write(chunk);
        pair.held = [];
        if (pair.clientClosed) pair.upstream.end();
      }
    },
    close: async () => {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
