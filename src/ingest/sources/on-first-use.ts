import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/**
 * A package required on the first call, then kept: a parser every adapter imports, which a server
 * that only serves never loads. Synchronous (require, not import()), so parsing stays a plain function.
 */
export function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    const module: T = loaded ?? load(name);
    loaded = module;
    return module;
  };
}
