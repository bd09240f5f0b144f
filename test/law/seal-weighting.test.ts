import { findingMessage } from '../../src/i18n/finding-message';
import { Conformity } from '../../src/law/contract-conformity';
import { Decimal } from '../../src/law/decimal';
import { finding } from '../../src/law/findings';
import { createLawBook, LawVersionRecord, versionProblems } from '../../src/law/law-book';
import { FomentoGroup, PurchaseGroup } from '../../src/law/seal-spending';
import { SealComplianceFacts } from '../../src/law/seal-year';
import { present } from '../../src/law/seal-presentation';
import { factorsThatApply, weighItem } from '../../src/law/seal-weighting';
import { sealCompliance } from '../../src/law/seal-compliance';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { Feedstock, OrganizationKind, PurchasePurpose, Region, SealComplianceModel, SealWeightingFactor as F, SupplierKind } from '../../src/law/types';

/**
 * The Selo's weighted model (Portaria MDA nº 28/2024, DOU 2024-06-28, p. 40 — factors a–f and §2º;
 * p. 39 — the minimum weighted percentage, open; art. 58; Portaria Interministerial MME/MDA nº
 * 2/2023 — requirement 2 on actual values; docs/LAW.md). Every expected figure is worked by hand
 * from the shipped factors: b 1,1 · c 30 · d 4 · e 3 · f 2 (a: no value).
 */

const LAW = createLawBook(SHIPPED_LAW);
const d = (v: string | number) => new Decimal(v);
const codes = (fs: Array<{ code: string }>) => fs.map((f) => f.code);
const KNOWN = '2026-12-01';
const YEAR_2025 = { from: '2025-01-01', to: '2025-12-31' };
const CONFORMING: Conformity = { conforming: true, findings: [], minimumPrice: null };
const NORTHEAST = { region: Region.NORTHEAST, semiarid: false };
const CENTER_WEST = { region: Region.CENTER_WEST, semiarid: false };
const SOUTHEAST = { region: Region.SOUTHEAST, semiarid: false };
const SOUTHEAST_SEMIARID = { region: Region.SOUTHEAST, semiarid: true }; // e.g. Montes Claros (MG)
const SOUTH = { region: Region.SOUTH, semiarid: false };
const cooperative = (familyFarmerMembers: number, members: number) => ({ kind: OrganizationKind.COOPERATIVE, members, familyFarmerMembers });

let n = 0;
/** A group of raw material for biodiesel from an eligible farmer, under a conforming contract signed before it. */
function bought(amount: string, over: Partial<PurchaseGroup> = {}): PurchaseGroup {
  n += 1;
  return {
    key: `g${n}`,
    purpose: PurchasePurpose.BIODIESEL_FEEDSTOCK,
    supplier: { kind: SupplierKind.FAMILY_FARMER, registrationValid: true, lateDap: false, organization: null },
    contract: { id: '1', signedOn: '2025-01-01', conformity: CONFORMING, priorToPurchase: true, coverage: { date: true, feedstock: true, counterparty: true } },
    origin: SOUTH,
    segment: YEAR_2025,
    amount: d(amount),
    count: 1,
    product: Feedstock.SOYBEAN,
    ...over,
  };
}
/** The same from a cooperative with `ff` family farmers among `members` (habilitated: ≥ 60%). */
const viaCooperative = (amount: string, ff: number, members: number, over: Partial<PurchaseGroup> = {}) => bought(amount, {
  supplier: { kind: SupplierKind.COOPERATIVE, registrationValid: true, lateDap: false, organization: cooperative(ff, members) }, ...over,
});
const fomento = (amount: string, place = NORTHEAST): FomentoGroup => ({ key: `f${amount}${place.region}`, place, segment: YEAR_2025, amount: d(amount), count: 1 });

function facts(over: Partial<SealComplianceFacts>): SealComplianceFacts {
  return {
    year: 2025, asKnownOn: KNOWN, plant: SOUTH,
    // R$ 1.000.000 of own biodiesel sold, nothing exported: base R$ 1.000.000.
    sales: { ownRevenue: d('1000000'), ownVolume: d('200'), exportedVolume: d('0'), domesticRevenue: d('1000000') },
    purchases: [], fomento: [], ...over,
  };
}
const run = (over: Partial<SealComplianceFacts>, law = LAW) => sealCompliance(facts(over), law);
/** The single item of a year with one group: its factors by alínea, its weight and its weighted value. */
function only(over: Partial<SealComplianceFacts>, law = LAW) {
  const r = run(over, law);
  expect(r.items).toHaveLength(1);
  const i = r.items[0];
  return { alineas: i.factors.map((f) => f.alinea).join(''), weight: i.weight?.toFixed() ?? null, weighted: i.weighted?.toFixed() ?? null, item: i, r };
}

