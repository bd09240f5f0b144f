import { DataSource, EntityManager } from 'typeorm';
import { Producer, SealEvent, SealGrant } from '../domain';
import { IsoDate } from '../law/dates';
import { Decimal, toShare, ZERO } from '../law/decimal';
import { Finding } from '../law/findings';
import { Feedstock, Region, Role } from '../law/types';
import { message } from '../i18n';
import { Actor } from './actor';
import { activeSql, COUNTED_PURCHASE } from './record-state';
import { BadInputError, ForbiddenError } from './errors';
import { standingOf } from './law.service';
import { SealService } from './seal.service';
import { SealComplianceReport, SealComplianceService } from './seal-compliance/compliance.service';
import { FAMILY_FARMING_SUPPLIERS } from './seal-compliance/purchase-facts.sql';
import { membershipOnSql } from './facts/organization-membership.sql';
import { groupBy } from './group-by';

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
/** A series is at most this many years (each year is a full overview). */
export const MAX_SERIES_YEARS = 20;

// Interpretation (docs/LAW.md): a producer without a grant yet on the day stands as NONE.
const STANDING_OF_CODE: Record<string, ProgramStanding> = {
  SEAL_REGULAR: 'REGULAR', SEAL_SUSPENDED: 'SUSPENDED', SEAL_CANCELLED: 'CANCELLED', SEAL_EXPIRED: 'EXPIRED', NO_SEAL_GRANT: 'NONE',
};

/** The program view is the ministry's (Decreto 10.527/2020, art. 4º): ADMIN and AUDITOR. */
export function assertMinistry(actor: Actor, field: string): void {
  if (actor.role !== Role.ADMIN && actor.role !== Role.AUDITOR) throw new ForbiddenError(message('auth.notForRole', { field, role: actor.role }));
}

export function requireYear(year: unknown, field: string): number {
  if (typeof year !== 'number' || !Number.isInteger(year) || year < 2000 || year > 9999) throw new BadInputError(field, message('input.year', { field, example: 2025 }));
  return year;
}

function add<K>(map: Map<string, SpendingSplit<K>>, key: K, actual: Decimal, weighted: Decimal | null, count: number): void {
  const k = String(key);
  const s = map.get(k) ?? { key, actual: ZERO, weighted: ZERO, count: 0 };
  // An item awaiting a factor (alínea a) has no weighted value: out of the weighted sums, as of countedTotal.
  map.set(k, { key, actual: s.actual.plus(actual), weighted: weighted ? s.weighted.plus(weighted) : s.weighted, count: s.count + count });
}

const sorted = <T extends { key: unknown }>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);

/**
 * The Selo program's year (Decreto 10.527/2020, arts. 2º–4º; Portaria MDA nº 28/2024): each
 * producer's standing on 31 December and its `sealCompliance`, summed, so the totals cannot
 * disagree with the producers'; origins and farmers by SQL over the items those results count.
 */
export class ProgramOverviewService {
  constructor(private readonly ds: DataSource, private readonly compliance: SealComplianceService, private readonly seals: SealService) {}

  async overview(actor: Actor, year: number, asKnownOn: IsoDate): Promise<ProgramYear> {
    assertMinistry(actor, 'programOverview');
    requireYear(year, 'year');
    return this.yearOf(actor, year, asKnownOn);
  }

  /** The years from `from` to `to`, each as its overview; `known`: years already computed (as known on `asKnownOn`), reused. */
  async series(actor: Actor, from: number, to: number, asKnownOn: IsoDate, known: readonly ProgramYear[] = []): Promise<ProgramYear[]> {
    assertMinistry(actor, 'programOverview');
    requireYear(from, 'from');
    if (from > to) throw new BadInputError('from', message('input.notAfter', { field: 'from', other: 'year' }));
    if (to - from + 1 > MAX_SERIES_YEARS) throw new BadInputError('from', message('input.year', { field: 'from', example: to - MAX_SERIES_YEARS + 1 }));
    const years: ProgramYear[] = [];
    for (let y = from; y <= to; y++) years.push(known.find((k) => k.year === y && k.asKnownOn === asKnownOn) ?? await this.yearOf(actor, y, asKnownOn));
    return years;
  }

  /**
   * One year in one read-only snapshot: the standings, every producer's Selo year and the items
   * they count are read as of the same moment, so the totals agree even while records are written.
   */
  private async yearOf(actor: Actor, year: number, asKnownOn: IsoDate): Promise<ProgramYear> {
    return this.ds.transaction('REPEATABLE READ', async (em) => {
      await em.query('SET TRANSACTION READ ONLY');
      const on = `${year}-12-31`;
      const before = `${year - 1}-12-31`;
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

      const rows: ProgramProducerYear[] = [];
      for (let i = 0; i < producers.length; i += BATCH) {
        const batch = producers.slice(i, i + BATCH);
        const reports = await this.compliance.ofPage(batch.map((producer) => ({ producer, year, asKnownOn })), em);
        reports.forEach((r, n) => {
          if (r instanceof Error) throw r;
          const now = standing(batch[n], on);
          rows.push({
            producer: batch[n], standing: now.standing, standingReason: now.reason, previousStanding: standing(batch[n], before).standing,
            compliance: r.status === 'COMPLIANT' ? 'COMPLIANT' : r.status === 'NOT_COMPLIANT' ? 'SHORT' : 'NOT_DETERMINABLE',
            report: r,
          });
        });
      }
      return { year, asKnownOn, on, producers: rows, ...summed(rows), ...(await countedIn(em, rows, year)) };
    });
  }
}

