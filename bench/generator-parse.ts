import { createRequire } from 'node:module';
import { connect } from 'node:net';

/** The part of http-parser-js's parser used here (its own types are not reachable from this package). */
interface ResponseParser {
  execute(bytes: Buffer): number | Error;
  [hook: number]: unknown;
}
interface ParserClass {
  new (kind: 'RESPONSE'): ResponseParser;
  RESPONSE: 'RESPONSE';
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
}

// The parser autocannon itself reads every answer with, resolved from autocannon's own location,
// so that what is timed here is what the load generator runs.
const fromAutocannon = createRequire(createRequire(import.meta.url).resolve('autocannon'));
const { HTTPParser } = fromAutocannon('http-parser-js') as { HTTPParser: ParserClass };

/** A parser whose callbacks count the header lines and the answers completed. */
function parser(): { parser: ResponseParser; seen: { headerLines: number; complete: number } } {
  const seen = { headerLines: 0, complete: 0 };
  const parser = new HTTPParser(HTTPParser.RESPONSE);
  parser[HTTPParser.kOnHeadersComplete] = (info: { headers: string[] }) => {
    seen.headerLines = info.headers.length / 2;
  };
  parser[HTTPParser.kOnBody] = () => undefined;
  parser[HTTPParser.kOnMessageComplete] = () => {
    seen.complete++;
  };
  return { parser, seen };
}

/** One answer to a GET of `path`, its bytes exactly as they came off the socket. */
export function rawAnswer(url: string, path: string, headers: Record<string, string> = {}): Promise<Buffer> {
  const { hostname, port, host } = new URL(url);
  const request = [`GET ${path} HTTP/1.1`, `Host: ${host}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const { parser: reading, seen } = parser();
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const parsed = reading.execute(chunk);
      if (parsed instanceof Error) {
        socket.destroy();
        reject(parsed);
      } else if (seen.complete > 0) {
        socket.destroy();
        resolve(Buffer.concat(chunks));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`the connection closed before a whole answer to ${path} came`)));
  });
}

/** How often each answer is parsed in a round, and how many rounds (the report quotes both). */
export const PARSES = 50_000;
export const PARSE_ROUNDS = 5;

export interface ParseCost {
  bytes: number;
  headerLines: number;
  /** µs autocannon's parser takes to read the answer once (the median of the rounds). */
  micros: number;
}

/**
 * What reading each answer costs the load generator, timed on its own parser: the answers parsed
 * `times` times a round, the answers' rounds interleaved, each answer's median round kept. The
 * generator shares the machine's cores with the server, so a heavier answer (more header lines)
 * leaves less of them to the server it loads.
 */
export function parseCosts(answers: readonly Buffer[], times = PARSES, rounds = PARSE_ROUNDS): ParseCost[] {
  const results = answers.map(() => [] as number[]);
  const lines = answers.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    answers.forEach((answer, i) => {
      const { parser: reading, seen } = parser();
      const started = performance.now();
      for (let n = 0; n < times; n++) {
        const parsed = reading.execute(answer);
        if (parsed instanceof Error) throw new Error(`not an answer autocannon can read: ${parsed.message}`);
      }
      const elapsed = performance.now() - started;
      if (seen.complete !== times) throw new Error(`parsed ${seen.complete} answers of ${times}`);
      lines[i] = seen.headerLines;
      results[i]!.push((elapsed * 1000) / times);
    });
  }
  return answers.map((answer, i) => ({
    bytes: answer.length,
    headerLines: lines[i]!,
    micros: results[i]!.sort((a, b) => a - b)[Math.floor(rounds / 2)]!,
  }));
}