describe('the factors, by alínea (Portaria MDA nº 28/2024, p. 40)', () => {
  test('shipped as published on 2024-06-28, valid from 2024; alínea a with no value', () => {
    const at = (f: F, known = KNOWN) => LAW.sealWeightingFactor(f, '2025-06-01', known);
    expect(at(F.ORGANIZATION_UP_TO_75)?.value?.toFixed()).toBe('1.1');
    expect(at(F.FOMENTO_PRIORITY_REGION)?.value?.toFixed()).toBe('30');
    expect(at(F.ACQUISITION_PRIORITY_REGION)?.value?.toFixed()).toBe('4');
    expect(at(F.ACQUISITION_CENTER_WEST_SOUTHEAST)?.value?.toFixed()).toBe('3');
    expect(at(F.DIVERSIFIED_RAW_MATERIAL)?.value?.toFixed()).toBe('2');
    expect(at(F.ORGANIZATION_ABOVE_75)?.value).toBeNull();
    expect(at(F.ORGANIZATION_ABOVE_75)?.note).toMatch(/Marked for confirmation/);
    expect(at(F.ACQUISITION_PRIORITY_REGION)?.legalBasis).toMatch(/Portaria MDA nº 28\/2024.*alínea d/);
    expect(at(F.ACQUISITION_PRIORITY_REGION, '2024-06-27')).toBeUndefined();
    expect(LAW.sealWeightingFactor(F.ACQUISITION_PRIORITY_REGION, '2023-12-31', KNOWN)).toBeUndefined();
  });

  test('compounded (§2º): castor from the Nordeste via a cooperative of 70% family farmers is 4 × 2 × 1,1 = 8,8', () => {
    // R$ 100.000 × 8,8 = R$ 880.000.
    const x = only({ purchases: [viaCooperative('100000', 7, 10, { origin: NORTHEAST, product: Feedstock.CASTOR_BEAN })] });
    expect([x.alineas, x.weight, x.weighted]).toEqual(['bdf', '8.8', '880000']);
    expect(x.item.factors.map((f) => f.factor)).toEqual([F.ORGANIZATION_UP_TO_75, F.ACQUISITION_PRIORITY_REGION, F.DIVERSIFIED_RAW_MATERIAL]);
    expect(x.item.actual.toFixed()).toBe('100000');
  });

  test('groups with the same shown facts are one line: counts, actual and weighted summed, then rounded once', () => {
    // Castor from the Nordeste (d 4 × f 2 = 8) under two contracts: R$ 1.000,005 + R$ 2.000,005 = R$ 3.000,01
    // (each rounded first: 1.000,00 + 2.000,00); weighted 8 × 3.000,01 = R$ 24.000,08. Soy from the Sul stays apart.
    const castor = { origin: NORTHEAST, product: Feedstock.CASTOR_BEAN };
    const contract = bought('0').contract!;
    const r = run({ purchases: [
      bought('1000.005', { ...castor, contract: { ...contract, id: '7' } }),
      bought('2000.005', { ...castor, contract: { ...contract, id: '8' } }),
      bought('500', { origin: SOUTH }),
    ] });
    expect(r.items).toHaveLength(3);
    const shown = present(r).spending.map((i) => [i.product, i.count, i.weight?.toFixed(), i.actual.toFixed(2), i.weighted?.toFixed(2)]);
    expect(shown).toEqual([[Feedstock.CASTOR_BEAN, 2, '8', '3000.01', '24000.08'], [Feedstock.SOYBEAN, 1, '1', '500.00', '500.00']]);
  });

  test.each([
    ['Nordeste', NORTHEAST, 'd', '4', '400000'], //                     R$ 100.000 × 4
    ['Sudeste in the Semiárido', SOUTHEAST_SEMIARID, 'd', '4', '400000'], // the Semiárido is d, not e
    ['Centro-Oeste', CENTER_WEST, 'e', '3', '300000'], //               R$ 100.000 × 3
    ['Sudeste', SOUTHEAST, 'e', '3', '300000'],
    ['Sul', SOUTH, '', '1', '100000'], //                               no regional factor: × 1
  ])('soybeans from a family farmer in the %s: the regional factor of the table, or none', (_name, origin, alineas, weight, weighted) => {
    const x = only({ purchases: [bought('100000', { origin })] });
    expect([x.alineas, x.weight, x.weighted]).toEqual([alineas, weight, weighted]);
  });

  test.each([
    [Feedstock.SOYBEAN, 'e', '3'], //          not diversified: 3
    [Feedstock.SOYBEAN_OIL, 'e', '3'], //      not diversified: 3
    [Feedstock.LIVE_ANIMALS, 'e', '3'], //     not diversified: 3
    [Feedstock.CASTOR_BEAN, 'ef', '6'], //     diversified: 3 × 2
    [Feedstock.BEEF_TALLOW, 'ef', '6'], //     anything but soy, soy oil and live animals: 3 × 2
  ])('%s from the Centro-Oeste: factors %s, weight %s', (product, alineas, weight) => {
    const x = only({ purchases: [bought('1000', { origin: CENTER_WEST, product })] });
    expect([x.alineas, x.weight]).toEqual([alineas, weight]);
  });

  test('a cooperative at 75% family farmers is "up to 75%" (b: castor from the Sul 1,1 × 2 = 2,2); at 76% it is not — a, unpublished, leaves the item unweighed (never × 1)', () => {
    const at75 = only({ purchases: [viaCooperative('1000', 3, 4, { product: Feedstock.CASTOR_BEAN })] }); // 3/4 = 0,75
    expect([at75.alineas, at75.weight, at75.weighted]).toEqual(['bf', '2.2', '2200']); // 1.000 × 2,2
    expect(at75.item.findings).toEqual([]);
    const at76 = only({ purchases: [viaCooperative('1000', 19, 25, { product: Feedstock.CASTOR_BEAN })] }); // 19/25 = 0,76
    expect([at76.alineas, at76.weight, at76.weighted]).toEqual(['af', null, null]); // 1.000 × a × 2: a unknown
    expect(at76.item.factors[0].value).toBeNull();
    expect(codes(at76.item.findings)).toEqual(['WEIGHTING_FACTOR_NOT_PUBLISHED']);
    expect(codes(at76.r.findings)).toContain('WEIGHTING_FACTOR_NOT_PUBLISHED');
    // The year's weighted total leaves it out and says how much actual value awaits the factor.
    expect([at76.r.countedTotal.toFixed(), at76.r.awaitingFactor.toFixed(), at76.r.actualTotal.toFixed()]).toEqual(['0', '1000', '1000']);
    const shown = present(at76.r);
    expect([shown.minimumShare.awaitingFactor.toFixed(2), shown.minimumShare.weightedTotalComplete]).toEqual(['1000.00', false]);
    expect(shown.spending[0].weighted).toBeNull();
    // From the Nordeste (requirement 2 met, 1.000 / 1.000): nothing fails, the status says the total is incomplete.
    const nordeste = run({ purchases: [viaCooperative('1000', 19, 25, { origin: NORTHEAST, product: Feedstock.CASTOR_BEAN })] });
    expect([nordeste.priorityRegion.met, nordeste.compliant, present(nordeste).status]).toEqual([true, null, 'INCOMPLETE']);
  });

  test('alínea a published by an ADMIN (a test figure, 1,5) weighs from its publication on', () => {
    const a: LawVersionRecord = {
      parameter: 'selo-weighting-factor', scope: F.ORGANIZATION_ABOVE_75, value: { factor: '1.5' }, validFrom: '2024-01-01', validUntil: null,
      publishedOn: '2026-03-01', legalBasis: 'Portaria MDA nº 28/2024, alínea a (test figure)',
    };
    const law = createLawBook([...SHIPPED_LAW, a]);
    const group = [viaCooperative('1000', 19, 25, { product: Feedstock.CASTOR_BEAN })];
    expect(only({ purchases: group, asKnownOn: '2026-03-01' }, law).weighted).toBe('3000'); // 1.000 × 1,5 × 2
    expect(only({ purchases: group, asKnownOn: '2026-02-28' }, law).weighted).toBeNull(); // before it: a not known
  });

  test('fomento in the Nordeste or the Semiárido is × 30 alone (c does not combine); outside the priority region it does not count', () => {
    const r = run({ fomento: [fomento('1000'), fomento('100', SOUTHEAST_SEMIARID), fomento('500', SOUTH), fomento('700', CENTER_WEST)] });
    // Counted: 1.000 × 30 + 100 × 30 = 33.000; actual 1.100. The Sul and Centro-Oeste fomento is excluded.
    expect(r.items.map((i) => [i.factors.map((f) => f.alinea).join(''), i.weighted?.toFixed()])).toEqual([['c', '30000'], ['c', '3000']]);
    expect([r.fomento.toFixed(), r.actualTotal.toFixed(), r.countedTotal.toFixed()]).toEqual(['1100', '1100', '33000']);
    expect(r.excluded.map((e) => codes(e.findings))).toEqual([['OUTSIDE_PRIORITY_REGION'], ['OUTSIDE_PRIORITY_REGION']]);
    expect(factorsThatApply({ source: 'FOMENTO', place: NORTHEAST, product: null, organizationShare: d('0.7') })).toEqual([F.FOMENTO_PRIORITY_REGION]);
  });

  test('a factor changing within the year weighs each item with the figure on its own dates', () => {
    const raised: LawVersionRecord = {
      parameter: 'selo-weighting-factor', scope: F.ACQUISITION_PRIORITY_REGION, value: { factor: '5' }, validFrom: '2025-07-01', validUntil: null,
      publishedOn: '2025-06-15', legalBasis: 'Test act raising factor d',
    };
    const law = createLawBook([...SHIPPED_LAW, raised]);
    const first = weighItem('h1', 'FAMILY_FARMING_ACQUISITION', bought('100', { origin: NORTHEAST, segment: { from: '2025-01-01', to: '2025-06-30' } }),
      { source: 'PURCHASE', place: NORTHEAST, product: Feedstock.SOYBEAN, organizationShare: null }, law, KNOWN);
    const second = weighItem('h2', 'FAMILY_FARMING_ACQUISITION', bought('100', { origin: NORTHEAST, segment: { from: '2025-07-01', to: '2025-12-31' } }),
      { source: 'PURCHASE', place: NORTHEAST, product: Feedstock.SOYBEAN, organizationShare: null }, law, KNOWN);
    expect([first.weighted?.toFixed(), second.weighted?.toFixed()]).toEqual(['400', '500']); // 100 × 4, 100 × 5
  });
});

