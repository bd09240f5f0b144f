import { Decimal } from '../decimal';
import type { FigureDifference } from '../tax-period';
import type { MonthNet } from './balances';
import type { Balance, ClaimFacts } from './types';

/**
 * What a closed month filed of its balances (the net of M200/M600 and 1100/1500): kept at its
 * close, shown while it stays closed (docs/LAW.md, "Closing a month").
 */
export interface FiledBalances {
  net: MonthNet;
  /** The balances carried into the month (1100/1500 of earlier origins), and those after it. */
  before: Balance[];
  balances: Balance[];
  /** The claims up to the month, as they came off. */
  claims: ClaimFacts[];
}

const NET_FIELDS = [
  'pisDebit', 'cofinsDebit', 'pisCreditsOfMonthDeducted', 'cofinsCreditsOfMonthDeducted', 'pisEarlierDeducted', 'cofinsEarlierDeducted', 'pisDue', 'cofinsDue',
  'cbsDue', 'cbsCredits', 'cbsCreditsDeducted', 'cbsCreditBalance', 'cbsOffset', 'cbsNetDue', 'pisRefundable', 'cofinsRefundable',
] as const;
const BALANCE_FIELDS = ['original', 'deducted', 'claimed', 'offsetAgainstCbs', 'reversed', 'remaining', 'refundableFrom'] as const;

const text = (v: Decimal | string | null | undefined): string | null => (v === null || v === undefined ? null : v instanceof Decimal ? v.toFixed(2) : v);
const balanceKey = (b: Balance) => `${b.tax}.${b.originYear}-${String(b.originMonth).padStart(2, '0')}.${b.group}.${b.codCred}`;

/**
 * Every figure of the net and of each balance (`balances.COFINS.2025-12.EXPORT.301.remaining`) that
 * the fold as recorded now gives otherwise than what the closed month filed; a balance on one side
 * only is compared with nulls.
 */
export function balanceDifferences(filed: { net: MonthNet; balances: Balance[] }, net: MonthNet, balances: readonly Balance[]): FigureDifference[] {
  const out: FigureDifference[] = [];
  const cmp = (field: string, a: Decimal | string | null | undefined, b: Decimal | string | null | undefined) => {
    const same = a instanceof Decimal && b instanceof Decimal ? a.eq(b) : text(a) === text(b);
    if (!same) out.push({ field, closed: text(a), recomputed: text(b) });
  };
  for (const f of NET_FIELDS) cmp(`net.${f}`, filed.net[f], net[f]);
  const closed = new Map(filed.balances.map((b) => [balanceKey(b), b]));
  const now = new Map(balances.map((b) => [balanceKey(b), b]));
  for (const key of new Set([...closed.keys(), ...now.keys()])) {
    for (const f of BALANCE_FIELDS) cmp(`balances.${key}.${f}`, closed.get(key)?.[f] ?? null, now.get(key)?.[f] ?? null);
  }
  return out;
}
