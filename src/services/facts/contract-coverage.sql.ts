import { activeSql } from '../record-state';

/**
 * A contract covering a purchase, and the first purchase a contract covers, in SQL (Decreto
 * 10.527/2020, art. 3º §2 II): the one home of the facts for the Selo's year, Purchase.selo and
 * Contract.conformity. Pure twins: `coverage`, `signedBefore` and `firstCoveredPurchaseOn` of
 * src/law/contract-conformity.ts; test/e2e/facts-parity.test.ts checks that they agree.
 */

/** Whether contract `c` covers purchase `p` (SQL aliases), and whether it was signed on or before the purchase. */
export function coverageSql(c: string, p: string): { prior: string; date: string; feedstock: string; counterparty: string; all: string } {
  const date = `${p}.purchased_on BETWEEN ${c}.valid_from AND ${c}.valid_until`;
  const feedstock = `${c}.feedstock = ${p}.feedstock`;
  const counterparty = `${c}.producer_id = ${p}.producer_id AND ${c}.family_farmer_id IS NOT DISTINCT FROM ${p}.family_farmer_id
           AND ${c}.organization_id IS NOT DISTINCT FROM ${p}.organization_id`;
  return { prior: `${c}.signed_on <= ${p}.purchased_on`, date, feedstock, counterparty, all: `${date} AND ${feedstock} AND ${counterparty}` };
}

/**
 * The day of the first purchase recorded under contract `c` that it covers (NULL: none), among
 * those bought on or after `from` and on or before `until` (SQL expressions; either may be omitted).
 * Written as the first row in date order, not `min`, so that the index `purchase_contract`
 * (contract_id, purchased_on) finds it in one probe per contract: the contract's dates bound the
 * scan and it stops at the first purchase covered (docs/PERFORMANCE.md).
 */
export function firstCoveredSql(c: string, window: { from?: string; until?: string } = {}): string {
  const bounds = [window.from && `p.purchased_on >= ${window.from}`, window.until && `p.purchased_on <= ${window.until}`].filter(Boolean);
  return `(SELECT p.purchased_on FROM purchase p WHERE p.contract_id = ${c}.id AND ${activeSql('p')} AND ${coverageSql(c, 'p').all}${bounds.map((b) => ` AND ${b}`).join('')}
            ORDER BY p.purchased_on LIMIT 1)`;
}
