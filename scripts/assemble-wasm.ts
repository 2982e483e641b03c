/**
 * Part of every build (`npm run build`, `prepare`, `test`, `bench`): assembles the service's
 * WebAssembly text sources into the binaries the server loads, beside its compiled JavaScript
 * (`src/http/conversion-kernel.wat` → `dist/src/http/conversion-kernel.wasm`). The binary is
 * build output, like the JavaScript, so only its source is in the repository.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import wabt from 'wabt';

const ROOT = new URL('../../', import.meta.url);
const SOURCES = ['src/http/conversion-kernel.wat'];

const assembler = await wabt();
for (const source of SOURCES) {
  const module = assembler.parseWat(source, readFileSync(new URL(source, ROOT), 'utf8'));
  try {
    module.validate();
    const target = new URL(`dist/${source.replace(/\.wat$/, '.wasm')}`, ROOT);
    mkdirSync(dirname(target.pathname), { recursive: true });
    writeFileSync(target, module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}
