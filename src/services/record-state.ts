import { RecordState } from '../law/types';

/**
 * The condition every computation puts on a purchase, sale, import or fomento row (`alias`): only
 * ACTIVE records count; a cancelled NF-e's records are kept and listed but counted nowhere.
 */
export function activeSql(alias?: string): string {
  return `${alias ? `${alias}.` : ''}state = '${RecordState.ACTIVE}'`;
}

/**
 * The Selo year's sales: the active sales and, dated on its day, each active return of one as a
 * negative sale (migration RecordReturn; docs/LAW.md, "Returns"). Read with constant bounds only,
 * which PostgreSQL pushes into both legs; the tax month writes its legs out with their own bounds.
 */
export const COUNTED_SALE = 'counted_sale';

/**
 * The Selo year's acquisitions: the active purchases by purchased_on and each active return of one
 * as a negative lot by counted_on, judged as its original (migration CountedPurchase; docs/LAW.md,
 * "Returns"). Same reading rules as COUNTED_SALE.
 */
export const COUNTED_PURCHASE = 'counted_purchase';
