import { DataSource, EntityManager } from 'typeorm';
import { Contract, Producer, Purchase } from '../domain';
import { Conformity, ContractFacts, contractConformity } from '../law/contract-conformity';
import { IsoDate, today } from '../law/dates';
import { Decimal } from '../law/decimal';
import { LAST_DAP_ISSUE_DAY } from '../law/family-farming';
import { Finding } from '../law/findings';
import { LawBook } from '../law/law-book';
import {
  decidePurchaseGroup, FomentoGroup, parameterSegments, present, PurchaseGroup, SealComplianceResult, Segment, sealCompliance,
} from '../law/seal-compliance';
import { SpendingKind } from '../law/law-book';
import { Feedstock, OrganizationKind, PurchasePurpose, Region, SupplierKind } from '../law/types';
import { Actor } from './actor';
import { BadInputError, NotFoundError } from './errors';
import { MinimumPriceService } from './minimum-price.service';
import { isId, requireDate } from './record-batch';
import { assertVisible } from './scope';

/** One item that does not count, with every reason (DESIGN §1.5–§1.6). */
export interface ExcludedItem {
  id: string;
  source: 'PURCHASE' | 'FOMENTO_EXPENSE';
  amount: Decimal;
  findings: Finding[];
}

/** The year's figures as shown (money to the centavo, shares to 6 decimals), with the excluded items. */
export type SealComplianceReport = ReturnType<typeof present> & { producer: Producer; excluded: ExcludedItem[] };

/** Contract.conformity as shown: the minimum price in force on the signing date, where one is. */
export interface ConformityView {
  conforming: boolean;
  findings: Finding[];
  minimumPrice: { id: string; feedstock: string; validFrom: string; validUntil: string | null; pricePerKg: Decimal; source: string; publishedOn: string } | null;
}

/** Where Selo spending is counted from, in the year, for one producer ($1 producer, $2..$3 the year). */
const SUPPLIERS = `('${SupplierKind.FAMILY_FARMER}','${SupplierKind.COOPERATIVE}','${SupplierKind.ASSOCIATION}')`;
const FAMILY_FARMING_SUPPLIERS = new Set<string>([SupplierKind.FAMILY_FARMER, SupplierKind.COOPERATIVE, SupplierKind.ASSOCIATION]);

/**
 * The facts of each family-farming purchase of the year that the law looks at, computed by the
 * database (no decision is taken here): whether the contract was signed on or before the purchase
 * date and whether its dates, feedstock and counterparty match the purchase's (false without a
 * contract, whose id is then 0), the origin municipality's region, the parameter segment of the
 * purchase date, and the supplier's registrations on that date (`registration`: 0 none valid,
 * 1 a DAP/CAF valid, 2 valid and a DAP starting after the end of DAP issuance among them). Every
 * column is non-null, so that groups can be matched as tuples.
 * Parameters: $1 producer, $2 first day, $3 last day, $4 segment start days, $5 last DAP issue day.
 */
