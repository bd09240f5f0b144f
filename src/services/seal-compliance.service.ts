import { DataSource } from 'typeorm';
import { Contract, Producer } from '../domain';
import { Conformity, ContractFacts, contractConformity } from '../law/contract-conformity';
import { IsoDate, today } from '../law/dates';
import { Decimal } from '../law/decimal';
import { LAST_DAP_ISSUE_DAY } from '../law/family-farming';
import { Finding } from '../law/findings';
import { LawBook } from '../law/law-book';
import {
  FomentoGroup, parameterSegments, present, PurchaseGroup, SealComplianceResult, Segment, sealCompliance,
} from '../law/seal-compliance';
import { OrganizationKind, PurchasePurpose, Region, SupplierKind } from '../law/types';
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

/**
 * The facts of each family-farming purchase of the year that the law looks at, computed by the
 * database (no decision is taken here): the contract's dates, feedstock and counterparty against
 * the purchase's, the origin municipality's region, the parameter segment of the purchase date,
 * and whether the supplier held a DAP/CAF valid on that date (and whether one of those is a DAP
 * starting after the end of DAP issuance). `key` names the group of purchases sharing all of them.
 * Parameters: $1 producer, $2 first day, $3 last day, $4 segment start days, $5 last DAP issue day.
 */
const PURCHASE_FACTS = `
  SELECT p.id, p.cost, p.purpose, p.supplier_kind, p.organization_id, p.contract_id,
         c.signed_on <= p.purchased_on AS prior,
         p.purchased_on BETWEEN c.valid_from AND c.valid_until AS covers_date,
         c.feedstock = p.feedstock AS covers_feedstock,
         (c.producer_id = p.producer_id AND c.family_farmer_id IS NOT DISTINCT FROM p.family_farmer_id
           AND c.organization_id IS NOT DISTINCT FROM p.organization_id) AS covers_counterparty,
         om.region, om.semiarid,
         width_bucket(p.purchased_on, $4::date[]) AS segment,
         CASE WHEN p.family_farmer_id IS NOT NULL
           THEN EXISTS (SELECT 1 FROM family_farmer_registration r WHERE r.family_farmer_id = p.family_farmer_id AND p.purchased_on BETWEEN r.valid_from AND r.valid_until)
           ELSE EXISTS (SELECT 1 FROM organization_registration r WHERE r.organization_id = p.organization_id AND p.purchased_on BETWEEN r.valid_from AND r.valid_until)
         END AS registration_valid,
         CASE WHEN p.family_farmer_id IS NOT NULL
           THEN EXISTS (SELECT 1 FROM family_farmer_registration r WHERE r.family_farmer_id = p.family_farmer_id AND p.purchased_on BETWEEN r.valid_from AND r.valid_until AND r.kind = 'DAP' AND r.valid_from > $5::date)
           ELSE EXISTS (SELECT 1 FROM organization_registration r WHERE r.organization_id = p.organization_id AND p.purchased_on BETWEEN r.valid_from AND r.valid_until AND r.kind = 'DAP' AND r.valid_from > $5::date)
         END AS late_dap
    FROM purchase p
    JOIN municipality om ON om.ibge_code = p.origin_municipality_code
    LEFT JOIN contract c ON c.id = p.contract_id
   WHERE p.producer_id = $1 AND p.purchased_on BETWEEN $2::date AND $3::date AND p.supplier_kind IN ${SUPPLIERS}`;

const PURCHASE_KEY = `concat_ws('|', purpose, supplier_kind, coalesce(organization_id::text, '-'), coalesce(contract_id::text, '-'),
  coalesce(prior::text, '-'), coalesce(covers_date::text, '-'), coalesce(covers_feedstock::text, '-'), coalesce(covers_counterparty::text, '-'),
  region, semiarid::text, segment::text, registration_valid::text, late_dap::text)`;

const PURCHASE_COLUMNS = `purpose, supplier_kind, organization_id, contract_id, prior, covers_date, covers_feedstock, covers_counterparty,
  region, semiarid, segment, registration_valid, late_dap`;

/** Fomento of the year: the municipality's region and the parameter segment ($1..$4 as above). */
const FOMENTO_FACTS = `
  SELECT f.id, f.amount, m.region, m.semiarid, width_bucket(f.spent_on, $4::date[]) AS segment
    FROM fomento_expense f
    JOIN municipality m ON m.ibge_code = f.municipality_code
   WHERE f.producer_id = $1 AND f.spent_on BETWEEN $2::date AND $3::date`;

