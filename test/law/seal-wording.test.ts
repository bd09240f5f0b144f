import { Conformity } from '../../src/law/contract-conformity';
import { Decimal } from '../../src/law/decimal';
import { createLawBook, LawVersionRecord } from '../../src/law/law-book';
import { FomentoGroup, PurchaseGroup, sealBase } from '../../src/law/seal-spending';
import { present } from '../../src/law/seal-presentation';
import { sealCompliance } from '../../src/law/seal-compliance';
import { SealComplianceFacts } from '../../src/law/seal-year';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { Feedstock, PurchasePurpose, Region, SealBaseRule, SealComplianceModel, SeloWording, SupplierKind } from '../../src/law/types';

/**
 * The Selo's rules by the decree's wording in force in the year (Decreto 10.527/2020, art. 3º §2º I
 * and §3º II): the original (23/10/2020), as amended by Decreto 10.708/2021 (28/05/2021) and by
 * Decreto 11.902/2024 (31/01/2024); from 2024 the Portaria MDA nº 28/2024 base (domestic sales).
 * Every figure below is worked by hand in its comment.
 */

const LAW = createLawBook(SHIPPED_LAW);
const d = (v: string | number) => new Decimal(v);
const codes = (fs: Array<{ code: string }>) => fs.map((f) => f.code);
const CONFORMING: Conformity = { conforming: true, findings: [], minimumPrice: null };
const NORTHEAST = { region: Region.NORTHEAST, semiarid: false };

function bought(amount: string, from: string, over: Partial<PurchaseGroup> = {}): PurchaseGroup {
  return {
    key: `p${amount}${from}`,
    purpose: PurchasePurpose.BIODIESEL_FEEDSTOCK,
    supplier: { kind: SupplierKind.FAMILY_FARMER, registrationValid: true, lateDap: false, organization: null },
    contract: { id: '1', signedOn: `${from.slice(0, 4)}-01-01`, conformity: CONFORMING, priorToPurchase: true, coverage: { date: true, feedstock: true, counterparty: true } },
    origin: NORTHEAST, segment: { from, to: from }, amount: d(amount), count: 1, product: Feedstock.CASTOR_BEAN, belowMinimumPrice: false, ...over,
  };
}
const fomento = (amount: string, from: string): FomentoGroup => ({ key: `f${amount}${from}`, place: NORTHEAST, segment: { from, to: from }, amount: d(amount), count: 1 });

describe('the wording in force on a day (law data, bitemporal)', () => {
  test.each([
    ['2020-12-31', '2026-12-01', SeloWording.ORIGINAL],
    ['2021-05-27', '2026-12-01', SeloWording.ORIGINAL],
    ['2021-05-28', '2026-12-01', SeloWording.DECRETO_10708_2021],
    ['2021-12-31', '2021-05-27', SeloWording.ORIGINAL], //          as known the day before Decreto 10.708/2021
    ['2021-12-31', '2021-05-28', SeloWording.DECRETO_10708_2021], // as known on its publication
    ['2024-01-30', '2026-12-01', SeloWording.DECRETO_10708_2021],
    ['2024-01-31', '2026-12-01', SeloWording.DECRETO_11902_2024],
  ])('%s as known on %s: %s', (on, known, wording) => {
    expect(LAW.sealWording(on, known)?.wording).toBe(wording);
  });

  test('none before Decreto 10.527/2020 (2020-10-23)', () => {
    expect(LAW.sealWording('2020-10-22', '2026-12-01')).toBeUndefined();
  });
});

