import { Feedstock, Region } from '../../law/types';
import { IsoDate } from '../../law/dates';
import { firstCoveredSql } from '../facts/contract-coverage.sql';

/**
 * Contracts by id ($1) with the first purchase each covers (art. 3º §2º II); with `until` ($2)
 * only purchases up to that day.
 */
export function contractsSql(until: boolean): string {
  const first = firstCoveredSql('c', until ? { until: '$2::date' } : {});
  return `SELECT c.id, c.signed_on, c.valid_from, c.valid_until, c.feedstock, c.price_per_kg, c.technical_assistance, c.family_farmer_id, c.organization_id,
              ${first} AS first_covered_on, cm.ibge_code AS counterparty_code, cm.region AS counterparty_region
         FROM contract c
         LEFT JOIN family_farmer ff ON ff.id = c.family_farmer_id
         LEFT JOIN family_farming_organization fo ON fo.id = c.organization_id
         LEFT JOIN municipality cm ON cm.ibge_code = coalesce(ff.municipality_code, fo.municipality_code)
        WHERE c.id = ANY($1::bigint[])`;
}

/** A row of contractsSql. */
export interface ContractRow {
  id: string; signed_on: IsoDate; valid_from: IsoDate; valid_until: IsoDate; feedstock: Feedstock; price_per_kg: string;
  technical_assistance: boolean; family_farmer_id: string | null; organization_id: string | null; first_covered_on: IsoDate | null;
  counterparty_code: string | null; counterparty_region: Region | null;
}