describe('the model of the year (bitemporal; docs/LAW.md)', () => {
  // R$ 100.000 of castor from the Nordeste, from a farmer: weighted 100.000 × 4 × 2 = 800.000.
  const year2024 = (asKnownOn: string) => run({
    year: 2024, asKnownOn, purchases: [bought('100000', { origin: NORTHEAST, product: Feedstock.CASTOR_BEAN, segment: { from: '2024-01-01', to: '2024-12-31' } })],
  });

  test('2024 as known on 2024-06-27: the flat model (Sul plant 40% of R$ 1.000.000 = R$ 400.000, counted 100.000 unweighted)', () => {
    const r = year2024('2024-06-27');
    expect(r.model).toBe(SealComplianceModel.FLAT);
    expect(r.countedTotal.toFixed()).toBe('100000');
    expect(r.minimumShare.requiredShare.value?.toFixed()).toBe('0.4');
    expect(r.minimumShare.shortfall?.toFixed()).toBe('300000'); // 400.000 − 100.000
    expect(r.compliant).toBe(false);
  });

  test('2024 as known on 2024-06-28: the weighted model (weighted 800.000, achieved 0,8; no minimum published)', () => {
    const r = year2024('2024-06-28');
    expect(r.model).toBe(SealComplianceModel.WEIGHTED);
    expect(r.modelLegalBasis).toMatch(/Portaria MDA nº 28\/2024/);
    expect([r.actualTotal.toFixed(), r.countedTotal.toFixed(), r.achievedShare.toFixed()]).toEqual(['100000', '800000', '0.8']);
    expect(r.minimumShare.requiredShare.value).toBeNull();
  });

  test('2023: the flat model and no requirement 2 (it starts in 2024), not an error', () => {
    const r = run({ year: 2023, purchases: [bought('500000', { segment: { from: '2023-01-01', to: '2023-12-31' } })] });
    expect(r.model).toBe(SealComplianceModel.FLAT);
    expect(r.priorityRegion.requiredShare).toBeNull();
    expect(r.priorityRegion.met).toBe(true);
    expect(r.compliant).toBe(true); // 500.000 ≥ 40% of 1.000.000, all from the Sul
  });
});

