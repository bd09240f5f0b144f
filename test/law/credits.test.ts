import fc from 'fast-check';
import { checkProperty } from '../support/property';
import {
  applyClaim, ApportionmentMethod, CbsCreditFacts, cbsCredit, CbsCreditKind, ClaimError, ClaimKind, Contribution, CreditProduct, CreditStatus, CreditSupplier, foldNet,
  mergeReversals, monthCbsCredits, monthCredits, originReversals, purchaseCredit, PurchaseCreditFacts, RevenueGroup,
} from '../../src/law/credits';
import { Decimal } from '../../src/law/decimal';
import { createLawBook, LawVersionRecord } from '../../src/law/law-book';
import { SHIPPED_LAW } from '../../src/law/shipped-law';

const d = (v: string | number) => new Decimal(v);
const shipped = createLawBook(SHIPPED_LAW);
const asKnownOn = '2026-12-04';

function purchase(over: Partial<PurchaseCreditFacts>): PurchaseCreditFacts {
  return {
    purchaseId: '1', purchasedOn: '2026-03-10', supplier: CreditSupplier.COMPANY, product: CreditProduct.VEGETABLE_OIL, cst: '01',
    cost: d('1000000'), icms: d(0), importPisPaid: null, importCofinsPaid: null, allocatedTo: null, ...over,
  };
}

/** The worked example of the credit rules: 1.000 m³ at the category I amounts (R$ 22,48 / 103,51 per m³). */
describe('worked example: soy oil from a cooperative (X) and a company (Y)', () => {
  const debit = { pisDebit: d('22480.00'), cofinsDebit: d('103510.00') };
  const revenue = [{ on: '2026-03-31', group: RevenueGroup.TAXED_DOMESTIC, revenue: d('5000000') }];

  function month(cstOfCooperative: string) {
    const x = purchaseCredit(purchase({ purchaseId: 'X', supplier: CreditSupplier.COOPERATIVE, cst: cstOfCooperative, cost: d('1000000') }), shipped, asKnownOn);
    const y = purchaseCredit(purchase({ purchaseId: 'Y', cost: d('2000000') }), shipped, asKnownOn);
    const credits = monthCredits({ purchases: [x, y], revenue, method: null, law: shipped, asKnownOn });
    const { nets, balances } = foldNet([{ year: 2026, month: 3, ...debit, lines: credits.lines, cbsDue: null, cbsLevied: false, claims: [] }]);
    return { x, y, credits, net: nets[0], balances };
  }

  test('case A, both taxed (CST 01): credits 49.500,00 / 228.000,00, nothing payable, 27.020,00 / 124.490,00 carried in group 100', () => {
    const { credits, net, balances } = month('01');
    expect(credits.lines.map((l) => [l.codCred, l.pis.toFixed(2), l.cofins.toFixed(2)])).toEqual([['101', '49500.00', '228000.00']]);
    expect(net.pisDue.toFixed(2)).toBe('0.00');
    expect(net.cofinsDue.toFixed(2)).toBe('0.00');
    expect(net.pisCreditsOfMonthDeducted.toFixed(2)).toBe('22480.00');
    expect(balances.map((b) => [b.tax, b.codCred, b.remaining.toFixed(2), b.refundableFrom])).toEqual([
      [Contribution.PIS, '101', '27020.00', null], [Contribution.COFINS, '101', '124490.00', null],
    ]);
    // The art. 31 credit has no published share: it is awaited, not computed.
    expect(credits.presumed[0].status).toBe(CreditStatus.AWAITING_PARAMETER);
    expect(credits.awaiting).toContain('presumed credit from 2026-03-31: presumed-credit-biodiesel');
  });

  test('purchases awaiting a fact or a parameter are named in the month, the others not; only credits make lines', () => {
    const noCst = purchaseCredit(purchase({ purchaseId: 'A', cst: null }), shipped, asKnownOn);
    const b100 = purchaseCredit(purchase({ purchaseId: 'B', supplier: CreditSupplier.ABROAD, product: CreditProduct.B100_FOR_RESALE, importPisPaid: d(1), importCofinsPaid: d(1) }), shipped, asKnownOn);
    const taxed = purchaseCredit(purchase({ purchaseId: 'C', cost: d('1000') }), shipped, asKnownOn);
    const credits = monthCredits({ purchases: [noCst, b100, taxed], revenue, method: null, law: shipped, asKnownOn });
    expect(credits.awaiting.filter((a) => a.startsWith('purchase'))).toEqual(['purchase A: pisCofinsCst', 'purchase B: credit-choice/IMPORTED_B100_FOR_RESALE']);
    expect(credits.lines.map((l) => [l.codCred, l.pis.toFixed(2)])).toEqual([['101', '16.50']]);
  });

  test('case B, cooperative zero-rated (CST 06): no credit on X, 33.000,00 / 152.000,00 on Y, 10.520,00 / 48.490,00 carried', () => {
    const { x, credits, balances } = month('06');
    expect([x.status, x.reason]).toEqual([CreditStatus.NO_CREDIT, 'SUPPLIER_ZERO_RATE']);
    expect(credits.lines.map((l) => [l.pis.toFixed(2), l.cofins.toFixed(2)])).toEqual([['33000.00', '152000.00']]);
    expect(balances.map((b) => b.remaining.toFixed(2))).toEqual(['10520.00', '48490.00']);
  });

  test('suspended (CST 09) gives no credit either', () => {
    expect(month('09').x.reason).toBe('SUPPLIER_SUSPENDED');
  });
});

