import { findingMessage } from '../../src/i18n/finding-message';
import { Version } from '../../src/law/dated';
import {
  Conformity, ContractFacts, contractConformity, contractFindingsFromFacts, CoveredPurchaseFacts, coverage, MinimumPriceValue, minimumPriceInForce, minimumPriceRuns, signedBefore,
} from '../../src/law/contract-conformity';
import { finding } from '../../src/law/findings';
import { Decimal } from '../../src/law/decimal';
import { Feedstock, Region } from '../../src/law/types';

/** A contract with farmer 7 for soybean over 2025, signed 2025-01-10, R$ 2,50/kg, assistance assured. */
const contract = (over: Partial<ContractFacts> = {}): ContractFacts => ({
  signedOn: '2025-01-10', validFrom: '2025-01-10', validUntil: '2025-12-31', feedstock: Feedstock.SOYBEAN,
  pricePerKg: new Decimal('2.50'), technicalAssistance: true, familyFarmerId: '7', organizationId: null, ...over,
});

/** Why a purchase does not count under its contract (art. 3º §2 II), from the contract's own facts. */
const contractFindings = (c: { facts: ContractFacts; conformity: Conformity } | null, p: CoveredPurchaseFacts) =>
  (c ? contractFindingsFromFacts(c.conformity, signedBefore(c.facts, p.purchasedOn), coverage(c.facts, p), c.facts.signedOn) : [finding('NO_CONTRACT')]);

const price = (pricePerKg: string, validFrom: string, validUntil: string, publishedOn: string, id: string, feedstock = Feedstock.SOYBEAN): Version<MinimumPriceValue> => ({
  id, value: { feedstock, pricePerKg: new Decimal(pricePerKg) }, validFrom, validUntil, publishedOn, legalBasis: `Portaria PGPAF ${id}`, seq: Number(id),
});

const codes = (fs: Array<{ code: string }>) => fs.map((f) => f.code);
const KNOWN = '2026-01-01';

describe('contract conformity (Decreto 10.527/2020, art. 3º §2 II–III)', () => {
  test('signed before its first purchase, price above the minimum, assistance assured: conforming', () => {
    const c = contractConformity(contract(), [price('2.40', '2025-01-01', '2025-12-31', '2024-12-20', '1')], '2025-02-01', KNOWN);
    expect(c.conforming).toBe(true);
    expect(c.findings).toEqual([]);
    expect(c.minimumPrice?.value.pricePerKg.toFixed()).toBe('2.4');
  });

  test('II "firmar previamente": signed after the first purchase it covers is NO_PRIOR_CONTRACT; on the same day is prior (Interpretation)', () => {
    expect(codes(contractConformity(contract(), [], '2025-01-09', KNOWN).findings)).toEqual(['NO_PRIOR_CONTRACT']);
    expect(contractConformity(contract(), [], '2025-01-10', KNOWN).conforming).toBe(true);
    // No purchase yet: nothing precedes the signature.
    expect(contractConformity(contract(), [], null, KNOWN).conforming).toBe(true);
  });

  test('II and Decreto 5.996/2006: a price one centavo below the PGPAF minimum in force on the signing date fails; exactly at it passes', () => {
    const prices = [price('2.51', '2025-01-01', '2025-12-31', '2024-12-20', '1')];
    const below = contractConformity(contract(), prices, null, KNOWN);
    expect(codes(below.findings)).toEqual(['PRICE_BELOW_MINIMUM']);
    expect(contractConformity(contract({ pricePerKg: new Decimal('2.51') }), prices, null, KNOWN).conforming).toBe(true);
  });

  test('II: the minimum price is the one in force on the signing date, not on the purchase dates', () => {
    // 2,40 until 2025-06-30, then 3,00: a contract signed in January at 2,50 conforms all year.
    const prices = [price('2.40', '2025-01-01', '2025-06-30', '2024-12-20', '1'), price('3.00', '2025-07-01', '2025-12-31', '2025-06-15', '2')];
    expect(contractConformity(contract(), prices, '2025-08-01', KNOWN).conforming).toBe(true);
    expect(codes(contractConformity(contract({ signedOn: '2025-07-01' }), prices, null, KNOWN).findings)).toEqual(['PRICE_BELOW_MINIMUM']);
  });

  test('where no minimum price is in force for the feedstock, the price condition does not apply', () => {
    const castorOnly = [price('9.00', '2025-01-01', '2025-12-31', '2024-12-20', '1', Feedstock.CASTOR_BEAN)];
    const c = contractConformity(contract(), castorOnly, null, KNOWN);
    expect(c).toEqual({ conforming: true, findings: [], minimumPrice: null });
  });

  test('docs/LAW.md: a minimum price published after asKnownOn is not yet applied; a later publication wins where validity overlaps', () => {
    const prices = [price('2.40', '2025-01-01', '2025-12-31', '2024-12-20', '1'), price('2.60', '2025-01-01', '2025-12-31', '2025-03-01', '2')];
    expect(contractConformity(contract(), prices, null, '2025-02-28').conforming).toBe(true);
    expect(codes(contractConformity(contract(), prices, null, '2025-03-01').findings)).toEqual(['PRICE_BELOW_MINIMUM']);
    expect(minimumPriceInForce(prices, Feedstock.SOYBEAN, '2025-01-10', '2025-03-01')?.id).toBe('2');
  });

  test('III: without technical assistance the contract does not conform; every failing condition is listed', () => {
    const c = contractConformity(contract({ technicalAssistance: false, pricePerKg: new Decimal('1') }),
      [price('2.40', '2025-01-01', '2025-12-31', '2024-12-20', '1')], '2025-01-05', KNOWN);
    expect(codes(c.findings)).toEqual(['NO_PRIOR_CONTRACT', 'PRICE_BELOW_MINIMUM', 'NO_TECHNICAL_ASSISTANCE']);
    expect(c.conforming).toBe(false);
  });
});

