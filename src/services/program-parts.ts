import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { Decimal } from '../law/decimal';
import { IsoDate } from '../law/dates';
import type { SupplierMarkKind } from '../database/migrations/1766520000000-record-mark-supplier';

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

/** Every mark of change summed, the producers' and the suppliers': it grows with each transaction that writes a record a figure reads (weights are positive). */
export async function totalMarks(q: DataSource | EntityManager): Promise<bigint> {
  const [{ total }]: Array<{ total: string }> = await q.query(
    'SELECT ((SELECT coalesce(sum(weight), 0) FROM record_mark) + (SELECT coalesce(sum(weight), 0) FROM record_mark_supplier))::text AS total');
  return BigInt(total);
}

/**
 * The columns of a producer's records that name a supplier (the records' `producer_id` names the
 * producer): a supplier's write makes the years of the producers whose records name it stale. A
 * return (record_return) is its purchase's producer's, and reads its purchase's supplier.
 */
export const DEALT_WITH: ReadonlyArray<readonly [table: string, column: string, kind: SupplierMarkKind]> = [
  ['purchase', 'family_farmer_id', 'FAMILY_FARMER'], ['purchase', 'organization_id', 'ORGANIZATION'],
  ['contract', 'family_farmer_id', 'FAMILY_FARMER'], ['contract', 'organization_id', 'ORGANIZATION'],
  ['fomento_expense', 'organization_id', 'ORGANIZATION'],
];

/** A snapshot as pg_current_snapshot() writes it: `xmin:xmax:xip,…`. */
interface Snapshot { xmin: bigint; xmax: bigint; running: Set<bigint> }

function snapshotOf(text: string): Snapshot | null {
  const m = /^(\d+):(\d+):([\d,]*)$/.exec(text);
  return m && { xmin: BigInt(m[1]), xmax: BigInt(m[2]), running: new Set(m[3] ? m[3].split(',').map(BigInt) : []) };
}

/**
 * Whether every transaction `part` saw committed `now` sees committed too: a part computed in a
 * later snapshot (stored by a process reading the primary, read on a lagging standby) may hold a
 * supplier's write this snapshot does not, which no mark it reads can tell.
 */
export function snapshotWithin(part: string, now: string): boolean {
  if (part === now) return true;
  const p = snapshotOf(part);
  const n = snapshotOf(now);
  return p !== null && n !== null && p.xmax <= n.xmax && [...n.running].every((x) => x >= p.xmax || p.running.has(x));
}

/**
 * A supplier mark not seen in snapshot `s` (SQL): a transaction's mark, when that transaction was
 * not committed in it; marks summed up, when its xmin is below their `xid`.
 */
const UNSEEN = (m: string, s: string) => `CASE WHEN ${m}.merged THEN ${m}.xid > pg_snapshot_xmin(${s}) ELSE NOT pg_visible_in_snapshot(${m}.xid, ${s}) END`;

/**
 * Which producers' records name each supplier, read while the producers' marks stay the same (then
 * no purchase, contract or fomento expense was written): the years computed one after the other
 * (the refresh's decade) scan once.
 */
export class Dealings {
  private marks = '';
  private readonly producers = new Map<string, string[]>();

  /** The producers whose records name these suppliers (`<kind>:<id>`) in `em`'s snapshot, where `marks` are the producers' marks. */
  async of(em: EntityManager, marks: string, suppliers: readonly string[]): Promise<Map<string, string[]>> {
    if (marks !== this.marks) {
      this.marks = marks;
      this.producers.clear();
    }
    const missing = suppliers.filter((s) => !this.producers.has(s));
    if (missing.length === 0) return this.producers;
    const ids = (kind: SupplierMarkKind) => missing.filter((s) => s.startsWith(`${kind}:`)).map((s) => s.slice(kind.length + 1));
    const rows: Array<{ supplier: string; producer_id: string }> = await em.query(dealingSql(), [ids('FAMILY_FARMER'), ids('ORGANIZATION')]);
    for (const s of missing) this.producers.set(s, []);
    for (const r of rows) this.producers.get(r.supplier)!.push(r.producer_id);
    return this.producers;
  }
}

/**
 * One scan of each table of DEALT_WITH (no index on the supplier columns: a bulk load keeps its
 * pace), $1 the farmers, $2 the organizations: each (supplier, producer) pair once.
 */
