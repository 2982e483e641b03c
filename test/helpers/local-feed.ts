import { createServer } from 'node:http';
import type { TestContext } from 'node:test';

/** What a local feed answers a path with: a body, and a status (200 unless given). */
export type FeedAnswer = (path: string) => { status?: number; body: Buffer | string };

/**
 * A local stand-in for a bank's feed, closed after the test: it answers each request as `answer`
 * says and records the paths asked, in order. `base` is its http://127.0.0.1:PORT.
 */
export async function localFeed(t: TestContext, answer: FeedAnswer): Promise<{ base: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(request.url!);
    const { status = 200, body } = answer(request.url!);
    response.statusCode = status;
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { base: `http://127.0.0.1:${address.port}`, asked };
}
