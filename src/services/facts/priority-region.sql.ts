// The priority region on a date in SQL (Decreto 10.527/2020 art. 6º I, III; art. 3º §2º I b–c), the
// one home for every statement; pure twin in src/law/municipality.ts (parity-tested). A probe for
// few rows; for a year, one multirange per municipality, hash-joined once.

import { NORTH_NORTHEAST_UF_CODES } from '../../law/municipality';

/** Each municipality's days in the Semiárido as one datemultirange (intervals both ends inclusive, null open). */
const DAYS = `SELECT municipality_code, range_agg(daterange(valid_from, valid_until, '[]')) AS days FROM semiarid_membership GROUP BY municipality_code`;

/** In the Semiárido on `on`: one of the municipality's intervals covers it. */
export function semiaridOnSql(code: string, on: string): string {
  return `EXISTS (SELECT 1 FROM semiarid_membership sm
     WHERE sm.municipality_code = ${code} AND (sm.valid_from IS NULL OR sm.valid_from <= ${on})
       AND (sm.valid_until IS NULL OR ${on} <= sm.valid_until))`;
}

/**
 * North or Northeast (Decreto 10.527/2020, art. 6º I and III): the UF the IBGE code names (its first
 * two digits) is one of the region's, the list of src/law/municipality.ts; a code naming no UF is in
 * neither. Read from the code, not the stored `municipality.region`, so that a row needs no join.
 */
const NORTH_OR_NORTHEAST = (code: string) => `left(${code}, 2) IN (${NORTH_NORTHEAST_UF_CODES.map((uf) => `'${uf}'`).join(', ')})`;

/** North or Northeast, or the Semiárido on `on`. */
export function priorityRegionOnSql(code: string, on: string): string {
  return `(${NORTH_OR_NORTHEAST(code)} OR ${semiaridOnSql(code, on)})`;
}

/**
 * The join form, for many rows: `join` adds each row's municipality days under `alias` (a LEFT
 * JOIN on `code`), and `on(day)` is whether the row's municipality lies in the Semiárido that day.
 */
export function semiaridDays(alias: string, code: string): { join: string; on: (day: string) => string; priority: (day: string) => string } {
  const on = (day: string) => `coalesce(${alias}.days @> ${day}, false)`;
  return {
    join: `LEFT JOIN (${DAYS}) ${alias} ON ${alias}.municipality_code = ${code}`,
    on,
    /** North or Northeast by the code, or the Semiárido that day (priorityRegionOnSql's rule, joined). */
    priority: (day) => `(${NORTH_OR_NORTHEAST(code)} OR ${on(day)})`,
  };
}
