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

// Decreto 10.527/2020 art. 3º §§2º–3º, in the wording of the year; pure, over grouped SQL sums.

/** Not in the shared catalogue; documented in docs/LAW.md. */
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
  ATER_COST_AS_DECLARED: 'Portaria MDA nº 28/2024, arts. 15–16',
} as const;

export type SealComplianceFindingCode = keyof typeof SEAL_COMPLIANCE_BASIS;

export const SEAL_COMPLIANCE_FINDINGS = Object.fromEntries(
  (Object.keys(SEAL_COMPLIANCE_BASIS) as SealComplianceFindingCode[]).map((code) => [code, { text: message(`finding.${code}`), legalBasis: SEAL_COMPLIANCE_BASIS[code] }]),
) as Record<SealComplianceFindingCode, { text: Message; legalBasis: string }>;

export function sealFinding(code: SealComplianceFindingCode, detail?: Message): Finding {
  return described(code, SEAL_COMPLIANCE_BASIS[code], detail ?? message(`finding.${code}`));
}

/** Own production, every market (art. 3º §3º II–III). */
export interface SalesTotals {
  ownRevenue: Decimal;
  ownVolume: Decimal;
  exportedVolume: Decimal;
  /** The base from Portaria MDA nº 28/2024. */
  domesticRevenue?: Decimal;
  /** Not from own production (the original §3º II). */
  rawMaterialAcquisitions?: Decimal;
}

export interface Base {
  salesRevenue: Decimal;
  rule: SealBaseRule;
  gross: Decimal;
  /** §3º III. */
  exportedValue: Decimal;
  base: Decimal;
}

/** Art. 3º §3º II–III by wording; unrounded, own production only (docs/LAW.md). */
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

/** Art. 3º §3º I: the targets in force on 31 December; reading in docs/LAW.md. */
export function targetDay(year: number): IsoDate {
  return `${year}-12-31`;
}

/** The wording in force on 31 December governs the year (docs/LAW.md). */
export function sealWordingOf(law: LawBook, year: number, asKnownOn: IsoDate): { wording: SeloWording; version: Version<Record<string, string>> } {
  const w = law.sealWording(targetDay(year), asKnownOn);
  if (!w) throw new NoRuleInForceError(message('law.noVersionInForce', { what: 'the wording of Decreto 10.527/2020, art. 3º §2º I and §3º II', on: targetDay(year), asKnownOn }));
  return w;
}

/** §2º I before Decreto 11.902/2024. */
export function onlyRawMaterialCounts(wording: SeloWording): boolean {
  return wording !== SeloWording.DECRETO_11902_2024;
}

export function baseRuleOf(wording: SeloWording, weighted: boolean): SealBaseRule {
  if (weighted) return SealBaseRule.DOMESTIC_SALES;
  return wording === SeloWording.ORIGINAL ? SealBaseRule.RAW_MATERIAL_ACQUISITIONS : SealBaseRule.BIODIESEL_SOLD;
}

/** Days with the same dated parameters per item. */
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

/** The database groups the year's items by these runs. */
export function parameterSegments(law: LawBook, from: IsoDate, to: IsoDate, asKnownOn: IsoDate): Segment[] {
  const signature = (d: IsoDate) => [
    ...KINDS.map((k) => signatureOf(() => law.weightingFactor(k, d, asKnownOn))),
    ...FACTORS.map((f) => signatureOf(() => law.sealWeightingFactor(f, d, asKnownOn))),
    signatureOf(() => law.cooperativeMinFamilyFarmerShare(d, asKnownOn)),
  ].join('#');
  const candidates = versionBoundaries((['weighting-factor', 'selo-weighting-factor', 'cooperative-min-family-farmer-share'] as const).flatMap((p) => law.versions(p)), asKnownOn);
  return runs(from, to, candidates, signature);
}

export interface Place {
  region: Region;
  semiarid: boolean;
}

/** On each purchase date. */
export interface SupplierRecord {
  kind: SupplierKind;
  /** Art. 2º IV and V. */
  registrationValid: boolean;
  /** Portaria MAPA 174/2022. */
  lateDap: boolean;
  /** Art. 4º VI. */
  organization: OrganizationFacts | null;
}

export interface GroupContract {
  /** Requirement 3 names it. */
  id?: string;
  signedOn: IsoDate;
  conformity: Conformity;
  /** Art. 3º §2 II. */
  priorToPurchase: boolean;
  coverage: Coverage;
}

