import { DataSource, EntityManager } from 'typeorm';
import { Producer, SealEvent, SealGrant } from '../domain';
import { IsoDate } from '../law/dates';
import { Decimal, toShare, ZERO } from '../law/decimal';
import { Finding } from '../law/findings';
import { NoRuleInForceError } from '../law/errors';
import { Feedstock, Region, Role } from '../law/types';
import { message } from '../i18n';
import { Actor } from './actor';
import { activeSql, COUNTED_PURCHASE } from './record-state';
import { BadInputError, ForbiddenError } from './errors';
import { requireYear } from './validation';
import { standingOf } from './law.service';
import { SealService } from './seal.service';
import { SealComplianceReport, SealComplianceService } from './seal-compliance/compliance.service';
import { FAMILY_FARMING_SUPPLIERS } from './seal-compliance/purchase-facts.sql';
import { membershipOnSql } from './facts/organization-membership.sql';
import { groupBy } from './group-by';
import { stopIfAnswered } from '../request-context';
import { codeFingerprint, compactSupplierMarks, Dealings, noteAsked, partOf, partText, snapshotWithin, staleBySuppliers, storedParts, storeParts, totalMarks } from './program-parts';
import { today } from '../law/dates';
import { SYSTEM_ACTOR } from './actor';
import { Turns } from './turns';
import { untilAnswered } from './transaction';

/** A producer's Selo standing on a day, in the five words the ministry counts by. */
export type ProgramStanding = 'REGULAR' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED' | 'NONE';
export const PROGRAM_STANDINGS: readonly ProgramStanding[] = ['REGULAR', 'SUSPENDED', 'CANCELLED', 'EXPIRED', 'NONE'];

/** A producer's year: targets met, short of them, or not yet determinable (the minimum unpublished). */
export type ProgramCompliance = 'COMPLIANT' | 'SHORT' | 'NOT_DETERMINABLE';
export const PROGRAM_COMPLIANCES: readonly ProgramCompliance[] = ['COMPLIANT', 'SHORT', 'NOT_DETERMINABLE'];

export interface ProgramProducerYear {
  producer: Producer;
  standing: ProgramStanding;
  standingReason: Finding;
  previousStanding: ProgramStanding;
  compliance: ProgramCompliance;
  report: SealComplianceReport;
}

export interface SpendingSplit<K> { key: K; actual: Decimal; weighted: Decimal; count: number }

export interface ProgramTotals {
  salesRevenue: Decimal;
  base: Decimal;
  familyFarmingAcquisitions: Decimal;
  otherProductAcquisitions: Decimal;
  fomento: Decimal;
  actualTotal: Decimal;
  countedTotal: Decimal;
  priorityRegionAmount: Decimal;
  priorityRegionShare: Decimal;
}

export interface FamiliesServed {
  familyFarmers: number;
  organizations: number;
  organizationFamilyFarmerMembers: number;
  byState: Array<{ state: string; familyFarmers: number }>;
  byMunicipality: Array<{ ibgeCode: string; name: string; state: string; familyFarmers: number }>;
}

export interface ProgramYear {
  year: number;
  asKnownOn: IsoDate;
  /** 31 December of the year: the day standing is read on. */
  on: IsoDate;
  producers: ProgramProducerYear[];
  byStanding: Array<{ standing: ProgramStanding; producers: number }>;
  byCompliance: Array<{ compliance: ProgramCompliance; producers: number }>;
  totals: ProgramTotals;
  byKind: Array<SpendingSplit<string>>;
  byRegion: Array<SpendingSplit<Region>>;
  byFeedstock: Array<SpendingSplit<Feedstock | null>>;
  byState: Array<{ state: string; region: Region; actual: Decimal; count: number }>;
  families: FamiliesServed;
  standingChanges: Array<{ producer: Producer; before: ProgramStanding; after: ProgramStanding; reason: Finding }>;
}

/** How many producers' years are computed in one batch (bounds the memory of one statement's groups). */
const BATCH = 200;
/** Connections computing producers' years at once, each given at least MIN_LANE producers. */
const PARALLEL = 2;
const MIN_LANE = 4;

