import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

// The physical limit of this machine for our answers: a bare node:http server sending the same
// bytes as the service, computed once: the rates/latest answer for any path, and the answers
// BASELINE_BODIES (a JSON file of path → body file) names for theirs.
const body = readFileSync(process.env.BASELINE_BODY_FILE!);
const bodies = new Map<string, Buffer>();
if (process.env.BASELINE_BODIES) {
  const files = JSON.parse(readFileSync(process.env.BASELINE_BODIES, 'utf8')) as Record<string, string>;
  for (const [path, file] of Object.entries(files)) bodies.set(path, readFileSync(file));
}
createServer((request, response) => {
  const answer = bodies.get(request.url ?? '') ?? body;
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
  response.end(answer);
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
