import { Conformity, Coverage, contractFindingsFromFacts } from './contract-conformity';
import { Version } from './dated';
import { IsoDate } from './dates';
import { Decimal, toShare, ZERO } from './decimal';
import { NoRuleInForceError } from './errors';
import { runs, versionBoundaries } from './timeline';
import { familyFarmerShare, OrganizationFacts } from './family-farming';
import { described, Finding, finding } from './findings';
import { LawBook, SpendingKind } from './law-book';
import { isPriorityRegion } from './municipality';
import { Feedstock, PurchasePurpose, Region, SealBaseRule, SealWeightingFactor, SeloWording, SupplierKind } from './types';
import { message, Message } from './message';

// The Selo's family-farming spending (Decreto 10.527/2020 art. 3º §§2º–3º, wording of the year):
// what counts and why the rest does not, and the base; from the database's grouped sums. Pure.

/** Findings of this subject that are not in the shared catalogue (documented in docs/LAW.md). */
const SEAL_COMPLIANCE_BASIS = {
  ZERO_BASE: 'Decreto 10.527/2020, art. 3º §3º II–III',
  NO_COUNTED_SPENDING: 'Portaria Interministerial MME/MDA nº 2/2023',
  MINIMUM_SHARE_NOT_REACHED: 'Decreto 10.527/2020, art. 3º §3º I–II',
  PRIORITY_REGION_SHARE_NOT_REACHED: 'Portaria Interministerial MME/MDA nº 2/2023',
  MINIMUM_NOT_PUBLISHED: 'Portaria MDA nº 28/2024, p. 39',
  WEIGHTING_FACTOR_NOT_PUBLISHED: 'Portaria MDA nº 28/2024, pp. 39–40',
  PURCHASE_BELOW_MINIMUM_PRICE: 'Decreto 10.527/2020, art. 3º §2º II; Decreto 5.996/2006',
  BALANCE_BROUGHT_IN: 'Portaria MDA nº 28/2024, art. 58',
  BALANCE_NOT_ESTABLISHED: 'Portaria MDA nº 28/2024, art. 58',
  MEMBER_MINIMUM_NOT_PUBLISHED: 'Decreto 10.527/2020, art. 4º VI',
  SPENDING_NOT_IN_WORDING: 'Decreto 10.527/2020, art. 3º §2º I (wording before Decreto 11.902/2024)',
} as const;

export type SealComplianceFindingCode = keyof typeof SEAL_COMPLIANCE_BASIS;

/** Each code's general description (in English, src/i18n `finding.<CODE>`) and legal basis. */
export const SEAL_COMPLIANCE_FINDINGS = Object.fromEntries(
  (Object.keys(SEAL_COMPLIANCE_BASIS) as SealComplianceFindingCode[]).map((code) => [code, { text: message(`finding.${code}`), legalBasis: SEAL_COMPLIANCE_BASIS[code] }]),
) as Record<SealComplianceFindingCode, { text: Message; legalBasis: string }>;

export function sealFinding(code: SealComplianceFindingCode, detail?: Message): Finding {
  return described(code, SEAL_COMPLIANCE_BASIS[code], detail ?? message(`finding.${code}`));
}

/** Own-production biodiesel sold in the year, and the year's raw-material acquisitions (art. 3º §3º II–III). */
export interface SalesTotals {
  /** Revenue of own-production biodiesel sold in the year, every market. */
  ownRevenue: Decimal;
  /** Volume (m³) of own-production biodiesel sold in the year, every market. */
  ownVolume: Decimal;
  /** Volume (m³) of own-production biodiesel exported in the year. */
  exportedVolume: Decimal;
  /** Revenue of own-production biodiesel sold on the domestic market (the base from Portaria MDA nº 28/2024). */
  domesticRevenue?: Decimal;
  /** Cost of the raw material for biodiesel acquired in the year, from anyone but own production (the original §3º II). */
  rawMaterialAcquisitions?: Decimal;
}

export interface Base {
  salesRevenue: Decimal;
  /** What the base is made of, and the value it starts from (sales, or acquisitions under the original wording). */
  rule: SealBaseRule;
  gross: Decimal;
  /** The part of `gross` excluded for exports (§3º III). */
  exportedValue: Decimal;
  base: Decimal;
}