/** A series is at most this many years (each year is a full overview). */
export const MAX_SERIES_YEARS = 20;
/** The kept producers' years hold at most about this many grouped rows (a national year at scale 1: 290,000). */
export const KEPT_ROWS = 600_000;
/** The marks are summed up once there are more rows than this. */
const MARKS_KEPT = 1_000;

/** This transaction's snapshot, for another to read the same (its id is PostgreSQL's own text, checked). */
async function exportedSnapshot(em: EntityManager): Promise<string> {
  const [{ id }]: Array<{ id: string }> = await em.query('SELECT pg_export_snapshot() AS id');
  // SET TRANSACTION SNAPSHOT takes no parameter: the id is written into the statement.
  if (!/^[0-9A-F]+-[0-9A-F]+(-[0-9]+)?$/i.test(id)) throw new Error(`unexpected snapshot id ${id}`);
  return id;
}

/** What one producer's year adds to the program's: its report, and its counted items by state, farmer and organization. */
interface ProducerPart {
  /** The producer's and the shared records' marks it was computed under, and the snapshot it was computed in: `<own>|<shared>|<snapshot>`. */
  mark: string;
  report: SealComplianceReport;
  states: Array<{ state: string; region: Region; amount: Decimal; count: number }>;
  farmers: Array<{ ibgeCode: string; name: string; state: string; ids: string[] }>;
  organizations: string[];
  rows: number;
}

// Interpretation (docs/LAW.md): a producer without a grant yet on the day stands as NONE.
const STANDING_OF_CODE: Record<string, ProgramStanding> = {
  SEAL_REGULAR: 'REGULAR', SEAL_SUSPENDED: 'SUSPENDED', SEAL_CANCELLED: 'CANCELLED', SEAL_EXPIRED: 'EXPIRED', NO_SEAL_GRANT: 'NONE',
};

/** The program view is the ministry's (Decreto 10.527/2020, art. 4º): ADMIN and AUDITOR. */
export function assertMinistry(actor: Actor, field: string): void {
  if (actor.role !== Role.ADMIN && actor.role !== Role.AUDITOR) throw new ForbiddenError(message('auth.notForRole', { field, role: actor.role }));
}

function add<K>(map: Map<string, SpendingSplit<K>>, key: K, actual: Decimal, weighted: Decimal | null, count: number): void {
  const k = String(key);
  const s = map.get(k) ?? { key, actual: ZERO, weighted: ZERO, count: 0 };
  // An item awaiting a factor (alínea a) has no weighted value: out of the weighted sums, as of countedTotal.
  map.set(k, { key, actual: s.actual.plus(actual), weighted: weighted ? s.weighted.plus(weighted) : s.weighted, count: s.count + count });
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sorted = <T extends { key: unknown }>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => byText(a, b)).map(([, v]) => v);

/**
 * The Selo program's year (Decreto 10.527/2020, arts. 2º–4º; Portaria MDA nº 28/2024): each
 * producer's standing on 31 December and its `sealCompliance`, summed, so the totals cannot
 * disagree with the producers'; origins and farmers by SQL over the items those results count.
 */
export class ProgramOverviewService {
  /** Producers' years by `<producer>|<year>|<asKnownOn>`, oldest use first; each reused while its marks stay the same. */
  private readonly kept = new Map<string, ProducerPart>();
  private keptRows = 0;
  /** The years being computed, by `<year>|<asKnownOn>`: the total of the marks in the snapshot each reads, and its answer. */
  private readonly underWay = new Map<string, { marks: Promise<bigint>; answer: Promise<ProgramYear> }>();
  /** The years computed being stored, one after the other, after their answers. */
  private storing: Promise<void> = Promise.resolve();
  /** Year computations one at a time: each holds its snapshot's connection while its lanes take more, and takes both cores. */
  private readonly turns = new Turns(1);
  /** The producers dealing with the suppliers written, read while the producers' marks stay the same. */
  private readonly dealings = new Dealings();

