import { findingMessage } from '../../src/i18n/finding-message';
import { Conformity } from '../../src/law/contract-conformity';
import { Decimal } from '../../src/law/decimal';
import { farmerEligibility, organizationHabilitation } from '../../src/law/family-farming';
import { createLawBook, LawVersionRecord } from '../../src/law/law-book';
import { FomentoGroup, parameterSegments, PurchaseGroup, sealBase, supplierDecision } from '../../src/law/seal-spending';
import { flatSealCompliance as sealCompliance, SealComplianceFacts } from '../../src/law/seal-year';
import { present, shortfallShown } from '../../src/law/seal-presentation';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { OrganizationKind, PurchasePurpose, Region, RegistrationKind, SupplierKind } from '../../src/law/types';

const d = (v: string) => new Decimal(v);
const codes = (fs: Array<{ code: string }>) => fs.map((f) => f.code);
const LAW = createLawBook(SHIPPED_LAW);
const KNOWN = '2026-12-01';
const YEAR_2025 = { from: '2025-01-01', to: '2025-12-31' };
const CONFORMING: Conformity = { conforming: true, findings: [], minimumPrice: null };
const NORTHEAST = { region: Region.NORTHEAST, semiarid: false };
const SOUTH = { region: Region.SOUTH, semiarid: false };

/** A group of (a) purchases from an eligible farmer under a conforming contract that covers them. */
function group(amount: string, over: Partial<PurchaseGroup> = {}): PurchaseGroup {
  return {
    key: `g${Math.random()}`,
    purpose: PurchasePurpose.BIODIESEL_FEEDSTOCK,
    supplier: { kind: SupplierKind.FAMILY_FARMER, registrationValid: true, lateDap: false, organization: null },
    contract: { signedOn: '2025-01-01', conformity: CONFORMING, priorToPurchase: true, coverage: { date: true, feedstock: true, counterparty: true } },
    origin: SOUTH,
    segment: YEAR_2025,
    amount: d(amount),
    count: 1,
    ...over,
  };
}
const fomento = (amount: string, place = NORTHEAST): FomentoGroup => ({ key: `f${amount}`, place, segment: YEAR_2025, amount: d(amount), count: 1 });

function facts(over: Partial<SealComplianceFacts>): SealComplianceFacts {
  return {
    year: 2025, asKnownOn: KNOWN, plant: SOUTH,
    sales: { ownRevenue: d('1000000'), ownVolume: d('200'), exportedVolume: d('0') },
    purchases: [], fomento: [], ...over,
  };
}

describe('the base (Decreto 10.527/2020, art. 3º §3º II–III)', () => {
  test('exportedValue = revenue × exported volume / total volume; base = revenue − exportedValue', () => {
    // R$ 1.000.000 for 300 m³, of which 100 m³ exported: 1.000.000 × 100/300 = 333.333,33…
    const b = sealBase({ ownRevenue: d('1000000'), ownVolume: d('300'), exportedVolume: d('100') });
    expect(b.exportedValue.toFixed(10)).toBe('333333.3333333333');
    expect(b.base.plus(b.exportedValue).toFixed()).toBe('1000000');
  });

  test('no sales at all: zero base, ZERO_BASE, achieved share 0 and requirement 1 met', () => {
    const r = sealCompliance(facts({ sales: { ownRevenue: d('0'), ownVolume: d('0'), exportedVolume: d('0') }, fomento: [fomento('100')] }), LAW);
    expect(r.base.toFixed()).toBe('0');
    expect(r.achievedShare.toFixed()).toBe('0');
    expect(r.minimumShare.met).toBe(true);
    expect(r.minimumShare.shortfall!.toFixed()).toBe('0');
    expect(codes(r.findings)).toContain('ZERO_BASE');
  });

  test('everything exported: zero base as well', () => {
    expect(sealBase({ ownRevenue: d('500'), ownVolume: d('10'), exportedVolume: d('10') }).base.toFixed()).toBe('0');
  });
});

