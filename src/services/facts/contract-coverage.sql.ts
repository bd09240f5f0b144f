import { activeSql } from '../record-state';

// Contract coverage in SQL (Decreto 10.527/2020 art. 3º §2º II), the one home for the Selo year,
// Purchase.selo and Contract.conformity; pure twins in src/law/contract-conformity.ts (parity test).

/** Whether contract `c` covers purchase `p` (SQL aliases), and whether it was signed on or before the purchase. */
export function coverageSql(c: string, p: string): { prior: string; date: string; feedstock: string; counterparty: string; all: string } {
  const date = `${p}.purchased_on BETWEEN ${c}.valid_from AND ${c}.valid_until`;
  const feedstock = `${c}.feedstock = ${p}.feedstock`;
  const counterparty = `${c}.producer_id = ${p}.producer_id AND ${c}.family_farmer_id IS NOT DISTINCT FROM ${p}.family_farmer_id
           AND ${c}.organization_id IS NOT DISTINCT FROM ${p}.organization_id`;
  return { prior: `${c}.signed_on <= ${p}.purchased_on`, date, feedstock, counterparty, all: `${date} AND ${feedstock} AND ${counterparty}` };
}

/**
 * The first purchase `c` covers within [from, until] (NULL: none), as the first row in date order
 * so the (contract_id, purchased_on) index stops at it (docs/PERFORMANCE.md).
 */
export function firstCoveredSql(c: string, window: { from?: string; until?: string } = {}): string {
  const bounds = [window.from && `p.purchased_on >= ${window.from}`, window.until && `p.purchased_on <= ${window.until}`].filter(Boolean);
  return `(SELECT p.purchased_on FROM purchase p WHERE p.contract_id = ${c}.id AND ${activeSql('p')} AND ${coverageSql(c, 'p').all}${bounds.map((b) => ` AND ${b}`).join('')}
            ORDER BY p.purchased_on LIMIT 1)`;
}
