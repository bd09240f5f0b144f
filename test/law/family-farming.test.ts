import { Decimal } from '../../src/law/decimal';
import { familyFarmerShare, familyFarmingOrigin, farmerEligibility, organizationHabilitation } from '../../src/law/family-farming';
import { OrganizationKind, Registration, RegistrationKind, SupplierKind } from '../../src/law/types';

const caf = (validFrom: string, validUntil: string): Registration => ({ kind: RegistrationKind.CAF, number: 'CAF-1', validFrom, validUntil });
const dap = (validFrom: string, validUntil: string): Registration => ({ kind: RegistrationKind.DAP, number: 'DAP-1', validFrom, validUntil });

describe('family farmer eligibility (Decreto 10.527/2020, art. 2º IV)', () => {
  const purchaseOn = '2024-03-15';

  test('a DAP that expired the day before the purchase does not make the farmer eligible', () => {
    const e = farmerEligibility([dap('2022-03-15', '2024-03-14')], purchaseOn);
    expect(e.eligible).toBe(false);
    expect(e.findings.map((f) => f.code)).toEqual(['REGISTRATION_NOT_VALID']);
  });

  test('a DAP that expires on the day of the purchase still covers it (validUntil inclusive)', () => {
    const e = farmerEligibility([dap('2022-03-15', '2024-03-15')], purchaseOn);
    expect(e).toEqual({ eligible: true, findings: [] });
  });

  test('a CAF starting on the purchase day covers it', () => {
    expect(farmerEligibility([caf('2024-03-15', '2026-03-14')], purchaseOn).eligible).toBe(true);
    expect(farmerEligibility([caf('2024-03-16', '2026-03-15')], purchaseOn).eligible).toBe(false);
  });

  test('a DAP with validity from after 2022-10-31 is kept but flagged DAP_ISSUED_AFTER_CUTOFF (Portaria MAPA 174/2022)', () => {
    const last = farmerEligibility([dap('2022-10-31', '2024-10-30')], '2023-01-10');
    expect(last).toEqual({ eligible: true, findings: [] });
    const after = farmerEligibility([dap('2022-11-01', '2024-10-31')], '2023-01-10');
    expect(after.eligible).toBe(true);
    expect(after.findings.map((f) => f.code)).toEqual(['DAP_ISSUED_AFTER_CUTOFF']);
  });

  test('no registration at all: not eligible', () => {
    expect(farmerEligibility([], purchaseOn).findings.map((f) => f.code)).toEqual(['REGISTRATION_NOT_VALID']);
  });
});

describe('organization habilitation (Decreto 10.527/2020, art. 4º VI and VII)', () => {
  const minimum = new Decimal('0.6');
  const on = '2025-06-30';
  const valid = [caf('2024-01-01', '2025-12-31')];
  const coop = (familyFarmerMembers: number) => ({ kind: OrganizationKind.COOPERATIVE, members: 100, familyFarmerMembers });

  test('59 of 100 members are family farmers: below the minimum 0,6', () => {
    const h = organizationHabilitation(coop(59), valid, minimum, on);
    expect(h.habilitated).toBe(false);
    expect(h.findings.map((f) => f.code)).toEqual(['MEMBER_SHARE_BELOW_MINIMUM']);
  });

  test('60 of 100 members: exactly the minimum, habilitated ("at or above")', () => {
    expect(organizationHabilitation(coop(60), valid, minimum, on)).toEqual({ on, habilitated: true, findings: [] });
  });

  test('the share is familyFarmerMembers / members, exact', () => {
    expect(familyFarmerShare(coop(59)).toString()).toBe('0.59');
    expect(familyFarmerShare({ kind: OrganizationKind.COOPERATIVE, members: 3, familyFarmerMembers: 2 }).toSignificantDigits(6).toString()).toBe('0.666667');
    expect(familyFarmerShare({ kind: OrganizationKind.COOPERATIVE, members: 0, familyFarmerMembers: 0 }).toString()).toBe('0');
  });

  test('registration expired the day before: not habilitated, whatever the share', () => {
    const h = organizationHabilitation(coop(90), [caf('2023-07-01', '2025-06-29')], minimum, on);
    expect(h.habilitated).toBe(false);
    expect(h.findings.map((f) => f.code)).toEqual(['REGISTRATION_NOT_VALID']);
  });

  test('both failing: both findings', () => {
    expect(organizationHabilitation(coop(10), [], minimum, on).findings.map((f) => f.code)).toEqual(['REGISTRATION_NOT_VALID', 'MEMBER_SHARE_BELOW_MINIMUM']);
  });
});

describe('family-farming origin of a lot (Decreto 10.527/2020, art. 6º §2º; Lei 11.116/2005, art. 5º §3º)', () => {
  const habilitated = { on: '2025-01-01', habilitated: true, findings: [] };
  test('a habilitated cooperative: family farming', () => {
    expect(familyFarmingOrigin({ kind: SupplierKind.COOPERATIVE, organization: habilitated })).toEqual({ familyFarming: true, findings: [] });
  });
  test('a habilitated association: not family farming for II/III (Interpretation), ASSOCIATION_NOT_COOPERATIVE', () => {
    const o = familyFarmingOrigin({ kind: SupplierKind.ASSOCIATION, organization: habilitated });
    expect(o.familyFarming).toBe(false);
    expect(o.findings.map((f) => f.code)).toEqual(['ASSOCIATION_NOT_COOPERATIVE']);
  });
  test('a cooperative below the member minimum: SUPPLIER_NOT_ELIGIBLE with the reason', () => {
    const h = organizationHabilitation({ kind: OrganizationKind.COOPERATIVE, members: 100, familyFarmerMembers: 59 }, [caf('2024-01-01', '2026-01-01')], new Decimal('0.6'), '2025-01-01');
    expect(familyFarmingOrigin({ kind: SupplierKind.COOPERATIVE, organization: h }).findings.map((f) => f.code)).toEqual(['SUPPLIER_NOT_ELIGIBLE', 'MEMBER_SHARE_BELOW_MINIMUM']);
  });
  test('an eligible farmer: family farming; an ineligible one: SUPPLIER_NOT_ELIGIBLE and why', () => {
    expect(familyFarmingOrigin({ kind: SupplierKind.FAMILY_FARMER, farmer: farmerEligibility([caf('2024-01-01', '2025-12-31')], '2025-01-01') }).familyFarming).toBe(true);
    const no = familyFarmingOrigin({ kind: SupplierKind.FAMILY_FARMER, farmer: farmerEligibility([caf('2024-01-01', '2024-12-31')], '2025-01-01') });
    expect(no.findings.map((f) => f.code)).toEqual(['SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID']);
  });
  test('third parties and own production: NOT_FROM_FAMILY_FARMING', () => {
    expect(familyFarmingOrigin({ kind: SupplierKind.THIRD_PARTY }).findings.map((f) => f.code)).toEqual(['NOT_FROM_FAMILY_FARMING']);
    expect(familyFarmingOrigin({ kind: SupplierKind.OWN_PRODUCTION }).familyFarming).toBe(false);
  });
});