  /**
   * `writer`: the primary, where the marks are summed up and the parts stored (the overview may read
   * a standby); `code`: the fingerprint of the code computing the parts (program-parts.ts).
   */
  constructor(private readonly ds: DataSource, private readonly writer: DataSource, private readonly compliance: SealComplianceService, private readonly seals: SealService,
    private readonly maxKeptRows = KEPT_ROWS, private readonly code = codeFingerprint()) {}

  async overview(actor: Actor, year: number, asKnownOn: IsoDate): Promise<ProgramYear> {
    assertMinistry(actor, 'programOverview');
    requireYear(year, 'year');
    const answer = await this.yearOf(actor, year, asKnownOn);
    await this.asked(actor, [year], asKnownOn);
    return answer;
  }

  /**
   * The years from `from` to `to`, each as its overview or the error of the law that refused it: a
   * year before any wording of art. 3º was in force (Decreto 10.527/2020 dates from 2020) is
   * NO_RULE_IN_FORCE, and the other years stand. `known`: years already computed (as known on
   * `asKnownOn`), reused.
   */
  async series(actor: Actor, from: number, to: number, asKnownOn: IsoDate, known: readonly ProgramYear[] = []): Promise<Array<ProgramYear | NoRuleInForceError>> {
    assertMinistry(actor, 'programOverview');
    requireYear(from, 'from');
    if (from > to) throw new BadInputError('from', message('input.notAfter', { field: 'from', other: 'year' }));
    if (to - from + 1 > MAX_SERIES_YEARS) throw new BadInputError('from', message('input.year', { field: 'from', min: to - MAX_SERIES_YEARS + 1, max: to }));
    const years: Array<ProgramYear | NoRuleInForceError> = [];
    for (let y = from; y <= to; y++) {
      // Twenty years computed in full outlast the request timeout: a request answered stops here.
      stopIfAnswered();
      const reused = known.find((k) => k.year === y && k.asKnownOn === asKnownOn);
      years.push(reused ?? await this.yearOf(actor, y, asKnownOn).catch((error: unknown) => {
        if (error instanceof NoRuleInForceError) return error;
        throw error;
      }));
    }
    const computed = years.filter((y): y is ProgramYear => !(y instanceof Error));
    await this.asked(actor, computed.map((y) => y.year), asKnownOn);
    return years;
  }

  /**
   * One year in one read-only snapshot, so the totals agree while records are written. A producer's
   * year computed earlier, here or stored by any process, is reused while its marks and the shared
   * records' are the same in this snapshot (migration RecordMark1766450000000) and no supplier its
   * records name was written since the snapshot it was computed in (RecordMarkSupplier1766520000000):
   * then no record it reads has changed. The years computed are stored on the primary after the
   * answer (`store`).
   */
  private async yearOf(actor: Actor, year: number, asKnownOn: IsoDate): Promise<ProgramYear> {
    const key = `${year}|${asKnownOn}`;
    const other = this.underWay.get(key);
    if (other) {
      // The same year under way (the refresh's, another analyst's): its answer is this one's when no
      // record was written since its snapshot, as the marks' total only grows with every write.
      const [now, then] = await Promise.all([totalMarks(this.ds), other.marks]).catch(() => [0n, -1n]);
      if (now === then) {
        try {
          return await other.answer;
        } catch {
          // Its request ended before it, or it failed: computed here.
        }
      }
    }
    let marksRead!: (total: bigint) => void;
    const marks = new Promise<bigint>((resolve) => { marksRead = resolve; });
    const answer = this.turns.run(() => this.computeYear(actor, year, asKnownOn, marksRead));
    const mine = { marks: Promise.race([marks, answer.then(() => -1n, () => -1n)]), answer };
    this.underWay.set(key, mine);
    try {
      return await answer;
    } finally {
      if (this.underWay.get(key) === mine) this.underWay.delete(key);
    }
  }

