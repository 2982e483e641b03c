import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a real backend, to take it away from a client mid-life:
 * `cut()` drops every connection and refuses new ones (the server died), `stall()` keeps
 * connections open but forwards nothing (the network or server hangs), `restore()` brings the
 * backend back on the same port.
 */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  stall(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let stalled = false;
  let server: Server | undefined;

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.on('data', (chunk) => {
          if (!stalled) upstream.write(chunk);
        });
        upstream.on('data', (chunk) => {
          if (!stalled) client.write(chunk);
        });
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        server = s;
        const address = s.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });

  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    const s = server;
    server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  const port = await listen(0);
  return {
    port,
    cut: stop,
    stall: () => {
      stalled = true;
    },
    restore: async () => {
      stalled = false;
      if (!server) await listen(port);
    },
    close: stop,
  };
}

/** A server that accepts connections and never says a word: a client must time out, not hang. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    port: address.port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