describe('requirement 1: countedTotal / base ≥ the minimum for the plant region (art. 3º §3º I)', () => {
  // South (Portaria MAPA 144/2019, secondary): 40% of R$ 1.000.000 = R$ 400.000. The raw material
  // comes from the Nordeste, so requirement 2 holds throughout.
  const run = (counted: string) => sealCompliance(facts({ purchases: [group(counted, { origin: NORTHEAST })] }), LAW);

  test('exactly at 40%: met, shortfall 0', () => {
    const r = run('400000');
    expect(r.achievedShare.toFixed()).toBe('0.4');
    expect(r.minimumShare.met).toBe(true);
    expect(r.minimumShare.shortfall!.toFixed()).toBe('0');
    expect(r.compliant).toBe(true);
  });

  test('one centavo below: not met, shortfall R$ 0,01, MINIMUM_SHARE_NOT_REACHED', () => {
    const r = run('399999.99');
    expect(r.minimumShare.met).toBe(false);
    expect(r.minimumShare.shortfall!.toFixed()).toBe('0.01');
    expect(r.compliant).toBe(false);
    expect(codes(r.findings)).toEqual(['MINIMUM_SHARE_NOT_REACHED']);
  });

  test('one centavo above: met', () => {
    expect(run('400000.01').minimumShare.met).toBe(true);
  });

  test('the same spending in a Northeast plant (30%) is compliant at R$ 300.000, a South plant (40%) is not', () => {
    const spend = { purchases: [group('300000', { origin: NORTHEAST })] };
    expect(sealCompliance(facts({ ...spend, plant: NORTHEAST }), LAW).compliant).toBe(true);
    const south = sealCompliance(facts({ ...spend, plant: SOUTH }), LAW);
    expect(south.compliant).toBe(false);
    expect(south.minimumShare.shortfall!.toFixed()).toBe('100000');
  });

  test('the shortfall is shown rounded up to the centavo, so spending it always reaches the minimum', () => {
    expect(shortfallShown(d('0.001')).toFixed(2)).toBe('0.01');
    expect(shortfallShown(d('10.005')).toFixed(2)).toBe('10.01');
    // 40% of a base of R$ 1.000,005: 400,002 required; 400 counted leaves 0,002 → shown 0,01.
    const r = sealCompliance(facts({ sales: { ownRevenue: d('1000.005'), ownVolume: d('1'), exportedVolume: d('0') }, purchases: [group('400', { origin: NORTHEAST })] }), LAW);
    expect(r.minimumShare.shortfall!.toFixed()).toBe('0.002');
    expect(present(r).shortfall?.toFixed(2)).toBe('0.01');
    expect(present(r).base.toFixed(2)).toBe('1000.00'); // half-even: 1000,005 → 1000,00
  });
});

describe('requirement 2: the priority-region part of counted spending (Portaria Interministerial MME/MDA nº 2/2023)', () => {
  // A Northeast plant with a tiny base so requirement 1 always holds; counted 100.000 in all.
  const run = (year: number, inPriority: string) => {
    const outside = new Decimal('100000').minus(inPriority).toFixed();
    return sealCompliance(facts({
      year, plant: NORTHEAST, sales: { ownRevenue: d('1'), ownVolume: d('1'), exportedVolume: d('0') },
      purchases: [group(inPriority, { origin: NORTHEAST }), group(outside, { origin: SOUTH })],
    }), LAW);
  };

  test.each([
    [2024, '10000', '0.1'],
    [2025, '15000', '0.15'],
    [2026, '20000', '0.2'],
  ])('%i: exactly at the minimum (%s of 100.000) is met; one centavo less is not; one more is', (year, at, share) => {
    const exact = run(year, at);
    expect(exact.priorityRegion.requiredShare!.value.toFixed()).toBe(share);
    expect(exact.priorityRegion.share.toFixed()).toBe(share);
    expect(exact.priorityRegion.met).toBe(true);
    const below = run(year, new Decimal(at).minus('0.01').toFixed());
    expect(below.priorityRegion.met).toBe(false);
    expect(below.compliant).toBe(false);
    expect(codes(below.findings)).toEqual(['PRIORITY_REGION_SHARE_NOT_REACHED']);
    expect(run(year, new Decimal(at).plus('0.01').toFixed()).priorityRegion.met).toBe(true);
  });

  test('nothing counted: priority share 0, NO_COUNTED_SPENDING, requirement 2 met vacuously', () => {
    const r = sealCompliance(facts({ plant: NORTHEAST }), LAW);
    expect(r.priorityRegion.share.toFixed()).toBe('0');
    expect(r.priorityRegion.met).toBe(true);
    expect(r.minimumShare.met).toBe(false);
    expect(codes(r.findings)).toEqual(['NO_COUNTED_SPENDING', 'MINIMUM_SHARE_NOT_REACHED']);
  });
});