describe('the credit of one purchase', () => {
  test('a family farmer (a natural person) gives no credit, with the reason and the provision', () => {
    const c = purchaseCredit(purchase({ supplier: CreditSupplier.NATURAL_PERSON, product: CreditProduct.IN_NATURA, cst: null }), shipped, asKnownOn);
    expect(c).toMatchObject({ status: CreditStatus.NO_CREDIT, reason: 'NATURAL_PERSON_SUPPLIER', pis: null });
    expect(c.legalBasis).toMatch(/art\. 3º § 3º I/);
  });

  test('in-natura raw material from a cooperative is suspended (art. 47-A); soybeans by Lei 12.865 art. 29; tallow from a company gives credit', () => {
    expect(purchaseCredit(purchase({ supplier: CreditSupplier.COOPERATIVE, product: CreditProduct.IN_NATURA }), shipped, asKnownOn).reason).toBe('SUSPENDED_IN_NATURA');
    expect(purchaseCredit(purchase({ product: CreditProduct.SOYBEAN }), shipped, asKnownOn).reason).toBe('SUSPENDED_SOYBEAN');
    const tallow = purchaseCredit(purchase({ product: CreditProduct.ANIMAL_FAT, cost: d('10000'), icms: d('1200') }), shipped, asKnownOn);
    // Base net of ICMS: 8.800,00 × 1,65% = 145,20; × 7,6% = 668,80.
    expect([tallow.base!.toFixed(2), tallow.pis!.toFixed(2), tallow.cofins!.toFixed(2), tallow.natBcCred]).toEqual(['8800.00', '145.20', '668.80', '02']);
  });

  test('an unknown CST or ICMS is awaited, never assumed', () => {
    expect(purchaseCredit(purchase({ cst: null }), shipped, asKnownOn)).toMatchObject({ status: CreditStatus.AWAITING_FACT, awaiting: 'pisCofinsCst' });
    expect(purchaseCredit(purchase({ icms: null }), shipped, asKnownOn)).toMatchObject({ status: CreditStatus.AWAITING_FACT, awaiting: 'icmsValue' });
  });

  test('a single-phase input (CST 04) earns the general rates only as a fuel input', () => {
    expect(purchaseCredit(purchase({ cst: '04', product: CreditProduct.FUEL_INPUT, cost: d(100) }), shipped, asKnownOn).pis!.toFixed(2)).toBe('1.65');
    expect(purchaseCredit(purchase({ cst: '04', product: CreditProduct.INPUT }), shipped, asKnownOn).status).toBe(CreditStatus.NO_CREDIT);
  });

  // Lei 10.637/2002 and Lei 10.833/2003, each art. 3º § 2º II: each contribution follows its own CST.
  // PIS 01 / Cofins 06 on 10.000,00 net of ICMS 0: PIS 10.000 × 1,65% = 165,00; Cofins none (zero rate) = 0,00.
  test('PIS CST 01 with Cofins CST 06: the PIS credit 165,00, no Cofins credit; the same CST on both is unchanged', () => {
    const split = purchaseCredit(purchase({ cst: '01', cofinsCst: '06', cost: d('10000') }), shipped, asKnownOn);
    expect([split.status, split.reason, split.pis!.toFixed(2), split.cofins!.toFixed(2), split.cofinsRate!.toFixed()]).toEqual([CreditStatus.CREDIT, 'COFINS_SUPPLIER_ZERO_RATE', '165.00', '0.00', '0']);
    const other = purchaseCredit(purchase({ cst: '06', cofinsCst: '01', cost: d('10000') }), shipped, asKnownOn);
    expect([other.reason, other.pis!.toFixed(2), other.cofins!.toFixed(2)]).toEqual(['PIS_SUPPLIER_ZERO_RATE', '0.00', '760.00']);
    expect(purchaseCredit(purchase({ cst: '06', cofinsCst: '07', cost: d('10000') }), shipped, asKnownOn)).toMatchObject({ status: CreditStatus.NO_CREDIT, reason: 'SUPPLIER_ZERO_RATE' });
    for (const same of [{ cofinsCst: '01' }, { cofinsCst: null }, {}]) {
      const c = purchaseCredit(purchase({ cst: '01', cost: d('10000'), ...same }), shipped, asKnownOn);
      expect([c.reason, c.pis!.toFixed(2), c.cofins!.toFixed(2)]).toEqual([null, '165.00', '760.00']);
    }
  });

  test('an import credits the contributions actually paid (COD_CRED x08); imported B100 for resale awaits its choice', () => {
    const imp = purchaseCredit(purchase({ supplier: CreditSupplier.ABROAD, product: CreditProduct.INPUT, cst: null, importPisPaid: d('2100'), importCofinsPaid: d('9650') }), shipped, asKnownOn);
    expect([imp.status, imp.kind, imp.pis!.toFixed(2), imp.cofins!.toFixed(2)]).toEqual([CreditStatus.CREDIT, 'IMPORT', '2100.00', '9650.00']);
    const b100 = purchaseCredit(purchase({ supplier: CreditSupplier.ABROAD, product: CreditProduct.B100_FOR_RESALE, importPisPaid: d(1), importCofinsPaid: d(1) }), shipped, asKnownOn);
    expect(b100).toMatchObject({ status: CreditStatus.AWAITING_PARAMETER, awaiting: 'credit-choice/IMPORTED_B100_FOR_RESALE' });
  });

  test('an import with either contribution not recorded awaits it, naming which; never a credit of one of them', () => {
    const imported = (pis: string | null, cofins: string | null) => purchaseCredit(purchase({
      supplier: CreditSupplier.ABROAD, product: CreditProduct.INPUT, cst: null, importPisPaid: pis === null ? null : d(pis), importCofinsPaid: cofins === null ? null : d(cofins),
    }), shipped, asKnownOn);
    const shown = (c: ReturnType<typeof imported>) => [c.status, c.reason, c.awaiting, c.pis?.toFixed(2) ?? null];
    expect(shown(imported(null, '9650'))).toEqual([CreditStatus.AWAITING_FACT, 'IMPORT_CONTRIBUTIONS_NOT_RECORDED', 'importPisPaid', null]);
    expect(shown(imported('2100', null))).toEqual([CreditStatus.AWAITING_FACT, 'IMPORT_CONTRIBUTIONS_NOT_RECORDED', 'importCofinsPaid', null]);
    expect(shown(imported(null, null))).toEqual([CreditStatus.AWAITING_FACT, 'IMPORT_CONTRIBUTIONS_NOT_RECORDED', 'importPisPaid', null]);
  });

  test('no PIS/Cofins credit arises from 2027', () => {
    expect(purchaseCredit(purchase({ purchasedOn: '2027-01-02' }), shipped, '2027-02-01').reason).toBe('PIS_COFINS_EXTINCT');
    // A 2026 lot of R$ 100.000,00 returned in 2027 reverses the credit it gave, under its own day's rules, on the day of the return.
    const returned = purchaseCredit(purchase({ purchasedOn: '2026-12-10', on: '2027-01-10', cost: d('-100000') }), shipped, '2027-02-01');
    expect([returned.status, returned.on, returned.pis!.toFixed(2), returned.cofins!.toFixed(2)]).toEqual([CreditStatus.CREDIT, '2027-01-10', '-1650.00', '-7600.00']);
  });
});