  private async computeYear(actor: Actor, year: number, asKnownOn: IsoDate, marksRead: (total: bigint) => void): Promise<ProgramYear> {
    await this.sumMarks();
    const computed: Array<{ producerId: string; part: ProducerPart }> = [];
    const answer = await this.ds.transaction('REPEATABLE READ', async (em) => {
      await em.query('SET TRANSACTION READ ONLY');
      const on = `${year}-12-31`;
      const before = `${year - 1}-12-31`;
      const marks = new Map<string, string>((await em.query('SELECT producer_id::text AS id, sum(weight)::text AS mark FROM record_mark GROUP BY 1') as Array<{ id: string; mark: string }>)
        .map((m) => [m.id, m.mark]));
      const [{ snapshot, suppliers }]: Array<{ snapshot: string; suppliers: string }> = await em.query(
        'SELECT pg_current_snapshot()::text AS snapshot, (SELECT coalesce(sum(weight), 0) FROM record_mark_supplier)::text AS suppliers');
      marksRead([...marks.values()].reduce((total, m) => total + BigInt(m), BigInt(suppliers)));
      const producers = await em.getRepository(Producer).find({ order: { id: 'ASC' } });
      const grants = await this.seals.grantsOf(actor, producers.map((p) => p.id), em);
      const events = await this.seals.eventsOf(grants.map((g) => g.id), em);
      const grantsBy = groupBy(grants, (g) => g.producerId);
      const eventsBy = groupBy(events, (e) => e.grantId);
      const standing = (p: Producer, day: IsoDate) => {
        const mine: SealGrant[] = grantsBy.get(p.id) ?? [];
        const s = standingOf(mine, mine.map((g) => eventsBy.get(g.id) ?? [] as SealEvent[]), day);
        return { standing: STANDING_OF_CODE[s.reason.code] ?? 'NONE', reason: s.reason };
      };

      const sums = (p: Producer) => `${marks.get(p.id) ?? 0}|${marks.get('0') ?? 0}`;
      const markOf = (p: Producer) => `${sums(p)}|${snapshot}`;
      const keyOf = (p: Producer) => `${p.id}|${year}|${asKnownOn}`;
      // A part is reused when computed under the same sums, in a snapshot this one includes, and no
      // supplier its producer's records name was written since (staleBySuppliers).
      const snapshotIn = (mark: string) => mark.slice(mark.indexOf('|', mark.indexOf('|') + 1) + 1);
      const same = (mark: string | undefined, p: Producer) => mark !== undefined && mark.startsWith(`${sums(p)}|`) && snapshotWithin(snapshotIn(mark), snapshot);
      const found = new Map<string, { mark: string; kept?: ProducerPart; text?: string }>();
      for (const p of producers) {
        const part = this.kept.get(keyOf(p));
        if (same(part?.mark, p)) found.set(p.id, { mark: part!.mark, kept: part });
      }
      const stored = await storedParts(em, year, asKnownOn, this.code, producers.filter((p) => !found.has(p.id)).map((p) => p.id));
      for (const p of producers) {
        const s = stored.get(p.id);
        if (same(s?.mark, p)) found.set(p.id, { mark: s!.mark, text: s!.text });
      }
      const records = [...marks].sort(([a], [b]) => byText(a, b)).map(([id, m]) => `${id}:${m}`).join(',');
      const written = await staleBySuppliers(em, snapshot, records, [...found].map(([producerId, f]) => ({ producerId, snapshot: snapshotIn(f.mark) })), this.dealings);
      const parts = new Map<string, ProducerPart>();
      for (const p of producers) {
        const f = found.get(p.id);
        if (!f || written.has(p.id)) continue;
        const part = f.kept ?? revived(f.text!, f.mark, p);
        parts.set(p.id, part);
        if (!f.kept) this.keep(keyOf(p), part);
      }
      const stale = producers.filter((p) => !parts.has(p.id));
      const compute = async (tx: EntityManager, batch: Producer[]) => {
        const reports = await this.compliance.ofPage(batch.map((producer) => ({ producer, year, asKnownOn })), tx);
        const ok = reports.map((r) => { if (r instanceof Error) throw r; return r; });
        await untilAnswered(tx);
        const counted = await countedParts(tx, ok, year);
        ok.forEach((report, n) => {
          const p = batch[n];
          const part: ProducerPart = { mark: markOf(p), report, ...counted.get(p.id)!, rows: rowsOf(report) };
          parts.set(p.id, part);
          this.keep(keyOf(p), part);
          computed.push({ producerId: p.id, part });
        });
      };
      // The producers to compute, dealt out in turn to PARALLEL connections that share this
      // transaction's snapshot (pg_export_snapshot): their statements run on as many cores, and
      // read exactly what this one reads.
      const lanes = Math.min(PARALLEL, Math.ceil(stale.length / MIN_LANE));
      const dealt = Array.from({ length: lanes }, (_, n) => stale.filter((_p, i) => i % lanes === n));
      const exported = lanes > 1 ? await exportedSnapshot(em) : null;
      // A lane that fails stops the others at their next batch, and the year fails once every lane
      // has ended: no lane's connection outlives the answer (a stop closes the pool after it).
      let failed = false;
      const ended = await Promise.allSettled(dealt.map(async (mine, n) => {
        const lane = async (tx: EntityManager) => {
          for (let i = 0; i < mine.length && !failed; i += BATCH) {
            await untilAnswered(tx);
            await compute(tx, mine.slice(i, i + BATCH));
          }
        };
        const run = n === 0 ? lane(em) : this.ds.transaction('REPEATABLE READ', async (tx) => {
          await tx.query(`SET TRANSACTION SNAPSHOT '${exported}'`);
          await tx.query('SET TRANSACTION READ ONLY');
          await lane(tx);
        });
        return run.catch((error: unknown) => {
          failed = true;
          throw error;
        });
      }));
      const lost = ended.find((e): e is PromiseRejectedResult => e.status === 'rejected');
      if (lost) throw lost.reason;

      const rows: ProgramProducerYear[] = producers.map((producer) => {
        const { report } = parts.get(producer.id)!;
        const now = standing(producer, on);
        return {
          producer, standing: now.standing, standingReason: now.reason, previousStanding: standing(producer, before).standing,
          compliance: report.status === 'COMPLIANT' ? 'COMPLIANT' : report.status === 'NOT_COMPLIANT' ? 'SHORT' : 'NOT_DETERMINABLE',
          report,
        };
      });
      await untilAnswered(em);
      return { year, asKnownOn, on, producers: rows, ...summed(rows), ...(await countedIn(em, producers.map((p) => parts.get(p.id)!), year)) };
    });
    this.store(year, asKnownOn, computed);
    return answer;
  }

