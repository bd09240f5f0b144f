import { Conformity, Coverage, contractFindingsFromFacts } from './contract-conformity';
import { Version } from './dated';
import { addDays, IsoDate } from './dates';
import { Decimal, ONE, sum, toCentavos, toShare, ZERO } from './decimal';
import { NoRuleInForceError } from './errors';
import { familyFarmerShare, OrganizationFacts } from './family-farming';
import { described, Finding, finding } from './findings';
import { LawBook, PlantLocation, SpendingKind } from './law-book';
import type { BalanceIn, BalanceOut, SealEvaluation } from './seal-balance';
import { isPriorityRegion } from './municipality';
import { Feedstock, PurchasePurpose, Region, SealComplianceModel, SealWeightingFactor, SupplierKind } from './types';
import { message, Message, translate } from '../i18n';

/**
 * The Selo's annual family-farming targets (Decreto 10.527/2020, art. 3º §2 I–III and §3º;
 * Portaria Interministerial MME/MDA nº 2/2023). Pure: the services bring the year's sums, already
 * aggregated by the database in groups of purchases that share every fact the law looks at; this
 * module decides, group by group, what counts and why the rest does not.
 */

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
} as const;

export type SealComplianceFindingCode = keyof typeof SEAL_COMPLIANCE_BASIS;

/** Each code's general description (in English, src/i18n `finding.<CODE>`) and legal basis. */
export const SEAL_COMPLIANCE_FINDINGS = Object.fromEntries(
  (Object.keys(SEAL_COMPLIANCE_BASIS) as SealComplianceFindingCode[]).map((code) => [code, { message: translate(message(`finding.${code}`)), legalBasis: SEAL_COMPLIANCE_BASIS[code] }]),
) as Record<SealComplianceFindingCode, { message: string; legalBasis: string }>;

export function sealFinding(code: SealComplianceFindingCode, detail?: Message): Finding {
  return described(code, SEAL_COMPLIANCE_BASIS[code], detail ?? message(`finding.${code}`));
}

/** Own-production biodiesel sold in the year (art. 3º §3º II–III). */
export interface SalesTotals {
  /** Revenue of own-production biodiesel sold in the year, every market. */
  ownRevenue: Decimal;
  /** Volume (m³) of own-production biodiesel sold in the year, every market. */
  ownVolume: Decimal;
  /** Volume (m³) of own-production biodiesel exported in the year. */
  exportedVolume: Decimal;
}

export interface Base {
  salesRevenue: Decimal;
  exportedValue: Decimal;
  base: Decimal;
}

/**
 * Decreto 10.527/2020, art. 3º §3º II–III — the base of the minimum shares: the value of biodiesel
 * sold in the year (own production), less the value proportional to the volume exported:
 * exportedValue = salesRevenue × exported volume / total volume. Unrounded.
 * Interpretation: own-production biodiesel only (imported biodiesel is not the producer's), and the
 * exported value proportional to the exported volume, not the export invoices ("valores
 * proporcionais ao volume", §3º III).
 */
