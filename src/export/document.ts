import { brazilianNumber, Locale } from '../formats/brazilian';
import { Decimal } from '../law/decimal';

/**
 * An export as tables, before it is written as CSV, XLSX or PDF: each figure keeps its type, so
 * every format shows R$ with 2 decimals, m³ and kg with 3, shares with 6 — whatever scale the value
 * was stored or computed with.
 */

/** What a cell holds, and so how it is written. */
export type CellType =
  | 'text'
  /** R$, 2 decimals (half-even). */
  | 'money'
  /** m³ or kg, 3 decimals. */
  | 'quantity'
  /** Shares and blended per-m³ amounts as the API shows them, 6 decimals. */
  | 'share'
  /** A published figure (coefficient, R$/m³, a rate) as published, at least 2 decimals. */
  | 'figure'
  | 'date'
  | 'integer'
  | 'boolean';

export type CellValue = string | number | boolean | Decimal | null | undefined;

export interface Labels {
  en: string;
  'pt-BR': string;
}

export interface Column {
  key: string;
  label: Labels;
  type: CellType;
  /** In the CSV and XLSX files only: a page of A4 holds no more columns legibly. */
  filesOnly?: boolean;
}

/** A table of rows, or (`fields`) a list of label/value pairs each with its own type. */
export type Section =
  | { kind: 'table'; key: string; title: Labels; columns: Column[]; rows: CellValue[][] }
  | { kind: 'fields'; key: string; title: Labels; fields: Array<{ key: string; label: Labels; type: CellType; value: CellValue }> };

export interface ExportDocument {
  /** File name without extension, e.g. `pis-cofins-2026-03-producer-1`. */
  name: string;
  title: Labels;
  /** Lines under the title (producer, period, status). */
  subtitle: Labels[];
  sections: Section[];
}

export const label = (en: string, pt: string): Labels => ({ en, 'pt-BR': pt });

/** The decimals a type is shown with (null: as the value is). */
export function placesOf(type: CellType, value: Decimal): number | null {
  switch (type) {
    case 'money':
      return 2;
    case 'quantity':
      return 3;
    case 'share':
      return 6;
    case 'figure':
      return Math.max(2, value.decimalPlaces());
    default:
      return null;
  }
}

export function toDecimal(value: CellValue): Decimal | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Decimal) return value;
  if (typeof value === 'number' || (typeof value === 'string' && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value))) return new Decimal(value);
  return null;
}

/** A numeric cell as text in a locale: `30120,50` (pt-BR, no thousands separator) or `30120.50`. */
export function numberText(type: CellType, value: CellValue, locale: Locale): string {
  const d = toDecimal(value);
  if (d === null) return value === null || value === undefined ? '' : String(value);
  const places = placesOf(type, d);
  const text = places === null ? d.toFixed() : d.toFixed(places, Decimal.ROUND_HALF_EVEN);
  return locale === 'pt-BR' ? brazilianNumber(new Decimal(text), places ?? d.decimalPlaces()) : text;
}

export const NUMERIC_TYPES: ReadonlySet<CellType> = new Set(['money', 'quantity', 'share', 'figure', 'integer']);

/** A boolean as words. */
export function yesNo(value: boolean, locale: Locale): string {
  return locale === 'pt-BR' ? (value ? 'sim' : 'não') : value ? 'yes' : 'no';
}
