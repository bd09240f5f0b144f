import { IsoDate, within } from './dates';
import { Decimal, ZERO } from './decimal';
import { Finding, finding } from './findings';
import { OrganizationKind, Registration, RegistrationKind, SupplierKind } from './types';
import { message } from './message';

/** Portaria MAPA 174/2022: issued DAPs stay valid until they expire. */
export const LAST_DAP_ISSUE_DAY: IsoDate = '2022-10-31';

export interface Eligibility {
  eligible: boolean;
  findings: Finding[];
}

/** Art. 2º IV, both ends inclusive. Interpretation: a DAP starting after 2022-10-31 counts, flagged. */
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

/** Art. 4º VI. */
export interface MembershipDeclaration {
  declaredOn: IsoDate | null;
  members: number;
  familyFarmerMembers: number;
  /** Among the same day, the later recorded wins. */
  seq: number;
}

/** Art. 4º VI; an undated declaration precedes any dated one (docs/LAW.md). */
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

/** Art. 4º VI; 0 with no members. */
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

export interface SupplierFacts {
  kind: SupplierKind;
  farmer?: Eligibility | null;
  organization?: Habilitation | null;
}

export interface FamilyFarmingOrigin {
  familyFarming: boolean;
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
