import { IsoDate } from '../dates';
import { Decimal, sum, toCentavos, ZERO } from '../decimal';
import { LawBook } from '../law-book';
import {
  ApportionmentMethod, CreditKind, CreditLine, CreditPart, CreditReversal, CreditStatus, GROUP_DIGIT, GROUP_ORDER, KIND_DIGITS, PurchaseCredit, RevenueGroup,
} from './types';

/** Biodiesel revenue of a run of days in one group: the base of the art. 31 credit and of the revenue ratio. */
export interface RevenuePart {
  on: IsoDate;
  group: RevenueGroup;
  revenue: Decimal;
}

/** The Lei 12.865/2013 art. 31 credit of a run of revenue, or what it awaits. */
export interface PresumedCreditPart {
  on: IsoDate;
  group: RevenueGroup;
  revenue: Decimal;
  status: CreditStatus;
  /** The share of the art. 2º rates (§ 2º), null while not published. */
  share: Decimal | null;
  pis: Decimal | null;
  cofins: Decimal | null;
  legalBasis: string;
}

export interface MonthCreditsInput {
  purchases: PurchaseCredit[];
  revenue: RevenuePart[];
  /** The method elected for the calendar year, null when none is on record. */
  method: ApportionmentMethod | null;
  law: LawBook;
  asKnownOn: IsoDate;
}

export interface MonthCredits {
  lines: CreditLine[];
  /** The purchases' credits by group, as the lines add them up (absent in months closed before it was kept). */
  parts?: CreditPart[];
  /** Returns of purchases of earlier months, reversing the balances of their origin (absent in months closed before it was kept). */
  reversals?: CreditReversal[];
  presumed: PresumedCreditPart[];
  /** Credits not in `lines`: the amounts awaiting a fact, a parameter or the election (why, in `awaiting`). */
  awaiting: string[];
  /** True when the common credits wait for the year's apportionment election. */
  awaitingElection: boolean;
}

const PRESUMED_BASIS = 'Lei 12.865/2013, art. 31 caput, §§ 1º–2º';

/**
 * Lei 12.865/2013, art. 31: p × 1,65% and p × 7,6% of biodiesel revenue, domestic or export, even
 * when the debit is R$ 0,00 (§ 1º). The share p has no default: a part dated before it is
 * published awaits it.
 */
export function presumedCredit(part: RevenuePart, law: LawBook, asKnownOn: IsoDate): PresumedCreditPart {
  const share = law.presumedCreditShare(part.on, asKnownOn);
  const rates = law.creditBasicRates(part.on, asKnownOn);
  if (!share || !rates) return { ...part, status: CreditStatus.NO_CREDIT, share: null, pis: null, cofins: null, legalBasis: PRESUMED_BASIS };
  if (share.value === null) return { ...part, status: CreditStatus.AWAITING_PARAMETER, share: null, pis: null, cofins: null, legalBasis: share.legalBasis };
  return {
    ...part, status: CreditStatus.CREDIT, share: share.value,
    pis: toCentavos(part.revenue.times(share.value).times(rates.value.pis)),
    cofins: toCentavos(part.revenue.times(share.value).times(rates.value.cofins)),
    legalBasis: `${share.legalBasis}; rates: ${rates.legalBasis}`,
  };
}

/**
 * Lei 10.637/2002, art. 3º § 8º I–II and § 9º (table 4.3.6). A month whose revenue is all in one
 * group needs no election.
 */