describe('a purchase under a contract (art. 3º §2 II)', () => {
  const conforming = { facts: contract(), conformity: contractConformity(contract(), [], null, KNOWN) };
  const purchase = { purchasedOn: '2025-03-01', feedstock: Feedstock.SOYBEAN, familyFarmerId: '7', organizationId: null };

  test('covered by date, feedstock and counterparty under a conforming contract: counts (no findings)', () => {
    expect(contractFindings(conforming, purchase)).toEqual([]);
  });

  test('no contract: NO_CONTRACT', () => {
    expect(codes(contractFindings(null, purchase))).toEqual(['NO_CONTRACT']);
  });

  test('a purchase dated before the signing: NO_PRIOR_CONTRACT (and not covering when also before validFrom)', () => {
    expect(codes(contractFindings(conforming, { ...purchase, purchasedOn: '2025-01-09' }))).toEqual(['NO_PRIOR_CONTRACT', 'CONTRACT_NOT_COVERING']);
    const backdated = { facts: contract({ validFrom: '2025-01-01' }), conformity: conforming.conformity };
    expect(codes(contractFindings(backdated, { ...purchase, purchasedOn: '2025-01-09' }))).toEqual(['NO_PRIOR_CONTRACT']);
  });

  test('not covering the date, the feedstock or the counterparty: CONTRACT_NOT_COVERING naming what', () => {
    expect(coverage(contract(), { ...purchase, purchasedOn: '2026-01-01' })).toEqual({ date: false, feedstock: true, counterparty: true });
    const f = contractFindings(conforming, { ...purchase, feedstock: Feedstock.CASTOR_BEAN, familyFarmerId: '8' });
    expect(codes(f)).toEqual(['CONTRACT_NOT_COVERING']);
    expect(findingMessage(f[0])).toContain('feedstock, counterparty');
    // An organization's contract does not cover a farmer's purchase.
    expect(coverage(contract({ familyFarmerId: null, organizationId: '7' }), purchase).counterparty).toBe(false);
  });

  test('validity is inclusive at both ends', () => {
    expect(contractFindings(conforming, { ...purchase, purchasedOn: '2025-01-10' })).toEqual([]);
    expect(contractFindings(conforming, { ...purchase, purchasedOn: '2025-12-31' })).toEqual([]);
  });

  // Art. 3º §2º II "firmar previamente", judged per acquisition in every year (docs/LAW.md): the
  // contract lists its late signing (Contract.conformity), but a purchase after the signing counts.
  test('a later purchase under a contract signed after its first covered purchase counts: judged per acquisition', () => {
    const late = { facts: contract(), conformity: contractConformity(contract(), [], '2025-01-05', KNOWN) };
    expect(codes(late.conformity.findings)).toEqual(['NO_PRIOR_CONTRACT']);
    expect(findingMessage(late.conformity.findings[0])).toContain('after the first purchase it covers (2025-01-05)');
    expect(contractFindings(late, purchase)).toEqual([]); // 2025-03-01, after the signing of 2025-01-10
    expect(codes(contractFindings(late, { ...purchase, purchasedOn: '2025-01-09' }))).toEqual(['NO_PRIOR_CONTRACT', 'CONTRACT_NOT_COVERING']);
  });

  // Art. 3º §2º III: technical assistance is the producer's obligation, a finding of the year
  // (docs/LAW.md), not a reason a purchase does not count; the price (II) still is.
  test('the contract\'s own price failure comes with the purchase\'s; its missing technical assistance does not', () => {
    const bad = contract({ technicalAssistance: false, pricePerKg: new Decimal('2.39') });
    const conformity = contractConformity(bad, [price('2.40', '2025-01-01', '2025-12-31', '2024-12-20', '1')], null, KNOWN);
    expect(codes(conformity.findings)).toEqual(['PRICE_BELOW_MINIMUM', 'NO_TECHNICAL_ASSISTANCE']);
    const f = contractFindings({ facts: bad, conformity }, { ...purchase, feedstock: Feedstock.PALM });
    expect(codes(f)).toEqual(['CONTRACT_NOT_COVERING', 'PRICE_BELOW_MINIMUM']);
  });
});

