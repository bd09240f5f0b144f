import { IsoDate } from './dates';
import { Decimal, sum, toCentavos, ZERO } from './decimal';
import { RateCategory } from './types';

// A special-regime month (Lei 11.116/2005 art. 4º), or an ad valorem one (art. 3º), as EFD-Contribuições records (IN RFB 1.252/2012;
// Guia Prático v1.35; docs/LAW.md "EFD-Contribuições"), from the computed month: nothing recomputed.

/** Contribution code of table 4.3.5: per unit of product, non-cumulative regime. */
export const COD_CONT_PER_UNIT = '03';
/** Decimals of QUANT_BC_PIS/QUANT_BC_COFINS and of ALIQ_PIS_QUANT/ALIQ_COFINS_QUANT. */
export const QUANTITY_PLACES = 3;
export const RATE_PLACES = 4;

/** One segment of the month (src/law/tax-period.ts) as the records need it. */
export interface EfdSegment {
  from: IsoDate;
  to: IsoDate;
  /** Own-production biodiesel sold on the domestic market (m³) and its revenue. */
  ownVolumeM3: Decimal;
  ownRevenue: Decimal;
  /** Imported biodiesel sold on the domestic market (m³), taxed at GENERAL (Decreto 10.527/2020, art. 6º §5º), and its revenue. */
  importedVolumeM3: Decimal;
  importedRevenue: Decimal;
  /** The categories of the segment's blend: their weight (art. 6º §3º) and the amounts in force. */
  mix: Array<{ category: RateCategory; weight: Decimal; pisPerM3: Decimal; cofinsPerM3: Decimal }>;
  /** The GENERAL amounts in force in the segment (art. 5º §1º). */
  general: { pisPerM3: Decimal; cofinsPerM3: Decimal };
  /**
   * Ad valorem (Lei 11.116/2005, art. 3º): the rates on the domestic revenue as fractions (6,15% is 0.0615), as
   * the closed month applied them; absent under the special regime (art. 4º).
   */
  adValorem?: { pis: Decimal; cofins: Decimal } | null;
}

/** One M210 (PIS/Pasep) or M610 (Cofins): a distinct per-m³ rate, its quantity base and contribution. */
export interface EfdRateLine {
  rate: Decimal;
  quantityM3: Decimal;
  /** Gross revenue of the quantity (VL_REC_BRT), to the centavo. */
  revenue: Decimal;
  /** quantityM3 × rate, half-even to the centavo. */
  contribution: Decimal;
  /** The categories (and GENERAL for imported biodiesel) whose volume the line carries, and the segments. */
  categories: RateCategory[];
  segments: Array<{ from: IsoDate; to: IsoDate }>;
}

/**
 * Share `total` (rounded half-even to `places`) among parts proportional to `weights`, each rounded
 * to `places`, so that the parts add up to the rounded total exactly (largest remainder; ties to
 * the earlier part).
 */
export function allocate(total: Decimal, weights: Decimal[], places: number): Decimal[] {
  const unit = new Decimal(1).div(new Decimal(10).pow(places));
  const sumWeights = sum(weights);
  const target = total.toDecimalPlaces(places, Decimal.ROUND_HALF_EVEN);
  if (sumWeights.isZero()) return weights.map(() => ZERO);
  const exact = weights.map((w) => total.times(w).div(sumWeights));
  const floors = exact.map((e) => e.toDecimalPlaces(places, Decimal.ROUND_FLOOR));
  let left = target.minus(sum(floors)).div(unit).round().toNumber();
  const order = exact.map((e, i) => ({ i, rest: e.minus(floors[i]) })).sort((a, b) => b.rest.comparedTo(a.rest) || a.i - b.i);
  const parts = [...floors];
  for (let k = 0; left > 0 && order.length; k = (k + 1) % order.length, left--) parts[order[k].i] = parts[order[k].i].plus(unit);
  return parts;
}

/**
 * The draft's M210/M610 lines: each segment's own volume split by its blend's weights (art. 6º
 * §3º), each part at its category's amount, imports at GENERAL (§5º); one line per rate.
 * Interpretation (docs/LAW.md): the split keeps every line at a published amount.
 */