describe('2021, a year spanning two wordings, read by the one in force on 31 December (Decreto 10.708/2021)', () => {
  // A Nordeste plant (flat minimum 30%, Portaria MAPA 144/2019, secondary). Own biodiesel sold:
  // 200 m³ for R$ 1.000.000, 50 m³ of it exported. Raw material acquired in the year from anyone:
  // R$ 200.000, of which R$ 50.000 from family farmers under contract (R$ 20.000 in April, before
  // the act; R$ 30.000 in June, after). Fomento of R$ 10.000 in the Nordeste.
  const facts = (asKnownOn: string): SealComplianceFacts => ({
    year: 2021, asKnownOn, plant: NORTHEAST,
    sales: { ownRevenue: d(1000000), ownVolume: d(200), exportedVolume: d(50), domesticRevenue: d(750000), rawMaterialAcquisitions: d(200000) },
    purchases: [bought('20000', '2021-04-10'), bought('30000', '2021-06-10')],
    fomento: [fomento('10000', '2021-08-01')],
  });

  test('as known before the act (2021-05-27): the original wording — base of raw-material acquisitions, raw material only', () => {
    const r = sealCompliance(facts('2021-05-27'), LAW);
    // Base: 200.000 − 200.000 × 50 / 200 = 150.000. Required 30% × 150.000 = 45.000; counted 50.000: met.
    expect([r.rule, r.gross.toFixed(), r.exportedValue.toFixed(), r.base.toFixed()]).toEqual([SealBaseRule.RAW_MATERIAL_ACQUISITIONS, '200000', '50000', '150000']);
    expect([r.countedTotal.toFixed(), r.minimumShare.requiredAmount?.toFixed(), r.minimumShare.met]).toEqual(['50000', '45000', true]);
    expect(r.achievedShare.toFixed(6)).toBe('0.333333'); // 50.000 / 150.000
    expect(r.modelLegalBasis).toContain('original wording');
    // The fomento does not count under this wording.
    expect(r.excluded.map((e) => codes(e.findings))).toEqual([['SPENDING_NOT_IN_WORDING']]);
    expect(r.excluded[0].findings[0].legalBasis).toContain('art. 3º §2º I');
    const shown = present(r);
    expect([shown.baseRule, shown.rawMaterialAcquisitions?.toFixed(2), shown.base.toFixed(2)]).toEqual([SealBaseRule.RAW_MATERIAL_ACQUISITIONS, '200000.00', '150000.00']);
  });

  test('as known from the act (2021-05-28): the value of biodiesel sold — every 2021 purchase, April and June alike, against it', () => {
    const r = sealCompliance(facts('2021-05-28'), LAW);
    // Base: 1.000.000 − 1.000.000 × 50 / 200 = 750.000. Required 30% × 750.000 = 225.000; counted
    // 20.000 + 30.000 = 50.000: short 175.000.
    expect([r.rule, r.exportedValue.toFixed(), r.base.toFixed()]).toEqual([SealBaseRule.BIODIESEL_SOLD, '250000', '750000']);
    expect([r.countedTotal.toFixed(), r.minimumShare.requiredAmount?.toFixed(), r.minimumShare.shortfall?.toFixed(), r.compliant]).toEqual(['50000', '225000', '175000', false]);
    expect(r.modelLegalBasis).toContain('Decreto 10.708/2021');
    expect(r.excluded.map((e) => codes(e.findings))).toEqual([['SPENDING_NOT_IN_WORDING']]); // still raw material only
    expect(present(r).rawMaterialAcquisitions).toBeNull();
  });
});

describe('2020, 2022 and 2023 each answer by their wording; 2024 as known before the Portaria by Decreto 11.902/2024', () => {
  const year = (y: number, asKnownOn = '2026-12-01') => sealCompliance({
    year: y, asKnownOn, plant: NORTHEAST,
    sales: { ownRevenue: d(100000), ownVolume: d(10), exportedVolume: d(0), domesticRevenue: d(100000), rawMaterialAcquisitions: d(40000) },
    purchases: [bought('12000', `${y}-11-10`)], fomento: [fomento('1000', `${y}-11-20`)],
  }, LAW);

  test('2020: original wording — 12.000 / 40.000 = 0,3, the 30% minimum met; fomento excluded', () => {
    const r = year(2020);
    expect([r.rule, r.base.toFixed(), r.achievedShare.toFixed(), r.compliant]).toEqual([SealBaseRule.RAW_MATERIAL_ACQUISITIONS, '40000', '0.3', true]);
    expect(r.fomento.toFixed()).toBe('0');
    expect(r.modelLegalBasis).toMatch(/^Decreto 10\.527\/2020, art\. 3º §2º I and §3º II, original wording/);
  });

  test.each([2022, 2023])('%i: Decreto 10.708/2021 — 12.000 / 100.000 = 0,12 < 0,3 (short 18.000); fomento excluded', (y) => {
    const r = year(y);
    expect([r.rule, r.base.toFixed(), r.achievedShare.toFixed(), r.minimumShare.shortfall?.toFixed()]).toEqual([SealBaseRule.BIODIESEL_SOLD, '100000', '0.12', '18000']);
    expect(r.fomento.toFixed()).toBe('0');
    expect(r.modelLegalBasis).toContain('Decreto 10.708/2021');
  });

  test('2024 as known on 2024-06-27 (flat model): Decreto 11.902/2024 — fomento counts, 12.000 + 1.000 = 13.000 / 100.000', () => {
    const r = year(2024, '2024-06-27');
    expect(r.model).toBe(SealComplianceModel.FLAT);
    expect([r.rule, r.fomento.toFixed(), r.countedTotal.toFixed(), r.achievedShare.toFixed()]).toEqual([SealBaseRule.BIODIESEL_SOLD, '1000', '13000', '0.13']);
    expect(r.modelLegalBasis).toContain('Decreto 11.902/2024');
    expect(r.excluded).toEqual([]);
  });
});

