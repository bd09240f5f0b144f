import { ApportionmentMethod, Balance, ClaimFacts, ClaimKind, Contribution, CreditKind, CreditLine, EfdAcquisition, GROUP_ORDER, MonthNet, RevenueGroup } from '../law/credits';
import { AcquisitionRow, ACQUISITION_CST, lineKey, Uncovered } from './efd-acquisitions';
import { Decimal, sum, toCentavos, ZERO } from '../law/decimal';
import { lastDayOfMonth } from '../law/dates';
import { spedDate, spedNumber } from './efd-text';
import { groupBy } from '../services/group-by';

/** The month's credits as the EFD-Contribuições writes them (M100/M105, M500/M505, M200/M600 fields 03–04, 1100/1500). */
export interface EfdCredits {
  year: number;
  month: number;
  /** The month's credits by group and COD_CRED (the closed month's snapshot). */
  lines: CreditLine[];
  net: MonthNet;
  /** The balances after the month before, and after this month. */
  before: Balance[];
  after: Balance[];
  /** Every claim filed up to the month's end. */
  claims: ClaimFacts[];
  /** The year's method of apportioning common credits (0110 field 03), null when none is elected. */
  method: ApportionmentMethod | null;
  /** True when the month's revenue spans groups and no method is elected: its common credits are in no line yet (no file is written). */
  awaitingElection?: boolean;
  /** The month's gross revenue by group (0111). */
  revenue: Record<RevenueGroup, Decimal>;
  /** The purchases behind the credits (C190/C191/C195). */
  acquisitions?: EfdAcquisition[];
}

/** 0110 IND_APRO_CRED: `2` under the revenue ratio, with the month's revenues in 0111 (Lei 10.637/2002, art. 3º § 8º II); `1` otherwise. */
export function apportionment(put: Put, c: EfdCredits | null): void {
  if (c?.method !== ApportionmentMethod.REVENUE_RATIO) return;
  const r = c.revenue;
  const total = r.TAXED_DOMESTIC.plus(r.UNTAXED_DOMESTIC).plus(r.EXPORT);
  put('0111', n(r.TAXED_DOMESTIC, 2), n(r.UNTAXED_DOMESTIC, 2), n(r.EXPORT, 2), n(ZERO, 2), n(total, 2));
}

type Field = string | number | null;
type Put = (...fields: Field[]) => void;
const n = spedNumber;

/** CST of the credit (table 4.3.3): 50–52 basic and import credits, 60–62 presumed, by the group served; a ratio split is written per group, not as CST 53–56 (Interpretation, docs/LAW.md). */
const cstOf = (l: CreditLine) => (l.kind === CreditKind.PRESUMED ? String(Number(ACQUISITION_CST[l.group]) + 10) : ACQUISITION_CST[l.group]);
/** NAT_BC_CRED (table 4.3.7) of the art. 31 credit: 13, other operations with a right to credit (Interpretation, docs/LAW.md). */
const PRESUMED_NATURE = '13';

/**
 * M100/M105 or M500/M505: one M100 per COD_CRED and rate with its M105 base, the month's deduction
 * (field 14) and balance (field 15); a purchase return not netted at C level is the reduction of
 * field 10 with an M110/M510 of COD_AJ 06 (Guia, M110; table 4.3.8).
 */