export function rateLines(segments: readonly EfdSegment[], contribution: 'pis' | 'cofins'): EfdRateLine[] {
  const lines = new Map<string, EfdRateLine>();
  const add = (rate: Decimal, quantity: Decimal, revenue: Decimal, category: RateCategory, seg: EfdSegment) => {
    const key = rate.toFixed(RATE_PLACES);
    const line = lines.get(key) ?? { rate, quantityM3: ZERO, revenue: ZERO, contribution: ZERO, categories: [], segments: [] };
    line.quantityM3 = line.quantityM3.plus(quantity);
    line.revenue = line.revenue.plus(revenue);
    if (!line.categories.includes(category)) line.categories.push(category);
    if (!line.segments.some((s) => s.from === seg.from)) line.segments.push({ from: seg.from, to: seg.to });
    lines.set(key, line);
  };
  for (const seg of segments) {
    const amountOf = (m: { pisPerM3: Decimal; cofinsPerM3: Decimal }) => (contribution === 'pis' ? m.pisPerM3 : m.cofinsPerM3);
    if (seg.ownVolumeM3.gt(0) && seg.mix.length) {
      // Weights all zero (no raw material used: the GENERAL row of the mix carries the whole volume).
      const weights = sum(seg.mix.map((m) => m.weight)).isZero() ? seg.mix.map(() => new Decimal(1)) : seg.mix.map((m) => m.weight);
      const quantities = allocate(seg.ownVolumeM3, weights, QUANTITY_PLACES);
      const revenues = allocate(seg.ownRevenue, weights, 2);
      seg.mix.forEach((m, i) => add(amountOf(m), quantities[i], revenues[i], m.category, seg));
    }
    if (seg.importedVolumeM3.gt(0)) {
      add(amountOf(seg.general), seg.importedVolumeM3.toDecimalPlaces(QUANTITY_PLACES, Decimal.ROUND_HALF_EVEN), toCentavos(seg.importedRevenue), RateCategory.GENERAL, seg);
    }
  }
  return [...lines.values()]
    .map((l) => ({ ...l, contribution: toCentavos(l.quantityM3.times(l.rate)) }))
    .sort((a, b) => b.rate.comparedTo(a.rate));
}

/** One item (a sale) in C170: its quantity base and per-unit rate, and the contribution they give. */
export interface EfdItem {
  quantityM3: Decimal;
  /** The rate of the sale's segment, half-even to 4 decimals. */
  rate: Decimal;
  /** quantity × the 4-decimal rate, half-even to the centavo. */
  contribution: Decimal;
}

/**
 * A sale as C170 quantity fields: volume to 3 decimals, its segment's blended rate (GENERAL for
 * imports) rounded to the field's 4 — an interpretation (docs/LAW.md).
 */
export function item(volumeM3: Decimal, rate: Decimal): EfdItem {
  const quantityM3 = volumeM3.toDecimalPlaces(QUANTITY_PLACES, Decimal.ROUND_HALF_EVEN);
  const r = rate.toDecimalPlaces(RATE_PLACES, Decimal.ROUND_HALF_EVEN);
  return { quantityM3, rate: r, contribution: toCentavos(quantityM3.times(r)) };
}

// Codes of the Guia v1.35 (sources and open ones: docs/LAW.md): CST 02 differentiated percentage rates (the
// ad valorem regime), 03 per unit, 06 zero rate, 08 no incidence (tables 4.3.3/4.3.4); COD_CONT 02/52 and
// 03/53 non-cumulative/cumulative (4.3.5).
export const CST_AD_VALOREM = '02';
export const CST_PER_UNIT = '03';
export const CST_ZERO_RATE = '06';
export const CST_NO_INCIDENCE = '08';
export type Incidence = 'NON_CUMULATIVE' | 'CUMULATIVE';
export const COD_CONT: Record<Incidence, string> = { NON_CUMULATIVE: '03', CUMULATIVE: '53' };
export const COD_CONT_AD_VALOREM: Record<Incidence, string> = { NON_CUMULATIVE: '02', CUMULATIVE: '52' };
/** Decimals of ALIQ_PIS/ALIQ_COFINS (percent, C181/C185 field 07 and M210/M610 field 08). */
export const PERCENT_PLACES = 4;
/**
 * DCTF revenue codes of M205/M605 (field 03): the general codes of PIS/Pasep and Cofins per
 * regime (secondary: docs/LAW.md; a code proper to the special regime of Lei 11.116/2005, art. 4º,
 * was not found and stays open).
 */