/**
 * The base of the minimum shares (art. 3º §3º II–III), by `rule`: own biodiesel sold less the
 * exported proportion (Decreto 10.708/2021), raw material acquired less it (original wording), or
 * domestic sales (Portaria MDA 28/2024). Unrounded; own production only (docs/LAW.md).
 */
export function sealBase(sales: SalesTotals, rule: SealBaseRule = SealBaseRule.BIODIESEL_SOLD): Base {
  if (rule === SealBaseRule.DOMESTIC_SALES) {
    const domestic = required(sales.domesticRevenue, 'the domestic sales of the year');
    return { salesRevenue: sales.ownRevenue, rule, gross: sales.ownRevenue, exportedValue: sales.ownRevenue.minus(domestic), base: domestic };
  }
  const gross = rule === SealBaseRule.RAW_MATERIAL_ACQUISITIONS ? required(sales.rawMaterialAcquisitions, 'the raw-material acquisitions of the year') : sales.ownRevenue;
  const exportedValue = sales.ownVolume.isZero() ? ZERO : gross.times(sales.exportedVolume).div(sales.ownVolume);
  return { salesRevenue: sales.ownRevenue, rule, gross, exportedValue, base: gross.minus(exportedValue) };
}

function required(value: Decimal | undefined, what: string): Decimal {
  if (value === undefined) throw new Error(`The Selo's base needs ${what}`);
  return value;
}

/**
 * Decreto 10.527/2020, art. 3º §3º I — the day on which the year's minimum shares are read.
 * Interpretation: the targets of year Y are those in force on 31 December of Y (as known on
 * `asKnownOn`), the day the year's spending closes; a year in progress is measured against them too.
 */
export function targetDay(year: number): IsoDate {
  return `${year}-12-31`;
}

/**
 * The decree's wording in force on 31 December governs the year (docs/LAW.md): 2021 by Decreto
 * 10.708/2021's, 2024 by Decreto 11.902/2024's; the decree prevails over a portaria.
 */
export function sealWordingOf(law: LawBook, year: number, asKnownOn: IsoDate): { wording: SeloWording; version: Version<Record<string, string>> } {
  const w = law.sealWording(targetDay(year), asKnownOn);
  if (!w) throw new NoRuleInForceError(message('law.noVersionInForce', { what: 'the wording of Decreto 10.527/2020, art. 3º §2º I and §3º II', on: targetDay(year), asKnownOn }));
  return w;
}

/** Under the wordings before Decreto 11.902/2024 only family-farming raw material counts (§2º I original). */
export function onlyRawMaterialCounts(wording: SeloWording): boolean {
  return wording !== SeloWording.DECRETO_11902_2024;
}

/** The base rule of a wording, unless the weighted model (Portaria MDA nº 28/2024) sets the domestic sales. */
export function baseRuleOf(wording: SeloWording, weighted: boolean): SealBaseRule {
  if (weighted) return SealBaseRule.DOMESTIC_SALES;
  return wording === SeloWording.ORIGINAL ? SealBaseRule.RAW_MATERIAL_ACQUISITIONS : SealBaseRule.BIODIESEL_SOLD;
}

/** A run of days over which every dated parameter used per item (weights, member minimum) is the same. */
export interface Segment {
  from: IsoDate;
  to: IsoDate;
}

const KINDS: SpendingKind[] = ['FAMILY_FARMING_ACQUISITION', 'OTHER_PRODUCT', 'FOMENTO'];
const FACTORS = Object.values(SealWeightingFactor);

function signatureOf(read: () => Version<Decimal | null> | undefined): string {
  try {
    const v = read();
    return v ? `${v.value?.toFixed() ?? 'open'}|${v.legalBasis}` : 'none';
  } catch (error) {
    if (error instanceof NoRuleInForceError) return 'none';
    throw error;
  }
}

/**
 * Runs of days with the same weighting factors (art. 3º §2º I; Portaria MDA 28/2024) and member
 * minimum (art. 4º VI) in force; the database groups the year's items by them.
 */