export function monthCredits(input: MonthCreditsInput): MonthCredits {
  const awaiting: string[] = [];
  const revenueByGroup = new Map<RevenueGroup, Decimal>(GROUP_ORDER.map((g) => [g, sum(input.revenue.filter((r) => r.group === g).map((r) => r.revenue))]));
  const total = sum(revenueByGroup.values());
  const groupsWithRevenue = GROUP_ORDER.filter((g) => revenueByGroup.get(g)!.gt(0));
  // Interpretation (docs/LAW.md): with no revenue the credits stay in group 100, deducted only.
  const single = groupsWithRevenue.length === 0 ? RevenueGroup.TAXED_DOMESTIC : groupsWithRevenue.length === 1 ? groupsWithRevenue[0] : null;
  const lines = new Map<string, CreditLine>();
  const parts: CreditPart[] = [];
  const add = (group: RevenueGroup, kind: CreditKind, base: Decimal, pis: Decimal, cofins: Decimal, pisRate: Decimal | null, cofinsRate: Decimal | null, legalBasis: string,
    from?: PurchaseCredit) => {
    const codCred = `${GROUP_DIGIT[group]}${KIND_DIGITS[kind]}`;
    const key = `${codCred}|${pisRate?.toFixed() ?? ''}|${cofinsRate?.toFixed() ?? ''}`;
    const line = lines.get(key) ?? { group, kind, codCred, base: ZERO, pisRate, cofinsRate, pis: ZERO, cofins: ZERO, legalBasis };
    lines.set(key, { ...line, base: line.base.plus(base), pis: line.pis.plus(pis), cofins: line.cofins.plus(cofins) });
    if (from) parts.push({ purchaseId: from.purchaseId, on: from.on ?? null, group, kind, codCred, base, pisRate, cofinsRate, pis, cofins });
  };

  let awaitingElection = false;
  for (const p of input.purchases) {
    if (p.status === CreditStatus.AWAITING_FACT || p.status === CreditStatus.AWAITING_PARAMETER) awaiting.push(`purchase ${p.purchaseId}: ${p.awaiting}`);
    if (p.status !== CreditStatus.CREDIT) continue;
    const [base, pis, cofins] = [p.base ?? ZERO, p.pis!, p.cofins!];
    if (single) {
      add(single, p.kind!, base, pis, cofins, p.pisRate, p.cofinsRate, p.legalBasis, p);
    } else if (input.method === ApportionmentMethod.DIRECT_ALLOCATION) {
      if (p.allocatedTo) add(p.allocatedTo, p.kind!, base, pis, cofins, p.pisRate, p.cofinsRate, `${p.legalBasis}; Lei 10.637/2002, art. 3º § 8º I`, p);
      else awaiting.push(`purchase ${p.purchaseId}: allocatedRevenue`);
    } else if (input.method === ApportionmentMethod.REVENUE_RATIO) {
      // Split by the ratio; the last group with revenue takes the centavos left, so the parts add up to the credit.
      let [pisLeft, cofinsLeft, baseLeft] = [pis, cofins, base];
      groupsWithRevenue.forEach((g, i) => {
        const last = i === groupsWithRevenue.length - 1;
        const ratio = revenueByGroup.get(g)!.div(total);
        // The base to the centavo too, so that each group's C191/C195 add up to its M105/M505.
        const part = last ? [baseLeft, pisLeft, cofinsLeft] : [toCentavos(base.times(ratio)), toCentavos(pis.times(ratio)), toCentavos(cofins.times(ratio))];
        [baseLeft, pisLeft, cofinsLeft] = [baseLeft.minus(part[0]), pisLeft.minus(part[1]), cofinsLeft.minus(part[2])];
        add(g, p.kind!, part[0], part[1], part[2], p.pisRate, p.cofinsRate, `${p.legalBasis}; Lei 10.637/2002, art. 3º § 8º II`, p);
      });
    } else {
      awaitingElection = true;
    }
  }
  if (awaitingElection) awaiting.push('apportionment election (Lei 10.637/2002, art. 3º §§ 8º–9º)');

  // A return of a sale reduces the revenue of its day (docs/LAW.md, "Returns"), also when it falls on a day of its own:
  // its negative part nets in its group's base (Lei 12.865/2013, art. 31: the revenue of the sales).
  const presumed = input.revenue.filter((r) => !r.revenue.isZero()).map((r) => presumedCredit(r, input.law, input.asKnownOn));
  for (const p of presumed) {
    if (p.status === CreditStatus.AWAITING_PARAMETER) awaiting.push(`presumed credit from ${p.on}: presumed-credit-biodiesel`);
    if (p.status !== CreditStatus.CREDIT) continue;
    const rates = input.law.creditBasicRates(p.on, input.asKnownOn)!.value;
    add(p.group, CreditKind.PRESUMED, p.revenue, p.pis!, p.cofins!, p.share!.times(rates.pis), p.share!.times(rates.cofins), p.legalBasis);
  }
  // Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 1º: a line with a rate is its base × rate, rounded once (imports credit the
  // contributions paid). Lines sharing a COD_CRED and a rate (their other rate differs) round together: one M100/M500.
  const onBase = (all: CreditLine[], tax: 'pis' | 'cofins'): void => {
    const rateOf = (l: CreditLine) => (tax === 'pis' ? l.pisRate : l.cofinsRate);
    const shared = new Map<string, CreditLine[]>();
    for (const l of all.filter(rateOf)) {
      const k = `${l.codCred}|${rateOf(l)!.toString()}`;
      shared.set(k, [...(shared.get(k) ?? []), l]);
    }
    for (const group of shared.values()) {
      const whole = toCentavos(sum(group.map((l) => l.base)).times(rateOf(group[0])!));
      group.forEach((l, i) => { l[tax] = i < group.length - 1 ? toCentavos(l.base.times(rateOf(l)!)) : whole.minus(sum(group.slice(0, -1).map((x) => x[tax]))); });
    }
  };
  const ordered = [...lines.values()].sort((a, b) => a.codCred.localeCompare(b.codCred));
  onBase(ordered, 'pis');
  onBase(ordered, 'cofins');
  return { lines: ordered, parts, presumed, awaiting: [...new Set(awaiting)], awaitingElection };
}