export const DCTF_REVENUE_CODE: Record<Incidence, { pis: string; cofins: string }> = {
  NON_CUMULATIVE: { pis: '691201', cofins: '585601' },
  CUMULATIVE: { pis: '810902', cofins: '217201' },
};
/**
 * Revenue-nature codes of M410/M810 (tables 4.3.13 and 4.3.15, external to the Guia): 206 for the
 * zero amount of art. 6º III (secondary); null where no code was found — the 2026 window and exports
 * — and the record says so in its DESC_COMPL.
 */
export type ZeroKind = 'ART_6_III' | 'ZERO_WINDOW' | 'EXPORT';
export const REVENUE_NATURE: Record<ZeroKind, string | null> = { ART_6_III: '206', ZERO_WINDOW: null, EXPORT: null };

/** A sale as the consolidation needs it: its establishment (a CNPJ of the producer) and its segment. */
export interface EfdSaleFacts {
  establishment: string;
  segment: number;
  origin: 'OWN_PRODUCTION' | 'IMPORTED';
  market: 'DOMESTIC' | 'EXPORT';
  volumeM3: Decimal;
  revenue: Decimal;
}

/** One C181 (PIS/Pasep) or C185 (Cofins): an establishment's sales of one CST, CFOP and rate. */
export interface EfdConsolidatedLine {
  establishment: string;
  /** The segment of the month (a C180 each: the Guia, C180 note 4, one per period of a change of rate). */
  segment: number;
  cst: string;
  cfop: string;
  /** Per-m³ amount with 4 decimals (CST 03, 06); the rate in percent with 4 decimals (CST 02); null for CST 08. */
  rate: Decimal | null;
  /** CST 02: the value base (VL_BC_PIS/VL_BC_COFINS), the revenue net of the month's returns; absent otherwise. */
  base?: Decimal | null;
  /** m³ with 3 decimals; null for CST 08. */
  quantityM3: Decimal | null;
  revenue: Decimal;
  /** quantity × rate (CST 02: base × rate / 100), half-even to the centavo (zero for CST 06 and 08). */
  contribution: Decimal;
  /** For CST 06 and 08: which zero it is (the revenue-nature code of M410/M810 follows from it). */
  zero: ZeroKind | null;
}

/**
 * CFOP of a sale (Ajuste SINIEF 07/2001 table): 5101/5102 sale of own production / of goods bought,
 * 7101/7102 the same exported. Interpretation: the buyer's UF is not recorded, so a domestic sale is
 * written as within the UF (51xx); the accountant splits 61xx where the NF-e says so.
 */
function cfopOf(s: EfdSaleFacts): string {
  return `${s.market === 'EXPORT' ? '7' : '5'}10${s.origin === 'IMPORTED' ? '2' : '1'}`;
}

/**
 * C181/C185 per establishment: own domestic volume split by the blend (art. 6º §3º) at category
 * amounts, imports at GENERAL (§5º); CST 03 above zero, 06 at zero, 08 exports; one line per
 * establishment, segment, CST, CFOP and rate under a C180 (Guia, C180 note 4). An ad valorem
 * segment (art. 3º): the domestic revenue, own and imported, CST 02 at the percentage rate.
 */