  /** Resolves once every year computed so far is stored, or failed to be: awaited before the pool closes, and by the refresh. */
  settled(): Promise<void> {
    return this.storing;
  }

  /**
   * Stores the parts computed after the answer has gone: at national scale their text and its
   * writing take some 2 s, no part of the analyst's wait. Housekeeping, as sumMarks: when it fails,
   * the years are computed again when next asked.
   */
  private store(year: number, asKnownOn: IsoDate, computed: ReadonlyArray<{ producerId: string; part: ProducerPart }>): void {
    if (computed.length === 0) return;
    this.storing = this.storing.then(async () => {
      const parts: Array<{ producerId: string; mark: string; text: string }> = [];
      for (const { producerId, part } of computed) {
        // A part at a time, letting other requests' work in between.
        await new Promise((resolve) => setImmediate(resolve));
        parts.push({ producerId, mark: part.mark, text: storedText(part) });
      }
      await storeParts(this.writer, year, asKnownOn, this.code, parts);
    }).catch(() => undefined);
  }

  /** The years a request asked as known today, for the refresh to keep ready (program-refresh.ts); housekeeping, as sumMarks. */
  private async asked(actor: Actor, years: number[], asKnownOn: IsoDate): Promise<void> {
    if (actor.sub === SYSTEM_ACTOR.sub || asKnownOn !== today()) return;
    try {
      await noteAsked(this.writer, years, asKnownOn);
    } catch {
      // The years are then computed on request, as before the refresh knew them.
    }
  }

