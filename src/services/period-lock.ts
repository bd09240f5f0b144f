import { EntityManager } from 'typeorm';
import { ConflictError } from './errors';
import { message } from '../i18n';
import { Problems } from './problems';

/** The advisory-lock key of a producer's month (one 64-bit key; a collision only serializes more). */
export const PERIOD_LOCK_KEY = `hashtextextended('tax_period:' || $1::text || ':' || $2::int || ':' || $3::int, 0)`;

/**
 * Refuses to touch a CLOSED month (PERIOD_CLOSED). The month's shared lock (closeTaxPeriod takes it
 * exclusively) puts a racing write either in the snapshot or refused; locks taken in order.
 */
export async function assertPeriodsOpen(
  em: EntityManager,
  producerId: string,
  months: Array<{ year: number; month: number; field: string }>,
  problems?: Problems,
): Promise<void> {
  const distinct = new Map<string, { year: number; month: number; field: string }>();
  for (const m of months) {
    const key = `${m.year}-${String(m.month).padStart(2, '0')}`;
    if (!distinct.has(key)) distinct.set(key, m);
  }
  const ordered = [...distinct.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, m]) => m);
  for (const m of ordered) {
    await em.query(`SELECT pg_advisory_xact_lock_shared(${PERIOD_LOCK_KEY})`, [producerId, m.year, m.month]);
  }
  if (ordered.length === 0) return;
  const closed: Array<{ year: number; month: number }> = await em.query(
    `SELECT year, month FROM tax_period
      WHERE producer_id = $1 AND status = 'CLOSED' AND (year * 100 + month) = ANY($2::int[])`,
    [producerId, ordered.map((m) => m.year * 100 + m.month)],
  );
  if (closed.length === 0) return;
  const inClosed = (m: { year: number; month: number }) => closed.some((c) => c.year === m.year && c.month === m.month);
  const refused = (m: { year: number; month: number; field: string }) =>
    new ConflictError('PERIOD_CLOSED', message('period.closed', { period: `${m.year}-${String(m.month).padStart(2, '0')}`, producerId }), m.field);
  // With `problems`, every item in a closed month is reported; without, the first month is thrown.
  if (!problems) throw refused(ordered.find(inClosed)!);
  for (const m of months.filter(inClosed)) problems.add(refused(m));
}

/** closeTaxPeriod and reopenTaxPeriod: the exclusive lock of the month, held to the end of the transaction. */
export async function lockPeriodExclusively(em: EntityManager, producerId: string, year: number, month: number): Promise<void> {
  await em.query(`SELECT pg_advisory_xact_lock(${PERIOD_LOCK_KEY})`, [producerId, year, month]);
}
