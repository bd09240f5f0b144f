import { SupplierKind } from '../../law/types';
import { membershipDays } from './organization-membership.sql';

// A supplier's eligibility on a date in SQL (Decreto 10.527/2020 arts. 2º IV–V, 4º VI–VII, 6º §2º;
// Lei 11.116/2005 art. 5º §3º); pure twins in src/law/family-farming.ts (parity-tested). Registrations
// are date multiranges, hash-joined once per statement.

/**
 * One row per supplier (of those `among` selects, when given): the days its registrations cover,
 * and those of DAPs issued after `lastDapDay`.
 */
function registrationDays(table: string, column: string, lastDapDay: string, among?: string): string {
  return `SELECT ${column} AS id, range_agg(daterange(valid_from, valid_until, '[]')) AS valid,
                 range_agg(daterange(valid_from, valid_until, '[]')) FILTER (WHERE kind = 'DAP' AND valid_from > ${lastDapDay}) AS late
            FROM ${table}${among ? ` WHERE ${column} IN (${among})` : ''} GROUP BY ${column}`;
}

export interface SupplierOn {
  /** The joins, to add to a statement over purchases aliased `p`. */
  join: string;
  /** 0: no DAP/CAF valid that day; 1: one valid; 2: valid, and a DAP issued after the cutoff among them (Portaria MAPA 174/2022). */
  registration: string;
  /** The id of the organization's member declaration in force that day (art. 4º VI); 0 for a family farmer. */
  membershipId: string;
  /**
   * A farmer with a valid DAP/CAF, or a cooperative with a valid DAP/CAF jurídica and members at
   * least `minShare` (NULL while unpublished: the document decides). Never an association (§2º).
   * Interpretation: purchases from associations count for the Selo (art. 2º V), not for II/III.
   */
  familyFarmingOrigin(minShare: string): string;
}

/** The suppliers whose registrations a statement reads: SQL selects of farmer and organization ids. */
export interface SuppliersAmong {
  farmers: string;
  organizations: string;
}

/**
 * The supplier of the purchase `p` on `day` (SQL); `lastDapDay` the last day DAPs were issued. Each
 * supplier's days are aggregated once and hash-joined; `among`: only the statement's suppliers (a
 * month's few hundred of 100,000; a probe per purchase cost a large month 0.4 s).
 */
export function supplierOn(p: string, day: string, lastDapDay: string, among?: SuppliersAmong): SupplierOn {
  const registrations = `LEFT JOIN (${registrationDays('family_farmer_registration', 'family_farmer_id', lastDapDay, among?.farmers)}) ef ON ef.id = ${p}.family_farmer_id
    LEFT JOIN (${registrationDays('organization_registration', 'organization_id', lastDapDay, among?.organizations)}) eo ON eo.id = ${p}.organization_id`;
  return {
    join: `${registrations}
    ${membershipDays('em', `${p}.organization_id`, day)}`,
    registration: `CASE WHEN coalesce(ef.late, eo.late) @> ${day} THEN 2 WHEN coalesce(ef.valid, eo.valid) @> ${day} THEN 1 ELSE 0 END`,
    membershipId: `coalesce(em.id, 0)`,
    familyFarmingOrigin: (minShare) => `CASE ${p}.supplier_kind
      WHEN '${SupplierKind.FAMILY_FARMER}' THEN coalesce(ef.valid @> ${day}, false)
      WHEN '${SupplierKind.COOPERATIVE}' THEN coalesce(eo.valid @> ${day} AND em.kind = 'COOPERATIVE' AND ((${minShare}) IS NULL OR em.family_farmer_members >= (${minShare}) * em.members), false)
      ELSE false END`,
  };
}

/**
 * The probe form, for a few suppliers at a time: the registrations of `owner` (an SQL expression;
 * `column` names it in `table`) valid on `day`, as a JSON array of { kind, number, validFrom,
 * validUntil } by validFrom — the rows whose days `registration` above reads.
 */
export function validRegistrationsSql(table: 'family_farmer_registration' | 'organization_registration', column: string, owner: string, day: string): string {
  return `(SELECT coalesce(json_agg(json_build_object('kind', r.kind, 'number', r.number, 'validFrom', r.valid_from, 'validUntil', r.valid_until) ORDER BY r.valid_from, r.id), '[]'::json)
      FROM ${table} r WHERE r.${column} = ${owner} AND ${day} BETWEEN r.valid_from AND r.valid_until)`;
}
