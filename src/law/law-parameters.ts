import { Decimal } from './decimal';
import { isIsoDate } from './dates';
import { Version } from './dated';
import { message, Message } from './message';
import { BlendRule, FuelTax, RateCategory, Region, SealWeightingFactor, SeloWording } from './types';

/**
 * docs/LAW.md — the catalogue of the law's dated parameters (what each may be scoped by and which
 * decimal values a version carries) and the check of one version against it, for publishing and
 * for the law book (law-book.ts) that reads the versions.
 */

/** One row of table law_parameter_version (docs/LAW.md): a version of a parameter, in a scope; the decimals as strings. */
export interface LawVersionRecord extends Version<Record<string, string>> {
  parameter: string;
  scope: string | null;
}

/** Scopes of the minimum spending share: the plant's region, or the Semiárido (art. 3º §3º I). */
export const SEMIARID_SCOPE = 'SEMIARID';

/**
 * The catalogue of dated parameters: for each, the scopes it may have (null = none) and the
 * decimal values each version carries, with their bounds. Publishing checks a version against it.
 */
export const PARAMETERS = {
  /** Decreto 10.527/2020, arts. 5º and 6º: coefficient and published amounts per category. */
  'coefficient-rule': { scopes: Object.values(RateCategory) as string[], values: { coefficient: 'fraction', pisPerM3: 'amount', cofinsPerM3: 'amount' } },
  /** Lei 11.116/2005, art. 3º: rates on gross revenue, as fractions (6,15% = 0.0615). */
  'ad-valorem-rates': { scopes: null, values: { pis: 'fraction', cofins: 'fraction' } },
  /** Lei 11.116/2005, art. 4º: fixed amounts per m³ of the special regime. */
  'special-regime-base': { scopes: null, values: { pisPerM3: 'amount', cofinsPerM3: 'amount' } },
  /** EC 132/2023, ADCT art. 126, II: from its validFrom on, PIS/Pasep and Cofins are extinct. */
  'pis-cofins-extinction': { scopes: null, values: {} },
  /** Decreto 10.527/2020, art. 4º VI: minimum share of family farmers among a cooperative's members. */
  'cooperative-min-family-farmer-share': { scopes: null, values: { share: 'fraction' } },
  /** Decreto 10.527/2020, art. 3º §3º I–II: minimum counted spending / base, by plant region. */
  'minimum-spending-share': { scopes: [...Object.values(Region), SEMIARID_SCOPE] as string[], values: { share: 'fraction' } },
  /** Portaria Interministerial MME/MDA nº 2/2023: minimum part of counted spending in the priority region. */
  'priority-region-min-share': { scopes: null, values: { share: 'fraction' } },
  /** Weighting factor of each kind of counted spending (art. 3º §2º I a, b, c). */
  'weighting-factor': { scopes: ['FAMILY_FARMING_ACQUISITION', 'OTHER_PRODUCT', 'FOMENTO'] as string[], values: { factor: 'factor' } },
  /**
   * Decreto 10.527/2020, art. 3º §2º I and §3º II: the wording in force (scope), cited; the one
   * published last among those covering a day governs it.
   */
  'selo-wording': { scopes: Object.values(SeloWording) as string[], values: {} },
  /**
   * The days whose Semiárido delimitation (scope: its act) is not in our sources: the priority
   * region is then judged by the membership imported for them, and the answers say so.
   */
  'semiarid-delimitation-open': { scopes: ['PORTARIA_MI_89_2005'] as string[], values: {} },
  /** Portaria MDA nº 28/2024: from its validFrom on, the Selo's spending is weighted (the flat model before it). */
  'selo-weighted-model': { scopes: null, values: {} },
  /**
   * Portaria MDA nº 28/2024, p. 40: the weighting factor of each alínea. A version may carry no
   * value: the factor is known, its figure not yet published (alínea a).
   */
  'selo-weighting-factor': { scopes: Object.values(SealWeightingFactor) as string[], values: { factor: 'factor' }, valueMayBeOpen: true },
  /** Portaria MDA nº 28/2024, p. 39: the minimum weighted spending / base. A version may carry no value (open). */
  'minimum-weighted-share': { scopes: null, values: { share: 'fraction' }, valueMayBeOpen: true },
  /** Portaria MDA nº 28/2024, art. 58: the years whose evaluation's balance carries to the year after its communication. */
  'selo-balance-carry': { scopes: null, values: {} },
  /** Decreto 10.527/2020, art. 6º §§2º–5º (before it, Lei 11.116/2005, art. 5º §§3º–5º): the citation of each rule of the blend. */
  'blend-rule': { scopes: Object.values(BlendRule) as string[], values: {} },
  /** LC 214/2025, arts. 172–175: from its validFrom on, the tax is levied once on biodiesel, per m³. */
  'fuel-tax-levy': { scopes: Object.values(FuelTax) as string[], values: {} },
  /** LC 214/2025, art. 174: the specific rate of the tax on biodiesel (B100), R$ per m³, published by the federal Executive (CBS) or the Comitê Gestor (IBS). */
  'fuel-tax-rate': { scopes: Object.values(FuelTax) as string[], values: { perM3: 'amount' } },
  /** Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 1º: the rates of the basic non-cumulative credit, as fractions (1,65% = 0.0165). */
  'credit-basic-rates': { scopes: null, values: { pis: 'fraction', cofins: 'fraction' } },
  /** Lei 12.865/2013, art. 31 § 2º: the share of the art. 2º rates that is the presumed credit on biodiesel revenue; open until published. */
  'presumed-credit-biodiesel': { scopes: null, values: { share: 'fraction' }, valueMayBeOpen: true },
  /** Open choices of the credit (1 = a credit, 0 = none): B100 bought for resale, imported (Lei 10.865/2004, art. 17) or not (Lei 10.637/2002, art. 3º I b). */
  'credit-choice': { scopes: ['IMPORTED_B100_FOR_RESALE', 'B100_FOR_RESALE'] as string[], values: { credit: 'fraction' }, valueMayBeOpen: true },
} as const satisfies Record<string, { scopes: string[] | null; values: Record<string, 'fraction' | 'amount' | 'factor'>; valueMayBeOpen?: true }>;

export type ParameterName = keyof typeof PARAMETERS;

export function isParameterName(name: string): name is ParameterName {
  return Object.prototype.hasOwnProperty.call(PARAMETERS, name);
}

/**
 * What is wrong with a version, as [field, message] pairs: known parameter and scope, its values
 * within bounds, real dates in order, a legal basis; an open figure may come with no value.
 */
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