describe('what counts (art. 3º §2 I–III)', () => {
  test('(a), (b) and (c) each counted; the excluded groups carry every reason', () => {
    const r = sealCompliance(facts({
      purchases: [
        group('1000'),
        group('200', { purpose: PurchasePurpose.OTHER_PRODUCT, origin: NORTHEAST }),
        group('30', { key: 'b-south', purpose: PurchasePurpose.OTHER_PRODUCT, origin: SOUTH, contract: null }),
      ],
      fomento: [fomento('40'), { ...fomento('5', SOUTH), key: 'c-south' }],
    }), LAW);
    expect([r.familyFarmingAcquisitions, r.otherProductAcquisitions, r.fomento, r.countedTotal].map((x) => x.toFixed())).toEqual(['1000', '200', '40', '1240']);
    expect(r.priorityRegionAmount.toFixed()).toBe('240');
    expect(r.excluded).toEqual([
      { key: 'b-south', source: 'PURCHASE', findings: expect.any(Array) },
      { key: 'c-south', source: 'FOMENTO', findings: expect.any(Array) },
    ]);
    expect(codes(r.excluded[0].findings)).toEqual(['NO_CONTRACT', 'OUTSIDE_PRIORITY_REGION']);
    expect(codes(r.excluded[1].findings)).toEqual(['OUTSIDE_PRIORITY_REGION']);
  });

  // Art. 3º §2º III is the producer's obligation (docs/LAW.md): the contract's missing technical
  // assistance is a finding of the year naming it, not one of the purchase's reasons.
  test('a supplier without a valid registration and under a non-conforming contract: all the reasons', () => {
    const bad: Conformity = { conforming: false, findings: [{ code: 'PRICE_BELOW_MINIMUM', legalBasis: null }, { code: 'NO_TECHNICAL_ASSISTANCE', legalBasis: null }], minimumPrice: null };
    const r = sealCompliance(facts({
      purchases: [group('10', {
        key: 'x',
        supplier: { kind: SupplierKind.FAMILY_FARMER, registrationValid: false, lateDap: false, organization: null },
        contract: { id: '12', signedOn: '2025-05-01', conformity: bad, priorToPurchase: false, coverage: { date: false, feedstock: true, counterparty: true } },
      })],
    }), LAW);
    expect(codes(r.excluded[0].findings)).toEqual(['NO_PRIOR_CONTRACT', 'CONTRACT_NOT_COVERING', 'PRICE_BELOW_MINIMUM', 'SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID']);
    expect(r.countedTotal.toFixed()).toBe('0');
    expect(codes(r.findings)).toContain('NO_TECHNICAL_ASSISTANCE');
  });
});

describe('supplier eligibility from database facts agrees with family-farming.ts', () => {
  const on = '2025-06-01';
  const regs = {
    none: [],
    caf: [{ kind: RegistrationKind.CAF, number: 'C', validFrom: '2024-01-01', validUntil: '2026-01-01' }],
    lateDap: [{ kind: RegistrationKind.DAP, number: 'D', validFrom: '2022-11-01', validUntil: '2025-12-31' }],
    expired: [{ kind: RegistrationKind.CAF, number: 'C', validFrom: '2020-01-01', validUntil: '2025-05-31' }],
  };

  test.each(Object.entries(regs))('family farmer with %s', (_name, list) => {
    const law = farmerEligibility(list, on);
    const valid = list.filter((r) => r.validFrom <= on && on <= r.validUntil);
    const ours = supplierDecision({
      kind: SupplierKind.FAMILY_FARMER, registrationValid: valid.length > 0,
      lateDap: valid.some((r) => r.kind === RegistrationKind.DAP && r.validFrom > '2022-10-31'), organization: null,
    }, () => d('0.6'));
    expect(ours.eligible).toBe(law.eligible);
    expect(codes(ours.findings).filter((c) => c !== 'SUPPLIER_NOT_ELIGIBLE')).toEqual(codes(law.findings));
  });

  test.each([
    [OrganizationKind.COOPERATIVE, 60, 100, 'caf'], [OrganizationKind.COOPERATIVE, 59, 100, 'caf'],
    [OrganizationKind.ASSOCIATION, 60, 100, 'caf'], [OrganizationKind.COOPERATIVE, 100, 100, 'none'],
  ] as const)('%s with %i of %i family farmers, registration %s', (kind, ff, members, reg) => {
    const org = { kind, members, familyFarmerMembers: ff };
    const law = organizationHabilitation(org, regs[reg], d('0.6'), on);
    const ours = supplierDecision({
      kind: kind === OrganizationKind.COOPERATIVE ? SupplierKind.COOPERATIVE : SupplierKind.ASSOCIATION,
      registrationValid: reg === 'caf', lateDap: false, organization: org,
    }, () => d('0.6'));
    expect(ours.eligible).toBe(law.habilitated);
    expect(codes(ours.findings).filter((c) => c !== 'SUPPLIER_NOT_ELIGIBLE')).toEqual(codes(law.findings));
    if (!ours.eligible) expect(ours.findings[0].code).toBe('SUPPLIER_NOT_ELIGIBLE');
  });
});