  /** Keeps a producer's year, forgetting the least recently kept beyond the bound. */
  private keep(key: string, part: ProducerPart): void {
    const old = this.kept.get(key);
    if (old) this.keptRows -= old.rows;
    this.kept.delete(key);
    this.kept.set(key, part);
    this.keptRows += part.rows;
    for (const [k, v] of this.kept) {
      if (this.keptRows <= this.maxKeptRows) break;
      this.kept.delete(k);
      this.keptRows -= v.rows;
    }
  }

  /**
   * The marks summed up on the primary, in one statement, once they are many: a reader sees the
   * rows before or after it, with the same sums. Housekeeping only: when the primary cannot be
   * reached, the marks stay as they are and the overview goes on.
   */
  private async sumMarks(): Promise<void> {
    try {
      await this.writer.query(
        `WITH gone AS (DELETE FROM record_mark WHERE (SELECT count(*) FROM record_mark) > $1 RETURNING producer_id, weight)
         INSERT INTO record_mark (producer_id, weight) SELECT producer_id, sum(weight) FROM gone GROUP BY 1`, [MARKS_KEPT]);
      await compactSupplierMarks(this.writer, MARKS_KEPT);
    } catch {
      // Left for the next overview.
    }
  }
}

/**
 * A part as stored: the producer is the record's current row (its marks tell it unchanged), and the
 * counted groups behind `countedItems` (95 % of a national year's text) are not kept: computed again
 * for the producers whose counted items are asked (`countedLater`).
 */
function storedText(part: ProducerPart): string {
  const { producer: _producer, countedSource: _source, ...report } = part.report;
  return partText({ report, states: part.states, farmers: part.farmers, organizations: part.organizations });
}

function revived(text: string, mark: string, producer: Producer): ProducerPart {
  const stored = partOf<Omit<ProducerPart, 'mark' | 'rows'>>(text);
  const report: SealComplianceReport = { ...stored.report, producer, countedLater: true };
  return { ...stored, report, mark, rows: rowsOf(report) };
}

/** The grouped rows a kept year holds, which bound the kept years (KEPT_ROWS). */
function rowsOf(report: SealComplianceReport): number {
  return 1 + report.excluded.length + (report.countedSource?.purchases.length ?? 0);
}

/**
 * What the results do not carry, by grouped SQL over the items they count: the year's purchases
 * from family farming and fomento of these producers, less each one's excluded items, by
 * producer. One statement reads them once for the states, the farmers and the organizations.
 * A return (a negative lot on its own day) lowers its state's amount, but is no purchase: it is
 * not counted, and serves no family or organization in the year it is filed.
 */
