import fc from 'fast-check';
import { QueryRunner } from 'typeorm';
import { addDays, IsoDate } from '../../src/law/dates';

/** A day within a few weeks of 2024-01-01, so that generated starts and ends meet and overlap. */
export const dayAround: fc.Arbitrary<IsoDate> = fc.integer({ min: -20, max: 40 }).map((n) => addDays('2024-01-01', n));

/** A day within a few weeks of `anchor`. */
export function dayNear(anchor: IsoDate): fc.Arbitrary<IsoDate> {
  return fc.integer({ min: -20, max: 20 }).map((n) => addDays(anchor, n));
}

/** The days to ask about: each boundary, the day before and the day after it, the extra ones, and two far away. */
export function days(boundaries: ReadonlyArray<IsoDate | null>, extra: readonly IsoDate[]): IsoDate[] {
  const all = new Set<IsoDate>(['2000-01-01', '2099-12-31', ...extra]);
  for (const b of boundaries) if (b) for (const d of [-1, 0, 1]) all.add(addDays(b, d));
  return [...all].sort();
}

/** Run `work` in a transaction of `runner` that is always rolled back (each property run starts from the same rows). */
export async function rolledBack(runner: QueryRunner, work: (q: (sql: string, params?: unknown[]) => Promise<any>) => Promise<void>): Promise<void> {
  await runner.startTransaction();
  try {
    await work((sql, params = []) => runner.query(sql, params));
  } finally {
    await runner.rollbackTransaction();
  }
}
