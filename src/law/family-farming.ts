import { IsoDate, within } from './dates';
import { Decimal, ZERO } from './decimal';
import { Finding, finding } from './findings';
import { OrganizationKind, Registration, RegistrationKind, SupplierKind } from './types';
import { message } from './message';

/**
 * Portaria MAPA 174/2022 — DAPs were issued only until 2022-10-31; from 2022-11-01 only the CAF
 * is issued, and DAPs already issued stay valid until they expire (related law, "Family farmers").
 */
export const LAST_DAP_ISSUE_DAY: IsoDate = '2022-10-31';

export interface Eligibility {
  eligible: boolean;
  findings: Finding[];
}

/**
 * Decreto 10.527/2020 art. 2º IV: a DAP or CAF valid on the date (both ends inclusive), else
 * REGISTRATION_NOT_VALID. Interpretation: a DAP starting after 2022-10-31 counts, flagged.
 */
export function farmerEligibility(registrations: readonly Registration[], on: IsoDate): Eligibility {
  const valid = registrations.filter((r) => within(on, r.validFrom, r.validUntil));
  const findings: Finding[] = [];
  if (valid.length === 0) findings.push(finding('REGISTRATION_NOT_VALID', message('finding.REGISTRATION_NOT_VALID.farmer', { on })));
  findings.push(...afterCutoff(valid));
  return { eligible: valid.length > 0, findings };
}

function afterCutoff(valid: readonly Registration[]): Finding[] {
  return valid
    .filter((r) => r.kind === RegistrationKind.DAP && r.validFrom > LAST_DAP_ISSUE_DAY)
    .map((r) => finding('DAP_ISSUED_AFTER_CUTOFF', message('finding.DAP_ISSUED_AFTER_CUTOFF.dap', { number: r.number, validFrom: r.validFrom, cutoff: LAST_DAP_ISSUE_DAY })));
}

export interface OrganizationFacts {
  kind: OrganizationKind;
  members: number;
  familyFarmerMembers: number;
}

/** One declaration of an organization's members (art. 4º VI): `declaredOn` null for counts recorded without a date. */
export interface MembershipDeclaration {
  declaredOn: IsoDate | null;
  members: number;
  familyFarmerMembers: number;
  /** Order of recording: among declarations of the same day, the later recorded wins. */
  seq: number;
}

/**
 * Decreto 10.527/2020, art. 4º VI — the member counts in force on `on`: the declaration declared
 * latest on or before that day (an undated one counts as declared before any dated one; among the
 * same day, the later recorded). Null when every declaration is later than `on`.
 */
export function membershipOn(declarations: readonly MembershipDeclaration[], on: IsoDate): MembershipDeclaration | null {
  let best: MembershipDeclaration | null = null;
  for (const d of declarations) {
    if (d.declaredOn !== null && d.declaredOn > on) continue;
    if (!best || (d.declaredOn ?? '') > (best.declaredOn ?? '') || ((d.declaredOn ?? '') === (best.declaredOn ?? '') && d.seq > best.seq)) best = d;
  }
  return best;
}

export interface Habilitation {
  on: IsoDate;
  habilitated: boolean;
  findings: Finding[];
}

/** Decreto 10.527/2020, art. 4º VI — the share of family farmers among the members (0 with no members). */
export function familyFarmerShare(org: OrganizationFacts): Decimal {
  if (org.members <= 0) return ZERO;
  return new Decimal(org.familyFarmerMembers).div(org.members);
}

/**
 * Decreto 10.527/2020 art. 4º VI–VII, art. 2º V: a valid DAP/CAF jurídica and, once a minimum is
 * in force, a member share at or above it. Interpretation (docs/LAW.md): unpublished → the document
 * alone decides; the minimum applies to associations too.
 */
export function organizationHabilitation(org: OrganizationFacts, registrations: readonly Registration[], minShare: Decimal | null, on: IsoDate): Habilitation {
  const findings: Finding[] = [];
  const valid = registrations.filter((r) => within(on, r.validFrom, r.validUntil));
  if (valid.length === 0) findings.push(finding('REGISTRATION_NOT_VALID', message('finding.REGISTRATION_NOT_VALID.organization', { on })));
  const share = familyFarmerShare(org);
  if (minShare === null) findings.push(finding('MEMBER_MINIMUM_NOT_PUBLISHED'));
  const belowMinimum = minShare !== null && share.lt(minShare);
  if (belowMinimum) {
    findings.push(finding('MEMBER_SHARE_BELOW_MINIMUM', message('finding.MEMBER_SHARE_BELOW_MINIMUM.share', {
      familyFarmers: org.familyFarmerMembers, members: org.members, share: share.toSignificantDigits(6).toFixed(), minimum: minShare!.toFixed(),
    })));
  }
  findings.push(...afterCutoff(valid));
  return { on, habilitated: valid.length > 0 && !belowMinimum, findings };
}

/** What is known about the supplier of a lot on its purchase date. */
export interface SupplierFacts {
  kind: SupplierKind;
  /** For FAMILY_FARMER: the farmer's eligibility on the purchase date. */
  farmer?: Eligibility | null;
  /** For COOPERATIVE or ASSOCIATION: the organization's habilitation on the purchase date. */
  organization?: Habilitation | null;
}

export interface FamilyFarmingOrigin {
  familyFarming: boolean;
  /** Why the lot did not come from family farming (empty when it did). */
  findings: Finding[];
}

/**
 * Decreto 10.527/2020 art. 6º §2º; Lei 11.116/2005 art. 5º §3º: bought from an eligible farmer or
 * a habilitated cooperative.
 * Interpretation: purchases from associations count for the Selo (art. 2º V) but not for categories II/III.
 */
export function familyFarmingOrigin(supplier: SupplierFacts): FamilyFarmingOrigin {
  switch (supplier.kind) {
    case SupplierKind.FAMILY_FARMER:
      if (supplier.farmer?.eligible) return { familyFarming: true, findings: [] };
      return { familyFarming: false, findings: [finding('SUPPLIER_NOT_ELIGIBLE'), ...(supplier.farmer?.findings ?? [])] };
    case SupplierKind.COOPERATIVE:
      if (supplier.organization?.habilitated) return { familyFarming: true, findings: [] };
      return { familyFarming: false, findings: [finding('SUPPLIER_NOT_ELIGIBLE'), ...(supplier.organization?.findings ?? [])] };
    case SupplierKind.ASSOCIATION:
      return { familyFarming: false, findings: [finding('ASSOCIATION_NOT_COOPERATIVE')] };
    default:
      return { familyFarming: false, findings: [finding('NOT_FROM_FAMILY_FARMING')] };
  }
}
