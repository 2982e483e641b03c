import { boc } from './boc.js';
import { cbr } from './cbr.js';
import { cnb } from './cnb.js';
import { ecb } from './ecb.js';
import { nbp } from './nbp.js';
import { nbu } from './nbu.js';
import type { SourceAdapter } from './source-adapter.js';

/** Every rate source the service knows, by id. A new source is one file and one line here. */
export const SOURCE_ADAPTERS: readonly SourceAdapter[] = [ecb, nbp, cnb, boc, cbr, nbu];

export const SOURCE_IDS: readonly string[] = SOURCE_ADAPTERS.map((adapter) => adapter.id);

export function sourceAdapter(id: string): SourceAdapter | undefined {
  return SOURCE_ADAPTERS.find((adapter) => adapter.id === id);
}