describe('requirement 1: weighted spending / base ≥ the minimum weighted percentage (open)', () => {
  const spend = { purchases: [viaCooperative('100000', 7, 10, { origin: NORTHEAST, product: Feedstock.CASTOR_BEAN })] }; // weighted 880.000

  test('not published: the achieved share, the weighted total and every item, requiredShare null, compliant null, MINIMUM_NOT_PUBLISHED', () => {
    const r = run(spend);
    expect([r.countedTotal.toFixed(), r.achievedShare.toFixed()]).toEqual(['880000', '0.88']); // 880.000 / 1.000.000
    expect(r.minimumShare.requiredShare.value).toBeNull();
    expect(r.minimumShare.met).toBeNull();
    expect(r.minimumShare.shortfall).toBeNull();
    expect(r.compliant).toBeNull();
    expect(codes(r.findings)).toEqual(['MINIMUM_NOT_PUBLISHED', 'MEMBER_MINIMUM_NOT_PUBLISHED']);
    const shown = present(r);
    expect(shown.minimumShare.requiredShare).toBeNull();
    expect(shown.minimumShare.compliant).toBeNull();
    expect(shown.status).toBe('NOT_ESTABLISHED');
    expect([shown.compliant, shown.requiredShare, shown.shortfall, shown.minimumShareMet]).toEqual([null, null, null, null]); // unknown reads null, never 0 or false
  });

  test('then published (a test figure, 90%): required 900.000, short 20.000 — from its publication date only', () => {
    const minimum: LawVersionRecord = {
      parameter: 'minimum-weighted-share', scope: null, value: { share: '0.9' }, validFrom: '2024-01-01', validUntil: null,
      publishedOn: '2026-03-01', legalBasis: 'Portaria MDA (test figure), minimum weighted percentage',
    };
    const law = createLawBook([...SHIPPED_LAW, minimum]);
    const after = run({ ...spend, asKnownOn: '2026-03-01' }, law);
    expect(after.minimumShare.requiredShare.value?.toFixed()).toBe('0.9');
    expect(after.minimumShare.requiredAmount?.toFixed()).toBe('900000'); // 0,9 × 1.000.000
    expect(after.minimumShare.shortfall?.toFixed()).toBe('20000'); //    900.000 − 880.000
    expect([after.minimumShare.met, after.compliant]).toEqual([false, false]);
    expect(codes(after.findings)).toEqual(['MINIMUM_SHARE_NOT_REACHED', 'MEMBER_MINIMUM_NOT_PUBLISHED']);
    const before = run({ ...spend, asKnownOn: '2026-02-28' }, law);
    expect(before.minimumShare.met).toBeNull();
    // With 80% the same spending complies: 880.000 ≥ 800.000.
    const lower = createLawBook([...SHIPPED_LAW, { ...minimum, value: { share: '0.8' } }]);
    const met = run({ ...spend, asKnownOn: '2026-03-01' }, lower);
    expect([met.minimumShare.met, met.compliant, present(met).status]).toEqual([true, true, 'COMPLIANT']);
  });

  test('versions of an open parameter may carry no value; others may not', () => {
    const open: LawVersionRecord = { parameter: 'minimum-weighted-share', scope: null, value: {}, validFrom: '2024-01-01', validUntil: null, publishedOn: '2024-06-28', legalBasis: 'Portaria MDA nº 28/2024' };
    expect(versionProblems(open)).toEqual([]);
    expect(versionProblems({ ...open, value: { share: '1.2' } }).map((p) => p[0])).toEqual(['value.share']);
    expect(versionProblems({ ...open, parameter: 'priority-region-min-share' }).map((p) => p[0])).toEqual(['value.share']);
  });
});