function purchaseFacts(extraWhere = ''): string {
  // One row per supplier: the days covered by its registrations, and by those that are DAPs issued
  // after the cutoff, as multiranges (hash-joined to the purchases, so no probe per purchase).
  const validity = (table: string, column: string) => `SELECT ${column} AS id,
           range_agg(daterange(valid_from, valid_until, '[]')) AS valid,
           range_agg(daterange(valid_from, valid_until, '[]')) FILTER (WHERE kind = 'DAP' AND valid_from > $5::date) AS late
      FROM ${table} GROUP BY ${column}`;
  return `
  WITH fv AS (${validity('family_farmer_registration', 'family_farmer_id')}),
       ov AS (${validity('organization_registration', 'organization_id')})
  SELECT p.id, p.cost, p.purchased_on, p.purpose, p.supplier_kind,
         coalesce(p.organization_id, 0) AS organization_id, coalesce(p.contract_id, 0) AS contract_id,
         coalesce(c.signed_on <= p.purchased_on, false) AS prior,
         coalesce(p.purchased_on BETWEEN c.valid_from AND c.valid_until, false) AS covers_date,
         coalesce(c.feedstock = p.feedstock, false) AS covers_feedstock,
         coalesce(c.producer_id = p.producer_id AND c.family_farmer_id IS NOT DISTINCT FROM p.family_farmer_id
           AND c.organization_id IS NOT DISTINCT FROM p.organization_id, false) AS covers_counterparty,
         om.region, om.semiarid,
         width_bucket(p.purchased_on, $4::date[]) AS segment,
         CASE WHEN coalesce(fv.late, ov.late) @> p.purchased_on THEN 2
              WHEN coalesce(fv.valid, ov.valid) @> p.purchased_on THEN 1
              ELSE 0 END AS registration
    FROM purchase p
    JOIN municipality om ON om.ibge_code = p.origin_municipality_code
    LEFT JOIN contract c ON c.id = p.contract_id
    LEFT JOIN fv ON fv.id = p.family_farmer_id
    LEFT JOIN ov ON ov.id = p.organization_id
   WHERE p.producer_id = $1 AND p.purchased_on BETWEEN $2::date AND $3::date AND p.supplier_kind IN ${SUPPLIERS}${extraWhere}`;
}

/** The columns that make a group, with the SQL type of each (to match groups as tuples). */
const PURCHASE_GROUP_COLUMNS: Array<[name: string, type: string]> = [
  ['purpose', 'text'], ['supplier_kind', 'text'], ['organization_id', 'bigint'], ['contract_id', 'bigint'], ['prior', 'boolean'],
  ['covers_date', 'boolean'], ['covers_feedstock', 'boolean'], ['covers_counterparty', 'boolean'], ['region', 'text'],
  ['semiarid', 'boolean'], ['segment', 'integer'], ['registration', 'integer'],
];
const PURCHASE_COLUMNS = PURCHASE_GROUP_COLUMNS.map(([name]) => name).join(', ');

/** Fomento of the year: the municipality's region and the parameter segment ($1..$4 as above). */
const FOMENTO_FACTS = `
  SELECT f.id, f.amount, m.region, m.semiarid, width_bucket(f.spent_on, $4::date[]) AS segment
    FROM fomento_expense f
    JOIN municipality m ON m.ibge_code = f.municipality_code
   WHERE f.producer_id = $1 AND f.spent_on BETWEEN $2::date AND $3::date`;

/** The key of a group, from its columns as pg returns them. */
function keyOf(row: Record<string, unknown>, columns: string[]): string {
  return columns.map((c) => String(row[c])).join('|');
}

interface PurchaseGroupRow {
  purpose: PurchasePurpose; supplier_kind: SupplierKind; organization_id: string; contract_id: string;
  prior: boolean; covers_date: boolean; covers_feedstock: boolean; covers_counterparty: boolean;
  region: Region; semiarid: boolean; segment: number; registration: number; amount: string; n: string; first_on: string;
}

interface FomentoGroupRow { region: Region; semiarid: boolean; segment: number; amount: string; n: string }

const FOMENTO_COLUMNS = ['region', 'semiarid', 'segment'];

interface ContractRow {
  id: string; signed_on: IsoDate; valid_from: IsoDate; valid_until: IsoDate; feedstock: Feedstock; price_per_kg: string;
  technical_assistance: boolean; family_farmer_id: string | null; organization_id: string | null; first_covered_on: IsoDate | null;
}

type Conformities = Map<string, { facts: ContractFacts; conformity: Conformity }>;
type OrganizationMap = Map<string, { kind: OrganizationKind; members: number; familyFarmerMembers: number }>;

const PURCHASE_KEYS = PURCHASE_GROUP_COLUMNS.map(([name]) => name);

