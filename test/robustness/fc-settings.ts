/**
 * Fixed seeds and bounded runs, so `npm test` is reproducible and quick; longer or different
 * runs come from the environment: `FC_RUNS=10000 npm test`, `FC_SEED=42 npm test`.
 */
function fromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got ${value}`);
  return n;
}

export const FC_SEED = fromEnv('FC_SEED', 20260413);

/** `fraction` of FC_RUNS (default 200), at least `min`: suites scale their runs from one knob. */
export function fcRuns(fraction = 1, min = 1): number {
  return Math.max(min, Math.round(fromEnv('FC_RUNS', 200) * fraction));
}

export const fcParams = (fraction = 1, min = 1) => ({ seed: FC_SEED, numRuns: fcRuns(fraction, min), endOnFailure: true });

/**
 * fc.assert, but the failure names the broken assertion itself (not only the counterexample), so
 * the test report says what went wrong without a rerun.
 */
export async function assertProperty<Ts>(property: import('fast-check').IAsyncProperty<Ts> | import('fast-check').IProperty<Ts>, params: ReturnType<typeof fcParams>): Promise<void> {
  const { check } = await import('fast-check');
  const details = await check(property as import('fast-check').IAsyncProperty<Ts>, params);
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  const example = JSON.stringify(details.counterexample, (_k, v: unknown) => (typeof v === 'string' && v.length > 400 ? `${v.slice(0, 400)}…(${v.length})` : v));
  throw new Error(
    `property failed after ${details.numRuns} run(s) (seed ${details.seed}, path "${details.counterexamplePath}", shrunk ${details.numShrinks}x)\n` +
      `counterexample: ${example}\n${cause}`,
  );
}
