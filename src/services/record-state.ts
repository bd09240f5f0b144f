import { RecordState } from '../law/types';

/**
 * The condition every computation puts on a purchase, sale, import or fomento row (`alias`): only
 * ACTIVE records count; a cancelled NF-e's records are kept and listed but counted nowhere.
 */
export function activeSql(alias?: string): string {
  return `${alias ? `${alias}.` : ''}state = '${RecordState.ACTIVE}'`;
}
