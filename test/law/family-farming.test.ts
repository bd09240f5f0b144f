import { Decimal } from '../../src/law/decimal';
import { createLawBook, LawBook } from '../../src/law/law-book';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
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
    const o = familyFarmingOrigin({ kind: SupplierKind.COOPERATIVE, organization: h });
    expect([o.familyFarming, o.findings.map((f) => f.code)]).toEqual([false, ['SUPPLIER_NOT_ELIGIBLE', 'MEMBER_SHARE_BELOW_MINIMUM']]);
  });
  test('an eligible farmer: family farming; an ineligible one: SUPPLIER_NOT_ELIGIBLE and why', () => {
    expect(familyFarmingOrigin({ kind: SupplierKind.FAMILY_FARMER, farmer: farmerEligibility([caf('2024-01-01', '2025-12-31')], '2025-01-01') }).familyFarming).toBe(true);
    const no = familyFarmingOrigin({ kind: SupplierKind.FAMILY_FARMER, farmer: farmerEligibility([caf('2024-01-01', '2024-12-31')], '2025-01-01') });
    expect([no.familyFarming, no.findings.map((f) => f.code)]).toEqual([false, ['SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID']]);
  });
  test('third parties and own production: NOT_FROM_FAMILY_FARMING', () => {
    const third = familyFarmingOrigin({ kind: SupplierKind.THIRD_PARTY });
    expect([third.familyFarming, third.findings.map((f) => f.code)]).toEqual([false, ['NOT_FROM_FAMILY_FARMING']]);
    expect(familyFarmingOrigin({ kind: SupplierKind.OWN_PRODUCTION }).familyFarming).toBe(false);
  });
});

describe('the cooperative member minimum is not shipped (Decreto 10.527/2020, art. 4º VI: set by the ministry; no source publishes it)', () => {
  const published = createLawBook([
    ...SHIPPED_LAW,
    // A minimum as an ADMIN would publish it: 0,6 in force from 2026-01-01, published 2025-12-01.
    { parameter: 'cooperative-min-family-farmer-share', scope: null, value: { share: '0.6' }, validFrom: '2026-01-01', validUntil: null, publishedOn: '2025-12-01', legalBasis: 'Portaria MDA hipotética, art. 1º' },
  ]);
  const shipped = createLawBook(SHIPPED_LAW);
  const valid = [caf('2024-01-01', '2027-12-31')];
  // 59 of 100 members are family farmers: 59 / 100 = 0,59 < 0,6.
  const coop = { kind: OrganizationKind.COOPERATIVE, members: 100, familyFarmerMembers: 59 };
  const habilitation = (law: LawBook, on: string, asKnownOn: string) =>
    organizationHabilitation(coop, valid, law.cooperativeMinFamilyFarmerShare(on, asKnownOn)?.value ?? null, on);

  test('with none published, the DAP/CAF jurídica valid on the date decides, MEMBER_MINIMUM_NOT_PUBLISHED informs', () => {
    const h = habilitation(shipped, '2025-06-30', '2026-06-30');
    expect(h.habilitated).toBe(true);
    expect(h.findings.map((f) => f.code)).toEqual(['MEMBER_MINIMUM_NOT_PUBLISHED']);
    expect(h.findings[0].legalBasis).toBe('Decreto 10.527/2020, art. 4º VI');
    // No valid document: not habilitated, whatever the members.
    const none = organizationHabilitation(coop, [caf('2020-01-01', '2024-12-31')], null, '2025-06-30');
    expect(none.habilitated).toBe(false);
    expect(none.findings.map((f) => f.code)).toEqual(['REGISTRATION_NOT_VALID', 'MEMBER_MINIMUM_NOT_PUBLISHED']);
  });

  test('a cooperative before and after a published minimum: 59 of 100 passes on 2025-12-31, fails on 2026-01-01 (0,59 < 0,6)', () => {
    expect(habilitation(published, '2025-12-31', '2026-06-30').habilitated).toBe(true);
    const after = habilitation(published, '2026-01-01', '2026-06-30');
    expect(after.habilitated).toBe(false);
    expect(after.findings.map((f) => f.code)).toEqual(['MEMBER_SHARE_BELOW_MINIMUM']);
    // As known before the publication (2025-11-30), 2026-01-01 is still judged by the document alone.
    expect(habilitation(published, '2026-01-01', '2025-11-30').habilitated).toBe(true);
    // 60 of 100 = 0,6: at the minimum, habilitated.
    expect(organizationHabilitation({ ...coop, familyFarmerMembers: 60 }, valid, new Decimal('0.6'), '2026-01-01').habilitated).toBe(true);
  });
});