describe('requirement 2: actual (unweighted) spending in the priority region (Portaria Interministerial MME/MDA nº 2/2023)', () => {
  test('2025 (15%): castor of R$ 10.000 from the Nordeste beside R$ 90.000 of soy from the Sul — weighting would pass it, actual values do not', () => {
    const r = run({ purchases: [bought('10000', { origin: NORTHEAST, product: Feedstock.CASTOR_BEAN }), bought('90000')] });
    // Weighted: 10.000 × 8 = 80.000 of 80.000 + 90.000 = 170.000 → 47%, above 15%. Actual: 10.000 / 100.000 = 10%, below.
    expect(r.countedTotal.toFixed()).toBe('170000');
    expect(r.priorityRegionAmount.toFixed()).toBe('10000');
    expect(r.priorityRegion.share.toFixed()).toBe('0.1');
    expect(r.priorityRegion.met).toBe(false);
    // To reach it spending x more in the region: (10.000 + x) / (100.000 + x) = 0,15 → x = 5.000 / 0,85 = 5.882,352…
    expect(r.priorityRegion.shortfall.toFixed(6)).toBe('5882.352941');
    expect(present(r).priorityRegion.shortfall.toFixed()).toBe('5882.36'); // rounded up to the centavo
    expect(r.compliant).toBe(false);
    expect(codes(r.findings)).toEqual(['PRIORITY_REGION_SHARE_NOT_REACHED', 'MINIMUM_NOT_PUBLISHED']);
    // Exactly 15%: 15.000 of 100.000 meets it.
    expect(run({ purchases: [bought('15000', { origin: NORTHEAST }), bought('85000')] }).priorityRegion.met).toBe(true);
  });
});

describe('contracts and technical assistance from 2024 (decree art. 3º §2º II–III; docs/LAW.md)', () => {
  // The contract was signed on 2025-03-01; a purchase covered on 2025-02-15 came before it, so the
  // contract itself carries NO_PRIOR_CONTRACT (its first covered purchase precedes the signing).
  const late: Conformity = { conforming: false, findings: [finding('NO_PRIOR_CONTRACT')], minimumPrice: null };
  const contract = (priorToPurchase: boolean) => ({ id: '7', signedOn: '2025-03-01', conformity: late, priorToPurchase, coverage: { date: true, feedstock: true, counterparty: true } });
  const purchases = [bought('300', { contract: contract(false) }), bought('200', { contract: contract(true) })];

  test('judged per acquisition: the purchase before the signing is excluded (NO_PRIOR_CONTRACT), the one after counts', () => {
    const r = run({ purchases });
    expect(r.actualTotal.toFixed()).toBe('200');
    expect(r.excluded.map((e) => codes(e.findings))).toEqual([['NO_PRIOR_CONTRACT']]);
  });

  // Art. 3º §2º II, judged per acquisition in every year (docs/LAW.md): the flat model too.
  test('the flat model (2024 as known before 2024-06-28) judges per acquisition too: the purchase after the signing counts', () => {
    const r = run({ year: 2024, asKnownOn: '2024-06-01', purchases: purchases.map((p) => ({ ...p, segment: { from: '2024-01-01', to: '2024-12-31' } })) });
    expect(r.model).toBe('FLAT');
    expect(r.actualTotal.toFixed()).toBe('200');
    expect(r.excluded.map((e) => codes(e.findings))).toEqual([['NO_PRIOR_CONTRACT']]);
  });

  test('requirement 3: a contract without technical assistance leaves its purchases counted and gives a finding of the year naming it', () => {
    const noTa: Conformity = { conforming: false, findings: [finding('NO_TECHNICAL_ASSISTANCE')], minimumPrice: null };
    const r = run({ purchases: [bought('400', { origin: NORTHEAST, contract: { ...contract(true), conformity: noTa } })] });
    expect(r.actualTotal.toFixed()).toBe('400');
    expect(r.technicalAssistance).toEqual({ contractIds: ['7'], met: false });
    expect(codes(r.findings)).toEqual(['MINIMUM_NOT_PUBLISHED', 'NO_TECHNICAL_ASSISTANCE']);
    expect(findingMessage(r.findings[1])).toContain('7');
    expect(r.compliant).toBe(false); // a requirement not met: false even though requirement 1 is unknown
  });

  test('a purchase priced below the PGPAF minimum on its own date counts, with a finding on the item and one for the year', () => {
    const r = run({ purchases: [bought('100', { belowMinimumPrice: true, count: 3 }), bought('50')] });
    expect(r.actualTotal.toFixed()).toBe('150');
    expect(codes(r.items[0].findings)).toEqual(['PURCHASE_BELOW_MINIMUM_PRICE']);
    expect(r.items[1].findings).toEqual([]);
    const year = r.findings.find((f) => f.code === 'PURCHASE_BELOW_MINIMUM_PRICE');
    expect(year && findingMessage(year)).toMatch(/^3 purchase/);
  });
});

