import { OrganizationKind, SupplierKind } from '../law/types';
import { membershipOnSql } from './facts/organization-membership.sql';

/**
 * SQL boolean expression: the purchase `alias` came from family farming on its purchase date
 * (Decreto 10.527/2020, art. 6º §2º; Lei 11.116/2005, art. 5º §3º; DESIGN §1.2):
 * - bought from a FAMILY_FARMER holding a DAP or CAF valid on purchased_on (art. 2º IV), or
 * - bought from a COOPERATIVE holding a DAP/CAF jurídica valid on purchased_on whose family-farmer
 *   members are at least the minimum share of its members in force on that date, by the member
 *   counts declared for that date (art. 4º VI–VII).
 *   Interpretation: purchases from associations count for the Selo (art. 2º V) but not for the
 *   family-farming categories, which name the cooperative.
 *
 * `minShareSql` is an SQL expression for the minimum share in force on the purchase date, computed
 * by the caller from the law book (e.g. `($5::numeric[])[width_bucket(p.purchased_on, $4::date[])]`);
 * a NULL share (none in force) leaves the cooperative not habilitated. The comparison is exact
 * (`family_farmer_members >= share × members`, no division, no rounding).
 */
export function familyFarmingOriginSql(alias: string, minShareSql: string): string {
  return `(CASE ${alias}.supplier_kind
    WHEN '${SupplierKind.FAMILY_FARMER}' THEN EXISTS (
      SELECT 1 FROM family_farmer_registration ffr
       WHERE ffr.family_farmer_id = ${alias}.family_farmer_id AND ${alias}.purchased_on BETWEEN ffr.valid_from AND ffr.valid_until)
    WHEN '${SupplierKind.COOPERATIVE}' THEN EXISTS (
      SELECT 1 FROM family_farming_organization ffo
        JOIN organization_registration ofr ON ofr.organization_id = ffo.id
        CROSS JOIN LATERAL ${membershipOnSql('ffo.id', `${alias}.purchased_on`)} om
       WHERE ffo.id = ${alias}.organization_id AND ffo.kind = '${OrganizationKind.COOPERATIVE}'
         AND ${alias}.purchased_on BETWEEN ofr.valid_from AND ofr.valid_until
         AND om.family_farmer_members >= (${minShareSql}) * om.members)
    ELSE false END)`;
}
