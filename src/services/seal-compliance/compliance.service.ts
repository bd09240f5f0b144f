import { DataSource, EntityManager } from 'typeorm';
import { Producer, SealEvaluation } from '../../domain';
import { balanceCarries, BalanceIn, balanceIn } from '../../law/seal-balance';
import { IsoDate, today } from '../../law/dates';
import { Decimal } from '../../law/decimal';
import { LAST_DAP_ISSUE_DAY } from '../../law/family-farming';
import { Finding } from '../../law/findings';
import { LawBook } from '../../law/law-book';
import { FomentoGroup, parameterSegments, PurchaseGroup, Segment } from '../../law/seal-compliance';
import { SealComplianceResult, targetDay } from '../../law/seal-year';
import { present } from '../../law/seal-presentation';
import { sealCompliance, sealComplianceModel } from '../../law/seal-weighting';
import { semiaridOnSql } from '../facts/priority-region.sql';
import { Actor } from '../actor';
import { BadInputError, NotFoundError } from '../errors';
import { isId, requireDate } from '../record-batch';
import { assertVisible } from '../scope';
import { ContractConformityService } from './contract-conformity.service';
import { SealEvaluationService } from './seal-evaluation.service';
import {
  FOMENTO_COLUMNS, FOMENTO_FACTS, FomentoGroupRow, keyOf, minimumPriceParams, organizationFacts, PURCHASE_COLUMNS, PURCHASE_GROUP_COLUMNS,
  purchaseFacts, PurchaseGroupRow, purchaseGroupOf,
} from './purchase-facts.sql';
import { message } from '../../i18n';

/** One item that does not count, with every reason (DESIGN §1.5–§1.6). */
export interface ExcludedItem {
  id: string;
  source: 'PURCHASE' | 'FOMENTO_EXPENSE';
  amount: Decimal;
  findings: Finding[];
}

/** The year's figures as shown (money to the centavo, shares to 6 decimals), with the excluded items. */
export type SealComplianceReport = ReturnType<typeof present> & { producer: Producer; excluded: ExcludedItem[] };

/** The key prefix of hypothetical groups (sealPlan): never rows of the database. */
export const HYPOTHETICAL = 'hypothetical:';

/** Hypothetical groups of a plan, built with the year's parameter segment of a day. */
export type ExtraGroups = (segmentOn: (day: IsoDate) => Segment) => { purchases: PurchaseGroup[]; fomento: FomentoGroup[] };

function withExtra(purchases: PurchaseGroup[], fomento: FomentoGroup[], extra?: { purchases: PurchaseGroup[]; fomento: FomentoGroup[] }) {
  return extra ? { purchases: [...purchases, ...extra.purchases], fomento: [...fomento, ...extra.fomento] } : { purchases, fomento };
}

/**
 * The Selo's annual family-farming targets (Decreto 10.527/2020, art. 3º §2 I–III, §3º). The year's
 * sums are SQL aggregates grouped by the facts the law needs (purchase-facts.sql.ts);
 * src/law/seal-compliance.ts decides what counts, group by group. Only the rows of the groups that
 * do not count are then read, for the `excluded` list.
 */
export class SealComplianceService {
  constructor(
    private readonly ds: DataSource,
    private readonly lawBook: () => Promise<LawBook>,
    private readonly contracts: ContractConformityService,
    private readonly evaluations: SealEvaluationService,
  ) {}

  /** sealCompliance(producerId, year, asKnownOn): ADMIN and AUDITOR any producer, a PRODUCER its own. */
  async forProducer(actor: Actor, producerId: string, year: number, asKnownOn?: string | null): Promise<SealComplianceReport> {
    const producer = isId(producerId) ? await this.ds.getRepository(Producer).findOneBy({ id: producerId }) : null;
    if (!producer) throw new NotFoundError('Producer', producerId);
    assertVisible(actor, 'Producer', producerId, producer.id);
    return this.compute(producer, year, asKnownOn);
  }

  /** Producer.sealCompliance: the producer was already resolved within the caller's scope. */
  async compute(producer: Producer, year: number, asKnownOnInput?: string | null): Promise<SealComplianceReport> {
    if (!Number.isInteger(year) || year < 2000 || year > 9999) throw new BadInputError('year', message('input.year', { field: 'year', example: 2025 }));
    const asKnownOn = asKnownOnInput == null ? today() : requireDate(asKnownOnInput, 'asKnownOn');
    // One snapshot for every statement of the year, so the excluded rows match the sums even while
    // records are written.
    return this.ds.transaction('REPEATABLE READ', (em) => this.computeIn(em, producer, year, asKnownOn));
  }

  private async computeIn(em: EntityManager, producer: Producer, year: number, asKnownOn: IsoDate): Promise<SealComplianceReport> {
    const { result, excluded } = await this.evaluate(em, producer, year, asKnownOn, true);
    return { ...present(result), producer, excluded };
  }