export function creditRecords(put: Put, tax: Contribution, c: EfdCredits, uncovered: ReadonlyMap<string, Uncovered> = new Map(), rows: readonly AcquisitionRow[] = []): void {
  const [reg, detail, adjust] = tax === Contribution.PIS ? ['M100', 'M105', 'M110'] : ['M500', 'M505', 'M510'];
  const own = (b: Balance) => b.tax === tax && b.originYear === c.year && b.originMonth === c.month;
  // What each COD_CRED of the month had deducted and reversed, handed out to its lines in order.
  const deductedLeft = new Map(c.after.filter(own).map((b) => [b.codCred, b.deducted]));
  const reversedLeft = new Map(c.after.filter(own).map((b) => [b.codCred, b.reversed]));
  const take = (left: Map<string, Decimal>, code: string, most: Decimal) => {
    const used = Decimal.min(most, left.get(code) ?? ZERO);
    left.set(code, (left.get(code) ?? ZERO).minus(used));
    return used;
  };
  const end = spedDate(lastDayOfMonth(c.year, c.month));
  // Lines that differ only in the other contribution's rate (a purchase whose PIS/Pasep and Cofins CSTs differ) are one
  // M100/M500 of this one: its key is the COD_CRED and the rate.
  const rateOf = (l: CreditLine) => (tax === Contribution.PIS ? l.pisRate : l.cofinsRate);
  const groups = groupBy(c.lines, (l) => `${l.codCred}|${rateOf(l)?.toFixed() ?? ''}`);
  for (const lines of groups.values()) {
    const l = lines[0];
    const keys = new Set(lines.map((x) => lineKey(x.codCred, x.pisRate, x.cofinsRate)));
    const net = sum(lines.map((x) => (tax === Contribution.PIS ? x.pis : x.cofins)));
    // Returns the C level could not net: the line's base and credit are its acquisitions', the returns a reduction (Guia, C190 "II").
    const us = [...keys].map((k) => uncovered.get(k) ?? { base: ZERO, pis: ZERO, cofins: ZERO, resale: ZERO });
    const u = { base: sum(us.map((x) => x.base)), pis: sum(us.map((x) => x.pis)), cofins: sum(us.map((x) => x.cofins)), resale: sum(us.map((x) => x.resale)) };
    const rate = rateOf(l);
    const base = sum(lines.map((x) => x.base)).plus(u.base);
    // VL_CRED is its base × rate, rounded once (Guia, M100 field 08; the line's own rule, monthCredits); the returns the
    // C level could not net are what separates it from the line's net credit. Imports: the contributions paid.
    const credit = rate ? toCentavos(base.times(rate)) : net.plus(tax === Contribution.PIS ? u.pis : u.cofins);
    const returned = credit.minus(net);
    // A line with nothing acquired is no credit of its own: its reversal reduces another line (below) or a balance (1100/1500 field 17).
    if (credit.lte(0)) continue;
    const reduced = net.gt(0) ? take(reversedLeft, l.codCred, net) : ZERO;
    const cut = Decimal.min(credit, returned).plus(reduced);
    const available = credit.minus(cut);
    const used = take(deductedLeft, l.codCred, available);
    put(reg, l.codCred, '0', n(base, 2), rate ? n(rate.times(100), 4) : null, null, null, n(credit, 2), n(ZERO, 2), n(cut, 2), n(ZERO, 2), n(available, 2),
      used.eq(available) ? '0' : '1', n(used, 2), n(available.minus(used), 2));
    // One M105/M505 per NAT_BC_CRED (table 4.3.7): 01 goods bought for resale (B100 for resale, CFOP x102), 02 inputs — the
    // bases of the line's C191/C195 rows of each nature, with the returns the C level could not net.
    const resale = l.kind === CreditKind.PRESUMED ? ZERO : sum(rows.filter((r) => keys.has(r.line) && r.nature === '01').map((r) => r.base)).plus(u.resale);
    const natures: Array<[string, Decimal]> = l.kind === CreditKind.PRESUMED ? [[PRESUMED_NATURE, base]]
      : [['01', resale] as [string, Decimal], ['02', base.minus(resale)] as [string, Decimal]].filter(([, b], i) => b.gt(0) || (i === 1 && resale.isZero()));
    for (const [nature, b] of natures) put(detail, nature, cstOf(l), n(b, 2), null, n(b, 2), n(b, 2), null, null, null);
    if (cut.gt(0)) put(adjust, '0', n(cut, 2), '06', null, 'Estorno: devolucao de compras com credito (Lei 10.637/2002 e Lei 10.833/2003, art. 3)', end);
  }
}

/** M200/M600 fields 03 and 04: the month's credits deducted, and earlier balances deducted (1100/1500 field 13). */
export function deductions(tax: Contribution, c: EfdCredits): { ofMonth: Decimal; earlier: Decimal } {
  return tax === Contribution.PIS
    ? { ofMonth: c.net.pisCreditsOfMonthDeducted, earlier: c.net.pisEarlierDeducted }
    : { ofMonth: c.net.cofinsCreditsOfMonthDeducted, earlier: c.net.cofinsEarlierDeducted };
}