export function parameterSegments(law: LawBook, from: IsoDate, to: IsoDate, asKnownOn: IsoDate): Segment[] {
  const signature = (d: IsoDate) => [
    ...KINDS.map((k) => signatureOf(() => law.weightingFactor(k, d, asKnownOn))),
    ...FACTORS.map((f) => signatureOf(() => law.sealWeightingFactor(f, d, asKnownOn))),
    signatureOf(() => law.cooperativeMinFamilyFarmerShare(d, asKnownOn)),
  ].join('#');
  const candidates = versionBoundaries((['weighting-factor', 'selo-weighting-factor', 'cooperative-min-family-farmer-share'] as const).flatMap((p) => law.versions(p)), asKnownOn);
  return runs(from, to, candidates, signature);
}

/** Where the raw material was produced, or the fomento spent (municipality facts). */
export interface Place {
  region: Region;
  semiarid: boolean;
}

/** What the database established about the supplier of a group of purchases, on each purchase date. */
export interface SupplierRecord {
  kind: SupplierKind;
  /** Holds a DAP or CAF (jurídica, for an organization) valid on the purchase date (art. 2º IV and V). */
  registrationValid: boolean;
  /** Among those valid on the date, a DAP whose validity starts after the end of DAP issuance (Portaria MAPA 174/2022). */
  lateDap: boolean;
  /** For COOPERATIVE and ASSOCIATION: members and family-farmer members (art. 4º VI). */
  organization: OrganizationFacts | null;
}

/** The contract a group of purchases was recorded under, with what the database established. */
export interface GroupContract {
  /** The contract's id, where the group comes from the records (requirement 3 names it). */
  id?: string;
  signedOn: IsoDate;
  conformity: Conformity;
  /** Signed on or before the purchase date (art. 3º §2 II). */
  priorToPurchase: boolean;
  coverage: Coverage;
}

/** Purchases from family farming that share every fact the law looks at (one SQL group). */
export interface PurchaseGroup {
  key: string;
  purpose: PurchasePurpose;
  supplier: SupplierRecord;
  contract: GroupContract | null;
  origin: Place;
  segment: Segment;
  /** Sum of the acquisition cost (reais). */
  amount: Decimal;
  count: number;
  /** The product bought: needed from 2024, for factor f (diversified raw material). */
  product?: Feedstock;
  /** From 2024: the purchases were priced below the PGPAF minimum in force on their own date. */
  belowMinimumPrice?: boolean;
}

/** Fomento expenses that share every fact the law looks at (one SQL group). */
export interface FomentoGroup {
  key: string;
  place: Place;
  segment: Segment;
  amount: Decimal;
  count: number;
}

export interface SupplierDecision {
  eligible: boolean;
  findings: Finding[];
}

/**
 * The supplier on its purchase dates (art. 2º IV–V, art. 4º VI–VII), from database facts: the same
 * rules as family-farming.ts. Associations count like cooperatives for the Selo (not for II/III);
 * a DAP after 2022-10-31 counts, flagged DAP_ISSUED_AFTER_CUTOFF.
 */
export function supplierDecision(s: SupplierRecord, minShare: () => Decimal | null): SupplierDecision {
  const reasons: Finding[] = [];
  if (!s.registrationValid) reasons.push(finding('REGISTRATION_NOT_VALID'));
  if (s.kind === SupplierKind.COOPERATIVE || s.kind === SupplierKind.ASSOCIATION) {
    if (!s.organization) throw new Error('An organization supplier needs its member facts');
    const min = minShare();
    const share = familyFarmerShare(s.organization);
    if (min !== null && share.lt(min)) {
      reasons.push(finding('MEMBER_SHARE_BELOW_MINIMUM', message('finding.MEMBER_SHARE_BELOW_MINIMUM.share', {
        familyFarmers: s.organization.familyFarmerMembers, members: s.organization.members, share: toShare(share).toFixed(), minimum: min.toFixed(),
      })));
    }
  }
  const eligible = reasons.length === 0;
  const findings = eligible ? [] : [finding('SUPPLIER_NOT_ELIGIBLE'), ...reasons];
  if (s.lateDap) findings.push(finding('DAP_ISSUED_AFTER_CUTOFF'));
  return { eligible, findings };
}

