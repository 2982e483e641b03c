import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { fixture, runCli, serviceEnv } from '../helpers/cli.js';
import { spawnServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * What a serving process does not load until it is used: the MCP SDK (the first POST /mcp) and
 * the banks' parsers (the first document ingested). Every module the server imports is listed
 * by a module hook given to the test's server process alone.
 */
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_MODULES, url + '\\n');
  return next(url, context);
}`;

const LAZY = ['@modelcontextprotocol/sdk', 'fast-xml-parser', 'lossless-json', 'yauzl'];

test('when the server starts, then the MCP SDK and the parsers are not loaded, and the first POST /mcp loads the SDK and answers', async (t) => {
  const dir = tempDir(t);
  const env = serviceEnv(join(dir, 'rates.db'));
  const ingested = await runCli(['ingest', '--file', fixture('hist.csv')], env);
  assert.equal(ingested.code, 0, ingested.stderr);
  const key = (await runCli(['keys', 'create', '--name', 'lazy'], env)).stdout.trim().split('\n').at(-1)!;
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
  const loadedFile = join(dir, 'loaded.txt');
  writeFileSync(loadedFile, '');
  const server = await spawnServer(t, { ...env, LOADED_MODULES: loadedFile, NODE_OPTIONS: `--import=${pathToFileURL(join(dir, 'register.mjs')).href}` });
  const loaded = (name: string) => readFileSync(loadedFile, 'utf8').split('\n').some((url) => url.includes(`/node_modules/${name}/`));

  assert.ok(loaded('fastify'), 'the hook sees what the server loads');
  for (const name of LAZY) assert.equal(loaded(name), false, `${name} is not loaded at start`);

  const answer = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  assert.equal(answer.status, 200);
  const listed = (await answer.json()) as { result: { tools: { name: string }[] } };
  assert.ok(listed.result.tools.some((tool) => tool.name === 'convert'), JSON.stringify(listed));
  assert.ok(loaded('@modelcontextprotocol/sdk'), 'the first call loaded the SDK');
  await server.stop();
});
