import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

// The physical limit of this machine for our answer: a bare node:http server sending the same
// bytes as /api/v1/rates/latest, computed once.
const body = readFileSync(process.env.BASELINE_BODY_FILE!);
createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