/**
 * 1100 (PIS/Pasep) or 1500 (Cofins): one record per month of origin and COD_CRED with a balance to
 * use in the month — earlier months with a balance at its start, and the month's own credit left
 * (Guia, 1100: the key PER_APU_CRED, ORIG_CRED, CNPJ_SUC, COD_CRED).
 */
export function balanceRecords(put: Put, tax: Contribution, c: EfdCredits): number {
  const reg = tax === Contribution.PIS ? '1100' : '1500';
  const key = (b: { originYear: number; originMonth: number; codCred: string }) => `${b.originYear}-${b.originMonth}-${b.codCred}`;
  const before = new Map(c.before.filter((b) => b.tax === tax).map((b) => [key(b), b]));
  const monthStart = `${c.year}-${String(c.month).padStart(2, '0')}-01`;
  const claimed = (b: Balance, kind: ClaimKind, inMonth: boolean) => sum(c.claims
    .filter((x) => x.tax === tax && key(x) === key(b) && x.kind === kind && (x.filedOn >= monthStart) === inMonth).map((x) => x.amount));
  let written = 0;
  const rows = c.after.filter((b) => b.tax === tax).sort((a, b) => a.originYear - b.originYear || a.originMonth - b.originMonth || a.codCred.localeCompare(b.codCred)
    || GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group));
  for (const b of rows) {
    const earlier = before.get(key(b));
    const isOwn = b.originYear === c.year && b.originMonth === c.month;
    if (isOwn ? b.remaining.isZero() : !earlier || earlier.remaining.isZero()) continue;
    // A reversal of an earlier balance in this month is field 17 (VL_CRED_OUT, "other forms"). One of an earlier month is no
    // deduction (field 09) and fields 10–11 are claims; the Guia has no field for other uses before the period, so the credit
    // enters net of them (field 06), as the month's own credit enters net of its M100 reduction (Interpretation, docs/LAW.md).
    const deductedBefore = earlier?.deducted ?? ZERO;
    const reversedBefore = earlier?.reversed ?? ZERO;
    const reversedNow = isOwn ? ZERO : b.reversed.minus(reversedBefore);
    const [perBefore, dcompBefore] = [claimed(b, ClaimKind.REFUND, false), claimed(b, ClaimKind.OFFSET, false)];
    const available = b.original.minus(isOwn ? b.reversed : reversedBefore).minus(deductedBefore).minus(perBefore).minus(dcompBefore);
    const [per, dcomp] = [claimed(b, ClaimKind.REFUND, true), claimed(b, ClaimKind.OFFSET, true)];
    const deducted = b.deducted.minus(earlier?.deducted ?? ZERO);
    // The month's own credit enters net of what its M100 reduced (field 06 = VL_CRED_DISP); an earlier one net of its reversals before.
    const credited = b.original.minus(isOwn ? b.reversed : reversedBefore);
    // Field 13 (VL_CRED_DESC_EFD) is what M200/M600 field 04 sums: earlier periods' credit deducted now. The own period's
    // deduction is M200/M600 field 03 (its M100 field 14), so its line carries it in field 09 and leaves 13 at zero (Guia, 1100).
    const [desc09, desc13] = isOwn ? [deducted, ZERO] : [deductedBefore, deducted];
    const left = isOwn ? credited.minus(deducted).minus(perBefore).minus(dcompBefore) : available;
    put(reg, `${String(b.originMonth).padStart(2, '0')}${b.originYear}`, '01', null, b.codCred, n(credited, 2), null, n(credited, 2), n(desc09, 2),
      n(perBefore, 2), n(dcompBefore, 2), n(left, 2), n(desc13, 2), n(per, 2), n(dcomp, 2), n(ZERO, 2), n(reversedNow, 2),
      n(left.minus(desc13).minus(per).minus(dcomp).minus(reversedNow), 2));
    written++;
  }
  return written;
}
