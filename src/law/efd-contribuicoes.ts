import { IsoDate } from './dates';
import { Decimal, sum, toCentavos, ZERO } from './decimal';
import { RateCategory } from './types';

/**
 * How a month under the special regime (Lei 11.116/2005, art. 4º) is written in the
 * EFD-Contribuições (IN RFB 1.252/2012; the RFB's Guia Prático — our copy is secondary, see
 * docs/LAW.md): the Bloco M records M210 (PIS/Pasep) and M610 (Cofins) with contribution code 03
 * (per unit of product, non-cumulative), a quantity base in m³ with 3 decimals, a per-unit rate in
 * R$ with 4 decimals, and the contribution = quantity × rate; one record per distinct rate. Pure:
 * the figures come from the month as computed (src/law/tax-period.ts), nothing is recomputed.
 */

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
 * The M210 (contribution 'pis') or M610 ('cofins') lines of a month: each segment's own-production
 * volume split among the categories of its blend in proportion to their weights — the acquisition
 * cost of the raw material used (Decreto 10.527/2020, art. 6º §3º) — each part at its category's
 * per-m³ amount; imported biodiesel at the GENERAL amount (art. 6º §5º). Parts at the same rate,
 * from any segment, make one line.
 *
 * Interpretation: the Guia Prático keys the records by rate and leaves open how a blended (§3º)
 * rate is reported; the blend is written as the volume split by the category shares, so that every
 * line carries a published amount. Quantities are rounded to 3 decimals by largest remainder within
 * each segment (they add up to the segment's volume), revenues likewise to the centavo, and each
 * line's contribution is its quantity × rate half-even to the centavo: the sum of the lines may
 * differ from the month's dues by the rounding, which the draft shows.
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
 * A sale as a C170 item (its fields QUANT_BC and ALIQ_QUANT of PIS/Pasep and Cofins): its volume
 * with 3 decimals and the per-m³ rate of its segment — the blended amount (art. 6º §3º) for own
 * production, GENERAL for imported biodiesel (§5º) — with 4 decimals. Interpretation: the rate of
 * an item is the blended amount of its segment, rounded to the field's 4 decimals.
 */
export function item(volumeM3: Decimal, rate: Decimal): EfdItem {
  const quantityM3 = volumeM3.toDecimalPlaces(QUANTITY_PLACES, Decimal.ROUND_HALF_EVEN);
  const r = rate.toDecimalPlaces(RATE_PLACES, Decimal.ROUND_HALF_EVEN);
  return { quantityM3, rate: r, contribution: toCentavos(quantityM3.times(r)) };
}
