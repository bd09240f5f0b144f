import DecimalJs from 'decimal.js';

/**
 * Decimal arithmetic for every legal figure (docs/LAW.md): 34 significant digits, never floats.
 * Rounding of results is explicit (see `toCentavos`, `toShare`), half-even per ABNT NBR 5891.
 */
export const Decimal = DecimalJs.clone({ precision: 34, rounding: DecimalJs.ROUND_HALF_EVEN });
export type Decimal = InstanceType<typeof Decimal>;

/**
 * The widest number an input takes (a GraphQL Decimal, a cell of an import, an NF-e's value):
 * below 10^15 and at most 10 decimals, the NF-e's widest (vUnCom). Within it the sums and
 * products of a year's computation stay inside the 34 digits above, so nothing is rounded
 * before the law rounds it; a wider number would be stored whole and computed rounded.
 */
export const INPUT_BOUNDS = { integerDigits: 15, decimals: 10 } as const;

/** Its digits: the integer part without leading zeros, the decimals without trailing zeros. */
const PLAIN_NUMBER = /^[+-]?0*(\d*)(?:\.(\d*?)0*)?$/;

/** Whether a plain decimal text ("-0012.50") is wider than INPUT_BOUNDS; read from the text, as an import reads millions. */
export function outOfInputBounds(text: string): boolean {
  const digits = PLAIN_NUMBER.exec(text);
  return digits === null || digits[1].length > INPUT_BOUNDS.integerDigits || (digits[2]?.length ?? 0) > INPUT_BOUNDS.decimals;
}

/** A number as an error message repeats it: its first 40 characters. */
export function shownNumber(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}… (${text.length} characters)` : text;
}

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