const FOMENTO_KEY = `concat_ws('|', region, semiarid::text, segment::text)`;

interface PurchaseGroupRow {
  key: string; purpose: PurchasePurpose; supplier_kind: SupplierKind; organization_id: string | null; contract_id: string | null;
  prior: boolean | null; covers_date: boolean | null; covers_feedstock: boolean | null; covers_counterparty: boolean | null;
  region: Region; semiarid: boolean; segment: number; registration_valid: boolean; late_dap: boolean; amount: string; n: string;
}

interface FomentoGroupRow { key: string; region: Region; semiarid: boolean; segment: number; amount: string; n: string }

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
    const law = await this.lawBook();
    const from = `${year}-01-01`;
    const to = `${year}-12-31`;
    const segments = parameterSegments(law, from, to, asKnownOn);
    const params = [producer.id, from, to, segments.map((s) => s.from), LAST_DAP_ISSUE_DAY];

    const [plant] = await this.ds.query(`SELECT region, semiarid FROM municipality WHERE ibge_code = $1`, [producer.plantMunicipalityCode]);
    const [sales] = await this.ds.query(
      `SELECT coalesce(sum(revenue), 0) AS revenue, coalesce(sum(volume_m3), 0) AS volume,
              coalesce(sum(volume_m3) FILTER (WHERE market = 'EXPORT'), 0) AS exported
         FROM sale WHERE producer_id = $1 AND origin = 'OWN_PRODUCTION' AND sold_on BETWEEN $2::date AND $3::date`,
      [producer.id, from, to],
    );
    const purchaseRows: PurchaseGroupRow[] = await this.ds.query(
      `SELECT ${PURCHASE_KEY} AS key, ${PURCHASE_COLUMNS}, sum(cost) AS amount, count(*) AS n
         FROM (${PURCHASE_FACTS}) f GROUP BY ${PURCHASE_COLUMNS}`,
      params,
    );
    const fomentoRows: FomentoGroupRow[] = await this.ds.query(
      `SELECT ${FOMENTO_KEY} AS key, region, semiarid, segment, sum(amount) AS amount, count(*) AS n
         FROM (${FOMENTO_FACTS}) f GROUP BY region, semiarid, segment`,
      params.slice(0, 4),
    );

    const contractIds = [...new Set(purchaseRows.map((r) => r.contract_id).filter((id): id is string => id !== null))];
    const organizationIds = [...new Set(purchaseRows.map((r) => r.organization_id).filter((id): id is string => id !== null))];
    const conformities = await this.conformities(contractIds, asKnownOn);
    const organizations = await this.organizationFacts(organizationIds);
    const segmentOf = (i: number): Segment => segments[i - 1];

    const purchases: PurchaseGroup[] = purchaseRows.map((r) => {
      const c = r.contract_id ? conformities.get(r.contract_id) : undefined;
      return {
        key: r.key,
        purpose: r.purpose,
        supplier: {
          kind: r.supplier_kind,
          registrationValid: r.registration_valid,
          lateDap: r.late_dap,
          organization: r.organization_id ? (organizations.get(r.organization_id) ?? null) : null,
        },
        contract: c
          ? {
            signedOn: c.facts.signedOn,
            conformity: c.conformity,
            priorToPurchase: r.prior === true,
            coverage: { date: r.covers_date === true, feedstock: r.covers_feedstock === true, counterparty: r.covers_counterparty === true },
          }
          : null,
        origin: { region: r.region, semiarid: r.semiarid },
        segment: segmentOf(r.segment),
        amount: new Decimal(r.amount),
        count: Number(r.n),
      };
    });
    const fomento: FomentoGroup[] = fomentoRows.map((r) => ({
      key: r.key, place: { region: r.region, semiarid: r.semiarid }, segment: segmentOf(r.segment), amount: new Decimal(r.amount), count: Number(r.n),
    }));

    const result = sealCompliance({
      year, asKnownOn, plant: { region: plant.region, semiarid: plant.semiarid },
      sales: { ownRevenue: new Decimal(sales.revenue), ownVolume: new Decimal(sales.volume), exportedVolume: new Decimal(sales.exported) },
      purchases, fomento,
    }, law);

    return { ...present(result), producer, excluded: await this.excludedItems(result, params) };
  }

  /** The rows of the groups that do not count, each with its group's findings. */
  private async excludedItems(result: SealComplianceResult, params: unknown[]): Promise<ExcludedItem[]> {
    const items: ExcludedItem[] = [];
    const purchaseFindings = new Map(result.excluded.filter((e) => e.source === 'PURCHASE').map((e) => [e.key, e.findings]));
    const fomentoFindings = new Map(result.excluded.filter((e) => e.source === 'FOMENTO').map((e) => [e.key, e.findings]));
    if (purchaseFindings.size) {
      const rows: Array<{ id: string; cost: string; key: string }> = await this.ds.query(
        `SELECT id, cost, key FROM (SELECT f.id, f.cost, ${PURCHASE_KEY} AS key FROM (${PURCHASE_FACTS}) f) k WHERE key = ANY($6::text[]) ORDER BY id`,
        [...params, [...purchaseFindings.keys()]],
      );
      for (const r of rows) items.push({ id: r.id, source: 'PURCHASE', amount: new Decimal(r.cost), findings: purchaseFindings.get(r.key) ?? [] });
    }
    if (fomentoFindings.size) {
      const rows: Array<{ id: string; amount: string; key: string }> = await this.ds.query(
        `SELECT id, amount, key FROM (SELECT f.id, f.amount, ${FOMENTO_KEY} AS key FROM (${FOMENTO_FACTS}) f) k WHERE key = ANY($5::text[]) ORDER BY id`,
        [...params.slice(0, 4), [...fomentoFindings.keys()]],
      );
      for (const r of rows) items.push({ id: r.id, source: 'FOMENTO_EXPENSE', amount: new Decimal(r.amount), findings: fomentoFindings.get(r.key) ?? [] });
    }
    return items;
  }

  private async organizationFacts(ids: string[]) {
    const map = new Map<string, { kind: OrganizationKind; members: number; familyFarmerMembers: number }>();
    if (ids.length === 0) return map;
    const rows: Array<{ id: string; kind: OrganizationKind; members: number; family_farmer_members: number }> = await this.ds.query(
      `SELECT id, kind, members, family_farmer_members FROM family_farming_organization WHERE id = ANY($1::bigint[])`, [ids]);
    for (const r of rows) map.set(String(r.id), { kind: r.kind, members: Number(r.members), familyFarmerMembers: Number(r.family_farmer_members) });
    return map;
  }

  /**
   * Conformity of contracts by id (Decreto 10.527/2020, art. 3º §2 II–III), as known on `asKnownOn`:
   * one statement for the contracts and the first purchase each covers, one for the minimum prices.
   */
  async conformities(ids: readonly string[], asKnownOn: IsoDate): Promise<Map<string, { facts: ContractFacts; conformity: Conformity }>> {
    const map = new Map<string, { facts: ContractFacts; conformity: Conformity }>();
    const wanted = [...new Set(ids.filter(isId))];
    if (wanted.length === 0) return map;
    const rows: Array<Record<string, any>> = await this.ds.query(
      `SELECT c.id, c.signed_on, c.valid_from, c.valid_until, c.feedstock, c.price_per_kg, c.technical_assistance, c.family_farmer_id, c.organization_id,
              (SELECT min(p.purchased_on) FROM purchase p
                WHERE p.contract_id = c.id AND p.producer_id = c.producer_id AND p.purchased_on BETWEEN c.valid_from AND c.valid_until AND p.feedstock = c.feedstock
                  AND p.family_farmer_id IS NOT DISTINCT FROM c.family_farmer_id AND p.organization_id IS NOT DISTINCT FROM c.organization_id) AS first_covered_on
         FROM contract c WHERE c.id = ANY($1::bigint[])`,
      [wanted],
    );
    const prices = await this.minimumPrices.versions([...new Set(rows.map((r) => r.feedstock))]);
    for (const r of rows) {
      const facts: ContractFacts = {
        signedOn: r.signed_on, validFrom: r.valid_from, validUntil: r.valid_until, feedstock: r.feedstock,
        pricePerKg: new Decimal(r.price_per_kg), technicalAssistance: r.technical_assistance,
        familyFarmerId: r.family_farmer_id === null ? null : String(r.family_farmer_id),
        organizationId: r.organization_id === null ? null : String(r.organization_id),
      };
      map.set(String(r.id), { facts, conformity: contractConformity(facts, prices, r.first_covered_on ?? null, asKnownOn) });
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
