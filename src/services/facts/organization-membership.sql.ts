// An organization's member declaration in force on a date (art. 4º VI): the latest declared by then
// (undated first; same day, later recorded). A probe per row and a join for a year; pure twin
// `membershipOn` (src/law/family-farming.ts).

/** The declaration in force on `day` for the organization `organization` (SQL expressions): a sub-select of one row (id, members, family_farmer_members). */
export function membershipOnSql(organization: string, day: string): string {
  return `(SELECT om.id, om.members, om.family_farmer_members FROM organization_membership om
            WHERE om.organization_id = ${organization} AND (om.declared_on IS NULL OR om.declared_on <= ${day})
            ORDER BY om.declared_on DESC NULLS LAST, om.id DESC LIMIT 1)`;
}

/**
 * Each declaration with the days it is in force, `[declared_on, the next one's)` (empty when a later
 * one is declared the same day), and its organization's kind.
 */
const DAYS = `SELECT d.id, d.organization_id, d.members, d.family_farmer_members, o.kind,
         CASE WHEN d.next_id IS NULL THEN daterange(d.declared_on, NULL, '[)')
              WHEN d.next_on IS NOT DISTINCT FROM d.declared_on THEN 'empty'::daterange
              ELSE daterange(d.declared_on, d.next_on, '[)') END AS days
    FROM (SELECT m.*, lead(id) OVER w AS next_id, lead(declared_on) OVER w AS next_on FROM organization_membership m
          WINDOW w AS (PARTITION BY organization_id ORDER BY declared_on NULLS FIRST, id)) d
    JOIN family_farming_organization o ON o.id = d.organization_id`;

/** The join form: the declaration in force on `day` for the row's organization `organization`, with the organization's kind, under `alias` (a LEFT JOIN). */
export function membershipDays(alias: string, organization: string, day: string): string {
  return `LEFT JOIN (${DAYS}) ${alias} ON ${alias}.organization_id = ${organization} AND ${alias}.days @> ${day}`;
}