describe('weighting factors in force on each item\'s date (docs/LAW.md)', () => {
  const doubled: LawVersionRecord = {
    parameter: 'weighting-factor', scope: 'FOMENTO', value: { factor: '2' }, validFrom: '2025-07-01', validUntil: null,
    publishedOn: '2025-06-15', legalBasis: 'Test act raising the fomento weight',
  };
  const law = createLawBook([...SHIPPED_LAW, doubled]);

  test('a factor changing on 1 July cuts the year in two segments, but only as known from its publication', () => {
    expect(parameterSegments(law, '2025-01-01', '2025-12-31', '2025-12-31')).toEqual([
      { from: '2025-01-01', to: '2025-06-30' }, { from: '2025-07-01', to: '2025-12-31' },
    ]);
    expect(parameterSegments(law, '2025-01-01', '2025-12-31', '2025-06-14')).toEqual([{ from: '2025-01-01', to: '2025-12-31' }]);
  });

  test('fomento of R$ 100 in each half counts 100 × 1 + 100 × 2 = 300; the unweighted fomento stays 200', () => {
    const r = sealCompliance(facts({
      asKnownOn: '2025-12-31', plant: NORTHEAST,
      fomento: [
        { key: 'h1', place: NORTHEAST, segment: { from: '2025-01-01', to: '2025-06-30' }, amount: d('100'), count: 1 },
        { key: 'h2', place: NORTHEAST, segment: { from: '2025-07-01', to: '2025-12-31' }, amount: d('100'), count: 1 },
      ],
    }), law);
    expect(r.fomento.toFixed()).toBe('200');
    expect(r.countedTotal.toFixed()).toBe('300');
  });
});

/**
 * Decreto 10.527/2020 art. 3º §2º II–III in a flat year (docs/LAW.md): contracts are judged per
 * acquisition and technical assistance is the producer's obligation, a finding of the year. 2023,
 * plant in Recife (Nordeste, minimum 30 %), base R$ 100.000: contract 1 signed 2023-03-01 covers
 * purchases of 02-15 (R$ 1.000, before the signing) and 04-01 (R$ 20.000); castor R$ 10.000 under
 * contract 2, conforming but for technical assistance. By hand: 20.000 + 10.000 = 30.000 counted,
 * 30.000 / 100.000 = 0,30 ≥ 0,30: compliant; the 02-15 purchase excluded (NO_PRIOR_CONTRACT); the
 * missing assistance a finding of the year naming contract 2.
 */
test('flat year: judged per purchase, technical assistance a finding of the year (art. 3º §2º II–III)', () => {
  const YEAR_2023 = { from: '2023-01-01', to: '2023-12-31' };
  const late: Conformity = { conforming: false, findings: [{ code: 'NO_PRIOR_CONTRACT', legalBasis: null }], minimumPrice: null };
  const noTa: Conformity = { conforming: false, findings: [{ code: 'NO_TECHNICAL_ASSISTANCE', legalBasis: null }], minimumPrice: null };
  const covering = { date: true, feedstock: true, counterparty: true };
  const under = (id: string, conformity: Conformity, priorToPurchase: boolean, signedOn = '2023-03-01') => ({ id, signedOn, conformity, priorToPurchase, coverage: covering });
  const r = sealCompliance(facts({
    year: 2023, plant: NORTHEAST, sales: { ownRevenue: d('100000'), ownVolume: d('100'), exportedVolume: d('0') },
    purchases: [
      group('1000', { key: 'feb', origin: NORTHEAST, segment: YEAR_2023, contract: under('1', late, false) }),
      group('20000', { key: 'apr', origin: NORTHEAST, segment: YEAR_2023, contract: under('1', late, true) }),
      group('10000', { key: 'castor', origin: NORTHEAST, segment: YEAR_2023, contract: under('2', noTa, true, '2023-01-02') }),
    ],
  }), LAW);
  expect(r.model).toBe('FLAT');
  expect(r.minimumShare.requiredShare.value?.toFixed()).toBe('0.3');
  expect([r.base, r.countedTotal, r.achievedShare, r.minimumShare.shortfall!].map((x) => x.toFixed())).toEqual(['100000', '30000', '0.3', '0']);
  expect(r.minimumShare.met).toBe(true);
  expect(r.compliant).toBe(true);
  expect(r.excluded.map((e) => [e.key, codes(e.findings)])).toEqual([['feb', ['NO_PRIOR_CONTRACT']]]);
  expect(r.items.map((i) => i.key)).toEqual(['apr', 'castor']);
  const ta = r.findings.filter((f) => f.code === 'NO_TECHNICAL_ASSISTANCE');
  expect(ta).toHaveLength(1);
  expect(findingMessage(ta[0])).toMatch(/^Contract\(s\) 2 do not assure/);
});