describe('the CBS credit of one purchase from 2027 (LC 214/2025)', () => {
  const fact = (over: Partial<CbsCreditFacts>): CbsCreditFacts => ({
    purchaseId: '7', on: '2027-01-15', supplier: CreditSupplier.COMPANY, product: CreditProduct.VEGETABLE_OIL, cost: d('100000'), cbsValue: d('8800.00'), ...over,
  });
  const share: LawVersionRecord = {
    parameter: 'cbs-presumed-credit', scope: null, value: { share: '0.035' }, validFrom: '2027-01-01', validUntil: null,
    publishedOn: '2027-02-10', legalBasis: 'LC 214/2025, art. 168 (test figure)', seq: 10_001,
  };
  const law = createLawBook([...SHIPPED_LAW, share]);

  test('the CBS the invoice states is the credit (art. 47); R$ 0,00 gives none; fuel for resale none whatever the invoice (art. 180)', () => {
    const paid = cbsCredit(fact({}), shipped, asKnownOn);
    expect([paid.status, paid.kind, paid.amount!.toFixed(2), paid.base!.toFixed(2)]).toEqual([CreditStatus.CREDIT, CbsCreditKind.ACQUISITION, '8800.00', '100000.00']);
    expect(paid.legalBasis).toBe('LC 214/2025, art. 47');
    const zero = cbsCredit(fact({ cbsValue: d(0) }), shipped, asKnownOn);
    expect([zero.status, zero.reason, zero.amount]).toEqual([CreditStatus.NO_CREDIT, 'NO_CBS_ON_ACQUISITION', null]);
    const resale = cbsCredit(fact({ product: CreditProduct.B100_FOR_RESALE }), shipped, asKnownOn);
    expect([resale.status, resale.reason, resale.legalBasis]).toEqual([CreditStatus.NO_CREDIT, 'FUEL_FOR_RESALE', 'LC 214/2025, art. 180 caput']);
    const fuel = cbsCredit(fact({ product: CreditProduct.FUEL_INPUT, cbsValue: d('12.345') }), shipped, asKnownOn);
    expect([fuel.amount!.toFixed(2), fuel.legalBasis]).toEqual(['12.34', 'LC 214/2025, art. 47; fuel consumed in the operation: art. 180 § 1º']);
  });

  test('a legal entity or an import with no CBS recorded awaits it, never assumed', () => {
    for (const supplier of [CreditSupplier.COMPANY, CreditSupplier.COOPERATIVE, CreditSupplier.ABROAD, null]) {
      const c = cbsCredit(fact({ supplier, cbsValue: null }), law, '2027-12-31');
      expect([c.status, c.reason, c.awaiting, c.amount]).toEqual([CreditStatus.AWAITING_FACT, 'CBS_NOT_RECORDED', 'cbsValue', null]);
    }
  });

  test('a natural person with no CBS on the note: the presumed credit of art. 168 awaits its percentage, then cost × share from its publication', () => {
    const farmer = fact({ supplier: CreditSupplier.NATURAL_PERSON, cbsValue: null, cost: d('12345.67') });
    const before = cbsCredit(farmer, law, '2027-02-09');
    expect([before.status, before.kind, before.awaiting, before.amount]).toEqual([CreditStatus.AWAITING_PARAMETER, CbsCreditKind.PRESUMED, 'cbs-presumed-credit', null]);
    // 12.345,67 × 3,5% = 432,09845: 432,10.
    const after = cbsCredit(farmer, law, '2027-02-10');
    expect([after.status, after.kind, after.rate!.toFixed(), after.amount!.toFixed(2)]).toEqual([CreditStatus.CREDIT, CbsCreditKind.PRESUMED, '0.035', '432.10']);
    expect(cbsCredit({ ...farmer, cost: null }, law, '2027-02-10').awaiting).toBe('cost');
    // A farmer who opted to be a contributor (art. 164) states the CBS: that is the credit, not the presumed one.
    expect(cbsCredit({ ...farmer, cbsValue: d('500') }, law, '2027-02-10').kind).toBe(CbsCreditKind.ACQUISITION);
    // A return reverses its share, negative.
    expect(cbsCredit({ ...farmer, cost: d('-1000') }, law, '2027-02-10').amount!.toFixed(2)).toBe('-35.00');
  });

  test('a natural person\'s note stating R$ 0,00 of CBS is a non-contributor\'s: art. 168, as with none recorded, never NO_CBS_ON_ACQUISITION', () => {
    // Castor R$ 20.000,00 from a family farmer (natural person), recorded with cbsValue 0 (art. 168 with art. 164).
    const farmer = fact({ supplier: CreditSupplier.NATURAL_PERSON, cbsValue: d(0), cost: d('20000') });
    const before = cbsCredit(farmer, law, '2027-02-09');
    expect([before.status, before.kind, before.reason, before.awaiting, before.base!.toFixed(2)])
      .toEqual([CreditStatus.AWAITING_PARAMETER, CbsCreditKind.PRESUMED, 'PRESUMED_RATE_NOT_PUBLISHED', 'cbs-presumed-credit', '20000.00']);
    // 20.000,00 × 3,5% = 700,00 once published.
    const after = cbsCredit(farmer, law, '2027-02-10');
    expect([after.status, after.kind, after.amount!.toFixed(2), after.legalBasis]).toEqual([CreditStatus.CREDIT, CbsCreditKind.PRESUMED, '700.00', cbsCredit({ ...farmer, cbsValue: null }, law, '2027-02-10').legalBasis]);
    // Its return (R$ 2.000,00 back, CBS 0 × its share): −2.000,00 × 3,5% = −70,00.
    expect(cbsCredit({ ...farmer, cost: d('-2000'), cbsValue: d('-0') }, law, '2027-02-10').amount!.toFixed(2)).toBe('-70.00');
    // A legal entity's R$ 0,00 still bore no CBS and gives none.
    expect(cbsCredit({ ...farmer, supplier: CreditSupplier.COMPANY }, law, '2027-02-10').reason).toBe('NO_CBS_ON_ACQUISITION');
  });

  test('the month sums what is computed, reversals netted, and names what is awaited', () => {
    const credits = [
      cbsCredit(fact({ purchaseId: '1' }), shipped, asKnownOn), cbsCredit(fact({ purchaseId: '2', cbsValue: d('-880') }), shipped, asKnownOn),
      cbsCredit(fact({ purchaseId: '3', cbsValue: null }), shipped, asKnownOn), cbsCredit(fact({ purchaseId: '4', supplier: CreditSupplier.NATURAL_PERSON, cbsValue: null }), shipped, asKnownOn),
    ];
    const month = monthCbsCredits(credits);
    expect(month.total.toFixed(2)).toBe('7920.00');
    expect(month.awaiting).toEqual(['CBS of purchase 3: cbsValue', 'CBS of purchase 4: cbs-presumed-credit']);
  });
});

