import { addDays, IsoDate, lastDayOfMonth } from '../dates';
import { Decimal, sum, ZERO } from '../decimal';
import { Balance, ClaimFacts, ClaimKind, Contribution, CreditLine, CreditReversal, GROUP_ORDER } from './types';

/** Guia Prático, register 1100, fields 10 and 14. */
export const REFUNDABLE_CODES = new Set(['201', '202', '203', '204', '208', '301', '302', '303', '304', '307', '308']);
/**
 * Export credits an offset (DCOMP) may use within their quarter: Lei 10.637/2002, art. 5º § 1º II
 * (offset) sets no wait, § 2º only the cash refund's; Guia, register 1100 (the "intermediate" DCOMP).
 */
export const OFFSET_IN_QUARTER_CODES = new Set(['301', '302', '303', '304', '308']);

export interface NetMonthInput {
  year: number;
  month: number;
  pisDebit: Decimal | null;
  cofinsDebit: Decimal | null;
  lines: CreditLine[];
  cbsDue: Decimal | null;
  cbsLevied: boolean;
  /** The month's CBS credits (LC 214/2025, arts. 47 and 168), reversals netted; none when absent. */
  cbsCredits?: Decimal;
  claims: ClaimFacts[];
  /** Returns of purchases of earlier months: the credit reversed, by the balance that holds it. */
  reversals?: CreditReversal[];
  /** False under the cumulative regime. */
  deducts?: boolean;
}

/** Lei 10.637/2002, art. 3º § 4º; Lei 11.116/2005, art. 16; LC 214/2025, art. 378. */
export interface MonthNet {
  year: number;
  month: number;
  pisDebit: Decimal;
  cofinsDebit: Decimal;
  /** M200/M600 VL_TOT_CRED_DESC. */
  pisCreditsOfMonthDeducted: Decimal;
  cofinsCreditsOfMonthDeducted: Decimal;
  /** VL_TOT_CRED_DESC_ANT. */
  pisEarlierDeducted: Decimal;
  cofinsEarlierDeducted: Decimal;
  pisDue: Decimal;
  cofinsDue: Decimal;
  /** From 2027; null while the rate is not published. */
  cbsDue: Decimal | null;
  /** From 2027 (null before): the month's CBS credits, those of earlier months used, and what is carried after the month. */
  cbsCredits: Decimal | null;
  cbsCreditsDeducted: Decimal | null;
  cbsCreditBalance: Decimal | null;
  cbsOffset: Decimal | null;
  cbsNetDue: Decimal | null;
  /** Lei 11.116/2005, art. 16. */
  pisRefundable: Decimal;
  cofinsRefundable: Decimal;
}

/** The day after its quarter (Lei 11.116/2005, art. 16; Lei 10.637/2002, art. 5º § 2º). */
export function refundableFrom(year: number, month: number, codCred: string): IsoDate | null {
  if (!REFUNDABLE_CODES.has(codCred)) return null;
  const quarterEnd = Math.ceil(month / 3) * 3;
  return addDays(lastDayOfMonth(year, quarterEnd), 1);
}

/** Group 100 first, as it can only be deducted; oldest first (Interpretation, docs/LAW.md). */
function byUseOrder(a: Balance, b: Balance): number {
  return GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group) || a.originYear - b.originYear || a.originMonth - b.originMonth || a.codCred.localeCompare(b.codCred);
}

export type ClaimReason = 'NO_BALANCE' | 'NOT_REFUNDABLE' | 'BEFORE_QUARTER_END' | 'EXCEEDS_BALANCE';

export class ClaimError extends Error {
  constructor(readonly claim: ClaimFacts, readonly reason: ClaimReason, readonly available: Decimal) {
    super(`claim ${claim.id}: ${reason}`);
  }
}

/**
 * A recorded claim the balances no longer support (a record written after it took part of its
 * balance): the fold goes on, the claim taking what is left of its balance (`applied`), and the
 * month says so. `excess` is what the balance lacks (the whole claim when nothing was taken).
 */
