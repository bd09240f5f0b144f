import { EntityManager } from 'typeorm';
import { addDays, FIRST_DATE, IsoDate, LAST_DATE, today } from '../law/dates';
import { SemiaridInterval } from '../law/municipality';
import { semiaridOnSql } from './facts/priority-region.sql';

// Writing the Semiárido's dated membership (Decreto 10.527/2020 art. 6º I, III; art. 3º §2º I b–c):
// each write replaces what stored intervals said about its days, keeping their days before and
// after. Reading: src/services/facts/priority-region.sql.ts.

/**
 * The first and last days a statement may name: the intervals it cuts end the day before its first
 * day and resume the day after its last, and those are stored too, as dates the Date scalar writes
 * (0001-01-01 to 9999-12-31, src/law/dates.ts).
 */
export const FIRST_STATED_DAY: IsoDate = addDays(FIRST_DATE, 1);
export const LAST_STATED_DAY: IsoDate = addDays(LAST_DATE, -1);

/** The act cited by an undated flag (the municipality record's `semiarid`, with no date stated). */
export const UNDATED_FLAG_ACT = 'Semiárido flag of the municipality record (undated)';
/** The act cited by a dated flag stated with no act. */
export const FLAG_ACT = 'Semiárido flag of the municipality record';

/** One municipality's statement: in the Semiárido (or not) from `from` (null: since before any record) on. */
export interface SemiaridFlag {
  code: string;
  member: boolean;
  from: IsoDate | null;
  act: string | null;
}

/**
 * The days each municipality's statement is about: `cut` is an SQL relation (code, f, u) with one
 * row per municipality, f null for no start, u null for no end, both inclusive. Intervals
 * overlapping [f, u] keep what lies outside it.
 */
async function carve(em: EntityManager, cut: string, params: unknown[]): Promise<void> {
  const overlap = `c.code = s.municipality_code AND (c.u IS NULL OR s.valid_from IS NULL OR s.valid_from <= c.u)
                   AND (c.f IS NULL OR s.valid_until IS NULL OR s.valid_until >= c.f)`;
  const before = `c.f IS NOT NULL AND (s.valid_from IS NULL OR s.valid_from < c.f)`;
  // The days after the statement's, as intervals of their own (they start after u: untouched below).
  await em.query(
    `INSERT INTO semiarid_membership (municipality_code, valid_from, valid_until, act)
     SELECT s.municipality_code, c.u + 1, s.valid_until, s.act FROM semiarid_membership s JOIN (${cut}) c ON ${overlap}
      WHERE c.u IS NOT NULL AND (s.valid_until IS NULL OR s.valid_until > c.u)`,
    params,
  );
  await em.query(`DELETE FROM semiarid_membership s USING (${cut}) c WHERE ${overlap} AND NOT (${before})`, params);
  await em.query(`UPDATE semiarid_membership s SET valid_until = c.f - 1 FROM (${cut}) c WHERE ${overlap} AND ${before}`, params);
}

/**
 * A dated flag holds from its date on. An undated flag (older records) agreeing with today's
 * membership changes nothing; otherwise it replaces the history with an undated one.
 */
export async function applySemiaridFlags(em: EntityManager, flags: readonly SemiaridFlag[]): Promise<void> {
  if (flags.length === 0) return;
  const undated = flags.filter((f) => f.from === null);
  const changing = new Set<string>();
  if (undated.length) {
    const rows: Array<{ code: string; member: boolean }> = await em.query(
      `SELECT c.code, ${semiaridOnSql('c.code', '$2::date')} AS member FROM unnest($1::text[]) AS c(code)`,
      [undated.map((f) => f.code), today()],
    );
    const now = new Map(rows.map((r) => [r.code, r.member]));
    for (const f of undated) if (now.get(f.code) !== f.member) changing.add(f.code);
  }
  const applied = flags.filter((f) => f.from !== null || changing.has(f.code));
  if (applied.length === 0) return;
  await carve(em, `SELECT * FROM unnest($1::text[], $2::date[], $3::date[]) AS c(code, f, u)`,
    [applied.map((f) => f.code), applied.map((f) => f.from), applied.map(() => null)]);
  const members = applied.filter((f) => f.member);
  if (members.length) {
    await em.query(
      `INSERT INTO semiarid_membership (municipality_code, valid_from, valid_until, act)
       SELECT * FROM unnest($1::text[], $2::date[], $3::date[], $4::text[])`,
      [members.map((f) => f.code), members.map((f) => f.from), members.map(() => null),
        members.map((f) => f.act ?? (f.from === null ? UNDATED_FLAG_ACT : FLAG_ACT))],
    );
  }
}

/** One edition of the official list: its act and the days it delimits the Semiárido for. */
export interface SemiaridEdition {
  act: string;
  validFrom: IsoDate;
  validUntil: IsoDate | null;
}

/**
 * An edition (a Condel/Sudene act): over its validity exactly `codesSql`'s municipalities are in,
 * citing the act; one absent leaves on its start date. Returns members, entered and left.
 */
export async function applySemiaridEdition(em: EntityManager, edition: SemiaridEdition, codesSql: string): Promise<{ members: number; entered: number; left: number }> {
  const dayBefore = addDays(edition.validFrom, -1);
  const [change] = await em.query(
    `SELECT count(*) FILTER (WHERE NOT was AND listed)::int AS entered, count(*) FILTER (WHERE was AND NOT listed)::int AS left
       FROM (SELECT m.ibge_code, ${semiaridOnSql('m.ibge_code', '$1::date')} AS was,
                    m.ibge_code IN (SELECT code FROM (${codesSql}) l) AS listed FROM municipality m) x`,
    [dayBefore],
  );
  await carve(em, `SELECT DISTINCT municipality_code AS code, $1::date AS f, $2::date AS u FROM semiarid_membership`, [edition.validFrom, edition.validUntil]);
  const inserted: unknown[] = await em.query(
    `INSERT INTO semiarid_membership (municipality_code, valid_from, valid_until, act)
     SELECT code, $1::date, $2::date, $3 FROM (${codesSql}) l ORDER BY code RETURNING id`,
    [edition.validFrom, edition.validUntil, edition.act],
  );
  return { members: inserted.length, entered: change.entered, left: change.left };
}

/** The intervals of each municipality, in date order (undated first). */
export async function semiaridIntervals(em: EntityManager, codes: readonly string[]): Promise<Map<string, SemiaridInterval[]>> {
  const rows: Array<{ code: string; valid_from: IsoDate | null; valid_until: IsoDate | null; act: string }> = await em.query(
    `SELECT municipality_code AS code, valid_from, valid_until, act FROM semiarid_membership
      WHERE municipality_code = ANY($1::text[]) ORDER BY municipality_code, valid_from NULLS FIRST, id`,
    [[...codes]],
  );
  const map = new Map<string, SemiaridInterval[]>();
  for (const r of rows) {
    const list = map.get(r.code) ?? [];
    list.push({ validFrom: r.valid_from, validUntil: r.valid_until, act: r.act });
    map.set(r.code, list);
  }
  return map;
}