describe('the art. 31 presumed credit on biodiesel revenue', () => {
  const published: LawVersionRecord = {
    parameter: 'presumed-credit-biodiesel', scope: null, value: { share: '0.5' }, validFrom: '2026-03-01', validUntil: '2026-12-31',
    publishedOn: '2026-02-20', legalBasis: 'Lei 12.865/2013, art. 31 § 2º (test figure)', seq: 10_000,
  };
  const law = createLawBook([...SHIPPED_LAW, published]);
  const revenue = (on: string, group: RevenueGroup, value: string) => ({ on, group, revenue: d(value) });

  test('awaits its percentage until published, then is computed from its date, even on R$ 0,00 and export revenue', () => {
    const parts = [revenue('2026-02-27', RevenueGroup.TAXED_DOMESTIC, '100000'), revenue('2026-03-05', RevenueGroup.UNTAXED_DOMESTIC, '200000'), revenue('2026-03-06', RevenueGroup.EXPORT, '300000')];
    const before = monthCredits({ purchases: [], revenue: parts, method: null, law, asKnownOn: '2026-02-19' });
    expect(before.presumed.map((p) => p.status)).toEqual([CreditStatus.AWAITING_PARAMETER, CreditStatus.AWAITING_PARAMETER, CreditStatus.AWAITING_PARAMETER]);
    expect(before.lines).toEqual([]);
    const after = monthCredits({ purchases: [], revenue: parts, method: null, law, asKnownOn: '2026-03-31' });
    expect(after.presumed[0].status).toBe(CreditStatus.AWAITING_PARAMETER);
    // 200.000 × 50% × 1,65% = 1.650,00; × 7,6% = 7.600,00; export 300.000: 2.475,00 and 11.400,00.
    expect(after.lines.map((l) => [l.codCred, l.pis.toFixed(2), l.cofins.toFixed(2)])).toEqual([['207', '1650.00', '7600.00'], ['307', '2475.00', '11400.00']]);
  });
});

// Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 1º: the rate applies to the month's base; the credit of a (month, COD_CRED)
// is rounded once, not per purchase or per day of revenue.
describe('the month\'s credit is its base × rate, rounded once', () => {
  test('three purchases of R$ 1.000,30: 3.000,90 × 1,65% = 49,51485 → 49,51 and × 7,6% = 228,0684 → 228,07 (not 3 × 16,50 / 76,02)', () => {
    const three = ['a', 'b', 'c'].map((id) => purchaseCredit(purchase({ purchaseId: id, cost: d('1000.30') }), shipped, asKnownOn));
    const month = monthCredits({ purchases: three, revenue: [], method: null, law: shipped, asKnownOn });
    expect(month.lines.map((l) => [l.codCred, l.base.toFixed(2), l.pis.toFixed(2), l.cofins.toFixed(2)])).toEqual([['101', '3000.90', '49.51', '228.07']]);
  });

  test('the presumed credit on exports of R$ 1.000,00 on 01/12 and 02/12 at a share of 0,27: 2.000 × 0,27 × 1,65% = 8,91 (not 2 × 4,46)', () => {
    const law = createLawBook([...SHIPPED_LAW, {
      parameter: 'presumed-credit-biodiesel', scope: null, value: { share: '0.27' }, validFrom: '2026-01-01', validUntil: '2026-12-31',
      publishedOn: '2025-12-20', legalBasis: 'Lei 12.865/2013, art. 31 § 2º (test figure)', seq: 10_000,
    }]);
    const revenue = ['2026-12-01', '2026-12-02'].map((on) => ({ on, group: RevenueGroup.EXPORT, revenue: d('1000') }));
    const month = monthCredits({ purchases: [], revenue, method: null, law, asKnownOn });
    // Cofins: 2.000 × 0,27 × 7,6% = 41,04.
    expect(month.lines.map((l) => [l.codCred, l.base.toFixed(2), l.pis.toFixed(2), l.cofins.toFixed(2)])).toEqual([['307', '2000.00', '8.91', '41.04']]);
  });

  // Lei 12.865/2013, art. 31 (the revenue of the sales) with the return of a sale reducing the revenue of its month (docs/LAW.md,
  // "Returns"): November exports 1.000.000 and, on 20/11, takes back 100.000 of an October export → base 900.000;
  // PIS 900.000 × 0,27 × 1,65% = 4.009,50, Cofins × 7,6% = 18.468,00.
  test('a sale returned on a day of its own reduces the month\'s base: 1.000.000 − 100.000 = 900.000 → 4.009,50 / 18.468,00', () => {
    const law = createLawBook([...SHIPPED_LAW, {
      parameter: 'presumed-credit-biodiesel', scope: null, value: { share: '0.27' }, validFrom: '2026-01-01', validUntil: '2026-12-31',
      publishedOn: '2025-12-20', legalBasis: 'Lei 12.865/2013, art. 31 § 2º (test figure)', seq: 10_000,
    }]);
    const revenue = [{ on: '2026-11-05', group: RevenueGroup.EXPORT, revenue: d('1000000') }, { on: '2026-11-20', group: RevenueGroup.EXPORT, revenue: d('-100000') }];
    const month = monthCredits({ purchases: [], revenue, method: null, law, asKnownOn });
    expect(month.lines.map((l) => [l.codCred, l.base.toFixed(2), l.pis.toFixed(2), l.cofins.toFixed(2)])).toEqual([['307', '900000.00', '4009.50', '18468.00']]);
  });
});