/** One SQL group: the facts the law looks at. */
export interface PurchaseGroup {
  key: string;
  purpose: PurchasePurpose;
  supplier: SupplierRecord;
  contract: GroupContract | null;
  origin: Place;
  segment: Segment;
  amount: Decimal;
  count: number;
  /** From 2024, for factor f. */
  product?: Feedstock;
  /** From 2024: PGPAF minimum on each purchase's date. */
  belowMinimumPrice?: boolean;
}

export interface FomentoGroup {
  key: string;
  place: Place;
  segment: Segment;
  amount: Decimal;
  count: number;
  /** Its expenses of kind TECHNICAL_ASSISTANCE (Portaria MDA nº 28/2024, arts. 15–16): how many, and their amount. */
  technicalAssistance?: { count: number; amount: Decimal };
}

export interface SupplierDecision {
  eligible: boolean;
  findings: Finding[];
}

/** Art. 2º IV–V, art. 4º VI–VII: the rules of family-farming.ts on database facts. */
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

/** Art. 3º §2 I a or b. */
export function spendingKindOf(purpose: PurchasePurpose): SpendingKind {
  return purpose === PurchasePurpose.OTHER_PRODUCT ? 'OTHER_PRODUCT' : 'FAMILY_FARMING_ACQUISITION';
}

export interface GroupDecision {
  counts: boolean;
  kind: SpendingKind;
  /** Requirement 2. */
  priorityRegion: boolean;
  weighted: Decimal;
  /** Why it does not count; empty when it counts. */
  findings: Finding[];
  /** When it counts, what does not exclude it but must be said of it (DAP_ISSUED_AFTER_CUTOFF). */
  warnings: Finding[];
}

/** Art. 3º §2º I–II, every reason listed; readings in docs/LAW.md. */
export function decidePurchaseGroup(g: PurchaseGroup, law: LawBook, asKnownOn: IsoDate): GroupDecision {
  const kind = spendingKindOf(g.purpose);
  const inPriority = isPriorityRegion(g.origin);
  const findings: Finding[] = g.contract
    ? contractFindingsFromFacts(g.contract.conformity, g.contract.priorToPurchase, g.contract.coverage, g.contract.signedOn)
    : [finding('NO_CONTRACT')];
  if (kind === 'OTHER_PRODUCT' && !inPriority) findings.push(finding('OUTSIDE_PRIORITY_REGION'));
  if (kind === 'OTHER_PRODUCT') findings.push(...notInWording(g.segment.from, law, asKnownOn));
  const supplier = supplierDecision(g.supplier, () => law.cooperativeMinFamilyFarmerShare(g.segment.from, asKnownOn)?.value ?? null);
  const counts = findings.length === 0 && supplier.eligible;
  if (!counts) return { counts, kind, priorityRegion: inPriority, weighted: ZERO, findings: [...findings, ...supplier.findings], warnings: [] };
  const factor = law.weightingFactor(kind, g.segment.from, asKnownOn).value;
  // Portaria MAPA 174/2022: an eligible supplier's only finding is a DAP issued after the cutoff,
  // kept and counted by its dates; the counted purchase still says it (docs/LAW.md).
  return { counts, kind, priorityRegion: inPriority, weighted: g.amount.times(factor), findings: [], warnings: supplier.findings };
}

/** (b) and (c) count only from Decreto 11.902/2024's wording. */
function notInWording(on: IsoDate, law: LawBook, asKnownOn: IsoDate): Finding[] {
  const w = law.sealWording(targetDay(Number(on.slice(0, 4))), asKnownOn);
  if (!w || !onlyRawMaterialCounts(w.wording)) return [];
  return [sealFinding('SPENDING_NOT_IN_WORDING', message('finding.SPENDING_NOT_IN_WORDING.wording', { legalBasis: w.version.legalBasis }))];
}

/** Art. 3º §2 I c (from Decreto 11.902/2024). */
export function decideFomentoGroup(g: FomentoGroup, law: LawBook, asKnownOn: IsoDate): GroupDecision {
  const inPriority = isPriorityRegion(g.place);
  const findings = [...(inPriority ? [] : [finding('OUTSIDE_PRIORITY_REGION')]), ...notInWording(g.segment.from, law, asKnownOn)];
  if (findings.length) return { counts: false, kind: 'FOMENTO', priorityRegion: inPriority, weighted: ZERO, findings, warnings: [] };
  const factor = law.weightingFactor('FOMENTO', g.segment.from, asKnownOn).value;
  return { counts: true, kind: 'FOMENTO', priorityRegion: true, weighted: g.amount.times(factor), findings: [], warnings: [] };
}