  /**
   * sealPlan: the year as recorded and with `extra` groups (hypothetical items) evaluated as if they
   * were recorded, in one read-only snapshot: nothing is written.
   */
  async recordedAndWith(
    producer: Producer, year: number, asKnownOn: IsoDate, extra: ExtraGroups,
  ): Promise<{ law: LawBook; recorded: SealComplianceReport; withExtra: SealComplianceReport & { result: SealComplianceResult } }> {
    return this.ds.transaction('REPEATABLE READ', async (em) => {
      await em.query('SET TRANSACTION READ ONLY');
      const recorded = await this.computeIn(em, producer, year, asKnownOn);
      const { result, excluded } = await this.evaluate(em, producer, year, asKnownOn, true, extra);
      return { law: await this.lawBook(), recorded, withExtra: { ...present(result), producer, excluded, result } };
    });
  }

  /**
   * Portaria MDA nº 28/2024, art. 58 — the balances brought into a year: those of the evaluations
   * communicated in the year before it (known on `asKnownOn`) whose years carry, each from its
   * year's result as known on `asKnownOn` (like every figure, a correction published later changes it).
   */
  private async balancesInto(em: EntityManager, producer: Producer, law: LawBook, into: SealEvaluation[], asKnownOn: IsoDate): Promise<BalanceIn[]> {
    const balances: BalanceIn[] = [];
    for (const e of into) {
      if (!balanceCarries(law, e.year, asKnownOn)) continue;
      const out = (await this.evaluate(em, producer, e.year, asKnownOn, false)).result.balance.carriedOut;
      if (out) balances.push(balanceIn({ year: e.year, communicatedOn: e.communicatedOn }, out));
    }
    return balances;
  }

  /** The year's result; with `listExcluded`, the rows of the groups that do not count too; with `extra`, hypothetical groups beside the recorded ones. */
  private async evaluate(
    em: EntityManager, producer: Producer, year: number, asKnownOn: IsoDate, listExcluded: boolean, extra?: ExtraGroups,
  ): Promise<{ result: SealComplianceResult; excluded: ExcludedItem[] }> {
    const law = await this.lawBook();
    const from = `${year}-01-01`;
    const to = `${year}-12-31`;
    const segments = parameterSegments(law, from, to, asKnownOn);
    // From 2024 a purchase below the PGPAF minimum on its own date gets a finding (DESIGN §1.5).
    const priceRuns = sealComplianceModel(law, year, asKnownOn) ? await this.contracts.minimumPriceRuns(from, to, asKnownOn, em) : [];
    const params = [[producer.id], from, to, segments.map((s) => s.from), LAST_DAP_ISSUE_DAY, ...minimumPriceParams(priceRuns)];

    // The plant's region, and whether it lies in the Semiárido on the day the year's targets are read.
    const [plant] = await em.query(`SELECT region, ${semiaridOnSql('ibge_code', '$2::date')} AS semiarid FROM municipality WHERE ibge_code = $1`,
      [producer.plantMunicipalityCode, targetDay(year)]);
    const [sales] = await em.query(
      `SELECT coalesce(sum(revenue), 0) AS revenue, coalesce(sum(volume_m3), 0) AS volume,
              coalesce(sum(volume_m3) FILTER (WHERE market = 'EXPORT'), 0) AS exported
         FROM sale WHERE producer_id = $1 AND origin = 'OWN_PRODUCTION' AND sold_on BETWEEN $2::date AND $3::date`,
      [producer.id, from, to],
    );
    // The year's groups are hashed, not sorted: the planner estimates one group per row (the keys are
    // expressions over the purchase's date and supplier) where there are a few thousand, and would
    // sort the year's rows on a dozen keys to group them. Measured on the benchmark's year
    // (docs/PERFORMANCE.md, "sealCompliance: the year's groups"): the default work_mem holds the hash
    // table; no other plan found groups as fast without this setting, which lasts for this statement.
    await em.query(`SET LOCAL enable_sort = off`);
    const purchaseRows: PurchaseGroupRow[] = await em.query(
      `SELECT ${PURCHASE_COLUMNS}, sum(cost) AS amount, count(*) AS n
         FROM (${purchaseFacts()}) f GROUP BY ${PURCHASE_COLUMNS}`,
      params,
    );
    await em.query(`SET LOCAL enable_sort = DEFAULT`);
    const fomentoRows: FomentoGroupRow[] = await em.query(
      `SELECT region, semiarid, segment, sum(amount) AS amount, count(*) AS n FROM (${FOMENTO_FACTS}) f GROUP BY region, semiarid, segment`,
      params.slice(0, 4),
    );

    const contractIds = [...new Set(purchaseRows.map((r) => r.contract_id).filter((id) => id !== '0'))];
    const membershipIds = [...new Set(purchaseRows.map((r) => r.membership_id).filter((id) => id !== '0'))];
    // Each contract's conformity, with the first purchase it covers up to the year's end (art. 3º §2 II).
    const conformities = await this.contracts.conformities(contractIds, asKnownOn, to, em);
    const organizations = await organizationFacts(em, membershipIds);
    const segmentOf = (i: number): Segment => segments[i - 1];
    const purchaseKeys = PURCHASE_GROUP_COLUMNS.map(([name]) => name);

    const purchases: PurchaseGroup[] = purchaseRows.map((r) => purchaseGroupOf(r, conformities, organizations, segmentOf));
    const fomento: FomentoGroup[] = fomentoRows.map((r) => ({
      key: keyOf(r as unknown as Record<string, unknown>, FOMENTO_COLUMNS),
      place: { region: r.region, semiarid: r.semiarid }, segment: segmentOf(r.segment), amount: new Decimal(r.amount), count: Number(r.n),
    }));
    const groupsByKey = new Map(purchaseRows.map((r) => [keyOf(r as unknown as Record<string, unknown>, purchaseKeys), r]));
    const fomentoByKey = new Map(fomentoRows.map((r) => [keyOf(r as unknown as Record<string, unknown>, FOMENTO_COLUMNS), r]));

    // Art. 58 (weighted model): this year's evaluation, and the balances of earlier ones that count toward it.
    const evaluations = sealComplianceModel(law, year, asKnownOn) ? await this.evaluations.forYear(em, producer.id, year, asKnownOn) : { own: null, into: [] };
    const result = sealCompliance({
      year, asKnownOn, plant: { region: plant.region, semiarid: plant.semiarid },
      sales: { ownRevenue: new Decimal(sales.revenue), ownVolume: new Decimal(sales.volume), exportedVolume: new Decimal(sales.exported) },
      ...withExtra(purchases, fomento, extra?.((day) => segments.find((g) => g.from <= day && day <= g.to) as Segment)),
      balancesIn: await this.balancesInto(em, producer, law, evaluations.into, asKnownOn),
      evaluation: evaluations.own && { year, communicatedOn: evaluations.own.communicatedOn },
    }, law);

    return { result, excluded: listExcluded ? await this.excludedItems(em, result, params, groupsByKey, fomentoByKey) : [] };
  }