export interface ClaimIssue {
  year: number;
  month: number;
  claim: ClaimFacts;
  reason: ClaimReason;
  available: Decimal;
  applied: Decimal;
  excess: Decimal;
}

/** How the fold stands after a month: its balances as they are then, how many of the claims and issues are of it and before. */
export interface FoldState {
  balances: readonly Balance[];
  claims: number;
  issues: number;
}

/**
 * Lei 10.637/2002, art. 3º § 4º (no time limit); from 2027 LC 214/2025, arts. 47 and 378 III.
 * `after`: told each month's state as the month ends (the balances are changed by the months after: copy them to keep them).
 */
export function foldNet(months: NetMonthInput[], after?: (index: number, state: FoldState) => void): { nets: MonthNet[]; balances: Balance[]; claims: ClaimFacts[]; issues: ClaimIssue[] } {
  const balances: Balance[] = [];
  const nets: MonthNet[] = [];
  const applied: ClaimFacts[] = [];
  const issues: ClaimIssue[] = [];
  let cbsCarried = ZERO;
  for (const m of months) {
    const own = (b: Balance) => b.originYear === m.year && b.originMonth === m.month;
    // Rule of the month (Lei 10.637/2002, art. 3º § 4º; docs/LAW.md): a claim filed during the month
    // uses the balance carried into it, before the month's credits, reversals and debit.
    for (const c of m.claims) {
      const issue = tryClaim(balances, c);
      applied.push({ ...c, amount: issue ? issue.applied : c.amount });
      if (issue) issues.push({ year: m.year, month: m.month, claim: c, ...issue });
    }
    for (const line of m.lines) {
      for (const tax of [Contribution.PIS, Contribution.COFINS]) {
        const amount = tax === Contribution.PIS ? line.pis : line.cofins;
        // A reversed credit (a return of a purchase) is no balance: it is paid from the balances or added to the debit below.
        if (amount.lte(0)) continue;
        const found = balances.find((b) => b.tax === tax && own(b) && b.codCred === line.codCred);
        if (found) {
          found.original = found.original.plus(amount);
          found.remaining = found.remaining.plus(amount);
        } else {
          balances.push({
            tax, originYear: m.year, originMonth: m.month, group: line.group, codCred: line.codCred, original: amount, deducted: ZERO, claimed: ZERO,
            offsetAgainstCbs: ZERO, reversed: ZERO, remaining: amount, refundableFrom: refundableFrom(m.year, m.month, line.codCred),
          });
        }
      }
    }
    const deduct = (tax: Contribution, debit: Decimal | null) => {
      let left = debit ?? ZERO;
      let ownUsed = ZERO;
      let earlierUsed = ZERO;
      for (const b of balances.filter((x) => x.tax === tax && x.remaining.gt(0)).sort(byUseOrder)) {
        if (left.lte(0)) break;
        const used = Decimal.min(left, b.remaining);
        b.deducted = b.deducted.plus(used);
        b.remaining = b.remaining.minus(used);
        left = left.minus(used);
        if (own(b)) ownUsed = ownUsed.plus(used);
        else earlierUsed = earlierUsed.plus(used);
      }
      return { ownUsed, earlierUsed, due: left };
    };
    // A return of an earlier month's purchase reduces the balance that holds the credit it gave (rule 17's key:
    // month of origin and COD_CRED; docs/LAW.md, "Returns"), as far as that balance is left.
    const fromOrigin = (tax: Contribution) => (m.reversals ?? []).map((r) => {
      let left = (tax === Contribution.PIS ? r.pis : r.cofins).negated();
      const b = balances.find((x) => x.tax === tax && x.originYear === r.originYear && x.originMonth === r.originMonth && x.codCred === r.codCred);
      if (b && left.gt(0)) {
        const used = Decimal.min(left, b.remaining);
        b.reversed = b.reversed.plus(used);
        b.remaining = b.remaining.minus(used);
        left = left.minus(used);
      }
      return { codCred: r.codCred, left };
    }).filter((r) => r.left.gt(0));
    // Guia, M110: the month's credit first, then the balances; the rest adds to the debit.
    const reverse = (tax: Contribution) => {
      const lines = m.lines.filter((l) => (tax === Contribution.PIS ? l.pis : l.cofins).lt(0));
      const beyond = fromOrigin(tax);
      let left = sum(lines.map((l) => (tax === Contribution.PIS ? l.pis : l.cofins))).negated().plus(sum(beyond.map((r) => r.left)));
      const codes = new Set([...lines.map((l) => l.codCred), ...beyond.map((r) => r.codCred)]);
      const first = (b: Balance) => (own(b) && codes.has(b.codCred) ? 0 : 1);
      for (const b of balances.filter((x) => x.tax === tax && x.remaining.gt(0)).sort((a, b) => first(a) - first(b) || byUseOrder(a, b))) {
        if (left.lte(0)) break;
        const used = Decimal.min(left, b.remaining);
        b.reversed = b.reversed.plus(used);
        b.remaining = b.remaining.minus(used);
        left = left.minus(used);
      }
      return left;
    };
    const unreversed = { [Contribution.PIS]: reverse(Contribution.PIS), [Contribution.COFINS]: reverse(Contribution.COFINS) };
    const owed = (tax: Contribution, debit: Decimal | null) => {
      const total = (debit ?? ZERO).plus(unreversed[tax]);
      return m.deducts === false ? { ownUsed: ZERO, earlierUsed: ZERO, due: total } : deduct(tax, total);
    };
    const pis = owed(Contribution.PIS, m.pisDebit);
    const cofins = owed(Contribution.COFINS, m.cofinsDebit);

    let cbsOffset: Decimal | null = null;
    let cbsCreditsDeducted: Decimal | null = null;
    const cbsAvailable = m.cbsLevied ? cbsCarried.plus(m.cbsCredits ?? ZERO) : ZERO;
    if (m.cbsLevied) cbsCarried = cbsAvailable;
    if (m.cbsLevied && m.cbsDue !== null) {
      // Interpretation (docs/LAW.md): the CBS credits first (LC 214/2025, art. 47), then the PIS/Cofins
      // balances (art. 378 III); a reversal beyond the credits adds to the CBS payable.
      cbsCreditsDeducted = cbsAvailable.gt(0) ? Decimal.min(m.cbsDue, cbsAvailable) : cbsAvailable;
      cbsCarried = cbsAvailable.minus(cbsCreditsDeducted);
      let left = m.cbsDue.minus(cbsCreditsDeducted);
      cbsOffset = ZERO;
      // LC 214/2025, art. 378 III: every balance, group 100 included; the oldest first, PIS/Pasep before Cofins (Interpretation).
      const taxOrder = (b: Balance) => (b.tax === Contribution.PIS ? 0 : 1);
      const order = balances.filter((b) => b.remaining.gt(0))
        .sort((a, b) => a.originYear - b.originYear || a.originMonth - b.originMonth || taxOrder(a) - taxOrder(b) || byUseOrder(a, b));
      for (const b of order) {
        if (left.lte(0)) break;
        const used = Decimal.min(left, b.remaining);
        b.offsetAgainstCbs = b.offsetAgainstCbs.plus(used);
        b.remaining = b.remaining.minus(used);
        left = left.minus(used);
        cbsOffset = cbsOffset.plus(used);
      }
    }

    const nextDay = addDays(lastDayOfMonth(m.year, m.month), 1);
    const refundable = (tax: Contribution) => sum(balances.filter((b) => b.tax === tax && b.refundableFrom !== null && b.refundableFrom <= nextDay).map((b) => b.remaining));
    nets.push({
      year: m.year, month: m.month, pisDebit: m.pisDebit ?? ZERO, cofinsDebit: m.cofinsDebit ?? ZERO,
      pisCreditsOfMonthDeducted: pis.ownUsed, cofinsCreditsOfMonthDeducted: cofins.ownUsed, pisEarlierDeducted: pis.earlierUsed, cofinsEarlierDeducted: cofins.earlierUsed,
      pisDue: pis.due, cofinsDue: cofins.due,
      cbsDue: m.cbsLevied ? m.cbsDue : null,
      cbsCredits: m.cbsLevied ? m.cbsCredits ?? ZERO : null, cbsCreditsDeducted, cbsCreditBalance: m.cbsLevied ? cbsCarried : null,
      cbsOffset, cbsNetDue: cbsOffset === null || cbsCreditsDeducted === null ? null : m.cbsDue!.minus(cbsCreditsDeducted).minus(cbsOffset),
      pisRefundable: refundable(Contribution.PIS), cofinsRefundable: refundable(Contribution.COFINS),
    });
    after?.(nets.length - 1, { balances, claims: applied.length, issues: issues.length });
  }
  return { nets, balances, claims: applied, issues };
}

