import { Conformity } from '../../src/law/contract-conformity';
import { Decimal } from '../../src/law/decimal';
import { createLawBook, LawVersionRecord } from '../../src/law/law-book';
import { PurchaseGroup } from '../../src/law/seal-spending';
import { SealComplianceFacts } from '../../src/law/seal-year';
import { LeverRegion, planLevers, planShortfalls } from '../../src/law/seal-plan';
import { sealCompliance } from '../../src/law/seal-compliance';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { Feedstock, PurchasePurpose, Region, SupplierKind } from '../../src/law/types';

/**
 * sealPlan's levers (docs/LAW.md), worked by hand: the actual spending that alone closes
 * requirement 1 (weighted shortfall / the lever's weight, rounded up to the centavo), requirement 2
 * (x = (S × T − P) / (1 − S) in the priority region) and both. Factors as shipped (Portaria MDA nº
 * 28/2024: b 1,1 · c 30 · d 4 · e 3 · f 2); the minimum weighted percentage, open, is a test
 * figure of 50% here.
 */

const d = (v: string | number) => new Decimal(v);
const minimum: LawVersionRecord = {
  parameter: 'minimum-weighted-share', scope: null, value: { share: '0.5' }, validFrom: '2024-01-01', validUntil: null,
  publishedOn: '2025-01-15', legalBasis: 'Portaria MDA (test figure), minimum weighted percentage',
};
const LAW = createLawBook([...SHIPPED_LAW, minimum]);
const Y2026 = { from: '2026-01-01', to: '2026-12-31' };
const CONFORMING: Conformity = { conforming: true, findings: [], minimumPrice: null };
const bought = (amount: string, origin: { region: Region; semiarid: boolean }, key: string): PurchaseGroup => ({
  key, purpose: PurchasePurpose.BIODIESEL_FEEDSTOCK,
  supplier: { kind: SupplierKind.FAMILY_FARMER, registrationValid: true, lateDap: false, organization: null },
  contract: { id: '1', signedOn: '2026-01-01', conformity: CONFORMING, priorToPurchase: true, coverage: { date: true, feedstock: true, counterparty: true } },
  origin, segment: Y2026, amount: d(amount), count: 1, product: Feedstock.SOYBEAN,
});
const SOUTH = { region: Region.SOUTH, semiarid: false };
const NORTHEAST = { region: Region.NORTHEAST, semiarid: false };
const year = (purchases: PurchaseGroup[]): SealComplianceFacts => ({
  year: 2026, asKnownOn: '2026-12-01', plant: SOUTH,
  sales: { ownRevenue: d('1000000'), ownVolume: d('200'), exportedVolume: d('0'), domesticRevenue: d('1000000') }, purchases, fomento: [],
});
const lever = (levers: ReturnType<typeof planLevers>, kind: string, region: LeverRegion, diversified: boolean | null, org: boolean | null) =>
  levers.find((l) => l.kind === kind && l.region === region && l.diversified === diversified && l.viaOrganizationUpTo75 === org)!;
const shown = (l: ReturnType<typeof lever>) => [l.factors.map((f) => f.alinea).join(''), l.weight.toFixed(), l.closesMinimumShare?.toFixed() ?? null, l.closesPriorityRegion?.toFixed() ?? null, l.closesBoth?.toFixed() ?? null];