describe('apportionment and balances', () => {
  const common = purchaseCredit(purchase({ cost: d('100000') }), shipped, asKnownOn); // 1.650,00 / 7.600,00

  test('common credits wait for the year\'s election when the revenue spans groups; the revenue ratio splits them to the centavo', () => {
    const revenue = [{ on: '2026-07-31', group: RevenueGroup.UNTAXED_DOMESTIC, revenue: d('1') }, { on: '2026-07-31', group: RevenueGroup.EXPORT, revenue: d('2') }];
    expect(monthCredits({ purchases: [common], revenue, method: null, law: shipped, asKnownOn }).awaitingElection).toBe(true);
    const split = monthCredits({ purchases: [common], revenue, method: ApportionmentMethod.REVENUE_RATIO, law: shipped, asKnownOn });
    expect(split.lines.filter((l) => l.kind === 'BASIC').map((l) => [l.codCred, l.pis.toFixed(2), l.cofins.toFixed(2)])).toEqual([['201', '550.00', '2533.33'], ['301', '1100.00', '5066.67']]);
    const direct = monthCredits({ purchases: [{ ...common, allocatedTo: RevenueGroup.EXPORT }], revenue, method: ApportionmentMethod.DIRECT_ALLOCATION, law: shipped, asKnownOn });
    expect(direct.lines.map((l) => l.codCred)).toEqual(['301']);
  });

  test('a quarter with a category III month and an export month: the kept credits become a refund claim after the quarter', () => {
    const aug = monthCredits({ purchases: [common], revenue: [{ on: '2026-08-31', group: RevenueGroup.UNTAXED_DOMESTIC, revenue: d('500000') }], method: null, law: shipped, asKnownOn });
    const sep = monthCredits({ purchases: [common], revenue: [{ on: '2026-09-30', group: RevenueGroup.EXPORT, revenue: d('500000') }], method: null, law: shipped, asKnownOn });
    const zero = { pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false };
    const claim = { id: 'c1', tax: Contribution.COFINS, originYear: 2026, originMonth: 9, codCred: '301', kind: ClaimKind.REFUND, filedOn: '2026-10-15', amount: d('7000') };
    const { nets, balances } = foldNet([
      { year: 2026, month: 8, ...zero, lines: aug.lines, claims: [] },
      { year: 2026, month: 9, ...zero, lines: sep.lines, claims: [] },
      { year: 2026, month: 10, ...zero, lines: [], claims: [claim] },
    ]);
    expect(nets[0].pisRefundable.toFixed(2)).toBe('0.00'); // August: the quarter has not ended
    expect([nets[1].pisRefundable.toFixed(2), nets[1].cofinsRefundable.toFixed(2)]).toEqual(['3300.00', '15200.00']);
    expect(balances.map((b) => [b.tax, b.codCred, b.refundableFrom, b.remaining.toFixed(2)])).toEqual([
      [Contribution.PIS, '201', '2026-10-01', '1650.00'], [Contribution.COFINS, '201', '2026-10-01', '7600.00'],
      [Contribution.PIS, '301', '2026-10-01', '1650.00'], [Contribution.COFINS, '301', '2026-10-01', '600.00'],
    ]);
    const inSeptember = foldNet([{ year: 2026, month: 9, ...zero, lines: sep.lines, claims: [{ ...claim, filedOn: '2026-09-30' }] }]);
    expect(inSeptember.issues.map((i) => [i.reason, i.excess.toFixed(2)])).toEqual([['BEFORE_QUARTER_END', '7000.00']]);
    const september = { year: 2026, month: 9, ...zero, lines: sep.lines, claims: [] };
    // The cash refund waits for the quarter's end: a balance of August, claimed in September.
    const early = foldNet([{ year: 2026, month: 8, ...zero, lines: aug.lines, claims: [] }, { ...september, claims: [{ ...claim, originMonth: 8, codCred: '201', filedOn: '2026-09-30' }] }]);
    expect(early.issues.map((i) => i.reason)).toEqual(['BEFORE_QUARTER_END']);
    expect(() => applyClaim(early.balances, { ...claim, originMonth: 8, codCred: '201', filedOn: '2026-09-30' })).toThrow(ClaimError);
    const october = (c: object) => foldNet([september, { year: 2026, month: 10, ...zero, lines: [], claims: [{ ...claim, ...c }] }]);
    expect(october({ amount: d('7600.01') }).issues.map((i) => [i.reason, i.available.toFixed(2), i.excess.toFixed(2)])).toEqual([['EXCEEDS_BALANCE', '7600.00', '0.01']]);
    // The whole balance may be claimed: nothing left of it.
    const whole = october({ amount: d('7600') });
    expect(whole.issues).toEqual([]);
    expect(whole.balances.filter((b) => b.codCred === '301').map((b) => [b.tax, b.claimed.toFixed(2), b.remaining.toFixed(2)])).toEqual([[Contribution.PIS, '0.00', '1650.00'], [Contribution.COFINS, '7600.00', '0.00']]);
  });

  // Lei 10.637/2002, art. 3º § 4º (rule 14): the month's debit, then the credits deducted, then the carry; a claim filed
  // in the month (Lei 11.116/2005, art. 16) uses the balance carried into it. August: 1.650,00 of COD_CRED 301;
  // October: a refund of all of it filed on 15/10, and a debit of 264,10 → the claim takes the 1.650,00, the debit is payable.
  test('a claim filed in a month takes the balance carried into it before the month\'s debit: 1.650,00 claimed, 264,10 payable', () => {
    const exportLine = { group: RevenueGroup.EXPORT, kind: 'BASIC' as never, codCred: '301', base: d('100000'), pisRate: null, cofinsRate: null, pis: d('1650.00'), cofins: d('7600.00'), legalBasis: '' };
    const refund = { id: 'c', tax: Contribution.PIS, originYear: 2026, originMonth: 8, codCred: '301', kind: ClaimKind.REFUND, filedOn: '2026-10-15', amount: d('1650.00') };
    const { nets, balances, issues } = foldNet([
      { year: 2026, month: 8, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, lines: [exportLine], claims: [] },
      { year: 2026, month: 9, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, lines: [], claims: [] },
      { year: 2026, month: 10, pisDebit: d('264.10'), cofinsDebit: d('1215.90'), cbsDue: null, cbsLevied: false, lines: [], claims: [refund] },
    ]);
    expect(issues).toEqual([]);
    expect([nets[2].pisEarlierDeducted.toFixed(2), nets[2].pisDue.toFixed(2), nets[2].cofinsEarlierDeducted.toFixed(2), nets[2].cofinsDue.toFixed(2)]).toEqual(['0.00', '264.10', '1215.90', '0.00']);
    expect(balances.map((b) => [b.tax, b.deducted.toFixed(2), b.claimed.toFixed(2), b.remaining.toFixed(2)])).toEqual([
      [Contribution.PIS, '0.00', '1650.00', '0.00'], [Contribution.COFINS, '1215.90', '0.00', '6384.10'],
    ]);
  });

  // Lei 10.637/2002, art. 5º § 1º II (offset, no wait) vs § 2º (cash refund after the quarter); Guia, register 1100: the
  // "intermediate" DCOMP is allowed for COD_CRED 301–304 and 308 only. August: 1.650,00 of 301; an offset of 500,00 on 10/09.
  test('an offset of an export credit within its quarter is allowed (301: 1.650,00 − 500,00 = 1.150,00); its cash refund and a 201 offset wait', () => {
    const line = (group: RevenueGroup, codCred: string) => ({ group, kind: 'BASIC' as never, codCred, base: d('100000'), pisRate: null, cofinsRate: null, pis: d('1650.00'), cofins: d(0), legalBasis: '' });
    const offset = { id: 'o', tax: Contribution.PIS, originYear: 2026, originMonth: 8, codCred: '301', kind: ClaimKind.OFFSET, filedOn: '2026-09-10', amount: d('500.00') };
    const zero = { pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false };
    const fold = (claims: object[], august = [line(RevenueGroup.EXPORT, '301')]) => foldNet([
      { year: 2026, month: 8, ...zero, lines: august, claims: [] }, { year: 2026, month: 9, ...zero, lines: [], claims: claims as never },
    ]);
    const ok = fold([offset]);
    expect(ok.issues).toEqual([]);
    expect(ok.balances.map((b) => [b.codCred, b.claimed.toFixed(2), b.remaining.toFixed(2), b.refundableFrom])).toEqual([['301', '500.00', '1150.00', '2026-10-01']]);
    expect(fold([{ ...offset, kind: ClaimKind.REFUND }]).issues.map((i) => i.reason)).toEqual(['BEFORE_QUARTER_END']);
    expect(fold([{ ...offset, codCred: '201' }], [line(RevenueGroup.UNTAXED_DOMESTIC, '201')]).issues.map((i) => i.reason)).toEqual(['BEFORE_QUARTER_END']);
    // Filed in August, the offset finds no balance carried into August.
    const inAugust = foldNet([{ year: 2026, month: 8, ...zero, lines: [line(RevenueGroup.EXPORT, '301')], claims: [{ ...offset, filedOn: '2026-08-30' }] }]);
    expect(inAugust.issues.map((i) => i.reason)).toEqual(['NO_BALANCE']);
  });

  test('a recorded claim the balances no longer support is an issue of its month, never an error: it takes what is left, the rest is its excess', () => {
    const exportLine = { group: RevenueGroup.EXPORT, kind: 'BASIC' as never, codCred: '301', base: d('100000'), pisRate: null, cofinsRate: null, pis: d('1650.00'), cofins: d(0), legalBasis: '' };
    const refund = { id: 'c', tax: Contribution.PIS, originYear: 2026, originMonth: 8, codCred: '301', kind: ClaimKind.REFUND, filedOn: '2026-10-15', amount: d('1650.00') };
    // A return recorded later in September reverses 100,00 of August's balance: the claim of 1.650,00 now exceeds it by 100,00.
    const reversal = { ...exportLine, base: d('-6060.61'), pis: d('-100.00') };
    const { nets, balances, issues, claims } = foldNet([
      { year: 2026, month: 8, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, lines: [exportLine], claims: [] },
      { year: 2026, month: 9, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, lines: [reversal], claims: [] },
      { year: 2026, month: 10, pisDebit: d('264.10'), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, lines: [], claims: [refund] },
      { year: 2026, month: 11, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, lines: [], claims: [{ ...refund, id: 'd', originMonth: 7, filedOn: '2026-11-03' }] },
    ]);
    expect(issues.map((i) => [i.year, i.month, i.claim.id, i.reason, i.available.toFixed(2), i.applied.toFixed(2), i.excess.toFixed(2)])).toEqual([
      [2026, 10, 'c', 'EXCEEDS_BALANCE', '1550.00', '1550.00', '100.00'], [2026, 11, 'd', 'NO_BALANCE', '0.00', '0.00', '1650.00'],
    ]);
    expect(claims.map((c) => [c.id, c.amount.toFixed(2)])).toEqual([['c', '1550.00'], ['d', '0.00']]);
    expect(nets[2].pisDue.toFixed(2)).toBe('264.10');
    expect(balances.map((b) => [b.reversed.toFixed(2), b.claimed.toFixed(2), b.remaining.toFixed(2)])).toEqual([['100.00', '1550.00', '0.00']]);
  });

  // The same four months: each month's state as it ends is the fold ending with it. After September: 1.650,00 − 100,00 reversed
  // = 1.550,00, no claim yet; after October: the claim took the 1.550,00 (one claim, one issue); after November: two of each.
  test('each month\'s state as it ends is what the fold ending with that month gives', () => {
    const exportLine = { group: RevenueGroup.EXPORT, kind: 'BASIC' as never, codCred: '301', base: d('100000'), pisRate: null, cofinsRate: null, pis: d('1650.00'), cofins: d(0), legalBasis: '' };
    const refund = { id: 'c', tax: Contribution.PIS, originYear: 2026, originMonth: 8, codCred: '301', kind: ClaimKind.REFUND, filedOn: '2026-10-15', amount: d('1650.00') };
    const zero = { pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false };
    const months = [
      { year: 2026, month: 8, ...zero, lines: [exportLine], claims: [] },
      { year: 2026, month: 9, ...zero, lines: [{ ...exportLine, base: d('-6060.61'), pis: d('-100.00') }], claims: [] },
      { year: 2026, month: 10, ...zero, pisDebit: d('264.10'), lines: [], claims: [refund] },
      { year: 2026, month: 11, ...zero, lines: [], claims: [{ ...refund, id: 'd', originMonth: 7, filedOn: '2026-11-03' }] },
    ];
    const shown = (b: { claimed: Decimal; reversed: Decimal; remaining: Decimal }) => [b.reversed.toFixed(2), b.claimed.toFixed(2), b.remaining.toFixed(2)];
    const states: Array<{ balances: string[][]; claims: number; issues: number }> = [];
    foldNet(months, (i, state) => { states[i] = { balances: state.balances.map(shown), claims: state.claims, issues: state.issues }; });
    expect(states).toEqual([
      { balances: [['0.00', '0.00', '1650.00']], claims: 0, issues: 0 },
      { balances: [['100.00', '0.00', '1550.00']], claims: 0, issues: 0 },
      { balances: [['100.00', '1550.00', '0.00']], claims: 1, issues: 1 },
      { balances: [['100.00', '1550.00', '0.00']], claims: 2, issues: 2 },
    ]);
    months.forEach((_, i) => {
      const alone = foldNet(months.slice(0, i + 1));
      expect([alone.balances.map(shown), alone.claims.length, alone.issues.length]).toEqual([states[i].balances, states[i].claims, states[i].issues]);
    });
  });

  test('the debit takes group 100 first, then the oldest: the refundable balances are kept longest', () => {
    const line = (group: RevenueGroup, codCred: string, pis: string) => ({ group, kind: 'BASIC' as never, codCred, base: d(0), pisRate: null, cofinsRate: null, pis: d(pis), cofins: d(0), legalBasis: '' });
    const { nets, balances } = foldNet([
      { year: 2026, month: 1, pisDebit: d(0), cofinsDebit: d(0), lines: [line(RevenueGroup.EXPORT, '301', '500')], cbsDue: null, cbsLevied: false, claims: [] },
      { year: 2026, month: 2, pisDebit: d('700'), cofinsDebit: d(0), lines: [line(RevenueGroup.TAXED_DOMESTIC, '101', '600')], cbsDue: null, cbsLevied: false, claims: [] },
    ]);
    expect([nets[1].pisCreditsOfMonthDeducted.toFixed(2), nets[1].pisEarlierDeducted.toFixed(2), nets[1].pisDue.toFixed(2)]).toEqual(['600.00', '100.00', '0.00']);
    expect(balances.map((b) => [b.codCred, b.remaining.toFixed(2)])).toEqual([['301', '400.00'], ['101', '0.00']]);
  });

  test('group 100 balances are deducted first and may not be claimed', () => {
    const mar = monthCredits({ purchases: [common], revenue: [{ on: '2026-03-31', group: RevenueGroup.TAXED_DOMESTIC, revenue: d('1') }], method: null, law: shipped, asKnownOn });
    const claim = { id: 'c', tax: Contribution.PIS, originYear: 2026, originMonth: 3, codCred: '101', kind: ClaimKind.OFFSET, filedOn: '2026-05-01', amount: d(1) };
    const { issues } = foldNet([
      { year: 2026, month: 3, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, lines: mar.lines, claims: [] },
      { year: 2026, month: 5, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, lines: [], claims: [claim] },
    ]);
    expect(issues.map((i) => i.reason)).toEqual(['NOT_REFUNDABLE']);
  });

  test('a 2027 month offsets a 2026 balance against the CBS (LC 214/2025, art. 378 III)', () => {
    const dec = monthCredits({ purchases: [common], revenue: [{ on: '2026-12-31', group: RevenueGroup.TAXED_DOMESTIC, revenue: d('1') }], method: null, law: shipped, asKnownOn });
    const { nets, balances } = foldNet([
      { year: 2026, month: 12, pisDebit: d('650'), cofinsDebit: d('600'), lines: dec.lines, cbsDue: null, cbsLevied: false, claims: [] },
      { year: 2027, month: 1, pisDebit: null, cofinsDebit: null, lines: [], cbsDue: d('2000'), cbsLevied: true, claims: [] },
      { year: 2027, month: 2, pisDebit: null, cofinsDebit: null, lines: [], cbsDue: null, cbsLevied: true, claims: [] },
    ]);
    // Left after December: PIS 1.000,00 and Cofins 7.000,00; January's CBS of 2.000,00 takes PIS first.
    expect([nets[1].cbsOffset!.toFixed(2), nets[1].cbsNetDue!.toFixed(2)]).toEqual(['2000.00', '0.00']);
    expect(balances.map((b) => [b.tax, b.offsetAgainstCbs.toFixed(2), b.remaining.toFixed(2)])).toEqual([[Contribution.PIS, '1000.00', '0.00'], [Contribution.COFINS, '1000.00', '6000.00']]);
    // February's CBS rate is not published: the offset awaits it.
    expect([nets[2].cbsDue, nets[2].cbsOffset]).toEqual([null, null]);
  });

  test('from 2027 the CBS credits come off the CBS first, then the PIS/Cofins balances; an excess is carried, a reversal beyond them is payable', () => {
    const dec = monthCredits({ purchases: [common], revenue: [{ on: '2026-12-31', group: RevenueGroup.TAXED_DOMESTIC, revenue: d('1') }], method: null, law: shipped, asKnownOn });
    const cbsMonth = (month: number, cbsDue: string | null, cbsCredits: string) => ({
      year: 2027, month, pisDebit: null, cofinsDebit: null, lines: [], cbsDue: cbsDue === null ? null : d(cbsDue), cbsLevied: true, cbsCredits: d(cbsCredits), claims: [],
    });
    const { nets, balances } = foldNet([
      { year: 2026, month: 12, pisDebit: d('650'), cofinsDebit: d('600'), lines: dec.lines, cbsDue: null, cbsLevied: false, claims: [] },
      cbsMonth(1, '3000', '1500'),
      cbsMonth(2, '400', '900'),
      cbsMonth(3, null, '100'),
      cbsMonth(4, '700', '0'),
      cbsMonth(5, '100', '-800'),
    ]);
    const row = (n: (typeof nets)[number]) => [n.cbsCredits, n.cbsCreditsDeducted, n.cbsOffset, n.cbsNetDue, n.cbsCreditBalance].map((v) => v?.toFixed(2) ?? null);
    // December leaves PIS 1.000,00 and Cofins 7.000,00. January: 3.000,00 − 1.500,00 of its credits − 1.500,00 of those balances.
    expect(row(nets[1])).toEqual(['1500.00', '1500.00', '1500.00', '0.00', '0.00']);
    // February: 900,00 of credits against 400,00 of CBS; 500,00 carried, no balance touched.
    expect(row(nets[2])).toEqual(['900.00', '400.00', '0.00', '0.00', '500.00']);
    // March: no rate published; its credits join the carried ones, nothing is deducted.
    expect(row(nets[3])).toEqual(['100.00', null, null, null, '600.00']);
    // April: the 600,00 carried first, then 100,00 of the PIS/Cofins balances.
    expect(row(nets[4])).toEqual(['0.00', '600.00', '100.00', '0.00', '0.00']);
    // May: a return reverses 800,00 with no CBS credit left: added to the 100,00 due, which the Cofins balance then offsets.
    expect(row(nets[5])).toEqual(['-800.00', '-800.00', '900.00', '0.00', '0.00']);
    expect(balances.map((b) => [b.tax, b.offsetAgainstCbs.toFixed(2), b.remaining.toFixed(2)])).toEqual([[Contribution.PIS, '1000.00', '0.00'], [Contribution.COFINS, '1500.00', '5500.00']]);
    // Before 2027 the month has no CBS credit figures at all.
    expect(row(nets[0])).toEqual([null, null, null, null, null]);
  });
});

