import fc from 'fast-check';
import { Conformity } from '../../src/law/contract-conformity';
import { Decimal } from '../../src/law/decimal';
import { createLawBook } from '../../src/law/law-book';
import { PurchaseGroup } from '../../src/law/seal-spending';
import { flatSealCompliance as sealCompliance } from '../../src/law/seal-year';
import { present } from '../../src/law/seal-presentation';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { PurchasePurpose, Region, SupplierKind } from '../../src/law/types';
import { checkProperty } from '../support/property';

/**
 * Requirement 1 exactly at its threshold when the base has no finite decimal expansion
 * (Decreto 10.527/2020, art. 3º §3º I–III; docs/LAW.md "counted / base ≥ the minimum share";
 * docs/LAW.md: computed unrounded). The base is salesRevenue − salesRevenue × exported volume /
 * total volume: with 2 of 3 m³ exported it is a third of the revenue, 0,333… of it; the required
 * spending, share × base, may still be a round sum in reais, and spending exactly that meets it.
 * Shipped minimum for a North plant: 15% (Portaria MAPA 144/2019, secondary source).
 */

const LAW = createLawBook(SHIPPED_LAW);
const d = (v: string | number) => new Decimal(v);
const NORTH = { region: Region.NORTH, semiarid: false };
const CONFORMING: Conformity = { conforming: true, findings: [], minimumPrice: null };
const bought = (amount: string): PurchaseGroup => ({
  key: `a${amount}`, purpose: PurchasePurpose.BIODIESEL_FEEDSTOCK,
  supplier: { kind: SupplierKind.FAMILY_FARMER, registrationValid: true, lateDap: false, organization: null },
  contract: { signedOn: '2025-01-01', conformity: CONFORMING, priorToPurchase: true, coverage: { date: true, feedstock: true, counterparty: true } },
  origin: NORTH, segment: { from: '2025-01-01', to: '2025-12-31' }, amount: d(amount), count: 1,
});
const run = (counted: string) => sealCompliance({
  year: 2025, asKnownOn: '2026-12-01', plant: NORTH,
  // R$ 160.520 of own biodiesel, 3 m³, of which 2 m³ exported.
  sales: { ownRevenue: d(160520), ownVolume: d(3), exportedVolume: d(2) },
  purchases: [bought(counted)], fomento: [],
}, LAW);

test('a base of R$ 53.506,666… (160.520 × 1/3): 15% is R$ 8.026,00 exactly, and R$ 8.026,00 meets it', () => {
  // exportedValue = 160.520 × 2 / 3 = 107.013,333…; base = 53.506,666…; 15% × 160.520 / 3 = 24.078 / 3 = 8.026.
  expect(d(160520).times('0.15').div(3).toFixed()).toBe('8026');
  const r = run('8026');
  expect(r.minimumShare.met).toBe(true);
  expect(r.minimumShare.shortfall!.toFixed()).toBe('0');
  expect(r.compliant).toBe(true);
  const shown = present(r);
  expect([shown.exportedValue.toFixed(), shown.base.toFixed(), shown.achievedShare.toFixed(), shown.shortfall?.toFixed()]).toEqual(['107013.33', '53506.67', '0.15', '0']);
});

test('a centavo below it: not met, R$ 0,01 short; a centavo above: met', () => {
  const below = run('8025.99');
  expect([below.minimumShare.met, present(below).shortfall?.toFixed()]).toEqual([false, '0.01']);
  expect(below.minimumShare.shortfall!.toFixed()).toBe('0.01');
  expect(run('8026.01').minimumShare.met).toBe(true);
});

test('property: requirement 1 and the shortfall agree with exact integer arithmetic (art. 3º §3º I–III)', () => {
  // In centavos and litres: met ⇔ counted × total ≥ 15/100 × revenue × (total − exported);
  // shortfall shown = the exact remainder rounded up to the centavo.
  checkProperty(fc.property(
    fc.integer({ min: 1, max: 10_000_000_000 }), fc.integer({ min: 1, max: 100_000_000 }), fc.nat(), fc.integer({ min: 1, max: 2_000_000_000 }),
    (revenue, total, exportedSeed, counted) => {
      const exported = exportedSeed % total; // less than the total: a positive base
      const r = sealCompliance({
        year: 2025, asKnownOn: '2026-12-01', plant: NORTH,
        sales: { ownRevenue: d(revenue).div(100), ownVolume: d(total).div(1000), exportedVolume: d(exported).div(1000) },
        purchases: [bought(d(counted).div(100).toFixed())], fomento: [],
      }, LAW);
      const lhs = 100n * BigInt(counted) * BigInt(total);
      const rhs = 15n * BigInt(revenue) * BigInt(total - exported);
      expect(r.minimumShare.met).toBe(lhs >= rhs);
      // Shortfall in centavos: (rhs − lhs) / (100 × total), rounded up.
      const short = lhs >= rhs ? 0n : (rhs - lhs + 100n * BigInt(total) - 1n) / (100n * BigInt(total));
      expect(present(r).shortfall?.toFixed()).toBe(d(short.toString()).div(100).toFixed());
    },
  ), { numRuns: 500 });
});

test('the statement adds up as shown: base = salesRevenue − exportedValue to the centavo (art. 3º §3º II–III; docs/LAW.md "parts add up")', () => {
  // R$ 20,01 of own biodiesel, 1 of 2 m³ exported: exportedValue = 20,01 × 1/2 = 10,005 → 10,00 (half-even, 0 even);
  // the base shown is then 20,01 − 10,00 = 10,01 (rounding 10,005 on its own would also give 10,00, and 10,00 + 10,00 ≠ 20,01).
  const r = sealCompliance({
    year: 2025, asKnownOn: '2026-12-01', plant: NORTH,
    sales: { ownRevenue: d('20.01'), ownVolume: d(2), exportedVolume: d(1) }, purchases: [], fomento: [],
  }, LAW);
  expect(r.base.toFixed()).toBe('10.005'); // unrounded, as the requirements use it
  const shown = present(r);
  expect([shown.salesRevenue.toFixed(), shown.exportedValue.toFixed(), shown.base.toFixed()]).toEqual(['20.01', '10', '10.01']);
  expect(shown.salesRevenue.minus(shown.exportedValue).eq(shown.base)).toBe(true);
});