describe('R$ 100.000 of soy from the Sul in 2026: 400.000 weighted short of 50% of R$ 1.000.000; requirement 2 (20%) short by 25.000', () => {
  const r = sealCompliance(year([bought('100000', SOUTH, 's')]), LAW);
  const levers = planLevers(r, LAW, '2026-12-31');

  test('the shortfalls: requirement 1 in weighted reais, requirement 2 in actual reais', () => {
    // W = 500.000 − 100.000 = 400.000; x = (0,2 × 100.000 − 0) / (1 − 0,2) = 20.000 / 0,8 = 25.000.
    const s = planShortfalls(r);
    expect([s.minimumShare.weighted?.toFixed(), s.minimumShare.met, s.priorityRegion.actual?.toFixed(), s.priorityRegion.met]).toEqual(['400000', false, '25000', false]);
  });

  test('thirteen levers: 3 regions × diversified or not × via an organization or not, and fomento', () => {
    expect(levers).toHaveLength(13);
  });

  test.each([
    // region, diversified, via organization → alíneas, weight, closes requirement 1, requirement 2, both
    [LeverRegion.PRIORITY_REGION, true, true, ['bdf', '8.8', '45454.55', '25000', '45454.55']], //   400.000 / 8,8 = 45.454,5454… ↑
    [LeverRegion.PRIORITY_REGION, true, false, ['df', '8', '50000', '25000', '50000']], //           400.000 / 8
    [LeverRegion.PRIORITY_REGION, false, true, ['bd', '4.4', '90909.1', '25000', '90909.1']], //     400.000 / 4,4 = 90.909,0909… ↑
    [LeverRegion.PRIORITY_REGION, false, false, ['d', '4', '100000', '25000', '100000']],
    [LeverRegion.CENTER_WEST_SOUTHEAST, true, true, ['bef', '6.6', '60606.07', null, null]], //     400.000 / 6,6 = 60.606,0606… ↑; outside: not requirement 2
    [LeverRegion.CENTER_WEST_SOUTHEAST, false, false, ['e', '3', '133333.34', null, null]], //       400.000 / 3 = 133.333,333… ↑
    [LeverRegion.SOUTH, true, false, ['f', '2', '200000', null, null]],
    [LeverRegion.SOUTH, false, false, ['', '1', '400000', null, null]],
  ] as const)('acquisition in %s, diversified %s, via an organization %s', (region, diversified, org, expected) => {
    expect(shown(lever(levers, 'ACQUISITION', region, diversified, org))).toEqual(expected);
  });

  test('fomento in the priority region: × 30 alone, 400.000 / 30 = 13.333,333… → 13.333,34; both: the larger, 25.000', () => {
    expect(shown(lever(levers, 'FOMENTO', LeverRegion.PRIORITY_REGION, null, null))).toEqual(['c', '30', '13333.34', '25000', '25000']);
  });
});

describe('an acquisition outside the region closes both only while the priority share stays at the minimum', () => {
  test('P = 50.000 of T = 100.000 (50%): soy from the Sul may add up to 150.000 (50.000 / 250.000 = 20%)', () => {
    // Weighted: 50.000 × 4 (Nordeste) + 50.000 × 1 = 250.000; W = 500.000 − 250.000 = 250.000 → the Sul needs 250.000 > 150.000.
    const r = sealCompliance(year([bought('50000', NORTHEAST, 'n'), bought('50000', SOUTH, 's')]), LAW);
    const south = lever(planLevers(r, LAW, '2026-12-31'), 'ACQUISITION', LeverRegion.SOUTH, false, false);
    expect(shown(south)).toEqual(['', '1', '250000', '0', null]);
    // With 120.000 from the Nordeste and 30.000 from the Sul: weighted 480.000 + 30.000 = 510.000 ≥ 500.000, met: 0 everywhere.
    const met = sealCompliance(year([bought('120000', NORTHEAST, 'n'), bought('30000', SOUTH, 's')]), LAW);
    expect(shown(lever(planLevers(met, LAW, '2026-12-31'), 'ACQUISITION', LeverRegion.SOUTH, false, false))).toEqual(['', '1', '0', '0', '0']);
    // 95.000 from the Nordeste and 5.000 from the Sul: weighted 385.000, W = 115.000 in the Sul → 95.000 / 215.000 = 44% ≥ 20%: it closes both.
    const near = sealCompliance(year([bought('95000', NORTHEAST, 'n'), bought('5000', SOUTH, 's')]), LAW);
    expect(shown(lever(planLevers(near, LAW, '2026-12-31'), 'ACQUISITION', LeverRegion.SOUTH, false, false))).toEqual(['', '1', '115000', '0', '115000']);
  });

  test('while the minimum weighted percentage is not published, no lever can say what closes requirement 1', () => {
    const shipped = createLawBook(SHIPPED_LAW);
    const r = sealCompliance(year([bought('100000', SOUTH, 's')]), shipped);
    const fomento = lever(planLevers(r, shipped, '2026-12-31'), 'FOMENTO', LeverRegion.PRIORITY_REGION, null, null);
    expect(shown(fomento)).toEqual(['c', '30', null, '25000', null]);
    expect(planShortfalls(r).minimumShare).toMatchObject({ weighted: null, met: null });
  });
});