// Rule 17 (balances by month of origin and COD_CRED, the 1100/1500 key): a return reverses the credit its purchase gave, where
// it gave it; docs/LAW.md, "Returns".
describe('a return of an earlier month\'s purchase reverses the balance of its origin', () => {
  const line = (group: RevenueGroup, codCred: string, pis: string) => ({ group, kind: 'BASIC' as never, codCred, base: d(0), pisRate: null, cofinsRate: null, pis: d(pis), cofins: d(0), legalBasis: '' });
  const reversal = (originMonth: number, codCred: string, pis: string) => ({
    purchaseId: 'A', on: '2026-10-15', originYear: 2026, originMonth, group: RevenueGroup.EXPORT, kind: 'BASIC' as never, codCred, base: d(0), pisRate: null, cofinsRate: null, pis: d(pis), cofins: d(0),
  });

  test('August 301 of 1.650,00; October 101 of 1.650,00 with a debit of 264,10 and half of August\'s lot back: 301 825,00, 101 1.385,90', () => {
    const { nets, balances } = foldNet([
      { year: 2026, month: 8, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [line(RevenueGroup.EXPORT, '301', '1650.00')] },
      { year: 2026, month: 10, pisDebit: d('264.10'), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [line(RevenueGroup.TAXED_DOMESTIC, '101', '1650.00')],
        reversals: [reversal(8, '301', '-825.00')] },
    ]);
    expect(balances.map((b) => [b.originMonth, b.codCred, b.deducted.toFixed(2), b.reversed.toFixed(2), b.remaining.toFixed(2)])).toEqual([
      [8, '301', '0.00', '825.00', '825.00'], [10, '101', '264.10', '0.00', '1385.90'],
    ]);
    expect([nets[1].pisDue.toFixed(2), nets[1].pisRefundable.toFixed(2)]).toEqual(['0.00', '825.00']);
  });

  test('a reversal its origin balance no longer covers (refunded) takes the other balances, then is payable', () => {
    const refund = { id: 'c', tax: Contribution.PIS, originYear: 2026, originMonth: 8, codCred: '301', kind: ClaimKind.REFUND, filedOn: '2026-10-05', amount: d('1500.00') };
    const { nets, balances } = foldNet([
      { year: 2026, month: 8, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [line(RevenueGroup.EXPORT, '301', '1650.00')] },
      { year: 2026, month: 10, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [refund], lines: [line(RevenueGroup.TAXED_DOMESTIC, '101', '500.00')],
        reversals: [reversal(8, '301', '-825.00')] },
    ]);
    // 150,00 left of 301 is reversed; the other 675,00 takes October's 101 (500,00), and 175,00 is payable.
    expect(balances.map((b) => [b.codCred, b.reversed.toFixed(2), b.remaining.toFixed(2)])).toEqual([['301', '150.00', '0.00'], ['101', '500.00', '0.00']]);
    expect(nets[1].pisDue.toFixed(2)).toBe('175.00');
  });

  test('the reversal follows the origin\'s split: 1/3 in 201 and 2/3 in 301 of a 100.000,00 lot, 30.000,00 returned → −165,00 and −330,00', () => {
    const origin = monthCredits({ purchases: [purchaseCredit(purchase({ purchaseId: 'A', purchasedOn: '2026-08-04', cost: d('100000') }), shipped, asKnownOn)],
      revenue: [{ on: '2026-08-20', group: RevenueGroup.UNTAXED_DOMESTIC, revenue: d('1') }, { on: '2026-08-21', group: RevenueGroup.EXPORT, revenue: d('2') }],
      method: ApportionmentMethod.REVENUE_RATIO, law: shipped, asKnownOn });
    const back = purchaseCredit(purchase({ purchaseId: 'A', purchasedOn: '2026-08-04', on: '2026-10-15', cost: d('-30000') }), shipped, asKnownOn);
    const reversed = mergeReversals(originReversals(back, { year: 2026, month: 8, parts: origin.parts! })!);
    expect(reversed.map((r) => [r.originMonth, r.codCred, r.base.toFixed(2), r.pis.toFixed(2), r.cofins.toFixed(2)])).toEqual([
      [8, '201', '-10000.00', '-165.00', '-760.00'], [8, '301', '-20000.00', '-330.00', '-1520.00'],
    ]);
    // A purchase with no part in its month (no credit there) has nothing to reverse there: null, netted in the month of the return.
    expect(originReversals(back, { year: 2026, month: 8, parts: [] })).toBeNull();
  });
});