export function sealBase(sales: SalesTotals): Base {
  const exportedValue = sales.ownVolume.isZero() ? ZERO : sales.ownRevenue.times(sales.exportedVolume).div(sales.ownVolume);
  return { salesRevenue: sales.ownRevenue, exportedValue, base: sales.ownRevenue.minus(exportedValue) };
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
 * Cut [from, to] into maximal runs of days over which the weighting factors (art. 3º §2 I; from
 * 2024 those of Portaria MDA nº 28/2024) and the organizations' minimum family-farmer share
 * (art. 4º VI) in force, as known on `asKnownOn`, do not change. The database groups the year's items by these segments, so each group is weighed with
 * the figures in force on its dates (DESIGN §1.4).
 */
export function parameterSegments(law: LawBook, from: IsoDate, to: IsoDate, asKnownOn: IsoDate): Segment[] {
  const signature = (d: IsoDate) => [
    ...KINDS.map((k) => signatureOf(() => law.weightingFactor(k, d, asKnownOn))),
    ...FACTORS.map((f) => signatureOf(() => law.sealWeightingFactor(f, d, asKnownOn))),
    signatureOf(() => law.cooperativeMinFamilyFarmerShare(d, asKnownOn)),
  ].join('#');
  const segments: Segment[] = [];
  let start = from;
  let current = signature(from);
  for (let d = addDays(from, 1); d <= to; d = addDays(d, 1)) {
    const s = signature(d);
    if (s !== current) {
      segments.push({ from: start, to: addDays(d, -1) });
      start = d;
      current = s;
    }
  }
  segments.push({ from: start, to });
  return segments;
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
 * Decreto 10.527/2020, art. 2º IV and V; art. 4º VI–VII — the supplier of a group on its purchase
 * dates, from the facts the database established (the same rule as `farmerEligibility` and
 * `organizationHabilitation` of family-farming.ts, which take the registrations themselves):
 * - a family farmer counts when it holds a DAP or CAF valid on the date;
 * - an organization counts when habilitated: a DAP or CAF jurídica valid on the date and a
 *   family-farmer member share at or above the minimum in force (`minShare`).
 * Interpretation: for the Selo, associations count like cooperatives (art. 2º V); the exclusion of
 * associations applies only to the rate categories II/III (art. 6º §2º).
 * A DAP starting after 2022-10-31 counts by its dates, with the finding DAP_ISSUED_AFTER_CUTOFF.
 */
export function supplierDecision(s: SupplierRecord, minShare: () => Decimal): SupplierDecision {
  const reasons: Finding[] = [];
  if (!s.registrationValid) reasons.push(finding('REGISTRATION_NOT_VALID'));
  if (s.kind === SupplierKind.COOPERATIVE || s.kind === SupplierKind.ASSOCIATION) {
    if (!s.organization) throw new Error('An organization supplier needs its member facts');
    const min = minShare();
    const share = familyFarmerShare(s.organization);
    if (share.lt(min)) {
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
 * Decreto 10.527/2020, art. 3º §2 I–II — whether a group of family-farming purchases counts:
 * - (a) BIODIESEL_FEEDSTOCK: bought under a conforming prior contract that covers it (II), from a
 *   supplier eligible on the purchase date;
 * - (b) OTHER_PRODUCT: the same, and the raw material produced in the North, Northeast or Semiárido
 *   (origin municipality).
 * Interpretation: (b) reads "aquisições da agricultura familiar", so its supplier must be eligible
 * too.
 * Interpretation: a counted (a) purchase is part of the priority-region spending (requirement 2)
 * when its origin municipality, where the raw material was produced, is in the priority region.
 * Every reason that applies is listed. `perAcquisition` (the weighted model, from 2024): the
 * contract is judged per acquisition and technical assistance is not a reason to exclude
 * (`contractFindingsFromFacts`).
 */
export function decidePurchaseGroup(g: PurchaseGroup, law: LawBook, asKnownOn: IsoDate, perAcquisition = false): GroupDecision {
  const kind = spendingKindOf(g.purpose);
  const inPriority = isPriorityRegion(g.origin);
  const findings: Finding[] = g.contract
    ? contractFindingsFromFacts(g.contract.conformity, g.contract.priorToPurchase, g.contract.coverage, g.contract.signedOn, perAcquisition)
    : [finding('NO_CONTRACT')];
  if (kind === 'OTHER_PRODUCT' && !inPriority) findings.push(finding('OUTSIDE_PRIORITY_REGION'));
  const supplier = supplierDecision(g.supplier, () => law.cooperativeMinFamilyFarmerShare(g.segment.from, asKnownOn).value);
  const counts = findings.length === 0 && supplier.eligible;
  if (!counts) return { counts, kind, priorityRegion: inPriority, weighted: ZERO, findings: [...findings, ...supplier.findings] };
  const factor = law.weightingFactor(kind, g.segment.from, asKnownOn).value;
  return { counts, kind, priorityRegion: inPriority, weighted: g.amount.times(factor), findings: [] };
}

/** Decreto 10.527/2020, art. 3º §2 I c — fomento counts when spent in the North, Northeast or Semiárido. */
export function decideFomentoGroup(g: FomentoGroup, law: LawBook, asKnownOn: IsoDate): GroupDecision {
  const inPriority = isPriorityRegion(g.place);
  if (!inPriority) return { counts: false, kind: 'FOMENTO', priorityRegion: false, weighted: ZERO, findings: [finding('OUTSIDE_PRIORITY_REGION')] };
  const factor = law.weightingFactor('FOMENTO', g.segment.from, asKnownOn).value;
  return { counts: true, kind: 'FOMENTO', priorityRegion: true, weighted: g.amount.times(factor), findings: [] };
}

export interface ExcludedGroup {
  key: string;
  source: 'PURCHASE' | 'FOMENTO';
  findings: Finding[];
}

export interface SealComplianceFacts {
  year: number;
  asKnownOn: IsoDate;
  plant: PlantLocation;
  sales: SalesTotals;
  purchases: PurchaseGroup[];
  fomento: FomentoGroup[];
  /** Art. 58 (weighted model): the balances of earlier evaluations that count toward this year. */
  balancesIn?: BalanceIn[];
  /** Art. 58: this year's evaluation, when recorded as communicated (and known on asKnownOn). */
  evaluation?: SealEvaluation | null;
}

/** One factor applied to an item (Portaria MDA nº 28/2024, p. 40). */
export interface AppliedFactor {
  factor: SealWeightingFactor;
  /** The alínea: a … f. */
  alinea: string;
  /** Null while the factor is known to apply but its figure is not published (alínea a): the item is weighed without it. */
  value: Decimal | null;
  legalBasis: string;
}

/** A counted group of spending as weighed: its actual value, each factor applied and its weighted value. */
export interface CountedItem {
  key: string;
  source: 'PURCHASE' | 'FOMENTO';
  kind: SpendingKind;
  count: number;
  /** Where the spending was (origin municipality of an acquisition, municipality of fomento), on its date. */
  place: Place;
  product: Feedstock | null;
  /** Of an acquisition from an organization: its family-farmer members / members. */
  organizationShare: Decimal | null;
  /** First day of the run of days whose factors apply. */
  on: IsoDate;
  actual: Decimal;
  /** The weighted model's factors (empty in the flat model, whose single factor is `weight`). */
  factors: AppliedFactor[];
  /** Product of the factors with a published figure (1 when none applies). */
  weight: Decimal;
  weighted: Decimal;
  priorityRegion: boolean;
  /** Findings that do not exclude it (PURCHASE_BELOW_MINIMUM_PRICE, WEIGHTING_FACTOR_NOT_PUBLISHED). */
  findings: Finding[];
}

/** Requirement 1: weighted (or counted) spending / base ≥ the minimum share. */
export interface MinimumShareRequirement {
  /** The minimum in force on 31 December of the year; its value null while not published (weighted model). */
  requiredShare: Version<Decimal | null>;
  achievedShare: Decimal;
  /** requiredShare × base in (weighted) reais; null while the minimum is not published. */
  requiredAmount: Decimal | null;
  /** Art. 58: the balances brought in, summed (a surplus counts toward the minimum, a deficit adds to it); null while one is unknown. */
  balanceIn: Decimal | null;
  /** requiredAmount − counted spending − balanceIn, at least 0; null while the minimum (or a balance) is not known. */
  shortfall: Decimal | null;
  /** Null while the minimum is not published (MINIMUM_NOT_PUBLISHED). */
  met: boolean | null;
}

/** Requirement 2 (Portaria Interministerial MME/MDA nº 2/2023): actual spending in the priority region / actual total. */
export interface PriorityRegionRequirement {
  /** The year's minimum; null before 2024 (no such requirement). */
  requiredShare: Version<Decimal> | null;
  share: Decimal;
  /** Actual reais still to spend in the priority region to reach it (with nothing else spent); 0 when met. */
  shortfall: Decimal;
  met: boolean;
}

/** Requirement 3 (art. 3º §2º III), from 2024 the producer's obligation: the contracts of the year without technical assistance. */
export interface TechnicalAssistanceRequirement {
  contractIds: string[];
  met: boolean;
}

/** Unrounded figures; `present` rounds them for display. */
export interface SealComplianceResult extends Base {
  year: number;
  asKnownOn: IsoDate;
  model: SealComplianceModel;
  /** The act the model rests on. */
  modelLegalBasis: string;
  /** Counted (a), (b), (c). Interpretation: shown before weighting (what was spent). */
  familyFarmingAcquisitions: Decimal;
  otherProductAcquisitions: Decimal;
  fomento: Decimal;
  /** (a) + (b) + (c) as spent (actual, unweighted). */
  actualTotal: Decimal;
  /** (a) + (b) + (c), each times its weighting factors. */
  countedTotal: Decimal;
  /** The actual spending in the North, Northeast and Semiárido (requirement 2). */
  priorityRegionAmount: Decimal;
  achievedShare: Decimal;
  minimumShare: MinimumShareRequirement;
  priorityRegion: PriorityRegionRequirement;
  /** Null in the flat model (the contract's technical assistance then decides whether its purchases count). */
  technicalAssistance: TechnicalAssistanceRequirement | null;
  /** Every requirement met: true; one not met: false; otherwise null (a minimum not published). */
  compliant: boolean | null;
  items: CountedItem[];
  excluded: ExcludedGroup[];
  findings: Finding[];
  /** Art. 58 (weighted model): the balances brought in and the year's own balance leaving it (undefined where the year's does not carry). */
  balance: { broughtIn: BalanceIn[]; carriedOut: BalanceOut | undefined };
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
 * DESIGN §1.3 (computed unrounded): the spending a share of the base requires divides last,
 * share × revenue × (volume − exported) / volume, never share × a 34-digit base; a threshold that
 * is a round sum (15% of 160.520 × 1/3 = 8.026,00) is then met by spending exactly that sum.
 */
export function requiredSpending(share: Decimal, sales: SalesTotals, base: Base): Decimal {
  if (base.base.lte(0)) return ZERO;
  const { ownRevenue, ownVolume, exportedVolume } = sales;
  return ownVolume.isZero() ? share.times(base.base) : share.times(ownRevenue).times(ownVolume.minus(exportedVolume)).div(ownVolume);
}

/** Portaria Interministerial MME/MDA nº 2/2023: the year's minimum priority-region part, null before 2024 (none in force). */
export function priorityRegionMinimum(law: LawBook, year: number, asKnownOn: IsoDate): Version<Decimal> | null {
  try {
    return law.priorityRegionMinShare(targetDay(year), asKnownOn);
  } catch (error) {
    if (error instanceof NoRuleInForceError) return null;
    throw error;
  }
}

/**
 * Requirement 2 (Portaria Interministerial MME/MDA nº 2/2023; DESIGN §1.5, both models): the
 * **actual** (unweighted) spending in the priority region / the actual total ≥ the year's minimum.
 * The shortfall is what, spent in the priority region, reaches it: x with (P + x) / (T + x) = S,
 * x = (S × T − P) / (1 − S). Years before 2024 have no such requirement: met, with no minimum.
 * Interpretation: nothing counted gives a share of 0 and the requirement met (NO_COUNTED_SPENDING).
 */
export function priorityRegionRequirement(required: Version<Decimal> | null, priority: Decimal, total: Decimal): PriorityRegionRequirement {
  const share = total.isZero() ? ZERO : priority.div(total);
  if (!required || total.isZero()) return { requiredShare: required, share, shortfall: ZERO, met: true };
  const met = share.gte(required.value);
  const s = required.value;
  const shortfall = met || s.gte(1) ? ZERO : s.times(total).minus(priority).div(ONE.minus(s));
  return { requiredShare: required, share, shortfall: met ? ZERO : shortfall, met };
}

/** The year-level findings of requirements 1 and 2 (both models). */
export function requirementFindings(
  year: number, r: Pick<SealComplianceResult, 'achievedShare' | 'minimumShare' | 'priorityRegion' | 'model'>, zeroBase: boolean, nothingCounted: boolean,
): Finding[] {
  const findings: Finding[] = [];
  if (zeroBase) findings.push(sealFinding('ZERO_BASE'));
  if (nothingCounted) findings.push(sealFinding('NO_COUNTED_SPENDING'));
  const { requiredShare } = r.minimumShare;
  if (r.minimumShare.met === false && requiredShare.value) {
    const key = r.model === SealComplianceModel.WEIGHTED ? 'finding.MINIMUM_SHARE_NOT_REACHED.weighted' : 'finding.MINIMUM_SHARE_NOT_REACHED.share';
    findings.push(sealFinding('MINIMUM_SHARE_NOT_REACHED', message(key, {
      share: toShare(r.achievedShare).toFixed(), minimum: requiredShare.value.toFixed(), legalBasis: requiredShare.legalBasis,
    })));
  }
  const p = r.priorityRegion;
  if (!p.met && p.requiredShare) {
    findings.push(sealFinding('PRIORITY_REGION_SHARE_NOT_REACHED', message('finding.PRIORITY_REGION_SHARE_NOT_REACHED.share', {
      share: toShare(p.share).toFixed(), minimum: p.requiredShare.value.toFixed(), year, legalBasis: p.requiredShare.legalBasis,
    })));
  }
  return findings;
}

/** Every requirement met: true; one not met: false; none failing but one unknown: null. */
export function verdict(...met: Array<boolean | null>): boolean | null {
  if (met.some((m) => m === false)) return false;
  return met.some((m) => m === null) ? null : true;
}

/**
 * Annual compliance under the flat model (Decreto 10.527/2020, art. 3º §2 I and §3º; Portaria MAPA
 * 144/2019, secondary; Portaria Interministerial MME/MDA nº 2/2023) — years up to 2023, and 2024 as
 * known before 2024-06-28:
 * - requirement 1: countedTotal / base ≥ the minimum share for the plant's region;
 * - requirement 2 (from 2024): the actual priority-region spending / the actual total ≥ the year's
 *   minimum (`priorityRegionRequirement`);
 * - compliant when both hold. Comparisons use the unrounded figures.
 * Interpretation: a zero base gives an achieved share of 0 and requirement 1 met (ZERO_BASE).
 */
export function flatSealCompliance(facts: SealComplianceFacts, law: LawBook): SealComplianceResult {
  const { year, asKnownOn } = facts;
  const base = sealBase(facts.sales);
  const requiredShare = law.minimumSpendingShare(facts.plant, targetDay(year), asKnownOn);

  const counted: Record<SpendingKind, Decimal[]> = { FAMILY_FARMING_ACQUISITION: [], OTHER_PRODUCT: [], FOMENTO: [] };
  const items: CountedItem[] = [];
  const excluded: ExcludedGroup[] = [];
  const take = (key: string, source: ExcludedGroup['source'], g: PurchaseGroup | FomentoGroup, place: Place, d: GroupDecision) => {
    if (!d.counts) {
      excluded.push({ key, source, findings: d.findings });
      return;
    }
    counted[d.kind].push(g.amount);
    items.push({
      key, source, kind: d.kind, count: g.count, place, product: 'product' in g ? g.product ?? null : null, organizationShare: null, on: g.segment.from,
      actual: g.amount, factors: [], weight: g.amount.isZero() ? ONE : d.weighted.div(g.amount), weighted: d.weighted, priorityRegion: d.priorityRegion, findings: [],
    });
  };
  for (const g of facts.purchases) take(g.key, 'PURCHASE', g, g.origin, decidePurchaseGroup(g, law, asKnownOn));
  for (const g of facts.fomento) take(g.key, 'FOMENTO', g, g.place, decideFomentoGroup(g, law, asKnownOn));

  const countedTotal = sum(items.map((i) => i.weighted));
  const actualTotal = sum(items.map((i) => i.actual));
  const priorityRegionAmount = sum(items.filter((i) => i.priorityRegion).map((i) => i.actual));

  const zeroBase = base.base.lte(0);
  const achievedShare = zeroBase ? ZERO : countedTotal.div(base.base);
  const required = requiredSpending(requiredShare.value, facts.sales, base);
  const met = zeroBase || countedTotal.gte(required);
  const minimumShare: MinimumShareRequirement = { requiredShare, achievedShare, requiredAmount: required, balanceIn: ZERO, shortfall: met ? ZERO : required.minus(countedTotal), met };
  const priorityRegion = priorityRegionRequirement(priorityRegionMinimum(law, year, asKnownOn), priorityRegionAmount, actualTotal);
  return {
    year,
    asKnownOn,
    model: SealComplianceModel.FLAT,
    modelLegalBasis: `${requiredShare.legalBasis}`,
    ...base,
    familyFarmingAcquisitions: sum(counted.FAMILY_FARMING_ACQUISITION),
    otherProductAcquisitions: sum(counted.OTHER_PRODUCT),
    fomento: sum(counted.FOMENTO),
    actualTotal,
    countedTotal,
    priorityRegionAmount,
    achievedShare,
    minimumShare,
    priorityRegion,
    technicalAssistance: null,
    compliant: verdict(minimumShare.met, priorityRegion.met),
    items,
    excluded,
    findings: requirementFindings(year, { achievedShare, minimumShare, priorityRegion, model: SealComplianceModel.FLAT }, zeroBase, actualTotal.isZero()),
    balance: { broughtIn: [], carriedOut: undefined },
  };
}

/** Money shown to the centavo, half-even (ABNT NBR 5891). */
export const money = toCentavos;

/**
 * Reais still to spend, shown to the centavo rounded up: spending the amount shown always reaches
 * the minimum (half-even could show a centavo less than needed).
 */
export function shortfallShown(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_CEIL);
}

/**
 * The counted items as shown: groups whose shown facts are all the same (source, kind, region,
 * product, organization share, parameters, factors and findings) merged, summed unrounded and
 * rounded once; purchases first.
 */
export function itemsShown(items: readonly CountedItem[]) {
  const merged = new Map<string, CountedItem>();
  for (const i of items) {
    const key = [
      i.source, i.kind, i.place.region, i.place.semiarid, i.product, i.organizationShare?.toFixed(), i.on, i.weight.toFixed(),
      i.factors.map((f) => `${f.factor}:${f.value?.toFixed()}`).join(','), i.findings.map((f) => f.code).join(','),
    ].join('|');
    const m = merged.get(key);
    merged.set(key, m ? { ...m, count: m.count + i.count, actual: m.actual.plus(i.actual), weighted: m.weighted.plus(i.weighted) } : i);
  }
  return [...merged.values()]
    .sort((a, b) => (a.source === b.source ? 0 : a.source === 'PURCHASE' ? -1 : 1))
    .map((i) => ({
      source: i.source === 'FOMENTO' ? 'FOMENTO_EXPENSE' as const : 'PURCHASE' as const, kind: i.kind, count: i.count, region: i.place.region,
      semiarid: i.place.semiarid, priorityRegion: i.priorityRegion, product: i.product, organizationShare: i.organizationShare && toShare(i.organizationShare),
      from: i.on, actual: money(i.actual), factors: i.factors, weight: i.weight, weighted: money(i.weighted), findings: i.findings,
    }));
}

/**
 * The figures as shown: money to the centavo, shares half-even to 6 decimals (DESIGN §1.3). The
 * contract's non-null figures of requirement 1 read 0 (and `compliant` false) while the minimum is
 * not published; `minimumShare` and `status` say so.
 */
export function present(r: SealComplianceResult) {
  const m = r.minimumShare;
  const p = r.priorityRegion;
  return {
    year: r.year,
    asKnownOn: r.asKnownOn,
    model: r.model,
    modelLegalBasis: r.modelLegalBasis,
    salesRevenue: money(r.salesRevenue),
    exportedValue: money(r.exportedValue),
    // Interpretation: the statement adds up as shown (DESIGN §1.3, "parts add up to the total"):
    // exportedValue is rounded half-even and the base shown is salesRevenue − exportedValue as shown.
    base: money(r.salesRevenue).minus(money(r.exportedValue)),
    familyFarmingAcquisitions: money(r.familyFarmingAcquisitions),
    otherProductAcquisitions: money(r.otherProductAcquisitions),
    fomento: money(r.fomento),
    actualTotal: money(r.actualTotal),
    countedTotal: money(r.countedTotal),
    priorityRegionAmount: money(r.priorityRegionAmount),
    achievedShare: toShare(r.achievedShare),
    requiredShare: toShare(m.requiredShare.value ?? ZERO),
    requiredShareLegalBasis: m.requiredShare.legalBasis,
    shortfall: shortfallShown(m.shortfall ?? ZERO),
    priorityRegionShare: toShare(p.share),
    requiredPriorityRegionShare: toShare(p.requiredShare?.value ?? ZERO),
    requiredPriorityRegionShareLegalBasis: p.requiredShare?.legalBasis ?? NO_PRIORITY_REGION_MINIMUM,
    minimumShareMet: m.met === true,
    priorityRegionShareMet: p.met,
    compliant: r.compliant === true,
    status: r.compliant === null ? 'NOT_ESTABLISHED' as const : r.compliant ? 'COMPLIANT' as const : 'NOT_COMPLIANT' as const,
    minimumShare: {
      requiredShare: m.requiredShare.value && toShare(m.requiredShare.value),
      legalBasis: m.requiredShare.legalBasis,
      achievedShare: toShare(m.achievedShare),
      weightedTotal: money(r.countedTotal),
      requiredAmount: m.requiredAmount && money(m.requiredAmount),
      balanceIn: m.balanceIn && money(m.balanceIn),
      shortfall: m.shortfall && shortfallShown(m.shortfall),
      compliant: m.met,
    },
    balance: r.model === SealComplianceModel.FLAT ? null : {
      broughtIn: r.balance.broughtIn.map((b) => ({ ...b, amount: b.amount && money(b.amount) })),
      carriedOut: r.balance.carriedOut ? { ...r.balance.carriedOut, amount: r.balance.carriedOut.amount && money(r.balance.carriedOut.amount) } : null,
      legalBasis: BALANCE_BASIS,
    },
    priorityRegion: {
      requiredShare: p.requiredShare && toShare(p.requiredShare.value),
      legalBasis: p.requiredShare?.legalBasis ?? NO_PRIORITY_REGION_MINIMUM,
      share: toShare(p.share),
      amount: money(r.priorityRegionAmount),
      actualTotal: money(r.actualTotal),
      shortfall: shortfallShown(p.shortfall),
      compliant: p.met,
    },
    technicalAssistance: r.technicalAssistance && { compliant: r.technicalAssistance.met, contractIds: r.technicalAssistance.contractIds, legalBasis: TECHNICAL_ASSISTANCE_BASIS },
    spending: itemsShown(r.items),
    findings: r.findings,
  };
}

/** Requirement 2 before 2024: none (Portaria Interministerial MME/MDA nº 2/2023 starts with 2024). */
export const NO_PRIORITY_REGION_MINIMUM = 'Portaria Interministerial MME/MDA nº 2/2023: no minimum before 2024';
/** Balances of the evaluation (weighted model). */
export const BALANCE_BASIS = 'Portaria MDA nº 28/2024, art. 58';
/** Requirement 3: the producer's obligation from 2024. */
export const TECHNICAL_ASSISTANCE_BASIS = 'Decreto 10.527/2020, art. 3º §2º III; Portaria MDA nº 28/2024, arts. 15–16';