/**
 * A return of a purchase of an earlier month reverses the credit that purchase gave, where it gave
 * it: the parts of its month of origin (group and COD_CRED), in the proportion of their bases
 * (Lei 10.637/2002, art. 3º § 4º: balances kept by month of origin and COD_CRED; docs/LAW.md,
 * "Returns"). Each part's credit is its reversed base × rate, rounded once (imports: the
 * contributions in proportion); the last part takes the centavos left. Null when the purchase has
 * no part in its month (no credit there, or a month closed before its parts were kept).
 */
export function originReversals(ret: PurchaseCredit, origin: { year: number; month: number; parts: CreditPart[] }): CreditReversal[] | null {
  const parts = origin.parts.filter((p) => p.purchaseId === ret.purchaseId && p.kind !== CreditKind.PRESUMED && p.base.gt(0));
  const total = sum(parts.map((p) => p.base));
  if (ret.status !== CreditStatus.CREDIT || parts.length === 0 || total.isZero()) return null;
  const [base, pis, cofins] = [ret.base ?? ZERO, ret.pis!, ret.cofins!];
  let [baseLeft, pisLeft, cofinsLeft] = [base, pis, cofins];
  return parts.map((p, i) => {
    const last = i === parts.length - 1;
    const partBase = last ? baseLeft : toCentavos(base.times(p.base).div(total));
    const amount = (rate: Decimal | null, whole: Decimal, left: Decimal) => (last ? left : rate ? toCentavos(partBase.times(rate)) : toCentavos(whole.times(p.base).div(total)));
    const [partPis, partCofins] = [amount(p.pisRate, pis, pisLeft), amount(p.cofinsRate, cofins, cofinsLeft)];
    [baseLeft, pisLeft, cofinsLeft] = [baseLeft.minus(partBase), pisLeft.minus(partPis), cofinsLeft.minus(partCofins)];
    return {
      purchaseId: ret.purchaseId, on: ret.on ?? ret.purchasedOn ?? '', originYear: origin.year, originMonth: origin.month, group: p.group, kind: p.kind, codCred: p.codCred,
      base: partBase, pisRate: p.pisRate, cofinsRate: p.cofinsRate, pis: partPis, cofins: partCofins,
    };
  });
}

/**
 * The month's reversals of one balance (origin month, COD_CRED and rate) as one, its summed base ×
 * rate rounded once (art. 3º § 1º, as the lines), an import's contributions added as they are.
 */
export function mergeReversals(reversals: CreditReversal[]): CreditReversal[] {
  const merged = new Map<string, CreditReversal>();
  for (const r of reversals) {
    const key = `${r.originYear}-${r.originMonth}|${r.codCred}|${r.pisRate?.toFixed() ?? ''}|${r.cofinsRate?.toFixed() ?? ''}`;
    const m = merged.get(key);
    merged.set(key, m ? { ...m, base: m.base.plus(r.base), pis: m.pis.plus(r.pis), cofins: m.cofins.plus(r.cofins), on: r.on > m.on ? r.on : m.on } : { ...r });
  }
  return [...merged.values()].map((r) => ({
    ...r, pis: r.pisRate ? toCentavos(r.base.times(r.pisRate)) : r.pis, cofins: r.cofinsRate ? toCentavos(r.base.times(r.cofinsRate)) : r.cofins,
  }));
}