async function countedParts(em: EntityManager, reports: readonly SealComplianceReport[], year: number): Promise<Map<string, Pick<ProducerPart, 'states' | 'farmers' | 'organizations'>>> {
  const ids = reports.map((r) => r.producer.id);
  const excludedPurchases = reports.flatMap((r) => r.excluded.filter((e) => e.source === 'PURCHASE').map((e) => e.id));
  const excludedFomento = reports.flatMap((r) => r.excluded.filter((e) => e.source === 'FOMENTO_EXPENSE').map((e) => e.id));
  // The excluded ids are anti-joined (hashed), not tested row by row against the array.
  const rows: Array<{ part: 'STATE' | 'FARMERS' | 'ORGANIZATIONS'; producer_id: string; state: string | null; region: Region | null; ibge_code: string | null; name: string | null; amount: string | null; n: string | null; ids: string | null }> = await em.query(
    `WITH counted AS MATERIALIZED (
       SELECT p.producer_id, p.cost, p.family_farmer_id, p.organization_id, p.origin_municipality_code, p.return_id FROM ${COUNTED_PURCHASE} p
        WHERE p.producer_id = ANY($1::bigint[]) AND p.counted_on BETWEEN $2::date AND $3::date AND p.supplier_kind = ANY($4::text[]) AND ${activeSql('p')}
          AND NOT EXISTS (SELECT 1 FROM unnest($5::bigint[]) AS e(id) WHERE e.id = p.id)),
     by_state AS (
       SELECT x.producer_id, m.state, m.region, sum(x.amount) AS amount, sum(x.n) AS n FROM (
         SELECT c.producer_id, c.origin_municipality_code AS code, sum(c.cost) AS amount, count(*) FILTER (WHERE c.return_id IS NULL) AS n FROM counted c GROUP BY 1, 2
         UNION ALL
         SELECT f.producer_id, f.municipality_code, sum(f.amount), count(*) FROM fomento_expense f
          WHERE f.producer_id = ANY($1::bigint[]) AND f.spent_on BETWEEN $2::date AND $3::date AND ${activeSql('f')} AND NOT EXISTS (SELECT 1 FROM unnest($6::bigint[]) AS e(id) WHERE e.id = f.id) GROUP BY 1, 2
       ) x JOIN municipality m ON m.ibge_code = x.code GROUP BY 1, 2, 3),
     farmers AS (
       SELECT c.producer_id, m.ibge_code, m.name, m.state, string_agg(DISTINCT c.family_farmer_id::text, ',') AS ids FROM counted c
         JOIN family_farmer ff ON ff.id = c.family_farmer_id JOIN municipality m ON m.ibge_code = ff.municipality_code
        WHERE c.return_id IS NULL GROUP BY 1, 2, 3, 4),
     organizations AS (
       SELECT c.producer_id, string_agg(DISTINCT c.organization_id::text, ',') AS ids FROM counted c WHERE c.organization_id IS NOT NULL AND c.return_id IS NULL GROUP BY 1)
     SELECT 'STATE' AS part, producer_id::text, state, region, NULL AS ibge_code, NULL AS name, amount, n, NULL AS ids FROM by_state
     UNION ALL SELECT 'FARMERS', producer_id::text, state, NULL, ibge_code, name, NULL, NULL, ids FROM farmers
     UNION ALL SELECT 'ORGANIZATIONS', producer_id::text, NULL, NULL, NULL, NULL, NULL, NULL, ids FROM organizations`,
    [ids, `${year}-01-01`, `${year}-12-31`, [...FAMILY_FARMING_SUPPLIERS], excludedPurchases, excludedFomento],
  );
  const parts = new Map(ids.map((id) => [id, { states: [], farmers: [], organizations: [] } as Pick<ProducerPart, 'states' | 'farmers' | 'organizations'>]));
  for (const r of rows) {
    const part = parts.get(r.producer_id)!;
    if (r.part === 'STATE') part.states.push({ state: r.state!, region: r.region!, amount: new Decimal(r.amount ?? 0), count: Number(r.n) });
    else if (r.part === 'FARMERS') part.farmers.push({ ibgeCode: r.ibge_code!, name: r.name!, state: r.state!, ids: r.ids!.split(',') });
    else part.organizations = r.ids!.split(',');
  }
  return parts;
}