/**
 * What the results do not carry, by grouped SQL over the items they count: the year's purchases
 * from family farming and fomento of these producers, less each one's excluded items. One
 * statement reads them once for the states, the farmers and the organizations.
 */
async function countedIn(em: EntityManager, rows: readonly ProgramProducerYear[], year: number): Promise<Pick<ProgramYear, 'byState' | 'families'>> {
  const ids = rows.map((r) => r.producer.id);
  const excludedPurchases = rows.flatMap((r) => r.report.excluded.filter((e) => e.source === 'PURCHASE').map((e) => e.id));
  const excludedFomento = rows.flatMap((r) => r.report.excluded.filter((e) => e.source === 'FOMENTO_EXPENSE').map((e) => e.id));
  // The excluded ids are anti-joined (hashed), not tested row by row against the array.
  const parts: Array<{ part: 'STATE' | 'FARMERS' | 'ORGANIZATIONS'; state: string | null; region: Region | null; ibge_code: string | null; name: string | null; amount: string | null; n: string }> = await em.query(
    `WITH counted AS MATERIALIZED (
       SELECT p.cost, p.family_farmer_id, p.organization_id, p.origin_municipality_code FROM ${COUNTED_PURCHASE} p
        WHERE p.producer_id = ANY($1::bigint[]) AND p.counted_on BETWEEN $2::date AND $3::date AND p.supplier_kind = ANY($4::text[]) AND ${activeSql('p')}
          AND NOT EXISTS (SELECT 1 FROM unnest($5::bigint[]) AS e(id) WHERE e.id = p.id)),
     by_state AS (
       SELECT m.state, m.region, sum(x.amount) AS amount, sum(x.n) AS n FROM (
         SELECT c.origin_municipality_code AS code, sum(c.cost) AS amount, count(*) AS n FROM counted c GROUP BY 1
         UNION ALL
         SELECT f.municipality_code, sum(f.amount), count(*) FROM fomento_expense f
          WHERE f.producer_id = ANY($1::bigint[]) AND f.spent_on BETWEEN $2::date AND $3::date AND ${activeSql('f')} AND NOT EXISTS (SELECT 1 FROM unnest($6::bigint[]) AS e(id) WHERE e.id = f.id) GROUP BY 1
       ) x JOIN municipality m ON m.ibge_code = x.code GROUP BY m.state, m.region),
     -- A farmer lives in one municipality: the distinct farmers of the states add up to the program's.
     farmers AS (
       SELECT m.ibge_code, m.name, m.state, count(DISTINCT c.family_farmer_id) AS n FROM counted c
         JOIN family_farmer ff ON ff.id = c.family_farmer_id JOIN municipality m ON m.ibge_code = ff.municipality_code
        GROUP BY m.ibge_code, m.name, m.state),
     organizations AS (
       SELECT count(*) AS n, sum(coalesce(d.family_farmer_members, o.family_farmer_members)) AS members
         FROM (SELECT DISTINCT c.organization_id FROM counted c WHERE c.organization_id IS NOT NULL) k
         JOIN family_farming_organization o ON o.id = k.organization_id
         LEFT JOIN LATERAL ${membershipOnSql('o.id', '$3::date')} d ON true)
     SELECT 'STATE' AS part, state, region, NULL AS ibge_code, NULL AS name, amount, n FROM by_state
     UNION ALL SELECT 'FARMERS', state, NULL, ibge_code, name, NULL, n FROM farmers
     UNION ALL SELECT 'ORGANIZATIONS', NULL, NULL, NULL, NULL, members, n FROM organizations
     ORDER BY 1, 2, 4`,
    [ids, `${year}-01-01`, `${year}-12-31`, [...FAMILY_FARMING_SUPPLIERS], excludedPurchases, excludedFomento],
  );
  const byState = parts.filter((p) => p.part === 'STATE');
  const farmers = parts.filter((p) => p.part === 'FARMERS');
  // Interpretation (docs/LAW.md): members are declared as counts (art. 4º VI), not named, so the
  // families reached through organizations are the family-farmer members each declared in force
  // on 31 December; they may be farmers also sold to directly, and are not added to them.
  const orgs = parts.find((p) => p.part === 'ORGANIZATIONS')!;
  const states = new Map<string, number>();
  for (const f of farmers) states.set(f.state!, (states.get(f.state!) ?? 0) + Number(f.n));
  return {
    byState: byState.map((s) => ({ state: s.state!, region: s.region!, actual: new Decimal(s.amount ?? 0), count: Number(s.n) })),
    families: {
      familyFarmers: farmers.reduce((n, f) => n + Number(f.n), 0),
      organizations: Number(orgs.n),
      organizationFamilyFarmerMembers: Number(orgs.amount ?? 0),
      byState: [...states.entries()].map(([state, n]) => ({ state, familyFarmers: n })),
      byMunicipality: farmers.map((f) => ({ ibgeCode: f.ibge_code!, name: f.name!, state: f.state!, familyFarmers: Number(f.n) })),
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
