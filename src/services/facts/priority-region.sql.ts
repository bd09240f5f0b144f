/**
 * The priority region on a date, in SQL (Decreto 10.527/2020, art. 6º I and III; art. 3º §2 I b–c):
 * the one home of the fact for every statement that asks it (the tax period, the Selo's compliance,
 * Purchase.selo, the rate of a lot, Municipality's fields). Its pure twin is
 * `semiaridOn`/`priorityRegionOn` of src/law/municipality.ts; test/e2e/facts-parity.test.ts checks
 * that they agree.
 *
 * `code` and `on` are SQL expressions: the municipality's IBGE code and the day asked about (the
 * purchase's acquisition date, the fomento's date, …).
 */

/** In the Semiárido on `on`: one of the municipality's intervals (both ends inclusive, null open) covers it. */
export function semiaridOnSql(code: string, on: string): string {
  return `EXISTS (SELECT 1 FROM semiarid_membership sm
     WHERE sm.municipality_code = ${code} AND (sm.valid_from IS NULL OR sm.valid_from <= ${on})
       AND (sm.valid_until IS NULL OR ${on} <= sm.valid_until))`;
}

/** North or Northeast (first digit of the IBGE code: 1, 2), or the Semiárido on `on`. */
export function priorityRegionOnSql(code: string, on: string): string {
  return `(left(${code}, 1) IN ('1', '2') OR ${semiaridOnSql(code, on)})`;
}
