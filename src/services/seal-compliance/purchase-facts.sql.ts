import { EntityManager } from 'typeorm';
import { Conformity, ContractFacts, MinimumPriceRun } from '../../law/contract-conformity';
import { Decimal } from '../../law/decimal';
import { PurchaseGroup, Segment } from '../../law/seal-spending';
import { Feedstock, FomentoKind, OrganizationKind, PurchasePurpose, Region, SupplierKind } from '../../law/types';
import { semiaridDays } from '../facts/priority-region.sql';
import { membershipOnSql } from '../facts/organization-membership.sql';
import { supplierOn } from '../facts/supplier-eligibility.sql';
import { coverageSql } from '../facts/contract-coverage.sql';
import { runIndexSql } from '../facts/parameter-timeline';
import { activeSql, COUNTED_PURCHASE } from '../record-state';

/**
 * The SQL of the Selo's family-farming spending (Decreto 10.527/2020, art. 3º §2 I–III), shared by
 * the year's compliance (compliance.service.ts) and one purchase's verdict (purchase-selo.service.ts),
 * so that the two never disagree.
 */

/** Where Selo spending is counted from. */
const SUPPLIERS = `('${SupplierKind.FAMILY_FARMER}','${SupplierKind.COOPERATIVE}','${SupplierKind.ASSOCIATION}')`;
export const FAMILY_FARMING_SUPPLIERS = new Set<string>([SupplierKind.FAMILY_FARMER, SupplierKind.COOPERATIVE, SupplierKind.ASSOCIATION]);

/**
 * Each family-farming purchase's facts the law looks at, non-null so groups match as tuples; a
 * return is a negative row judged as its original (docs/LAW.md, "Returns"). $1 producers, $2–$3
 * the days, $4 segment starts, $5 last DAP issue day, $6–$10 minimum price runs.
 */
export function purchaseFacts(extraWhere = '', ownSuppliers = false): string {
  const semiarid = semiaridDays('sa', 'p.origin_municipality_code');
  const where = `p.producer_id = ANY($1::bigint[]) AND p.counted_on BETWEEN $2::date AND $3::date AND p.supplier_kind IN ${SUPPLIERS} AND ${activeSql('p')}${extraWhere}`;
  // `ownSuppliers`: the registrations of these rows' suppliers only, when the rows are fewer than
  // the registrations (compliance-year.ts, fewerRowsThanRegistrations); the program's year reads
  // nearly every supplier, and finding them cost it more than aggregating them all (1.5 s at scale 1).
  const of = (column: string) => `SELECT p.${column} FROM ${COUNTED_PURCHASE} p WHERE ${where}`;
  const supplier = supplierOn('p', 'p.purchased_on', '$5::date', ownSuppliers ? { farmers: of('family_farmer_id'), organizations: of('organization_id') } : undefined);
  const covered = coverageSql('c', 'p');
  return `
  WITH mp AS (SELECT * FROM unnest($6::text[], $7::date[], $8::date[], $9::numeric[], $10::text[]) AS m(feedstock, valid_from, valid_until, price_per_kg, scope))
  SELECT p.id, p.return_id, p.producer_id, p.cost, p.purchased_on, p.purpose, p.supplier_kind,
         coalesce(p.organization_id, 0) AS organization_id, coalesce(p.contract_id, 0) AS contract_id,
         coalesce(${covered.prior}, false) AS prior,
         coalesce(${covered.date}, false) AS covers_date,
         coalesce(${covered.feedstock}, false) AS covers_feedstock,
         coalesce(${covered.counterparty}, false) AS covers_counterparty,
         om.region, ${semiarid.on('p.purchased_on')} AS semiarid,
         ${runIndexSql('p.counted_on', '$4::date[]')} AS segment,
         ${supplier.registration} AS registration,
         p.feedstock, coalesce(p.judged_cost < mp.price_per_kg * p.judged_kg, false) AS below_minimum,
         ${supplier.membershipId} AS membership_id
    FROM ${COUNTED_PURCHASE} p
    JOIN municipality om ON om.ibge_code = p.origin_municipality_code
    LEFT JOIN contract c ON c.id = p.contract_id
    LEFT JOIN LATERAL (
      SELECT m.price_per_kg FROM mp m
       WHERE m.feedstock = p.feedstock AND p.purchased_on BETWEEN m.valid_from AND m.valid_until
         AND (m.scope IS NULL OR m.scope = om.region OR m.scope = left(p.origin_municipality_code, 2))
       ORDER BY CASE WHEN m.scope IS NULL THEN 0 WHEN m.scope = om.region THEN 1 ELSE 2 END DESC LIMIT 1) mp ON true
    ${semiarid.join}
    ${supplier.join}
   WHERE ${where}`;
}