describe('balances (Portaria MDA nº 28/2024, art. 58): the evaluation of 2024 communicated in 2025 counts toward 2026', () => {
  // A minimum weighted percentage of 50% for every year from 2024 (a test figure: the real one is open).
  const minimum: LawVersionRecord = {
    parameter: 'minimum-weighted-share', scope: null, value: { share: '0.5' }, validFrom: '2024-01-01', validUntil: null,
    publishedOn: '2025-01-15', legalBasis: 'Portaria MDA (test figure), minimum weighted percentage',
  };
  const law = createLawBook([...SHIPPED_LAW, minimum]);
  const y2024 = { from: '2024-01-01', to: '2024-12-31' };
  const y2026 = { from: '2026-01-01', to: '2026-12-31' };
  const evaluation = { year: 2024, communicatedOn: '2025-04-10' };

  test('2024: castor of R$ 100.000 from the Nordeste weighs 800.000 against 500.000 required: a surplus of 300.000, toward 2026', () => {
    const r = run({ year: 2024, evaluation, purchases: [bought('100000', { origin: NORTHEAST, product: Feedstock.CASTOR_BEAN, segment: y2024 })] }, law);
    // 100.000 × 4 × 2 = 800.000; 50% × 1.000.000 = 500.000; 800.000 − 500.000 = 300.000.
    expect(r.balance.carriedOut?.amount?.toFixed()).toBe('300000');
    expect(r.balance.carriedOut?.toYear).toBe(2026);
    expect(r.balance.carriedOut?.legalBasis).toMatch(/art\. 58/);
    // Not yet communicated: the balance is known, where it goes is not.
    const pending = run({ year: 2024, purchases: [bought('100000', { origin: NORTHEAST, product: Feedstock.CASTOR_BEAN, segment: y2024 })] }, law);
    expect([pending.balance.carriedOut?.amount?.toFixed(), pending.balance.carriedOut?.toYear]).toEqual(['300000', null]);
  });

  test('2025 carries no balance (only 2024 is seeded as carrying)', () => {
    expect(run({ evaluation: { year: 2025, communicatedOn: '2026-03-01' }, purchases: [bought('1000')] }, law).balance.carriedOut).toBeUndefined();
  });

  test('2026: a surplus of 300.000 brought in counts toward the minimum — 100.000 weighted + 300.000 = 400.000 of 500.000, 100.000 short', () => {
    const surplus = { fromYear: 2024, communicatedOn: '2025-04-10', amount: d('300000'), deadline: '2026-12-31', legalBasis: 'Portaria MDA nº 28/2024, art. 58' };
    const r = run({ year: 2026, balancesIn: [surplus], purchases: [bought('100000', { segment: y2026 })] }, law); // soy from the Sul: × 1
    expect([r.countedTotal.toFixed(), r.minimumShare.balanceIn?.toFixed(), r.minimumShare.requiredAmount?.toFixed()]).toEqual(['100000', '300000', '500000']);
    expect([r.minimumShare.shortfall?.toFixed(), r.minimumShare.met]).toEqual(['100000', false]); // 500.000 − 400.000
    expect(r.achievedShare.toFixed()).toBe('0.1'); // the year's own spending: 100.000 / 1.000.000
    expect(codes(r.findings)).toContain('BALANCE_BROUGHT_IN');
    // Without it: 400.000 short.
    expect(run({ year: 2026, purchases: [bought('100000', { segment: y2026 })] }, law).minimumShare.shortfall?.toFixed()).toBe('400000');
    // With 100.000 more of weighted spending it is met exactly: 100.000 + 100.000 + 300.000 = 500.000.
    const met = run({ year: 2026, balancesIn: [surplus], purchases: [bought('100000', { segment: y2026 }), bought('100000', { segment: y2026 })] }, law);
    expect([met.minimumShare.shortfall?.toFixed(), met.minimumShare.met]).toEqual(['0', true]);
  });

  test('2026: a deficit of 300.000 must be made up on top of the minimum by 2026-12-31 — 500.000 + 300.000 = 800.000 required', () => {
    const deficit = { fromYear: 2024, communicatedOn: '2025-04-10', amount: d('-300000'), deadline: '2026-12-31', legalBasis: 'Portaria MDA nº 28/2024, art. 58' };
    const r = run({ year: 2026, balancesIn: [deficit], purchases: [bought('600000', { segment: y2026 })] }, law);
    // 600.000 − 300.000 = 300.000 toward 500.000: 200.000 short (600.000 alone would meet the minimum).
    expect([r.minimumShare.shortfall?.toFixed(), r.minimumShare.met]).toEqual(['200000', false]);
    expect(findingMessage(r.findings.find((f) => f.code === 'BALANCE_BROUGHT_IN')!)).toMatch(/deficit of R\$ 300000\.00.*by 2026-12-31/);
    // Its own balance leaving 2026: 600.000 − 300.000 − 500.000 = −200.000 (2026 does not carry, so none is shown).
    expect(r.balance.carriedOut).toBeUndefined();
  });

  test('a balance whose year has no published minimum is not established: requirement 1 of the year it enters is not either', () => {
    const unknown = { fromYear: 2024, communicatedOn: '2025-04-10', amount: null, deadline: '2026-12-31', legalBasis: 'Portaria MDA nº 28/2024, art. 58' };
    const r = run({ year: 2026, balancesIn: [unknown], purchases: [bought('900000', { segment: y2026 })] }, law);
    expect([r.minimumShare.balanceIn, r.minimumShare.shortfall, r.minimumShare.met]).toEqual([null, null, null]);
    expect(codes(r.findings)).toContain('BALANCE_NOT_ESTABLISHED');
    // Shown as unknown, never as 0: the year's required amount stays known.
    const shown = present(r).minimumShare;
    expect([shown.balanceIn, shown.shortfall, shown.compliant, shown.requiredAmount?.toFixed(2)]).toEqual([null, null, null, '500000.00']);
  });

  test('art. 58 as law data: 2024 carries, 2025 does not; an ADMIN may publish another year', () => {
    expect(LAW.sealBalanceCarries('2024-12-31', KNOWN)?.legalBasis).toMatch(/art\. 58/);
    expect(LAW.sealBalanceCarries('2025-12-31', KNOWN)).toBeUndefined();
    const more = createLawBook([...SHIPPED_LAW, {
      parameter: 'selo-balance-carry', scope: null, value: {}, validFrom: '2025-01-01', validUntil: '2025-12-31', publishedOn: '2026-01-10', legalBasis: 'Portaria MDA (test), art. 58 for 2025',
    }]);
    expect(more.sealBalanceCarries('2025-12-31', '2026-01-10')).toBeDefined();
    expect(more.sealBalanceCarries('2025-12-31', '2026-01-09')).toBeUndefined();
  });
});

