import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { Decimal } from '../law/decimal';
import { IsoDate } from '../law/dates';

/** The days asked (asKnownOn) whose parts are kept for a year; the parts of older days are dropped. */
export const KEPT_DAYS = 7;
/** A year asked as known today within this many days is kept ready by the background refresh. */
export const ASKED_DAYS = 7;
/** At most this many of those years (a series' worth), the last asked first: a script asking every year does not make the refresh compute them all. */
export const ASKED_YEARS = 20;
/** The years, up to this one, that the refresh keeps ready whether asked or not: those holding a record, at most a decade. */
export const READY_YEARS = 10;
/** At most this many (year, day) stored in all, the last computed kept: at national scale about 1.1 MB each. */
export const KEPT_YEAR_DAYS = 140;
/** How long the parts of other code (another release's) stay stored: a rolling deploy's overlap, and more. */
export const OTHER_CODE_KEPT = '1 day';

let fingerprint: string | undefined;

/**
 * The code that computes a part: every file of the running tree (src/, or dist/ when built). A part
 * computed by other code, an earlier release say, is never read back, so no rule changed since can
 * hide behind an old figure.
 */
export function codeFingerprint(): string {
  if (fingerprint === undefined) {
    const root = path.resolve(__dirname, '..');
    const files = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
    const hash = crypto.createHash('sha256');
    for (const file of files) hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    fingerprint = hash.digest('hex').slice(0, 32);
  }
  return fingerprint;
}

const DECIMAL = '$decimal';

/** A part as text: JSON, each Decimal tagged with its exact digits. */
export function partText(part: unknown): string {
  return JSON.stringify(part, function (this: Record<string, unknown>, key, value) {
    const raw = this[key];
    return raw instanceof Decimal ? { [DECIMAL]: raw.toString() } : value;
  });
}

export function partOf<T>(text: string): T {
  return JSON.parse(text, (_key, value) => (value !== null && typeof value === 'object' && DECIMAL in value ? new Decimal(value[DECIMAL]) : value)) as T;
}

/**
 * Notes that these years were asked as known on `day`, today (a request's, not the refresh's own):
 * the refresh computes them ahead for the days after. Written only when the day is newer.
 */
export async function noteAsked(writer: DataSource, years: readonly number[], day: IsoDate): Promise<void> {
  await writer.query(
    `INSERT INTO program_year_asked (year, asked_on) SELECT y, $2 FROM unnest($1::int[]) AS y
     ON CONFLICT (year) DO UPDATE SET asked_on = EXCLUDED.asked_on WHERE program_year_asked.asked_on < EXCLUDED.asked_on`,
    [years, day],
  );
}

/** Every mark of change summed: it grows with each transaction that writes a record a figure reads (weights are positive). */
export async function totalMarks(q: DataSource | EntityManager): Promise<bigint> {
  const [{ total }]: Array<{ total: string }> = await q.query('SELECT coalesce(sum(weight), 0)::text AS total FROM record_mark');
  return BigInt(total);
}

/** The years asked as known today within ASKED_DAYS of `day`, the ASKED_YEARS last asked (the later year first among those asked the same day). */
export async function yearsAsked(writer: DataSource, day: IsoDate): Promise<number[]> {
  const rows: Array<{ year: number }> = await writer.query(
    `SELECT year FROM (SELECT year FROM program_year_asked WHERE asked_on > $1::date - $2::int ORDER BY asked_on DESC, year DESC LIMIT $3) a ORDER BY year`,
    [day, ASKED_DAYS, ASKED_YEARS],
  );
  return rows.map((r) => r.year);
}

/**
 * The years from the first that holds a producer's record (a purchase, a fomento expense or a Selo
 * grant) to `year`, at most READY_YEARS of them, the latest first; none when nothing is recorded.
 * Each producer's first record by its own index: at national scale 3 × 60 index reads.
 */
export async function yearsWithRecords(writer: DataSource, year: number): Promise<number[]> {
  const [{ first }]: Array<{ first: number | null }> = await writer.query(
    `SELECT extract(year FROM min(x.d))::int AS first FROM producer p CROSS JOIN LATERAL (
       SELECT (SELECT min(purchased_on) FROM purchase WHERE producer_id = p.id) AS d
       UNION ALL SELECT (SELECT min(spent_on) FROM fomento_expense WHERE producer_id = p.id)
       UNION ALL SELECT (SELECT min(granted_on) FROM seal_grant WHERE producer_id = p.id)) x`,
  );
  if (first === null || first > year) return [];
  const years: number[] = [];
  for (let y = year; y >= Math.max(first, year - READY_YEARS + 1); y--) years.push(y);
  return years;
}

/** The stored parts of these producers' year as known on a day, by producer: the marks each was computed under, and its text. */
export async function storedParts(em: EntityManager, year: number, asKnownOn: IsoDate, code: string, producerIds: readonly string[]): Promise<Map<string, { mark: string; text: string }>> {
  if (producerIds.length === 0) return new Map();
  const rows: Array<{ id: string; mark: string; part: string }> = await em.query(
    `SELECT producer_id::text AS id, mark, part FROM program_year_part WHERE year = $1 AND as_known_on = $2 AND code = $3 AND producer_id = ANY($4::bigint[])`,
    [year, asKnownOn, code, producerIds],
  );
  return new Map(rows.map((r) => [r.id, { mark: r.mark, text: r.part }]));
}

/**
 * Stores the parts computed, replacing those of the same producer-year-day, and drops the parts of
 * days beyond the KEPT_DAYS last stored for the year, of (year, day) beyond the KEPT_YEAR_DAYS last
 * stored in all, and of other code stored over OTHER_CODE_KEPT ago: during a rolling deploy both
 * releases store, and neither drops the other's.
 */
export async function storeParts(writer: DataSource, year: number, asKnownOn: IsoDate, code: string, parts: ReadonlyArray<{ producerId: string; mark: string; text: string }>): Promise<void> {
  if (parts.length === 0) return;
  await writer.transaction(async (em) => {
    await em.query(
      `INSERT INTO program_year_part (year, as_known_on, producer_id, mark, code, part)
       SELECT $1, $2, p.id, p.mark, $3, p.part FROM unnest($4::bigint[], $5::text[], $6::text[]) AS p(id, mark, part)
       ON CONFLICT (year, as_known_on, code, producer_id) DO UPDATE SET mark = EXCLUDED.mark, part = EXCLUDED.part, computed_at = now()`,
      [year, asKnownOn, code, parts.map((p) => p.producerId), parts.map((p) => p.mark), parts.map((p) => p.text)],
    );
    await em.query(
      `DELETE FROM program_year_part WHERE (code <> $2 AND computed_at < now() - $4::interval) OR (year = $1 AND as_known_on NOT IN (
         SELECT as_known_on FROM program_year_part WHERE year = $1 GROUP BY 1 ORDER BY max(computed_at) DESC LIMIT $3))
         OR (year, as_known_on) NOT IN (SELECT year, as_known_on FROM program_year_part GROUP BY 1, 2 ORDER BY max(computed_at) DESC LIMIT $5)`,
      [year, code, KEPT_DAYS, OTHER_CODE_KEPT, KEPT_YEAR_DAYS],
    );
  });
}