/** Why a claim cannot stand on the balances as they are, or null. Lei 11.116/2005, art. 16; LC 214/2025, art. 378 IV. */
export function claimProblem(balances: Balance[], c: ClaimFacts): { reason: ClaimReason; available: Decimal } | null {
  const b = balances.find((x) => x.tax === c.tax && x.originYear === c.originYear && x.originMonth === c.originMonth && x.codCred === c.codCred);
  const available = b?.remaining ?? ZERO;
  // What the claim itself says first (its code, its day), then the balance.
  const from = refundableFrom(c.originYear, c.originMonth, c.codCred);
  if (!from) return { reason: 'NOT_REFUNDABLE', available };
  const waits = c.kind === ClaimKind.REFUND || !OFFSET_IN_QUARTER_CODES.has(c.codCred);
  if (waits && c.filedOn < from) return { reason: 'BEFORE_QUARTER_END', available };
  if (!b) return { reason: 'NO_BALANCE', available };
  if (c.amount.gt(b.remaining)) return { reason: 'EXCEEDS_BALANCE', available };
  return null;
}

/** Lei 11.116/2005, art. 16; LC 214/2025, art. 378 IV: a claim that cannot stand throws (the fold itself uses tryClaim). */
export function applyClaim(balances: Balance[], c: ClaimFacts): void {
  const problem = claimProblem(balances, c);
  if (problem) throw new ClaimError(c, problem.reason, problem.available);
  consume(balances, c, c.amount);
}

