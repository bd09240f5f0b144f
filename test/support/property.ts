import fc from 'fast-check';

/** The seed of every property run unless a call names its own: a failure replays the same way everywhere. */
export const PROPERTY_SEED = 20261204;

/**
 * `fc.assert` with a fixed seed and verbose counterexamples: fast-check prints the seed and the
 * path of a failure, so a red run is reproduced by passing them back (`{ seed, path }`).
 */
export function checkProperty<Ts>(property: fc.IAsyncProperty<Ts>, params?: fc.Parameters<Ts>): Promise<void>;
export function checkProperty<Ts>(property: fc.IProperty<Ts>, params?: fc.Parameters<Ts>): void;
export function checkProperty<Ts>(property: fc.IRawProperty<Ts>, params: fc.Parameters<Ts> = {}): void | Promise<void> {
  return fc.assert(property, { seed: PROPERTY_SEED, verbose: 1, ...params });
}
