import { EntityManager } from 'typeorm';

/**
 * The Semiárido editions the demo and the benchmark record (Res. Condel/Sudene 115/2017, 150/2021,
 * 176/2024, each until the next); the official lists load with `npm run import -- semiarid`.
 */
export const SEMIARID_EDITIONS: ReadonlyArray<{ act: string; validFrom: string; validUntil: string | null }> = [
  { act: 'Resolução Condel/Sudene nº 115/2017', validFrom: '2017-12-05', validUntil: '2021-12-29' },
  { act: 'Resolução Condel/Sudene nº 150/2021', validFrom: '2021-12-30', validUntil: '2024-01-02' },
  { act: 'Resolução Condel/Sudene nº 176/2024', validFrom: '2024-01-03', validUntil: null },
];

/** One interval per edition for each municipality of `codes`; returns how many were written. */
export async function recordSemiaridEditions(em: Pick<EntityManager, 'query'>, codes: readonly string[]): Promise<number> {
  if (codes.length === 0) return 0;
  const rows: unknown[] = await em.query(
    `INSERT INTO semiarid_membership (municipality_code, valid_from, valid_until, act)
     SELECT c.code, e."validFrom", e."validUntil", e.act
       FROM unnest($1::text[]) WITH ORDINALITY AS c(code, n)
      CROSS JOIN json_to_recordset($2::json) AS e(act text, "validFrom" date, "validUntil" date)
      ORDER BY c.n, e."validFrom" RETURNING id`,
    [[...codes], JSON.stringify(SEMIARID_EDITIONS)],
  );
  return rows.length;
}
