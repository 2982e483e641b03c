import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { read } from './test-server.js';

/**
 * The OpenAPI contract the document suites share (test/docs/openapi.test.ts for the native API,
 * drop-in-openapi.test.ts for the drop-in paths): real answers checked against the documented
 * body schemas and headers, and which (path, status) pairs were seen.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as untyped JSON
export type Json = Record<string, any>;

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

/** Compiles the documented schemas with ajv's 2020-12 dialect (OpenAPI 3.1's), `$ref`s into the components resolved. */
function schemaCompiler(doc: Json) {
  const ajv = new Ajv2020.default({ allErrors: true, strict: true });
  addFormats.default(ajv);
  ajv.addKeyword('example'); // OpenAPI's own annotation, not JSON Schema's
  const toDefs = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"https://currency-rates.test/components.json#/$defs/'));
  ajv.addSchema({ $id: 'https://currency-rates.test/components.json', $defs: toDefs(doc.components.schemas) });
  return (schema: unknown) => ajv.compile(toDefs(schema));
}

/** Checks answers against the document and remembers which (path, status) pairs were seen. */
export function contract(doc: Json) {
  const compile = schemaCompiler(doc);
  const seen = new Set<string>();

  function checkResponse(documented: Json, answer: Answer, label: string): void {
    assert.ok(documented, `${label}: status ${answer.status} is documented`);
    const content = documented.content?.['application/json'];
    if (content) {
      assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8', `${label}: content-type`);
      const validate = compile(content.schema);
      const body = JSON.parse(answer.text);
      assert.ok(validate(body), `${label}: ${answer.text} breaks the documented schema: ${JSON.stringify(validate.errors)}`);
    } else {
      assert.equal(answer.text, '', `${label}: no body documented, none sent`);
    }
    for (const [name, header] of Object.entries<Json>(documented.headers ?? {})) {
      const value = answer.headers.get(name);
      assert.ok(value !== null, `${label}: documented header ${name} is sent`);
      const validate = compile(header.schema);
      const typed = header.schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      assert.ok(validate(typed), `${label}: header ${name}: ${value} breaks ${JSON.stringify(header.schema)}`);
    }
  }

  return {
    seen,
    check(path: string, answer: Answer, what: string): void {
      const label = `${what} (${path} → ${answer.status})`;
      checkResponse(doc.paths[path]?.get?.responses?.[String(answer.status)], answer, label);
      seen.add(`${path} ${answer.status}`);
    },
    /** An answer documented once for the whole API (405, or the 404 of an unknown path). */
    checkShared(documented: Json, answer: Answer, what: string): void {
      checkResponse(documented, answer, what);
    },
  };
}

export async function answerOf(response: Response): Promise<Answer> {
  const { status, text, headers } = await read(response);
  return { status, text, headers };
}