/** A row of purchaseFacts (a group of the year, or one purchase) as the law module takes it. */
function purchaseGroupOf(r: PurchaseGroupRow, conformities: Conformities, organizations: OrganizationMap, segmentOf: (i: number) => Segment): PurchaseGroup {
  const c = r.contract_id !== '0' ? conformities.get(r.contract_id) : undefined;
  return {
    key: keyOf(r as unknown as Record<string, unknown>, PURCHASE_KEYS),
    purpose: r.purpose,
    supplier: {
      kind: r.supplier_kind,
      registrationValid: r.registration > 0,
      lateDap: r.registration === 2,
      organization: r.organization_id !== '0' ? (organizations.get(r.organization_id) ?? null) : null,
    },
    contract: c
      ? {
        signedOn: c.facts.signedOn,
        conformity: c.conformity,
        priorToPurchase: r.prior,
        coverage: { date: r.covers_date, feedstock: r.covers_feedstock, counterparty: r.covers_counterparty },
      }
      : null,
    origin: { region: r.region, semiarid: r.semiarid },
    segment: segmentOf(r.segment),
    amount: new Decimal(r.amount),
    count: Number(r.n),
  };
}

/** Purchase.selo: whether one purchase counts for the Selo targets of its year, and why not. */
export interface PurchaseSeloView {
  year: number;
  asKnownOn: IsoDate;
  counts: boolean;
  kind: SpendingKind;
  /** A counted purchase is part of the priority-region spending (requirement 2). */
  priorityRegion: boolean;
  /** Every finding that applies; empty when it counts. */
  findings: Finding[];
}

/**
 * The Selo's annual family-farming targets (Decreto 10.527/2020, art. 3º §2 I–III, §3º) and the
 * conformity of contracts. The year's sums are SQL aggregates grouped by the facts the law needs;
 * src/law/seal-compliance.ts decides what counts, group by group. Only the rows of the groups that
 * do not count are then read, for the `excluded` list.
 */
export class SealComplianceService {
  constructor(
    private readonly ds: DataSource,
    private readonly lawBook: () => Promise<LawBook>,
    private readonly minimumPrices: MinimumPriceService,
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
    if (!Number.isInteger(year) || year < 2000 || year > 9999) throw new BadInputError('year', 'year must be a calendar year such as 2025');
    const asKnownOn = asKnownOnInput == null ? today() : requireDate(asKnownOnInput, 'asKnownOn');
    // One snapshot for every statement of the year, so the excluded rows match the sums even while
    // records are written; memory enough to hash a year's groups without spilling to disk.
    return this.ds.transaction('REPEATABLE READ', async (em) => {
      await em.query(`SET LOCAL work_mem = '64MB'`);
      return this.computeIn(em, producer, year, asKnownOn);
    });
  }

