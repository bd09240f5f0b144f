import { Decimal, ZERO } from '../decimal';
import { electionStart } from '../regime';
import { OwnProductionValuation } from '../types';
import { CATEGORY_ORDER, TaxPeriodFigures } from './types';

/**
 * A closed month's snapshot (docs/LAW.md): its figures read back from JSON, and what a
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
    if (s.pisCofinsInForce !== undefined) cmp(`segments[${i}].pisCofinsInForce`, s.pisCofinsInForce, r.pisCofinsInForce);
    const categories = new Set([...s.mix, ...r.mix].map((m) => m.category));
    for (const c of CATEGORY_ORDER) {
      if (!categories.has(c)) continue;
      const a = s.mix.find((m) => m.category === c);
      const b = r.mix.find((m) => m.category === c);
      for (const f of ['cost', 'share', 'pisPerM3', 'cofinsPerM3'] as const) cmp(`segments[${i}].mix.${c}.${f}`, a?.[f] ?? null, b?.[f] ?? null);
    }
  });
  // Blocks added after the first snapshots were taken: compared where the snapshot has them.
  if (closed.imports && recomputed.imports) {
    for (const f of ['volumeM3', 'pisDue', 'cofinsDue'] as const) cmp(`imports.${f}`, closed.imports[f], recomputed.imports[f]);
    cmp('imports.imports.length', closed.imports.imports.length, recomputed.imports.imports.length);
  }
  if (closed.fuelTaxes && recomputed.fuelTaxes) {
    const taxes = new Set([...closed.fuelTaxes, ...recomputed.fuelTaxes].map((t) => t.tax));
    for (const tax of taxes) {
      const a = closed.fuelTaxes.find((t) => t.tax === tax);
      const b = recomputed.fuelTaxes.find((t) => t.tax === tax);
      for (const f of ['status', 'volumeM3', 'ratePerM3', 'due'] as const) cmp(`fuelTaxes.${tax}.${f}`, a?.[f] ?? null, b?.[f] ?? null);
    }
  }
  return out;
}

const DECIMAL_PERIOD = ['feedstockCost', 'ownProductionPricePerKg', 'domesticVolumeM3', 'importedVolumeM3', 'exportedVolumeM3', 'pisDue', 'cofinsDue', 'totalDue'] as const;
const DECIMAL_SEGMENT = ['blendedPisPerM3', 'blendedCofinsPerM3', 'ownProductionVolumeM3', 'importedVolumeM3', 'exportedVolumeM3', 'domesticRevenue', 'pisDue', 'cofinsDue'] as const;
const DECIMAL_SHARE = ['cost', 'quantityKg', 'share', 'coefficient', 'pisPerM3', 'cofinsPerM3'] as const;
const DECIMAL_IMPORTS = ['volumeM3', 'pisDue', 'cofinsDue', 'totalDue'] as const;
const DECIMAL_IMPORT_LINE = ['volumeM3', 'pisPerM3', 'cofinsPerM3', 'pisDue', 'cofinsDue'] as const;
const DECIMAL_FUEL_TAX = ['ownProductionVolumeM3', 'importedVolumeM3', 'volumeM3', 'ratePerM3', 'due'] as const;

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
  const imports = raw.imports as Json | undefined;
  if (imports) {
    period.imports = { ...withDecimals(imports, DECIMAL_IMPORTS), imports: (imports.imports as Json[]).map((l) => ({ warnings: [], ...withDecimals(l, DECIMAL_IMPORT_LINE) })) };
  }
  const taxes = raw.fuelTaxes as Json[] | undefined;
  if (taxes) {
    period.fuelTaxes = taxes.map((t) => ({ ...withDecimals(t, DECIMAL_FUEL_TAX), segments: (t.segments as Json[]).map((x) => withDecimals(x, DECIMAL_FUEL_TAX)) }));
  }
  return period as unknown as TaxPeriodFigures;
}

/**
 * How a closed month valued own production: as it says, or — taken before it said so — as its
 * warnings and price say (OWN_PRODUCTION_VALUED_BY_QUANTITY; a price from the month's
 * acquisitions; else none used).
 */
export function snapshotValuation(figures: TaxPeriodFigures): OwnProductionValuation | null {
  if (figures.ownProductionValuation !== undefined) return figures.ownProductionValuation;
  if (figures.warnings.some((w) => w.code === 'OWN_PRODUCTION_VALUED_BY_QUANTITY')) return OwnProductionValuation.QUANTITY;
  return figures.ownProductionPricePerKg != null ? OwnProductionValuation.THIRD_PARTY_ACQUISITIONS : null;
}

/**
 * A snapshot taken before imports, fuel taxes, valuation and election start were kept, completed
 * with what those months necessarily had (no import in a closed month, no fuel tax before 2027).
 * Descriptive only, never a figure.
 */
export function completeSnapshot(figures: TaxPeriodFigures): TaxPeriodFigures {
  const e = figures.regimeElection;
  return {
    ...figures,
    segments: figures.segments.map((s) => (s.pisCofinsInForce !== undefined ? s : { ...s, pisCofinsInForce: true })),
    ownProductionValuation: snapshotValuation(figures),
    blendPeriod: figures.blendPeriod ?? null,
    regimeElection: e && e.effectiveFrom === undefined ? { ...e, effectiveFrom: electionStart(e) } : e,
    imports: figures.imports ?? { volumeM3: ZERO, pisDue: ZERO, cofinsDue: ZERO, totalDue: ZERO, imports: [] },
    fuelTaxes: figures.fuelTaxes ?? [],
  };
}