/**
 * A cheap first filter of `purchaseFacts` to some groups' contracts and organizations (0: none),
 * $a and $b: plain conditions apply in the scan, before the joins (a semi-join on the pairs ran
 * after them). A superset of the groups' rows: the caller matches them to its groups exactly.
 */
export function ofContractsAndOrganizations(a: number, b: number): string {
  return ` AND coalesce(p.contract_id, 0) = ANY($${a}::bigint[]) AND coalesce(p.organization_id, 0) = ANY($${b}::bigint[])`;
}

/** The parameters of `ofContractsAndOrganizations` for some groups. */
export function contractsAndOrganizations(groups: ReadonlyArray<Pick<PurchaseGroupRow, 'contract_id' | 'organization_id'>>): [string[], string[]] {
  return [[...new Set(groups.map((g) => g.contract_id))], [...new Set(groups.map((g) => g.organization_id))]];
}

/** The columns that make a group, with the SQL type of each (to match groups as tuples). */
export const PURCHASE_GROUP_COLUMNS: Array<[name: string, type: string]> = [
  ['purpose', 'text'], ['supplier_kind', 'text'], ['organization_id', 'bigint'], ['contract_id', 'bigint'], ['prior', 'boolean'],
  ['covers_date', 'boolean'], ['covers_feedstock', 'boolean'], ['covers_counterparty', 'boolean'], ['region', 'text'],
  ['semiarid', 'boolean'], ['segment', 'integer'], ['registration', 'integer'], ['feedstock', 'text'], ['below_minimum', 'boolean'],
  ['membership_id', 'bigint'],
];
/** The group columns as a select list. */
export const PURCHASE_COLUMNS = PURCHASE_GROUP_COLUMNS.map(([name]) => name).join(', ');
const PURCHASE_KEYS = PURCHASE_GROUP_COLUMNS.map(([name]) => name);

const FOMENTO_SEMIARID = semiaridDays('sa', 'f.municipality_code');
/**
 * Fomento of the year: its kind, the municipality's region, whether it lies in the Semiárido on the
 * day spent, and the parameter segment ($1..$4 as above). The kind is no group column: a group
 * counts its technical-assistance rows (`FOMENTO_GROUP_SUMS`).
 */
export const FOMENTO_FACTS = `
  SELECT f.id, f.producer_id, f.amount, f.kind, m.region, ${FOMENTO_SEMIARID.on('f.spent_on')} AS semiarid, ${runIndexSql('f.spent_on', '$4::date[]')} AS segment
    FROM fomento_expense f
    JOIN municipality m ON m.ibge_code = f.municipality_code
    ${FOMENTO_SEMIARID.join}
   WHERE f.producer_id = ANY($1::bigint[]) AND f.spent_on BETWEEN $2::date AND $3::date AND ${activeSql('f')}`;
/** The columns that make a fomento group. */
export const FOMENTO_COLUMNS = ['region', 'semiarid', 'segment'];
/**
 * A fomento group's sums over FOMENTO_FACTS: its amount and rows, and those of its
 * technical-assistance expenses (Portaria MDA nº 28/2024, arts. 15–16; docs/LAW.md).
 */
export const FOMENTO_GROUP_SUMS = `sum(amount) AS amount, count(*) AS n,
  count(*) FILTER (WHERE kind = '${FomentoKind.TECHNICAL_ASSISTANCE}') AS ater_n,
  coalesce(sum(amount) FILTER (WHERE kind = '${FomentoKind.TECHNICAL_ASSISTANCE}'), 0) AS ater_amount`;

/** The key of a group, from its columns as pg returns them. */
export function keyOf(row: Record<string, unknown>, columns: string[]): string {
  return columns.map((c) => String(row[c])).join('|');
}