describe('the fold of balances (property, fixed seed)', () => {
  const cents = fc.integer({ min: 0, max: 5_000_000 }).map((c) => d(c).div(100));
  const group = fc.constantFrom(RevenueGroup.TAXED_DOMESTIC, RevenueGroup.UNTAXED_DOMESTIC, RevenueGroup.EXPORT);
  const digit = { TAXED_DOMESTIC: '1', UNTAXED_DOMESTIC: '2', EXPORT: '3' } as const;
  const month = fc.record({ debit: cents, credits: fc.array(fc.record({ group, pis: cents }), { maxLength: 3 }) });

  test('boundaries: a credit equal to the debit leaves nothing; no credit pays the whole debit', () => {
    const line = { group: RevenueGroup.TAXED_DOMESTIC, kind: 'BASIC' as never, codCred: '101', base: d(0), pisRate: null, cofinsRate: null, pis: d('100.00'), cofins: d(0), legalBasis: '' };
    const exact = foldNet([{ year: 2026, month: 1, pisDebit: d('100.00'), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [line] }]);
    expect([exact.nets[0].pisDue.toFixed(2), exact.balances[0].remaining.toFixed(2)]).toEqual(['0.00', '0.00']);
    const none = foldNet([{ year: 2026, month: 1, pisDebit: d('100.00'), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [] }]);
    expect([none.nets[0].pisDue.toFixed(2), none.balances.length]).toEqual(['100.00', 0]);
  });

  test('a reversed credit is paid from the balances, or added to what is payable', () => {
    const line = (pis: string) => ({ group: RevenueGroup.EXPORT, kind: 'BASIC' as never, codCred: '301', base: d(0), pisRate: null, cofinsRate: null, pis: d(pis), cofins: d(0), legalBasis: '' });
    const covered = foldNet([
      { year: 2026, month: 1, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [line('100.00')] },
      { year: 2026, month: 2, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [line('-30.00')] },
    ]);
    // February's reversal takes January's balance: consumed as reversed, not deducted from a debit.
    expect([covered.nets[1].pisDue.toFixed(2), covered.nets[1].pisEarlierDeducted.toFixed(2), covered.balances.map((b) => [b.reversed.toFixed(2), b.deducted.toFixed(2), b.remaining.toFixed(2)])])
      .toEqual(['0.00', '0.00', [['30.00', '0.00', '70.00']]]);
    // In the month of a credit of the same COD_CRED the reversal takes that credit first (Guia, M110), before older balances.
    const same = foldNet([
      { year: 2026, month: 1, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [line('100.00')] },
      { year: 2026, month: 2, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [line('50.00'), line('-30.00')] },
    ]);
    expect(same.balances.map((b) => [b.originMonth, b.reversed.toFixed(2), b.remaining.toFixed(2)])).toEqual([[1, '0.00', '100.00'], [2, '30.00', '20.00']]);
    const uncovered = foldNet([{ year: 2026, month: 2, pisDebit: d('10.00'), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [line('-30.00')] }]);
    expect([uncovered.nets[0].pisDue.toFixed(2), uncovered.balances.length]).toEqual(['40.00', 0]);
     // A PIS/Pasep reversal takes PIS/Pasep balances only, never the Cofins beside them: what they lack is payable.
    const both = (pis: string, cofins: string) => ({ ...line(pis), cofins: d(cofins) });
    const apart = foldNet([
      { year: 2026, month: 1, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [both('20.00', '500.00')] },
      { year: 2026, month: 2, pisDebit: d(0), cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [], lines: [both('-30.00', '0')] },
    ]);
    expect([apart.nets[1].pisDue.toFixed(2), apart.balances.map((b) => [b.tax, b.reversed.toFixed(2), b.remaining.toFixed(2)])])
      .toEqual(['10.00', [[Contribution.PIS, '20.00', '0.00'], [Contribution.COFINS, '0.00', '500.00']]]);
  });

  test('every balance adds up (credit = deducted + claimed + CBS offset + left) and each month pays its debit less what it deducted', () => {
    checkProperty(fc.property(fc.array(month, { minLength: 1, maxLength: 12 }), (months) => {
      const { nets, balances } = foldNet(months.map((m, i) => ({
        year: 2026, month: i + 1, pisDebit: m.debit, cofinsDebit: d(0), cbsDue: null, cbsLevied: false, claims: [],
        lines: m.credits.map((c) => ({ group: c.group, kind: 'BASIC' as never, codCred: `${digit[c.group]}01`, base: d(0), pisRate: null, cofinsRate: null, pis: c.pis, cofins: d(0), legalBasis: '' })),
      })));
      for (const b of balances) expect(b.deducted.plus(b.claimed).plus(b.offsetAgainstCbs).plus(b.reversed).plus(b.remaining).eq(b.original)).toBe(true);
      for (const b of balances) expect(b.remaining.gte(0)).toBe(true);
      nets.forEach((n, i) => expect(n.pisDue.plus(n.pisCreditsOfMonthDeducted).plus(n.pisEarlierDeducted).eq(months[i].debit)).toBe(true));
      // Nothing is payable while a balance is left.
      const last = nets[nets.length - 1];
      if (balances.some((b) => b.remaining.gt(0))) expect(last.pisDue.isZero()).toBe(true);
    }));
  });
});
