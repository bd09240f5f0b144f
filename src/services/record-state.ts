import { RecordState } from '../law/types';

/**
 * The condition every computation puts on a purchase, sale, import or fomento row (`alias`): only
 * ACTIVE records count; a cancelled NF-e's records are kept and listed but counted nowhere.
 */
export function activeSql(alias?: string): string {
  return `${alias ? `${alias}.` : ''}state = '${RecordState.ACTIVE}'`;
}

/**
 * The relations the tax month and the Selo year read sales and raw material from: the active
 * records and, dated on their day, each active return as a negative record of its original
 * (migration RecordReturn; docs/LAW.md, "Returns").
 */
export const COUNTED_SALE = 'counted_sale';
export const COUNTED_PURCHASE = 'counted_purchase';