describe('from 2024 the base is the gross value of biodiesel sold on the domestic market (Portaria MDA nº 28/2024)', () => {
  // Own biodiesel: 150 m³ sold at home for R$ 900.000 (R$ 6.000/m³), 50 m³ exported for R$ 200.000
  // (R$ 4.000/m³): 200 m³, R$ 1.100.000. Castor of R$ 100.000 from a Nordeste farmer weighs
  // 100.000 × 4 (d) × 2 (f) = 800.000. A test minimum of 90%.
  const minimum: LawVersionRecord = {
    parameter: 'minimum-weighted-share', scope: null, value: { share: '0.9' }, validFrom: '2024-01-01', validUntil: null,
    publishedOn: '2025-01-10', legalBasis: 'Portaria MDA (test figure), minimum weighted percentage',
  };
  const law = createLawBook([...SHIPPED_LAW, minimum]);
  const sales = { ownRevenue: d(1100000), ownVolume: d(200), exportedVolume: d(50), domesticRevenue: d(900000) };

  test('base 900.000 (the domestic sales), not 1.100.000 × 150 / 200 = 825.000: required 810.000, short 10.000', () => {
    const r = sealCompliance({ year: 2024, asKnownOn: '2026-12-01', plant: NORTHEAST, sales, purchases: [bought('100000', '2024-08-01')], fomento: [] }, law);
    expect(r.model).toBe(SealComplianceModel.WEIGHTED);
    expect([r.rule, r.salesRevenue.toFixed(), r.exportedValue.toFixed(), r.base.toFixed()]).toEqual([SealBaseRule.DOMESTIC_SALES, '1100000', '200000', '900000']);
    expect(r.countedTotal.toFixed()).toBe('800000');
    expect(r.achievedShare.toFixed(6)).toBe('0.888889'); // 800.000 / 900.000
    // 0,9 × 900.000 = 810.000 > 800.000: short 10.000 (the proportional reading, 0,9 × 825.000 = 742.500, would have met it).
    expect([r.minimumShare.requiredAmount?.toFixed(), r.minimumShare.shortfall?.toFixed(), r.minimumShare.met]).toEqual(['810000', '10000', false]);
    const shown = present(r);
    expect([shown.salesRevenue.toFixed(2), shown.exportedValue.toFixed(2), shown.base.toFixed(2)]).toEqual(['1100000.00', '200000.00', '900000.00']);
  });

  test('the years before the Portaria keep the decree\'s proportional reading: 2023 base 1.100.000 × 150 / 200 = 825.000', () => {
    expect(sealBase({ ...sales, rawMaterialAcquisitions: d(0) }, SealBaseRule.BIODIESEL_SOLD).base.toFixed()).toBe('825000');
    const r = sealCompliance({ year: 2023, asKnownOn: '2026-12-01', plant: NORTHEAST, sales, purchases: [], fomento: [] }, law);
    expect([r.rule, r.base.toFixed()]).toEqual([SealBaseRule.BIODIESEL_SOLD, '825000']);
  });
});