describe('PGPAF prices by state or region (Decreto 5.996/2006: tables by product, state or region and period)', () => {
  const price = (pricePerKg: string, scope: string | null, publishedOn = '2024-12-20') => ({
    value: { feedstock: Feedstock.SOYBEAN, pricePerKg: new Decimal(pricePerKg), scope }, validFrom: '2025-01-01', validUntil: '2025-12-31', publishedOn, legalBasis: `test ${scope}`,
  });
  const versions = [price('2.40', null), price('2.60', Region.NORTHEAST), price('2.80', '29')];
  const at = (municipalityCode: string, region: Region) => minimumPriceInForce(versions, Feedstock.SOYBEAN, '2025-06-01', '2026-01-01', { municipalityCode, region })?.value.pricePerKg.toFixed(2);

  test("the origin's state first, else its region, else the national price", () => {
    expect(at('2910800', Region.NORTHEAST)).toBe('2.80'); // Feira de Santana (BA, 29)
    expect(at('2611606', Region.NORTHEAST)).toBe('2.60'); // Recife (PE, 26): no state price
    expect(at('4314902', Region.SOUTH)).toBe('2.40'); //     Porto Alegre: neither
    expect(minimumPriceInForce(versions, Feedstock.SOYBEAN, '2025-06-01', '2026-01-01')?.value.pricePerKg.toFixed(2)).toBe('2.40'); // no origin: national
    // Known only from its publication: as known before, Bahia's falls back to the region's.
    const later = [price('2.40', null), price('2.60', Region.NORTHEAST), price('2.80', '29', '2025-03-01')];
    expect(minimumPriceInForce(later, Feedstock.SOYBEAN, '2025-06-01', '2025-02-28', { municipalityCode: '2910800', region: Region.NORTHEAST })?.value.pricePerKg.toFixed(2)).toBe('2.60');
  });

  test('runs per feedstock and scope', () => {
    expect(minimumPriceRuns(versions, '2025-01-01', '2025-12-31', '2026-01-01').map((r) => [r.scope, r.pricePerKg.toFixed(2)])).toEqual([[null, '2.40'], ['29', '2.80'], ['NORTHEAST', '2.60']]);
  });

  test('runs cut on the first and the day after the last day of each table; equal neighbours joined; no run where no table is in force', () => {
    const table = (feedstock: Feedstock, pricePerKg: string, validFrom: string, validUntil: string | null, publishedOn = '2024-12-20') => ({
      value: { feedstock, pricePerKg: new Decimal(pricePerKg), scope: null }, validFrom, validUntil, publishedOn, legalBasis: 'test',
    });
    // The table of 2,50 has no end; the one of 2,70, published later, takes over on the window's last day.
    const tables = [
      table(Feedstock.SOYBEAN, '2.40', '2025-01-01', '2025-03-31'), table(Feedstock.SOYBEAN, '2.40', '2025-04-01', '2025-06-30'),
      table(Feedstock.SOYBEAN, '2.50', '2025-07-01', null), table(Feedstock.SOYBEAN, '2.70', '2025-12-31', null, '2025-01-15'),
      table(Feedstock.CASTOR_BEAN, '3.00', '2025-02-01', '2025-02-28'),
    ];
    expect(minimumPriceRuns(tables, '2025-01-01', '2025-12-31', '2026-01-01').map((r) => [r.feedstock, r.from, r.to, r.pricePerKg.toFixed(2)])).toEqual([
      [Feedstock.CASTOR_BEAN, '2025-02-01', '2025-02-28', '3.00'],
      [Feedstock.SOYBEAN, '2025-01-01', '2025-06-30', '2.40'],
      [Feedstock.SOYBEAN, '2025-07-01', '2025-12-30', '2.50'],
      [Feedstock.SOYBEAN, '2025-12-31', '2025-12-31', '2.70'],
    ]);
  });
});