function dealingSql(): string {
  const ids = (kind: SupplierMarkKind) => (kind === 'FAMILY_FARMER' ? '$1::bigint[]' : '$2::bigint[]');
  const tables = [...new Set(DEALT_WITH.map(([t]) => t))];
  return tables.map((table) => {
    const columns = DEALT_WITH.filter(([t]) => t === table);
    return `SELECT DISTINCT x.supplier, t.producer_id::text AS producer_id FROM ${table} t
      CROSS JOIN LATERAL (VALUES ${columns.map(([, c, k]) => `(CASE WHEN t.${c} = ANY(${ids(k)}) THEN '${k}:' || t.${c} END)`).join(', ')}) x(supplier)
     WHERE (${columns.map(([, c, k]) => `t.${c} = ANY(${ids(k)})`).join(' OR ')}) AND x.supplier IS NOT NULL`;
  }).join('\n UNION\n');
}

/**
 * The producers among `parts` (each the snapshot its year was computed in) whose records name a
 * supplier written since that snapshot, as seen in snapshot `now` of `em`, where `marks` are the
 * producers' marks (every producer's sum, Dealings). The marks are read from the oldest of those
 * snapshots on (an index range); the producers' records only when some are new.
 */
export async function staleBySuppliers(em: EntityManager, now: string, marks: string, parts: ReadonlyArray<{ producerId: string; snapshot: string }>, dealings: Dealings): Promise<Set<string>> {
  const snapshots = [...new Set(parts.map((p) => p.snapshot).filter((s) => s !== now))];
  if (snapshots.length === 0) return new Set();
  // Each passed snapshotWithin: all are snapshots.
  const from = snapshots.map((s) => snapshotOf(s)!.xmin).reduce((a, b) => (b < a ? b : a));
  const written: Array<{ n: number; supplier: string }> = await em.query(
    `SELECT DISTINCT s.n::int AS n, m.kind || ':' || m.supplier_id AS supplier FROM record_mark_supplier m
       JOIN unnest($1::pg_snapshot[]) WITH ORDINALITY AS s(snap, n) ON ${UNSEEN('m', 's.snap')}
      WHERE m.xid >= $2::xid8`,
    [snapshots, from.toString()],
  );
  if (written.length === 0) return new Set();
  const producersOf = await dealings.of(em, marks, [...new Set(written.map((m) => m.supplier))]);
  // Each snapshot's producers named: those of its parts are stale.
  const named = new Map<string, Set<string>>();
  for (const m of written) {
    const snapshot = snapshots[m.n - 1];
    const set = named.get(snapshot) ?? new Set<string>();
    for (const p of producersOf.get(m.supplier) ?? []) set.add(p);
    named.set(snapshot, set);
  }
  return new Set(parts.filter((p) => named.get(p.snapshot)?.has(p.producerId)).map((p) => p.producerId));
}

/**
 * The supplier marks summed up on the primary once more than `kept` are not: a supplier's marks of
 * transactions ended before any running now began (below this statement's xmin) into one row,
 * `merged`, whose `xid` is one past the last of theirs. A snapshot whose xmin reaches it saw them
 * all: every snapshot taken from now on, however long a transaction runs beside it. An older one
 * is taken not to have (its parts naming the supplier are computed again, never read stale). One
 * process at a time.
 */
export async function compactSupplierMarks(writer: DataSource, kept: number): Promise<void> {
  await writer.transaction(async (em) => {
    const [{ many }]: Array<{ many: boolean }> = await em.query(
      'SELECT count(*) > $1 AS many FROM (SELECT 1 FROM record_mark_supplier WHERE NOT merged LIMIT $1 + 1) m', [kept]);
    if (!many) return;
    const [{ locked }]: Array<{ locked: boolean }> = await em.query(`SELECT pg_try_advisory_xact_lock(hashtextextended('selo:record-mark-supplier', 0)) AS locked`);
    if (!locked) return;
    await em.query(
      `WITH ended AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xid),
            fresh AS (SELECT DISTINCT m.kind, m.supplier_id FROM record_mark_supplier m, ended e WHERE NOT m.merged AND m.xid < e.xid),
            gone AS (DELETE FROM record_mark_supplier m USING fresh f, ended e
                      WHERE m.kind = f.kind AND m.supplier_id = f.supplier_id AND (m.merged OR m.xid < e.xid) RETURNING m.*)
       INSERT INTO record_mark_supplier (xid, merged, kind, supplier_id, weight)
       SELECT max(CASE WHEN merged THEN xid ELSE (xid::text::bigint + 1)::text::xid8 END), true, kind, supplier_id, sum(weight) FROM gone GROUP BY kind, supplier_id`);
  });
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