export function consolidatedLines(segments: readonly EfdSegment[], sales: readonly EfdSaleFacts[], contribution: 'pis' | 'cofins'): EfdConsolidatedLine[] {
  const amountOf = (m: { pisPerM3: Decimal; cofinsPerM3: Decimal }) => (contribution === 'pis' ? m.pisPerM3 : m.cofinsPerM3);
  const lines = new Map<string, EfdConsolidatedLine>();
  const add = (l: Omit<EfdConsolidatedLine, 'contribution'>) => {
    const key = [l.establishment, l.segment, l.cst, l.cfop, l.rate?.toFixed(RATE_PLACES) ?? '', l.zero ?? ''].join('|');
    const line = lines.get(key);
    if (!line) lines.set(key, { ...l, contribution: ZERO });
    else {
      line.revenue = line.revenue.plus(l.revenue);
      line.quantityM3 = line.quantityM3 && l.quantityM3 ? line.quantityM3.plus(l.quantityM3) : line.quantityM3;
      line.base = line.base && l.base ? line.base.plus(l.base) : line.base;
    }
  };
  const perUnit = (establishment: string, segment: number, cfop: string, rate: Decimal, quantityM3: Decimal, revenue: Decimal, window: boolean) => {
    const r = rate.toDecimalPlaces(RATE_PLACES, Decimal.ROUND_HALF_EVEN);
    add({ establishment, segment, cfop, rate: r, quantityM3, revenue, cst: r.gt(0) ? CST_PER_UNIT : CST_ZERO_RATE, zero: r.gt(0) ? null : window ? 'ZERO_WINDOW' : 'ART_6_III' });
  };
  const establishments = [...new Set(sales.map((s) => s.establishment))];
  segments.forEach((seg, index) => {
    // Ad valorem (Lei 11.116/2005, art. 3º): the domestic revenue at the percentage rate, untouched by the blend and by
    // the zero window of Decreto 10.527/2020, art. 5º (which reduces only the per-m³ amounts; docs/LAW.md).
    const adValorem = seg.adValorem ? (contribution === 'pis' ? seg.adValorem.pis : seg.adValorem.cofins).times(100).toDecimalPlaces(PERCENT_PLACES, Decimal.ROUND_HALF_EVEN) : null;
    const window = !adValorem && amountOf(seg.general).isZero();
    for (const establishment of establishments) {
      const mine = sales.filter((s) => s.segment === index && s.establishment === establishment);
      if (adValorem) {
        for (const origin of ['OWN_PRODUCTION', 'IMPORTED'] as const) {
          const part = mine.filter((s) => s.market === 'DOMESTIC' && s.origin === origin);
          if (!part.length) continue;
          const revenue = toCentavos(sum(part.map((s) => s.revenue)));
          add({ establishment, segment: index, cfop: cfopOf(part[0]), rate: adValorem, quantityM3: null, revenue, base: revenue, cst: CST_AD_VALOREM, zero: null });
        }
        for (const s of mine.filter((x) => x.market === 'EXPORT')) {
          add({ establishment, segment: index, cst: CST_NO_INCIDENCE, cfop: cfopOf(s), rate: null, quantityM3: null, revenue: toCentavos(s.revenue), zero: 'EXPORT' });
        }
        continue;
      }
      const own = mine.filter((s) => s.market === 'DOMESTIC' && s.origin === 'OWN_PRODUCTION');
      const volume = sum(own.map((s) => s.volumeM3));
      if (volume.gt(0) && seg.mix.length) {
        const weights = sum(seg.mix.map((m) => m.weight)).isZero() ? seg.mix.map(() => new Decimal(1)) : seg.mix.map((m) => m.weight);
        const quantities = allocate(volume, weights, QUANTITY_PLACES);
        const revenues = allocate(sum(own.map((s) => s.revenue)), weights, 2);
        seg.mix.forEach((m, i) => perUnit(establishment, index, '5101', amountOf(m), quantities[i], revenues[i], window));
      }
      const imported = mine.filter((s) => s.market === 'DOMESTIC' && s.origin === 'IMPORTED');
      if (imported.length) {
        perUnit(establishment, index, '5102', amountOf(seg.general), sum(imported.map((s) => s.volumeM3)).toDecimalPlaces(QUANTITY_PLACES, Decimal.ROUND_HALF_EVEN),
          toCentavos(sum(imported.map((s) => s.revenue))), window);
      }
      for (const s of mine.filter((x) => x.market === 'EXPORT')) {
        add({ establishment, segment: index, cst: CST_NO_INCIDENCE, cfop: cfopOf(s), rate: null, quantityM3: null, revenue: toCentavos(s.revenue), zero: 'EXPORT' });
      }
    }
  });
  return [...lines.values()].map((l) => ({ ...l, contribution: l.cst === CST_AD_VALOREM ? percentOf(l.base!, l.rate!) : l.rate && l.quantityM3 ? toCentavos(l.quantityM3.times(l.rate)) : ZERO }));
}

/** A value base × a rate in percent, half-even to the centavo (the Guia: VL = VL_BC × ALIQ / 100). */
function percentOf(base: Decimal, percent: Decimal): Decimal {
  return toCentavos(base.times(percent).div(100));
}

/** One M210/M610: the contribution at one rate, rebuilt from the C-level lines as the PVA does. */
export interface EfdContributionLine {
  /** Per m³ (COD_CONT 03/53), or in percent (ad valorem, COD_CONT 02/52). */
  rate: Decimal;
  /** Per unit: the quantity base; zero ad valorem. */
  quantityM3: Decimal;
  revenue: Decimal;
  /** Ad valorem: the value base (VL_BC_CONT), the C181/C185 VL_BC sum; null per unit. */
  base: Decimal | null;
  /** VL_CONT_APUR: quantity × rate (ad valorem base × rate / 100), half-even to the centavo (M210 field 08 of the Guia's reading). */
  contribution: Decimal;
  /** The adjustment carried by this line (M220/M620): positive an increase, negative a reduction; the sum of `adjustments`. */
  adjustment: Decimal;
  /** Its parts by cause, each one M220/M620 (zero parts left out). */
  adjustments: EfdAdjustment[];
}