function consume(balances: Balance[], c: ClaimFacts, amount: Decimal): void {
  const b = balances.find((x) => x.tax === c.tax && x.originYear === c.originYear && x.originMonth === c.originMonth && x.codCred === c.codCred)!;
  b.claimed = b.claimed.plus(amount);
  b.remaining = b.remaining.minus(amount);
}

/**
 * A recorded claim in the fold never throws. Interpretation (docs/LAW.md): one that exceeds its
 * balance takes what is left of it; one the balances do not admit at all takes nothing.
 */
function tryClaim(balances: Balance[], c: ClaimFacts): Omit<ClaimIssue, 'year' | 'month' | 'claim'> | null {
  const problem = claimProblem(balances, c);
  if (!problem) {
    consume(balances, c, c.amount);
    return null;
  }
  const applied = problem.reason === 'EXCEEDS_BALANCE' ? problem.available : ZERO;
  if (applied.gt(0)) consume(balances, c, applied);
  return { ...problem, applied, excess: c.amount.minus(applied) };
}

export function monthsBetween(from: { year: number; month: number }, to: { year: number; month: number }): Array<{ year: number; month: number }> {
  const out: Array<{ year: number; month: number }> = [];
  for (let y = from.year, m = from.month; y < to.year || (y === to.year && m <= to.month); m === 12 ? (y++, (m = 1)) : m++) out.push({ year: y, month: m });
  return out;
}