/**
 * Art. 3º §2º III: the contracts of the year's purchases that do not assure technical assistance,
 * by id — the producer's obligation, a finding of the year in both models (docs/LAW.md).
 */
export function contractsWithoutTechnicalAssistance(purchases: readonly PurchaseGroup[]): string[] {
  const ids = new Set<string>();
  for (const g of purchases) {
    if (!g.contract?.conformity.findings.some((f) => f.code === 'NO_TECHNICAL_ASSISTANCE')) continue;
    if (g.contract.id === undefined) throw new Error('The year needs the id of each contract (its technical-assistance finding names them)');
    ids.add(g.contract.id);
  }
  return [...ids].sort((a, b) => Number(a) - Number(b));
}

/** Art. 3º §2º III on the year, naming the contracts. */
export function technicalAssistanceFinding(contractIds: readonly string[]): Finding[] {
  return contractIds.length ? [finding('NO_TECHNICAL_ASSISTANCE', message('finding.NO_TECHNICAL_ASSISTANCE.contracts', { contracts: contractIds.join(', ') }))] : [];
}

/**
 * Portaria MAPA 174/2022 on the year: how many counted purchases were bought from a farmer whose
 * DAP was issued after the cutoff (kept and counted; for the analyst to check).
 */
export function lateDapFindings(items: ReadonlyArray<{ count: number; findings: readonly Finding[] }>): Finding[] {
  const count = items.filter((i) => i.findings.some((f) => f.code === 'DAP_ISSUED_AFTER_CUTOFF')).reduce((n, i) => n + i.count, 0);
  return count ? [finding('DAP_ISSUED_AFTER_CUTOFF', message('finding.DAP_ISSUED_AFTER_CUTOFF.count', { count }))] : [];
}

/**
 * Portaria MDA nº 28/2024, arts. 15–16, on a counted fomento item of the weighted model: its
 * technical-assistance expenses count at their recorded amount, read as the countable cost the
 * producer declares — the records cannot tell the technicians' pay from travel, lodging and meals,
 * and the percentage that caps the latter is not in our sources (Interpretation, docs/LAW.md).
 */
export function aterWarnings(g: FomentoGroup): Finding[] {
  const ater = g.technicalAssistance;
  if (!ater || ater.count === 0) return [];
  return [sealFinding('ATER_COST_AS_DECLARED', message('finding.ATER_COST_AS_DECLARED.item', { count: ater.count, expenses: g.count, amount: ater.amount.toFixed(2) }))];
}

/** The same on one counted fomento expense (countedItems): its own kind says whether it applies. */
export function fomentoExpenseFindings(groupFindings: readonly Finding[], technicalAssistance: boolean): Finding[] {
  return groupFindings.flatMap((f) => (f.code !== 'ATER_COST_AS_DECLARED' ? [f] : technicalAssistance ? [sealFinding('ATER_COST_AS_DECLARED')] : []));
}

/** Arts. 15–16 on the year: how many counted technical-assistance expenses, and their amount. */
export function aterYearFindings(counted: readonly FomentoGroup[]): Finding[] {
  const count = counted.reduce((n, g) => n + (g.technicalAssistance?.count ?? 0), 0);
  if (count === 0) return [];
  const amount = counted.reduce((a, g) => a.plus(g.technicalAssistance?.amount ?? ZERO), ZERO);
  return [sealFinding('ATER_COST_AS_DECLARED', message('finding.ATER_COST_AS_DECLARED.year', { count, amount: amount.toFixed(2) }))];
}

/** Art. 4º VI with no member minimum published (docs/LAW.md). */
export function memberMinimumFindings(purchases: readonly PurchaseGroup[], law: LawBook, asKnownOn: IsoDate): Finding[] {
  const open = purchases.some((g) => g.supplier.organization && !law.cooperativeMinFamilyFarmerShare(g.segment.from, asKnownOn));
  return open ? [sealFinding('MEMBER_MINIMUM_NOT_PUBLISHED')] : [];
}