/**
 * Portaria MAPA 174/2022 (docs/LAW.md): a DAP whose validity starts after 2022-10-31 is kept and
 * counts by its dates, with DAP_ISSUED_AFTER_CUTOFF. A purchase of R$ 1.000 in the Nordeste in
 * 2025 from such a farmer, under a conforming contract: counted, 1.000 × d 4 = 4.000; the item and
 * the year carry the finding (the year: one counted purchase). So does the flat model.
 */
test('a farmer whose DAP was issued after the cutoff: the purchase counts and the item and the year say DAP_ISSUED_AFTER_CUTOFF', () => {
  const late = bought('1000', { origin: NORTHEAST, supplier: { kind: SupplierKind.FAMILY_FARMER, registrationValid: true, lateDap: true, organization: null } });
  const { weighted, item, r } = only({ purchases: [late] });
  expect([r.model, weighted, r.excluded]).toEqual(['WEIGHTED', '4000', []]);
  expect(codes(item.findings)).toEqual(['DAP_ISSUED_AFTER_CUTOFF']);
  const year = r.findings.filter((f) => f.code === 'DAP_ISSUED_AFTER_CUTOFF');
  expect(year.map((f) => findingMessage(f))).toEqual([expect.stringMatching(/^1 counted purchase/)]);
  const flat = run({ year: 2024, asKnownOn: '2024-06-01', purchases: [{ ...late, segment: { from: '2024-01-01', to: '2024-12-31' } }] });
  expect([flat.model, flat.countedTotal.toFixed(), codes(flat.items[0].findings)]).toEqual(['FLAT', '1000', ['DAP_ISSUED_AFTER_CUTOFF']]);
  expect(codes(flat.findings)).toContain('DAP_ISSUED_AFTER_CUTOFF');
  // Not counted for another reason (no contract): excluded with every reason, the cutoff among them; no year finding.
  const excluded = run({ purchases: [{ ...late, contract: null }] });
  expect(codes(excluded.excluded[0].findings)).toEqual(['NO_CONTRACT', 'DAP_ISSUED_AFTER_CUTOFF']);
  expect(codes(excluded.findings)).not.toContain('DAP_ISSUED_AFTER_CUTOFF');
});