  private async computeIn(em: EntityManager, producer: Producer, year: number, asKnownOn: IsoDate): Promise<SealComplianceReport> {
    const law = await this.lawBook();
    const from = `${year}-01-01`;
    const to = `${year}-12-31`;
    const segments = parameterSegments(law, from, to, asKnownOn);
    const params = [producer.id, from, to, segments.map((s) => s.from), LAST_DAP_ISSUE_DAY];

    const [plant] = await em.query(`SELECT region, semiarid FROM municipality WHERE ibge_code = $1`, [producer.plantMunicipalityCode]);
    const [sales] = await em.query(
      `SELECT coalesce(sum(revenue), 0) AS revenue, coalesce(sum(volume_m3), 0) AS volume,
              coalesce(sum(volume_m3) FILTER (WHERE market = 'EXPORT'), 0) AS exported
         FROM sale WHERE producer_id = $1 AND origin = 'OWN_PRODUCTION' AND sold_on BETWEEN $2::date AND $3::date`,
      [producer.id, from, to],
    );
    // The year's groups are hashed, not sorted: the planner overestimates their number and would sort
    // a million rows on a dozen keys to group them.
    await em.query(`SET LOCAL enable_sort = off`);
    const purchaseRows: PurchaseGroupRow[] = await em.query(
      `SELECT ${PURCHASE_COLUMNS}, sum(cost) AS amount, count(*) AS n, min(purchased_on) AS first_on
         FROM (${purchaseFacts()}) f GROUP BY ${PURCHASE_COLUMNS}`,
      params,
    );
    await em.query(`SET LOCAL enable_sort = DEFAULT`);
    const fomentoRows: FomentoGroupRow[] = await em.query(
      `SELECT region, semiarid, segment, sum(amount) AS amount, count(*) AS n FROM (${FOMENTO_FACTS}) f GROUP BY region, semiarid, segment`,
      params.slice(0, 4),
    );

    // The first purchase each contract covers, within the year, from the groups (art. 3º §2 II);
    // earlier years are looked up for the contracts valid before it.
    const firstInYear = new Map<string, string>();
    for (const r of purchaseRows) {
      if (r.contract_id === '0' || !(r.covers_date && r.covers_feedstock && r.covers_counterparty)) continue;
      const known = firstInYear.get(r.contract_id);
      if (!known || r.first_on < known) firstInYear.set(r.contract_id, r.first_on);
    }
    const contractIds = [...new Set(purchaseRows.map((r) => r.contract_id).filter((id) => id !== '0'))];
    const organizationIds = [...new Set(purchaseRows.map((r) => r.organization_id).filter((id) => id !== '0'))];
    const conformities = await this.conformities(contractIds, asKnownOn, { before: from, firstFrom: firstInYear }, em);
    const organizations = await this.organizationFacts(em, organizationIds);
    const segmentOf = (i: number): Segment => segments[i - 1];
    const purchaseKeys = PURCHASE_GROUP_COLUMNS.map(([name]) => name);

    const purchases: PurchaseGroup[] = purchaseRows.map((r) => purchaseGroupOf(r, conformities, organizations, segmentOf));
    const fomento: FomentoGroup[] = fomentoRows.map((r) => ({
      key: keyOf(r as unknown as Record<string, unknown>, FOMENTO_COLUMNS),
      place: { region: r.region, semiarid: r.semiarid }, segment: segmentOf(r.segment), amount: new Decimal(r.amount), count: Number(r.n),
    }));
    const groupsByKey = new Map(purchaseRows.map((r) => [keyOf(r as unknown as Record<string, unknown>, purchaseKeys), r]));
    const fomentoByKey = new Map(fomentoRows.map((r) => [keyOf(r as unknown as Record<string, unknown>, FOMENTO_COLUMNS), r]));

    const result = sealCompliance({
      year, asKnownOn, plant: { region: plant.region, semiarid: plant.semiarid },
      sales: { ownRevenue: new Decimal(sales.revenue), ownVolume: new Decimal(sales.volume), exportedVolume: new Decimal(sales.exported) },
      purchases, fomento,
    }, law);

    return { ...present(result), producer, excluded: await this.excludedItems(em, result, params, groupsByKey, fomentoByKey) };
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
    const purchaseFindings = new Map(result.excluded.filter((e) => e.source === 'PURCHASE').map((e) => [e.key, e.findings]));
    const fomentoFindings = new Map(result.excluded.filter((e) => e.source === 'FOMENTO').map((e) => [e.key, e.findings]));
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

  /**
   * Purchase.selo for a page of purchases already in the caller's scope: whether each counts for the
   * Selo targets of its purchase year as known on asKnownOn (default today), decided by the very
   * facts (purchaseFacts), contract conformity (`conformities`, with the first covered purchase as
   * the year's computation finds it) and law function (`decidePurchaseGroup`) that sealCompliance
   * uses, so that the two never disagree. Statements per (producer, year, asKnownOn) of the page,
   * not per purchase: the purchases' facts, the first purchase each of their contracts covers in the
   * year, the contracts and minimum prices, the organizations. Third-party and own-production
   * purchases are not family-farming spending (DESIGN §1.5): null.
   */
  async seloOf(keys: ReadonlyArray<{ purchase: Purchase; asKnownOn: string | null }>): Promise<Array<PurchaseSeloView | null>> {
    const answers = new Map<string, PurchaseSeloView>();
    const batches = new Map<string, { producerId: string; year: number; asKnownOn: IsoDate; ids: string[] }>();
    const resolved = keys.map((k) => {
      const asKnownOn = k.asKnownOn == null ? today() : requireDate(k.asKnownOn, 'asKnownOn');
      const year = Number(k.purchase.purchasedOn.slice(0, 4));
      const batch = `${k.purchase.producerId}|${year}|${asKnownOn}`;
      const b = batches.get(batch) ?? { producerId: k.purchase.producerId, year, asKnownOn, ids: [] };
      if (FAMILY_FARMING_SUPPLIERS.has(k.purchase.supplierKind)) b.ids.push(k.purchase.id);
      batches.set(batch, b);
      return `${k.purchase.id}|${asKnownOn}`;
    });
    const law = await this.lawBook();
    for (const b of batches.values()) {
      if (b.ids.length === 0) continue;
      const from = `${b.year}-01-01`;
      const to = `${b.year}-12-31`;
      const segments = parameterSegments(law, from, to, b.asKnownOn);
      const params = [b.producerId, from, to, segments.map((s) => s.from), LAST_DAP_ISSUE_DAY];
      const em = this.ds.manager;
      const rows: Array<PurchaseGroupRow & { id: string }> = await em.query(
        `SELECT id, ${PURCHASE_COLUMNS}, cost AS amount, 1 AS n, purchased_on AS first_on
           FROM (${purchaseFacts(` AND p.id = ANY($6::bigint[])`)}) f`,
        [...params, b.ids],
      );
      const contractIds = [...new Set(rows.map((r) => r.contract_id).filter((id) => id !== '0'))];
      // As computeIn finds it: the first purchase of the year each contract covers (art. 3º §2 II).
      const firstInYear = new Map<string, string>();
      if (contractIds.length) {
        const firsts: Array<{ contract_id: string; first_on: IsoDate }> = await em.query(
          `SELECT contract_id, min(purchased_on) AS first_on FROM (${purchaseFacts(` AND p.contract_id = ANY($6::bigint[])`)}) f
            WHERE covers_date AND covers_feedstock AND covers_counterparty GROUP BY contract_id`,
          [...params, contractIds],
        );
        for (const f of firsts) firstInYear.set(String(f.contract_id), f.first_on);
      }
      const conformities = await this.conformities(contractIds, b.asKnownOn, { before: from, firstFrom: firstInYear }, em);
      const organizations = await this.organizationFacts(em, [...new Set(rows.map((r) => r.organization_id).filter((id) => id !== '0'))]);
      for (const r of rows) {
        const d = decidePurchaseGroup(purchaseGroupOf(r, conformities, organizations, (i) => segments[i - 1]), law, b.asKnownOn);
        answers.set(`${r.id}|${b.asKnownOn}`, {
          year: b.year, asKnownOn: b.asKnownOn, counts: d.counts, kind: d.kind, priorityRegion: d.priorityRegion, findings: d.findings,
        });
      }
    }
    return resolved.map((k) => answers.get(k) ?? null);
  }

  private async organizationFacts(em: EntityManager, ids: string[]) {
    const map = new Map<string, { kind: OrganizationKind; members: number; familyFarmerMembers: number }>();
    if (ids.length === 0) return map;
    const rows: Array<{ id: string; kind: OrganizationKind; members: number; family_farmer_members: number }> = await em.query(
      `SELECT id, kind, members, family_farmer_members FROM family_farming_organization WHERE id = ANY($1::bigint[])`, [ids]);
    for (const r of rows) map.set(String(r.id), { kind: r.kind, members: Number(r.members), familyFarmerMembers: Number(r.family_farmer_members) });
    return map;
  }

  /**
   * Conformity of contracts by id (Decreto 10.527/2020, art. 3º §2 II–III), as known on `asKnownOn`:
   * one statement for the contracts and the first purchase each covers, one for the minimum prices.
   * With `known`, the first covered purchases on or after `known.before` are already known
   * (`firstFrom`, from the year's groups) and only earlier ones are looked up, for the contracts
   * valid before that day.
   */
  async conformities(
    ids: readonly string[],
    asKnownOn: IsoDate,
    known?: { before: IsoDate; firstFrom: Map<string, IsoDate> },
    em: EntityManager = this.ds.manager,
  ): Promise<Map<string, { facts: ContractFacts; conformity: Conformity }>> {
    const map = new Map<string, { facts: ContractFacts; conformity: Conformity }>();
    const wanted = [...new Set(ids.filter(isId))];
    if (wanted.length === 0) return map;
    const covered = `SELECT min(p.purchased_on) FROM purchase p
                WHERE p.contract_id = c.id AND p.producer_id = c.producer_id AND p.purchased_on BETWEEN c.valid_from AND c.valid_until AND p.feedstock = c.feedstock
                  AND p.family_farmer_id IS NOT DISTINCT FROM c.family_farmer_id AND p.organization_id IS NOT DISTINCT FROM c.organization_id`;
    const first = known ? `CASE WHEN c.valid_from < $2::date THEN (${covered} AND p.purchased_on < $2::date) END` : `(${covered})`;
    const rows: ContractRow[] = await em.query(
      `SELECT c.id, c.signed_on, c.valid_from, c.valid_until, c.feedstock, c.price_per_kg, c.technical_assistance, c.family_farmer_id, c.organization_id,
              ${first} AS first_covered_on
         FROM contract c WHERE c.id = ANY($1::bigint[])`,
      known ? [wanted, known.before] : [wanted],
    );
    const prices = await this.minimumPrices.versions([...new Set(rows.map((r) => r.feedstock))], em);
    for (const r of rows) {
      const facts: ContractFacts = {
        signedOn: r.signed_on, validFrom: r.valid_from, validUntil: r.valid_until, feedstock: r.feedstock,
        pricePerKg: new Decimal(r.price_per_kg), technicalAssistance: r.technical_assistance,
        familyFarmerId: r.family_farmer_id === null ? null : String(r.family_farmer_id),
        organizationId: r.organization_id === null ? null : String(r.organization_id),
      };
      const firstOn: IsoDate | null = r.first_covered_on ?? known?.firstFrom.get(String(r.id)) ?? null;
      map.set(String(r.id), { facts, conformity: contractConformity(facts, prices, firstOn, asKnownOn) });
    }
    return map;
  }

  /** Contract.conformity for loaders: keys are contract id and asKnownOn. */
  async conformityOf(keys: ReadonlyArray<{ contract: Contract; asKnownOn: IsoDate | null }>): Promise<ConformityView[]> {
    const byDay = new Map<IsoDate, string[]>();
    const resolved = keys.map((k) => ({ id: k.contract.id, day: k.asKnownOn ?? today() }));
    for (const k of resolved) byDay.set(k.day, [...(byDay.get(k.day) ?? []), k.id]);
    const answers = new Map<string, Conformity>();
    for (const [day, ids] of byDay) {
      for (const [id, c] of await this.conformities(ids, day)) answers.set(`${id}|${day}`, c.conformity);
    }
    return resolved.map((k) => {
      const c = answers.get(`${k.id}|${k.day}`) as Conformity;
      const v = c.minimumPrice;
      return {
        conforming: c.conforming,
        findings: c.findings,
        minimumPrice: v && {
          id: v.id as string, feedstock: v.value.feedstock, validFrom: v.validFrom, validUntil: v.validUntil,
          pricePerKg: v.value.pricePerKg, source: v.legalBasis, publishedOn: v.publishedOn,
        },
      };
    });
  }
}
