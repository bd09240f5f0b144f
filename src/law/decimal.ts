import DecimalJs from 'decimal.js';

/**
 * Decimal arithmetic for every legal figure (docs/LAW.md): 34 significant digits, never floats.
 * Rounding of results is explicit (see `toCentavos`, `toShare`), half-even per ABNT NBR 5891.
 */
export const Decimal = DecimalJs.clone({ precision: 34, rounding: DecimalJs.ROUND_HALF_EVEN });
export type Decimal = InstanceType<typeof Decimal>;

export const ZERO = new Decimal(0);
export const ONE = new Decimal(1);

/** ABNT NBR 5891 (round half to even) to the centavo: how each segment's dues are rounded (docs/LAW.md). */
export function toCentavos(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
}

/** Shares and blended rates are shown half-even to 6 decimals; computations keep them unrounded (docs/LAW.md). */
export function toShare(value: Decimal): Decimal {
  return value.toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN);
}

export function sum(values: Iterable<Decimal>): Decimal {
  let total = ZERO;
  for (const v of values) total = total.plus(v);
  return total;
}