/**
 * Portaria MDA nº 28/2024, arts. 15–16 (docs/LAW.md, Interpretation): the countable cost of
 * technical assistance (ATER) is the technicians' pay and travel, lodging and meals at a fixed
 * percentage our copy does not give. The records cannot split the two, so from the Portaria's model
 * the recorded amount is taken as the cost declared: unchanged, with ATER_COST_AS_DECLARED.
 */
describe('technical assistance as fomento (Portaria MDA nº 28/2024, arts. 15–16): counted as declared, and said', () => {
  const SEMIARID_BA = { region: Region.NORTHEAST, semiarid: true }; // Feira de Santana (BA)
  const ater = (amount: string, aterCount: number, aterAmount: string, count = aterCount): FomentoGroup => ({
    key: `ater${amount}`, place: SEMIARID_BA, segment: YEAR_2025, amount: d(amount), count, technicalAssistance: { count: aterCount, amount: d(aterAmount) },
  });

  test('R$ 1.000 of ATER in Feira de Santana in 2025: counted 1.000 × c 30 = 30.000, the item and the year (1 expense, R$ 1000.00) say so', () => {
    const { weighted, item, r } = only({ fomento: [ater('1000', 1, '1000')] });
    expect([item.actual.toFixed(), weighted, r.countedTotal.toFixed(), r.excluded]).toEqual(['1000', '30000', '30000', []]);
    expect(codes(item.findings)).toEqual(['ATER_COST_AS_DECLARED']);
    expect(item.findings[0].legalBasis).toBe('Portaria MDA nº 28/2024, arts. 15–16');
    const year = r.findings.filter((f) => f.code === 'ATER_COST_AS_DECLARED');
    expect(year.map((f) => findingMessage(f))).toEqual([expect.stringMatching(/^1 counted technical-assistance \(ATER\) fomento expense\(s\) of the year, R\$ 1000\.00,.*arts\. 15–16.*percentage for travel, lodging and meals is not in our sources/)]);
    expect(findingMessage(year[0], 'pt-BR')).toMatch(/^1 gasto\(s\) de fomento em assistência técnica \(ATER\) computado\(s\) no ano, R\$ 1000\.00,.*deslocamento, hospedagem e alimentação não consta das nossas fontes/);
  });

  test('an INVESTMENT of R$ 500 in the same group: 1.500 × 30 = 45.000; the item says 1 of its 2 expenses, R$ 1000.00, is ATER; none: no finding', () => {
    const { weighted, item, r } = only({ fomento: [ater('1500', 1, '1000', 2)] });
    expect(weighted).toBe('45000');
    expect(findingMessage(item.findings[0])).toMatch(/^1 of the 2 fomento expense\(s\) of this item, R\$ 1000\.00, are technical assistance/);
    expect(findingMessage(r.findings.find((f) => f.code === 'ATER_COST_AS_DECLARED')!)).toMatch(/^1 counted .* R\$ 1000\.00,/);
    const investment = only({ fomento: [ater('500', 0, '0', 1)] });
    expect([investment.weighted, investment.item.findings, codes(investment.r.findings)]).toEqual(['15000', [], expect.not.arrayContaining(['ATER_COST_AS_DECLARED'])]);
  });

  test('not counted (outside the priority region), or a flat year (2023): no ATER finding', () => {
    const south = run({ fomento: [{ ...ater('1000', 1, '1000'), place: SOUTH }] });
    expect([south.items, codes(south.excluded[0].findings)]).toEqual([[], ['OUTSIDE_PRIORITY_REGION']]);
    expect(codes(south.findings)).not.toContain('ATER_COST_AS_DECLARED');
    // 2023 (the decree's flat model, fomento counting under Decreto 11.902/2024's wording or not): no such cap in our sources.
    const flat = run({ year: 2023, asKnownOn: KNOWN, fomento: [{ ...ater('1000', 1, '1000'), segment: { from: '2023-01-01', to: '2023-12-31' } }] });
    expect(flat.model).toBe('FLAT');
    expect([...flat.items.flatMap((i) => codes(i.findings)), ...codes(flat.findings)]).not.toContain('ATER_COST_AS_DECLARED');
    // 2024 as known before the Portaria (2024-06-01): the flat model counts the fomento (Decreto
    // 11.902/2024's wording), still with no ATER finding — the Portaria was not yet known.
    const before = run({ year: 2024, asKnownOn: '2024-06-01', fomento: [{ ...ater('1000', 1, '1000'), segment: { from: '2024-01-01', to: '2024-12-31' } }] });
    expect([before.model, before.actualTotal.toFixed(), before.items.flatMap((i) => codes(i.findings))]).toEqual(['FLAT', '1000', []]);
    expect(codes(before.findings)).not.toContain('ATER_COST_AS_DECLARED');
  });
});
