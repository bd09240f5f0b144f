import { Decimal } from './decimal';
import { isIsoDate } from './dates';
import { Version } from './dated';
import { message, Message } from './message';
import { BlendRule, FuelTax, RateCategory, Region, SealWeightingFactor, SeloWording } from './types';

/** The catalogue of the law's dated parameters (docs/LAW.md) and the check of a version. */

/** One row of law_parameter_version. */
export interface LawVersionRecord extends Version<Record<string, string>> {
  parameter: string;
  scope: string | null;
}

/** Art. 3º §3º I. */
export const SEMIARID_SCOPE = 'SEMIARID';

export const PARAMETERS = {
  /** Decreto 10.527/2020, arts. 5º and 6º. */
  'coefficient-rule': { scopes: Object.values(RateCategory) as string[], values: { coefficient: 'fraction', pisPerM3: 'amount', cofinsPerM3: 'amount' } },
  /** Lei 11.116/2005, art. 3º. */
  'ad-valorem-rates': { scopes: null, values: { pis: 'fraction', cofins: 'fraction' } },
  /** Lei 11.116/2005, art. 4º. */
  'special-regime-base': { scopes: null, values: { pisPerM3: 'amount', cofinsPerM3: 'amount' } },
  /** EC 132/2023, ADCT art. 126, II. */
  'pis-cofins-extinction': { scopes: null, values: {} },
  /** Decreto 10.527/2020, art. 4º VI. */
  'cooperative-min-family-farmer-share': { scopes: null, values: { share: 'fraction' } },
  /** Decreto 10.527/2020, art. 3º §3º I–II. */
  'minimum-spending-share': { scopes: [...Object.values(Region), SEMIARID_SCOPE] as string[], values: { share: 'fraction' } },
  /** Portaria Interministerial MME/MDA nº 2/2023. */
  'priority-region-min-share': { scopes: null, values: { share: 'fraction' } },
  /** Art. 3º §2º I a, b, c. */
  'weighting-factor': { scopes: ['FAMILY_FARMING_ACQUISITION', 'OTHER_PRODUCT', 'FOMENTO'] as string[], values: { factor: 'factor' } },
  /** Decreto 10.527/2020, art. 3º §2º I and §3º II. */
  'selo-wording': { scopes: Object.values(SeloWording) as string[], values: {} },
  /** Days whose Semiárido delimitation is not in our sources (docs/LAW.md). */
  'semiarid-delimitation-open': { scopes: ['PORTARIA_MI_89_2005'] as string[], values: {} },
  /** Portaria MDA nº 28/2024. */
  'selo-weighted-model': { scopes: null, values: {} },
  /** Portaria MDA nº 28/2024, p. 40; alínea a has no figure yet. */
  'selo-weighting-factor': { scopes: Object.values(SealWeightingFactor) as string[], values: { factor: 'factor' }, valueMayBeOpen: true },
  /** Portaria MDA nº 28/2024, p. 39; open. */
  'minimum-weighted-share': { scopes: null, values: { share: 'fraction' }, valueMayBeOpen: true },
  /** Portaria MDA nº 28/2024, art. 58. */
  'selo-balance-carry': { scopes: null, values: {} },
  /** Decreto 10.527/2020, art. 6º §§2º–5º (before it, Lei 11.116/2005, art. 5º §§3º–5º). */
  'blend-rule': { scopes: Object.values(BlendRule) as string[], values: {} },
  /** LC 214/2025, arts. 172–175. */
  'fuel-tax-levy': { scopes: Object.values(FuelTax) as string[], values: {} },
  /** LC 214/2025, art. 174. */
  'fuel-tax-rate': { scopes: Object.values(FuelTax) as string[], values: { perM3: 'amount' } },
  /** Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 1º. */
  'credit-basic-rates': { scopes: null, values: { pis: 'fraction', cofins: 'fraction' } },
  /** Lei 12.865/2013, art. 31 § 2º; open until published. */
  'presumed-credit-biodiesel': { scopes: null, values: { share: 'fraction' }, valueMayBeOpen: true },
  /** Lei 10.865/2004, art. 17; Lei 10.637/2002, art. 3º I b. */
  'credit-choice': { scopes: ['IMPORTED_B100_FOR_RESALE', 'B100_FOR_RESALE'] as string[], values: { credit: 'fraction' }, valueMayBeOpen: true },
  /** LC 214/2025, art. 168; open until published. */
  'cbs-presumed-credit': { scopes: null, values: { share: 'fraction' }, valueMayBeOpen: true },
} as const satisfies Record<string, { scopes: string[] | null; values: Record<string, 'fraction' | 'amount' | 'factor'>; valueMayBeOpen?: true }>;

export type ParameterName = keyof typeof PARAMETERS;

export function isParameterName(name: string): name is ParameterName {
  return Object.prototype.hasOwnProperty.call(PARAMETERS, name);
}

/** [field, message] pairs; an open figure may come with no value. */
export function versionProblems(r: LawVersionRecord): Array<[string, Message]> {
  const problems: Array<[string, Message]> = [];
  if (!isParameterName(r.parameter)) return [['parameter', message('law.unknownParameter', { parameter: String(r.parameter), known: Object.keys(PARAMETERS).join(', ') })]];
  const spec = PARAMETERS[r.parameter];
  const scopes = spec.scopes as readonly string[] | null;
  if (scopes === null && r.scope != null) problems.push(['scope', message('law.noScope', { parameter: r.parameter })]);
  if (scopes !== null && (r.scope == null || !scopes.includes(r.scope))) problems.push(['scope', message('law.scopeRequired', { parameter: r.parameter, scopes: scopes.join(', ') })]);
  const kinds = spec.values as Record<string, 'fraction' | 'amount' | 'factor'>;
  const open = 'valueMayBeOpen' in spec && spec.valueMayBeOpen && Object.keys(r.value ?? {}).length === 0;
  for (const key of Object.keys(r.value ?? {})) if (!Object.hasOwn(kinds, key)) problems.push([`value.${key}`, message('law.unknownValue', { parameter: r.parameter, key, known: Object.keys(kinds).join(', ') || '-' })]);
  for (const [key, kind] of open ? [] : Object.entries(kinds)) {
    const text = r.value?.[key];
    if (typeof text !== 'string' || !/^\d+(\.\d+)?$/.test(text.trim())) {
      problems.push([`value.${key}`, message('law.nonNegativeDecimal', { key })]);
      continue;
    }
    if (kind === 'fraction' && new Decimal(text).gt(1)) problems.push([`value.${key}`, message('law.fraction', { key })]);
  }
  if (!isIsoDate(r.validFrom)) problems.push(['validFrom', message('input.date', { field: 'validFrom' })]);
  if (r.validUntil != null && (!isIsoDate(r.validUntil) || r.validUntil < r.validFrom)) problems.push(['validUntil', message('law.validUntil', { field: 'validUntil' })]);
  if (!isIsoDate(r.publishedOn)) problems.push(['publishedOn', message('input.date', { field: 'publishedOn' })]);
  if (!r.legalBasis?.trim()) problems.push(['legalBasis', message('law.legalBasis', { field: 'legalBasis' })]);
  return problems;
}