  /**
   * The rows of the groups that do not count, each with its group's findings. Only the purchases of
   * the contracts and organizations of those groups are examined (a first, cheap filter, before the
   * joins); the rows are then matched to the groups by all their facts.
   */
  private async excludedItems(
    em: EntityManager,
    result: SealComplianceResult,
    params: unknown[],
    purchaseGroups: Map<string, PurchaseGroupRow>,
    fomentoGroups: Map<string, FomentoGroupRow>,
  ): Promise<ExcludedItem[]> {
    const items: ExcludedItem[] = [];
    const recorded = result.excluded.filter((e) => !e.key.startsWith(HYPOTHETICAL));
    const purchaseFindings = new Map(recorded.filter((e) => e.source === 'PURCHASE').map((e) => [e.key, e.findings]));
    const fomentoFindings = new Map(recorded.filter((e) => e.source === 'FOMENTO').map((e) => [e.key, e.findings]));
    if (purchaseFindings.size) {
      const groups = [...purchaseFindings.keys()].map((k) => purchaseGroups.get(k) as PurchaseGroupRow);
      const pairs = [...new Set(groups.map((g) => `${g.contract_id}|${g.organization_id}`))].map((p) => p.split('|'));
      const n = params.length;
      const arrays = PURCHASE_GROUP_COLUMNS.map(([name]) => groups.map((g) => (g as unknown as Record<string, unknown>)[name]));
      const tuple = PURCHASE_GROUP_COLUMNS.map(([, type], i) => `$${n + 3 + i}::${type}[]`).join(', ');
      const keys = PURCHASE_GROUP_COLUMNS.map(([name]) => name);
      const rows: Array<Record<string, unknown>> = await em.query(
        `SELECT id, cost, ${PURCHASE_COLUMNS}
           FROM (${purchaseFacts(` AND (coalesce(p.contract_id, 0), coalesce(p.organization_id, 0)) IN (SELECT * FROM unnest($${n + 1}::bigint[], $${n + 2}::bigint[]))`)}) f
          WHERE (${PURCHASE_COLUMNS}) IN (SELECT * FROM unnest(${tuple}))
          ORDER BY id`,
        [...params, pairs.map((p) => p[0]), pairs.map((p) => p[1]), ...arrays],
      );
      for (const r of rows) {
        items.push({ id: String(r.id), source: 'PURCHASE', amount: new Decimal(r.cost as string), findings: purchaseFindings.get(keyOf(r, keys)) ?? [] });
      }
    }
    if (fomentoFindings.size) {
      const groups = [...fomentoFindings.keys()].map((k) => fomentoGroups.get(k) as FomentoGroupRow);
      const rows: Array<Record<string, unknown>> = await em.query(
        `SELECT id, amount, region, semiarid, segment FROM (${FOMENTO_FACTS}) f
          WHERE (region, semiarid, segment) IN (SELECT * FROM unnest($5::text[], $6::boolean[], $7::integer[])) ORDER BY id`,
        [...params.slice(0, 4), groups.map((g) => g.region), groups.map((g) => g.semiarid), groups.map((g) => g.segment)],
      );
      for (const r of rows) {
        items.push({ id: String(r.id), source: 'FOMENTO_EXPENSE', amount: new Decimal(r.amount as string), findings: fomentoFindings.get(keyOf(r, FOMENTO_COLUMNS)) ?? [] });
      }
    }
    return items;
  }
}