/**
 * What an M220/M620 stands for: the rounding between Σ quantity × rate (base × rate) and the closed month's due, or a
 * return of a sale the month's sales do not cover (kept out of the C-level base, in the due).
 */
export type AdjustmentCause = 'ROUNDING' | 'UNCOVERED_RETURN';
export interface EfdAdjustment {
  cause: AdjustmentCause;
  /** Positive an increase, negative a reduction. */
  value: Decimal;
}

/** One M400/M410 (M800/M810) group: the revenue of a CST without contribution, by revenue nature. */
export interface EfdZeroRevenue {
  cst: string;
  zero: ZeroKind;
  natureCode: string | null;
  revenue: Decimal;
}

/**
 * Bloco M from the C-level lines: one M210/M610 per CST 03 rate, and one per CST 02 rate ad valorem
 * (the PVA rebuilds them from the C-level lines), CST 06/08 revenue in M400/M410; what is left against
 * the month's dues is adjusted on the largest line (interpretation: docs/LAW.md), one M220/M620 per
 * cause: `returned` (≤ 0, centavos) is the share of the due of the returns the C level could not net,
 * the rest is rounding.
 */
export function contributionLines(lines: readonly EfdConsolidatedLine[], due: Decimal, returned: Decimal = ZERO): { perUnit: EfdContributionLine[]; adValorem: EfdContributionLine[]; zero: EfdZeroRevenue[] } {
  const byRate = (cst: string) => {
    const out = new Map<string, EfdContributionLine>();
    for (const l of lines.filter((x) => x.cst === cst)) {
      const key = l.rate!.toFixed(RATE_PLACES);
      const line = out.get(key) ?? { rate: l.rate!, quantityM3: ZERO, revenue: ZERO, base: cst === CST_AD_VALOREM ? ZERO : null, contribution: ZERO, adjustment: ZERO, adjustments: [] };
      if (l.quantityM3) line.quantityM3 = line.quantityM3.plus(l.quantityM3);
      if (line.base) line.base = line.base.plus(l.base ?? ZERO);
      line.revenue = line.revenue.plus(l.revenue);
      out.set(key, line);
    }
    return [...out.values()].sort((a, b) => b.rate.comparedTo(a.rate));
  };
  const perUnit = byRate(CST_PER_UNIT).map((l) => ({ ...l, contribution: toCentavos(l.quantityM3.times(l.rate)) }));
  const adValorem = byRate(CST_AD_VALOREM).map((l) => ({ ...l, contribution: percentOf(l.base!, l.rate) }));
  const difference = due.minus(sum([...perUnit, ...adValorem].map((l) => l.contribution)));
  if (!difference.isZero()) {
    // A month is under one regime (the election is per calendar year): its lines are all per unit or all ad valorem.
    const size = (l: EfdContributionLine) => l.base ?? l.quantityM3;
    const all = [...perUnit, ...adValorem];
    if (!all.length) throw new Error(`A due of ${due.toFixed(2)} without a line at a rate above zero`);
    const largest = all.reduce((a, b) => (size(b).gt(size(a)) ? b : a));
    largest.adjustment = difference;
    // Each cause its own M220/M620, so that its description is its cause (docs/LAW.md, "Rounding, once").
    largest.adjustments = [{ cause: 'ROUNDING' as const, value: difference.minus(returned) }, { cause: 'UNCOVERED_RETURN' as const, value: returned }].filter((a) => !a.value.isZero());
  }
  const zero = new Map<string, EfdZeroRevenue>();
  for (const l of lines.filter((x) => x.cst !== CST_PER_UNIT && x.cst !== CST_AD_VALOREM)) {
    const key = `${l.cst}|${l.zero}`;
    const z = zero.get(key) ?? { cst: l.cst, zero: l.zero!, natureCode: REVENUE_NATURE[l.zero!], revenue: ZERO };
    z.revenue = z.revenue.plus(l.revenue);
    zero.set(key, z);
  }
  return { perUnit, adValorem, zero: [...zero.values()].sort((a, b) => a.cst.localeCompare(b.cst) || (a.natureCode ?? '999').localeCompare(b.natureCode ?? '999')) };
}
