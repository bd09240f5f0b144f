import { Decimal } from '../decimal';
import { CATEGORY_ORDER, TaxPeriodFigures } from './types';

/**
 * A closed month's snapshot (DESIGN §1.4): its figures read back from JSON, and what a
 * recomputation (e.g. after a retroactive act) would say differently.
 */

/** A figure of a closed month that recomputing would change. */
export interface FigureDifference {
  /** Path of the figure, e.g. `segments[1].pisDue` or `segments` (a different cut). */
  field: string;
  closed: string | null;
  recomputed: string | null;
}

const SEGMENT_FIELDS = [
  'from', 'to', 'sealRegular', 'blendedPisPerM3', 'blendedCofinsPerM3', 'ownProductionVolumeM3', 'importedVolumeM3',
  'exportedVolumeM3', 'domesticRevenue', 'pisDue', 'cofinsDue',
] as const;
const PERIOD_FIELDS = [
  'regime', 'feedstockCost', 'ownProductionPricePerKg', 'domesticVolumeM3', 'importedVolumeM3', 'exportedVolumeM3', 'pisDue', 'cofinsDue', 'totalDue',
] as const;

const text = (v: unknown): string | null => (v === null || v === undefined ? null : v instanceof Decimal ? v.toFixed() : String(v));
const same = (a: unknown, b: unknown) => (a instanceof Decimal && b instanceof Decimal ? a.eq(b) : text(a) === text(b));

/**
 * What a closed month's snapshot says differently from a recomputation (e.g. after a retroactive
 * act): every period and segment figure, segment cut and category share that changed.
 */
export function figureDifferences(closed: TaxPeriodFigures, recomputed: TaxPeriodFigures): FigureDifference[] {
  const out: FigureDifference[] = [];
  const cmp = (field: string, a: unknown, b: unknown) => {
    if (!same(a, b)) out.push({ field, closed: text(a), recomputed: text(b) });
  };
  for (const f of PERIOD_FIELDS) cmp(f, closed[f], recomputed[f]);
  cmp('segments.length', closed.segments.length, recomputed.segments.length);
  closed.segments.forEach((s, i) => {
    const r = recomputed.segments[i];
    if (!r) return;
    for (const f of SEGMENT_FIELDS) cmp(`segments[${i}].${f}`, s[f], r[f]);
    const categories = new Set([...s.mix, ...r.mix].map((m) => m.category));
    for (const c of CATEGORY_ORDER) {
      if (!categories.has(c)) continue;
      const a = s.mix.find((m) => m.category === c);
      const b = r.mix.find((m) => m.category === c);
      for (const f of ['cost', 'share', 'pisPerM3', 'cofinsPerM3'] as const) cmp(`segments[${i}].mix.${c}.${f}`, a?.[f] ?? null, b?.[f] ?? null);
    }
  });
  return out;
}

const DECIMAL_PERIOD = ['feedstockCost', 'ownProductionPricePerKg', 'domesticVolumeM3', 'importedVolumeM3', 'exportedVolumeM3', 'pisDue', 'cofinsDue', 'totalDue'] as const;
const DECIMAL_SEGMENT = ['blendedPisPerM3', 'blendedCofinsPerM3', 'ownProductionVolumeM3', 'importedVolumeM3', 'exportedVolumeM3', 'domesticRevenue', 'pisDue', 'cofinsDue'] as const;
const DECIMAL_SHARE = ['cost', 'quantityKg', 'share', 'coefficient', 'pisPerM3', 'cofinsPerM3'] as const;

/** The figures as stored in a snapshot (JSON: decimals as strings) read back with their Decimals. */
export function figuresFromJson(json: unknown): TaxPeriodFigures {
  type Json = Record<string, unknown>;
  const d = (v: unknown) => (v === null || v === undefined ? null : new Decimal(v as string));
  const withDecimals = (o: Json, fields: readonly string[]): Json => {
    const out: Json = { ...o };
    for (const f of fields) out[f] = d(o[f]);
    return out;
  };
  const raw = json as Json;
  const period = withDecimals(raw, DECIMAL_PERIOD);
  period.segments = (raw.segments as Json[]).map((s) => {
    const seg = withDecimals(s, DECIMAL_SEGMENT);
    // Added after the first snapshots were taken: absent there (undefined), explained at read time.
    for (const f of ['pisRate', 'cofinsRate'] as const) if (s[f] !== undefined) seg[f] = d(s[f]);
    seg.mix = (s.mix as Json[]).map((m) => withDecimals(m, DECIMAL_SHARE));
    return seg;
  });
  return period as unknown as TaxPeriodFigures;
}