/** A row of purchaseFacts grouped (or one purchase, n = 1). */
export interface PurchaseGroupRow {
  purpose: PurchasePurpose; supplier_kind: SupplierKind; organization_id: string; contract_id: string;
  prior: boolean; covers_date: boolean; covers_feedstock: boolean; covers_counterparty: boolean;
  region: Region; semiarid: boolean; segment: number; registration: number; feedstock: Feedstock; below_minimum: boolean; membership_id: string;
  amount: string; n: string;
  /** Its columns' key (`keyOf`), once made. */
  key?: string;
}

/** A row of FOMENTO_FACTS grouped. */
export interface FomentoGroupRow { region: Region; semiarid: boolean; segment: number; amount: string; n: string; ater_n: string; ater_amount: string }

/** Contracts by id with their conformity. */
export type Conformities = Map<string, { facts: ContractFacts; conformity: Conformity }>;
/** Organizations by the id of the member declaration in force on the purchase dates, with the facts of habilitation. */
export type OrganizationMap = Map<string, { kind: OrganizationKind; members: number; familyFarmerMembers: number }>;

/** A row of purchaseFacts (a group of the year, or one purchase) as the law module takes it. */
export function purchaseGroupOf(r: PurchaseGroupRow, conformities: Conformities, organizations: OrganizationMap, segmentOf: (i: number) => Segment): PurchaseGroup {
  const c = r.contract_id !== '0' ? conformities.get(r.contract_id) : undefined;
  return {
    key: r.key ?? keyOf(r as unknown as Record<string, unknown>, PURCHASE_KEYS),
    purpose: r.purpose,
    supplier: {
      kind: r.supplier_kind,
      registrationValid: r.registration > 0,
      lateDap: r.registration === 2,
      organization: r.membership_id !== '0' ? (organizations.get(r.membership_id) ?? null) : null,
    },
    contract: c
      ? {
        id: r.contract_id,
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
    product: r.feedstock,
    belowMinimumPrice: r.below_minimum,
  };
}

/** The parameters $6–$10 of `purchaseFacts`: the minimum price runs as arrays. */
export function minimumPriceParams(runs: readonly MinimumPriceRun[]): unknown[] {
  return [runs.map((r) => r.feedstock), runs.map((r) => r.from), runs.map((r) => r.to), runs.map((r) => r.pricePerKg.toFixed()), runs.map((r) => r.scope)];
}

/** The organizations of the purchases by member declaration (`membership_id`): kind and the declared counts (art. 4º VI). */
export async function organizationFacts(em: EntityManager, membershipIds: string[]): Promise<OrganizationMap> {
  const map: OrganizationMap = new Map();
  if (membershipIds.length === 0) return map;
  const rows: Array<{ id: string; kind: OrganizationKind; members: number; family_farmer_members: number }> = await em.query(
    `SELECT m.id, o.kind, m.members, m.family_farmer_members FROM organization_membership m JOIN family_farming_organization o ON o.id = m.organization_id
      WHERE m.id = ANY($1::bigint[])`, [membershipIds]);
  for (const r of rows) map.set(String(r.id), { kind: r.kind, members: Number(r.members), familyFarmerMembers: Number(r.family_farmer_members) });
  return map;
}

/**
 * Organizations by `<id>|<day>` for each (organization, day) asked: kind and the counts declared for
 * that day (art. 4º VI; organization-membership.sql.ts). Unknown organizations are absent.
 */
export async function organizationsOn(em: EntityManager, asked: ReadonlyArray<{ organizationId: string; on: string }>): Promise<OrganizationMap> {
  const map: OrganizationMap = new Map();
  if (asked.length === 0) return map;
  const rows: Array<{ id: string; day: string; kind: OrganizationKind; members: number; family_farmer_members: number }> = await em.query(
    `SELECT o.id::text, to_char(k.day, 'YYYY-MM-DD') AS day, o.kind, m.members, m.family_farmer_members
       FROM unnest($1::bigint[], $2::date[]) AS k(id, day) JOIN family_farming_organization o ON o.id = k.id
       CROSS JOIN LATERAL ${membershipOnSql('o.id', 'k.day')} m`,
    [asked.map((a) => a.organizationId), asked.map((a) => a.on)]);
  for (const r of rows) map.set(`${r.id}|${r.day}`, { kind: r.kind, members: Number(r.members), familyFarmerMembers: Number(r.family_farmer_members) });
  return map;
}