/** The producers' counted items put together: amounts summed by state, farmers and organizations counted once across producers. */
async function countedIn(em: EntityManager, parts: readonly ProducerPart[], year: number): Promise<Pick<ProgramYear, 'byState' | 'families'>> {
  const states = new Map<string, { state: string; region: Region; actual: Decimal; count: number }>();
  const municipalities = new Map<string, { ibgeCode: string; name: string; state: string; ids: Set<string> }>();
  const organizations = new Set<string>();
  for (const part of parts) {
    for (const s of part.states) {
      const t = states.get(s.state) ?? { state: s.state, region: s.region, actual: ZERO, count: 0 };
      states.set(s.state, { ...t, actual: t.actual.plus(s.amount), count: t.count + s.count });
    }
    for (const f of part.farmers) {
      const m = municipalities.get(f.ibgeCode) ?? { ibgeCode: f.ibgeCode, name: f.name, state: f.state, ids: new Set<string>() };
      for (const id of f.ids) m.ids.add(id);
      municipalities.set(f.ibgeCode, m);
    }
    for (const o of part.organizations) organizations.add(o);
  }
  // Interpretation (docs/LAW.md): members are declared as counts (art. 4º VI), not named, so the
  // families reached through organizations are the family-farmer members each declared in force
  // on 31 December; they may be farmers also sold to directly, and are not added to them.
  const [orgs]: Array<{ n: string; members: string | null }> = await em.query(
    `SELECT count(*) AS n, sum(coalesce(d.family_farmer_members, o.family_farmer_members)) AS members
       FROM family_farming_organization o LEFT JOIN LATERAL ${membershipOnSql('o.id', '$2::date')} d ON true
      WHERE o.id = ANY($1::bigint[])`, [[...organizations], `${year}-12-31`]);
  // A farmer lives in one municipality: the distinct farmers of the states add up to the program's.
  const byMunicipality = [...municipalities.values()].sort((a, b) => byText(a.state, b.state) || byText(a.ibgeCode, b.ibgeCode))
    .map((m) => ({ ibgeCode: m.ibgeCode, name: m.name, state: m.state, familyFarmers: m.ids.size }));
  const farmersByState = new Map<string, number>();
  for (const m of byMunicipality) farmersByState.set(m.state, (farmersByState.get(m.state) ?? 0) + m.familyFarmers);
  return {
    byState: [...states.values()].sort((a, b) => byText(a.state, b.state)),
    families: {
      familyFarmers: byMunicipality.reduce((n, m) => n + m.familyFarmers, 0),
      organizations: Number(orgs.n),
      organizationFamilyFarmerMembers: Number(orgs.members ?? 0),
      byState: [...farmersByState.entries()].map(([state, n]) => ({ state, familyFarmers: n })),
      byMunicipality,
    },
  };
}

/** The producers' results summed as shown: each total is the sum of the producers' figures of sealCompliance. */
export function summed(rows: readonly ProgramProducerYear[]): Pick<ProgramYear, 'byStanding' | 'byCompliance' | 'totals' | 'byKind' | 'byRegion' | 'byFeedstock' | 'standingChanges'> {
  const total = (f: (r: SealComplianceReport) => Decimal) => rows.reduce((s, r) => s.plus(f(r.report)), ZERO);
  const byKind = new Map<string, SpendingSplit<string>>();
  const byRegion = new Map<string, SpendingSplit<Region>>();
  const byFeedstock = new Map<string, SpendingSplit<Feedstock | null>>();
  for (const r of rows) {
    for (const i of r.report.spending) {
      add(byKind, i.kind, i.actual, i.weighted, i.count);
      add(byRegion, i.region, i.actual, i.weighted, i.count);
      add(byFeedstock, i.product ?? null, i.actual, i.weighted, i.count);
    }
  }
  const actualTotal = total((r) => r.actualTotal);
  const priorityRegionAmount = total((r) => r.priorityRegionAmount);
  return {
    byStanding: PROGRAM_STANDINGS.map((standing) => ({ standing, producers: rows.filter((r) => r.standing === standing).length })),
    byCompliance: PROGRAM_COMPLIANCES.map((compliance) => ({ compliance, producers: rows.filter((r) => r.compliance === compliance).length })),
    totals: {
      salesRevenue: total((r) => r.salesRevenue),
      base: total((r) => r.base),
      familyFarmingAcquisitions: total((r) => r.familyFarmingAcquisitions),
      otherProductAcquisitions: total((r) => r.otherProductAcquisitions),
      fomento: total((r) => r.fomento),
      actualTotal,
      countedTotal: total((r) => r.countedTotal),
      priorityRegionAmount,
      // Interpretation (docs/LAW.md): the program's share, from the shown sums on actual values as
      // requirement 2 reads a producer's; no producer is judged by it.
      priorityRegionShare: actualTotal.isZero() ? ZERO : toShare(priorityRegionAmount.div(actualTotal)),
    },
    byKind: sorted(byKind),
    byRegion: sorted(byRegion),
    byFeedstock: sorted(byFeedstock),
    standingChanges: rows.filter((r) => r.standing !== r.previousStanding)
      .map((r) => ({ producer: r.producer, before: r.previousStanding, after: r.standing, reason: r.standingReason })),
  };
}