/** The kind of counted spending of a purchase (art. 3º §2 I a or b). */
export function spendingKindOf(purpose: PurchasePurpose): SpendingKind {
  return purpose === PurchasePurpose.OTHER_PRODUCT ? 'OTHER_PRODUCT' : 'FAMILY_FARMING_ACQUISITION';
}

export interface GroupDecision {
  counts: boolean;
  kind: SpendingKind;
  /** Counts toward the priority-region part (requirement 2). */
  priorityRegion: boolean;
  /** amount × weighting factor when it counts, else 0. */
  weighted: Decimal;
  /** Empty when it counts. */
  findings: Finding[];
}

/**
 * Whether a group counts (art. 3º §2º I–II): (a) under a conforming prior contract from an eligible
 * supplier; (b) the same, produced in the North, Northeast or Semiárido. Every reason is listed;
 * `perAcquisition` judges contracts per acquisition (from 2024). Readings: docs/LAW.md.
 */
export function decidePurchaseGroup(g: PurchaseGroup, law: LawBook, asKnownOn: IsoDate, perAcquisition = false): GroupDecision {
  const kind = spendingKindOf(g.purpose);
  const inPriority = isPriorityRegion(g.origin);
  const findings: Finding[] = g.contract
    ? contractFindingsFromFacts(g.contract.conformity, g.contract.priorToPurchase, g.contract.coverage, g.contract.signedOn, perAcquisition)
    : [finding('NO_CONTRACT')];
  if (kind === 'OTHER_PRODUCT' && !inPriority) findings.push(finding('OUTSIDE_PRIORITY_REGION'));
  if (kind === 'OTHER_PRODUCT') findings.push(...notInWording(g.segment.from, law, asKnownOn));
  const supplier = supplierDecision(g.supplier, () => law.cooperativeMinFamilyFarmerShare(g.segment.from, asKnownOn)?.value ?? null);
  const counts = findings.length === 0 && supplier.eligible;
  if (!counts) return { counts, kind, priorityRegion: inPriority, weighted: ZERO, findings: [...findings, ...supplier.findings] };
  const factor = law.weightingFactor(kind, g.segment.from, asKnownOn).value;
  return { counts, kind, priorityRegion: inPriority, weighted: g.amount.times(factor), findings: [] };
}

/**
 * Other products (b) and fomento (c) count only under the wording that names them (Decreto
 * 11.902/2024), read for the item's year; SPENDING_NOT_IN_WORDING cites the wording that does not.
 */
function notInWording(on: IsoDate, law: LawBook, asKnownOn: IsoDate): Finding[] {
  const w = law.sealWording(targetDay(Number(on.slice(0, 4))), asKnownOn);
  if (!w || !onlyRawMaterialCounts(w.wording)) return [];
  return [sealFinding('SPENDING_NOT_IN_WORDING', message('finding.SPENDING_NOT_IN_WORDING.wording', { legalBasis: w.version.legalBasis }))];
}

/** Decreto 10.527/2020, art. 3º §2 I c — fomento counts when spent in the North, Northeast or Semiárido (from Decreto 11.902/2024). */
export function decideFomentoGroup(g: FomentoGroup, law: LawBook, asKnownOn: IsoDate): GroupDecision {
  const inPriority = isPriorityRegion(g.place);
  const findings = [...(inPriority ? [] : [finding('OUTSIDE_PRIORITY_REGION')]), ...notInWording(g.segment.from, law, asKnownOn)];
  if (findings.length) return { counts: false, kind: 'FOMENTO', priorityRegion: inPriority, weighted: ZERO, findings };
  const factor = law.weightingFactor('FOMENTO', g.segment.from, asKnownOn).value;
  return { counts: true, kind: 'FOMENTO', priorityRegion: true, weighted: g.amount.times(factor), findings: [] };
}

/**
 * Art. 4º VI: the year's information that purchases from organizations were judged by their
 * DAP/CAF jurídica alone, on days when no member minimum was published (docs/LAW.md).
 */
export function memberMinimumFindings(purchases: readonly PurchaseGroup[], law: LawBook, asKnownOn: IsoDate): Finding[] {
  const open = purchases.some((g) => g.supplier.organization && !law.cooperativeMinFamilyFarmerShare(g.segment.from, asKnownOn));
  return open ? [sealFinding('MEMBER_MINIMUM_NOT_PUBLISHED')] : [];
}
