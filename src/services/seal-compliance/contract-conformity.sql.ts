import { Feedstock } from '../../law/types';
import { IsoDate } from '../../law/dates';
import { firstCoveredSql } from '../facts/contract-coverage.sql';

/**
 * The contracts by id ($1) with the first purchase each covers (Decreto 10.527/2020, art. 3º §2 II):
 * by the contract's producer, on a date within its validity, of its feedstock, from its
 * counterparty (the builder of src/services/facts/contract-coverage.sql.ts). With `until` ($2), only
 * the purchases on or before that day are looked at (a Selo year: the first covered up to its end).
 */
export function contractsSql(until: boolean): string {
  const first = firstCoveredSql('c', until ? { until: '$2::date' } : {});
  return `SELECT c.id, c.signed_on, c.valid_from, c.valid_until, c.feedstock, c.price_per_kg, c.technical_assistance, c.family_farmer_id, c.organization_id,
              ${first} AS first_covered_on
         FROM contract c WHERE c.id = ANY($1::bigint[])`;
}

/** A row of contractsSql. */
export interface ContractRow {
  id: string; signed_on: IsoDate; valid_from: IsoDate; valid_until: IsoDate; feedstock: Feedstock; price_per_kg: string;
  technical_assistance: boolean; family_farmer_id: string | null; organization_id: string | null; first_covered_on: IsoDate | null;
}
