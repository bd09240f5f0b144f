import { Decimal } from '../../src/law/decimal';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, FEIRA, PORTO_ALEGRE, RECIFE } from '../support/fixtures';
import { contract, farmer, nordesteYear, purchases, setUpSeloYear } from '../support/selo-year';

/**
 * Selo compliance over real PostgreSQL (Decreto 10.527/2020, art. 3º §2 I–III and §3º; Portaria
 * Interministerial MME/MDA nº 2/2023; from 2024 Portaria MDA nº 28/2024). Every expected figure is
 * worked out by hand below from the law and the shipped parameters: from 2024 the weighting
 * factors b 1,1 · c 30 · d 4 · e 3 · f 2 (a and the minimum weighted percentage not published);
 * up to 2023 the flat minimum shares 30% Nordeste, 40% Sul (Portaria MAPA 144/2019, secondary) with
 * factor 1; priority-region minimum 10% 2024, 15% 2025, 20% 2026, on actual values; organizations'
 * member minimum 0,6. Recife is Nordeste, Feira de Santana Nordeste and Semiárido, Porto Alegre Sul.
 * All data is set up through the API's mutations.
 */

let api: TestApi;
const KNOWN = '2026-11-30';

async function sales(producerId: string, items: Array<{ on: string; m3: string; revenue: string; market?: string; origin?: string }>): Promise<void> {
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, {
    i: items.map((s) => ({ producerId, soldOn: s.on, volumeM3: s.m3, revenue: s.revenue, market: s.market ?? 'DOMESTIC', origin: s.origin ?? 'OWN_PRODUCTION' })),
  });
}

async function fomento(producerId: string, items: Array<{ on: string; amount: string; municipality: string }>): Promise<string[]> {
  const d = await api.ok(`mutation($i: [RecordFomentoInput!]!) { recordFomento(input: $i) { id } }`, {
    i: items.map((f) => ({ producerId, spentOn: f.on, kind: 'TECHNICAL_ASSISTANCE', amount: f.amount, municipalityCode: f.municipality })),
  });
  return d.recordFomento.map((f: { id: string }) => f.id);
}

const COMPLIANCE = `query($p: ID!, $y: Int!, $k: Date) { sealCompliance(producerId: $p, year: $y, asKnownOn: $k) {
  year asKnownOn salesRevenue exportedValue base baseRule familyFarmingAcquisitions otherProductAcquisitions fomento countedTotal priorityRegionAmount
  achievedShare requiredShare requiredShareLegalBasis shortfall minimumShareMet priorityRegionShare requiredPriorityRegionShare priorityRegionShareMet compliant
  model actualTotal status minimumShare { requiredShare achievedShare weightedTotal awaitingFactor weightedTotalComplete requiredAmount shortfall compliant legalBasis }
  priorityRegion { requiredShare share amount actualTotal shortfall compliant } technicalAssistance { compliant contractIds }
  spending { source kind count region priorityRegion product organizationShare actual factors { alinea value } weight weighted findings { code } }
  excluded { id source amount findings { code } } findings { code } producer { id } } }`;

async function compliance(producerId: string, year = 2025, asKnownOn: string | null = KNOWN) {
  return (await api.ok(COMPLIANCE, { p: producerId, y: year, k: asKnownOn })).sealCompliance;
}

/** R$ 100.000 of own biodiesel sold on the domestic market in `year` (10 m³). */
const baseOf100k = (producerId: string, year = 2025) => sales(producerId, [{ on: `${year}-03-01`, m3: '10', revenue: '100000' }]);

let eligibleFarmer: string;

beforeAll(async () => {
  api = await startTestApi();
  eligibleFarmer = await setUpSeloYear(api);
});
afterAll(async () => { await api.close(); });

describe('one year of a Nordeste producer: base, what counts, what is excluded and why', () => {
  let p: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    p = await createProducer(api, 'Biodiesel Nordeste S.A.', RECIFE);
    // Sales of 2025 (art. 3º §3º II–III): own production 80 m³ domestic for R$ 400.000 and 20 m³
    // exported for R$ 120.000; 10 m³ of imported biodiesel (not own production) for R$ 50.000;
    // a sale of 2024 that belongs to another year.
    await sales(p, [
      { on: '2025-02-01', m3: '80', revenue: '400000' },
      { on: '2025-02-02', m3: '20', revenue: '120000', market: 'EXPORT' },
      { on: '2025-02-03', m3: '10', revenue: '50000', origin: 'IMPORTED' },
      { on: '2024-12-31', m3: '5', revenue: '25000' },
    ]);
    // Purchases of 2025 (art. 3º §2 I–III): those counted and one excluded for each reason (nordesteYear).
    Object.assign(ids, await nordesteYear(api, p, eligibleFarmer));
    [ids.fomentoFeira, ids.fomentoSouth] = await fomento(p, [
      { on: '2025-06-01', amount: '10000', municipality: FEIRA }, // (c) counted: Semiárido
      { on: '2025-06-02', amount: '3000', municipality: PORTO_ALEGRE }, // (c) outside the priority region
    ]);
    await fomento(p, [{ on: '2024-12-31', amount: '999', municipality: RECIFE }]);
  });

  test('from 2024 the base is the gross value of own biodiesel sold on the domestic market (Portaria MDA nº 28/2024); imported biodiesel is not own production', async () => {
    const c = await compliance(p);
    // salesRevenue = 400.000 + 120.000 = 520.000 (own production, both markets); the base is the domestic
    // sales, 400.000, and the exports' own value 120.000 leaves it (not 520.000 × 20 / 100 = 104.000 by volume).
    expect([c.salesRevenue, c.exportedValue, c.base, c.baseRule]).toEqual(['520000.00', '120000.00', '400000.00', 'DOMESTIC_SALES']);
  });

  test('art. 3º §2 I a, b, c weighted (Portaria MDA nº 28/2024): each item with its factors, the shares and the verdict', async () => {
    const c = await compliance(p);
    expect(c.model).toBe('WEIGHTED');
    // Actual: (a) 50.000 + 30.000 + 5.000 (association) + 1.500 (contract without technical
    // assistance: from 2024 it counts) = 86.500; (b) 20.000; (c) 10.000; total 116.500.
    expect([c.familyFarmingAcquisitions, c.otherProductAcquisitions, c.fomento, c.actualTotal]).toEqual(['86500.00', '20000.00', '10000.00', '116500.00']);
    // Weighted: soy from Porto Alegre (Sul, not diversified) 50.000 × 1; soy from Recife 30.000 × 4 (d) = 120.000 and
    // 1.500 × 4 = 6.000; other products from Recife 20.000 × 4 × 2 (d, f) = 160.000; the association (80% family
    // farmers: alínea a, not published) 5.000 × a × 4: no weighted value yet, 5.000 awaiting the factor; fomento in
    // Feira (Semiárido) 10.000 × 30 (c) = 300.000. 50.000 + 120.000 + 6.000 + 160.000 + 300.000 = 636.000.
    expect(c.countedTotal).toBe('636000.00');
    expect([c.minimumShare.weightedTotal, c.minimumShare.awaitingFactor, c.minimumShare.weightedTotalComplete]).toEqual(['636000.00', '5000.00', false]);
    // 636.000 / 400.000 = 1,59; no minimum weighted percentage published.
    expect([c.achievedShare, c.minimumShare.achievedShare, c.minimumShare.requiredShare, c.minimumShare.compliant, c.minimumShare.shortfall]).toEqual(['1.59', '1.59', null, null, null]);
    // Unknown reads null, never 0 or false.
    expect([c.requiredShare, c.shortfall, c.minimumShareMet]).toEqual([null, null, null]);
    // Requirement 2 on actual values: 30.000 + 1.500 + 5.000 + 20.000 + 10.000 = 66.500 of 116.500 = 0,570815… ≥ 0,15.
    expect(c.priorityRegionAmount).toBe('66500.00');
    expect([c.priorityRegionShare, c.requiredPriorityRegionShare, c.priorityRegionShareMet]).toEqual(['0.570815', '0.15', true]);
    expect(c.priorityRegion).toEqual({ requiredShare: '0.15', share: '0.570815', amount: '66500.00', actualTotal: '116500.00', shortfall: '0.00', compliant: true });
    // Requirement 3: the contract without technical assistance is named; the year is not compliant.
    expect(c.technicalAssistance.compliant).toBe(false);
    expect(c.technicalAssistance.contractIds).toHaveLength(1);
    expect([c.status, c.compliant]).toEqual(['NOT_COMPLIANT', false]);
    // The purchase without technical assistance also paid R$ 1,50/kg, below the PGPAF R$ 2,40; the
    // fomento in Feira is technical assistance, counted as declared (Portaria MDA nº 28/2024, arts. 15–16).
    expect(c.findings.map((f: { code: string }) => f.code)).toEqual(['MINIMUM_NOT_PUBLISHED', 'NO_TECHNICAL_ASSISTANCE', 'WEIGHTING_FACTOR_NOT_PUBLISHED', 'PURCHASE_BELOW_MINIMUM_PRICE', 'ATER_COST_AS_DECLARED']);
    expect(c.producer.id).toBe(p);
  });

  test('countedItems: every counted purchase and fomento expense by its id, with its factors by alínea and weighted value, paged', async () => {
    const PAGE = `query($p: ID!, $first: Int, $offset: Int) { sealCompliance(producerId: $p, year: 2025, asKnownOn: "${KNOWN}") {
      countedItems(first: $first, offset: $offset) { totalCount offset items { id source kind actual factors { alinea value } weight weighted priorityRegion } } } }`;
    const page = async (first: number, offset: number) => (await api.ok(PAGE, { p, first, offset })).sealCompliance.countedItems;
    const row = (i: any) => [i.id, i.source, i.factors.map((f: any) => `${f.alinea}${f.value ?? '?'}`).join(' '), i.actual, i.weight, i.weighted];
    // Purchases first by id, then fomento: soy from Porto Alegre 50.000 × 1; soy from Recife 30.000 × 4 = 120.000;
    // other products from Recife 20.000 × 4 × 2 = 160.000; the association (a, unpublished) 5.000 with no weighted
    // value; the contract without technical assistance 1.500 × 4 = 6.000; fomento in Feira 10.000 × 30 = 300.000.
    const all = await page(10, 0);
    expect(all.totalCount).toBe(6);
    expect(all.items.map(row)).toEqual([
      [ids.aSouthOrigin, 'PURCHASE', '', '50000.00', '1', '50000.00'],
      [ids.aRecife, 'PURCHASE', 'd4', '30000.00', '4', '120000.00'],
      [ids.bRecife, 'PURCHASE', 'd4 f2', '20000.00', '8', '160000.00'],
      [ids.association, 'PURCHASE', 'a? d4', '5000.00', null, null],
      [ids.noTa, 'PURCHASE', 'd4', '1500.00', '4', '6000.00'],
      [ids.fomentoFeira, 'FOMENTO_EXPENSE', 'c30', '10000.00', '30', '300000.00'],
    ]);
    // Paged: two rows from the third; past the end, none (the total still given).
    const second = await page(2, 2);
    expect([second.totalCount, second.offset, second.items.map((i: any) => i.id)]).toEqual([6, 2, [ids.bRecife, ids.association]]);
    expect((await page(5, 6)).items).toEqual([]);
    const bad = await api.gql(PAGE, { p, first: 0, offset: 0 });
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
  });

  test('every counted item with its actual value, each factor by alínea and its weighted value', async () => {
    const c = await compliance(p);
    const shown = c.spending.map((i: any) => [i.source, i.kind, i.region, i.product, i.count, i.actual, i.factors.map((f: any) => `${f.alinea}${f.value === null ? '?' : `×${f.value}`}`).join(' '), i.weight, i.weighted, i.findings.map((f: any) => f.code).join()]);
    expect(shown).toEqual(expect.arrayContaining([
      ['PURCHASE', 'FAMILY_FARMING_ACQUISITION', 'SOUTH', 'SOYBEAN', 1, '50000.00', '', '1', '50000.00', ''],
      ['PURCHASE', 'FAMILY_FARMING_ACQUISITION', 'NORTHEAST', 'SOYBEAN', 1, '30000.00', 'd×4', '4', '120000.00', ''],
      ['PURCHASE', 'FAMILY_FARMING_ACQUISITION', 'NORTHEAST', 'SOYBEAN', 1, '1500.00', 'd×4', '4', '6000.00', 'PURCHASE_BELOW_MINIMUM_PRICE'],
      ['PURCHASE', 'OTHER_PRODUCT', 'NORTHEAST', 'OTHER', 1, '20000.00', 'd×4 f×2', '8', '160000.00', ''],
      ['PURCHASE', 'FAMILY_FARMING_ACQUISITION', 'NORTHEAST', 'SOYBEAN', 1, '5000.00', 'a? d×4', null, null, 'WEIGHTING_FACTOR_NOT_PUBLISHED'],
      // Technical assistance (ATER): counted as recorded, and said (arts. 15–16; docs/LAW.md).
      ['FOMENTO_EXPENSE', 'FOMENTO', 'NORTHEAST', null, 1, '10000.00', 'c×30', '30', '300000.00', 'ATER_COST_AS_DECLARED'],
    ]));
    expect(c.spending).toHaveLength(6);
    expect(c.spending.find((i: any) => i.organizationShare !== null).organizationShare).toBe('0.8');
  });

  test('excluded: every non-counting family-farming purchase and fomento expense, with all its reasons; third parties and other years never', async () => {
    const c = await compliance(p);
    const byId = new Map(c.excluded.map((e: any) => [`${e.source}:${e.id}`, { amount: e.amount, codes: e.findings.map((f: { code: string }) => f.code) }]));
    const P = (k: string) => `PURCHASE:${ids[k]}`;
    expect(Object.fromEntries(byId)).toEqual({
      [P('bSouth')]: { amount: '7000.00', codes: ['OUTSIDE_PRIORITY_REGION'] }, // art. 3º §2 I b
      [P('noContract')]: { amount: '1000.00', codes: ['NO_CONTRACT'] }, // art. 3º §2 II
      [P('signedAfter')]: { amount: '1100.00', codes: ['NO_PRIOR_CONTRACT'] }, // II "previamente": bought 05-15, signed 06-01
      [P('dateNotCovered')]: { amount: '1200.00', codes: ['CONTRACT_NOT_COVERING'] }, // contract ended 2025-02-28
      [P('feedstockNotCovered')]: { amount: '1300.00', codes: ['CONTRACT_NOT_COVERING'] }, // castor under a soybean contract
      [P('priceBelow')]: { amount: '1400.00', codes: ['PRICE_BELOW_MINIMUM'] }, // 2,39 < PGPAF 2,40 (Decreto 5.996/2006)
      // From 2024 the contract without technical assistance (art. 3º §2 III) no longer excludes: requirement 3.
      [P('expiredDap')]: { amount: '1600.00', codes: ['SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID'] }, // art. 2º IV
      [P('lowShare')]: { amount: '1700.00', codes: ['SUPPLIER_NOT_ELIGIBLE', 'MEMBER_SHARE_BELOW_MINIMUM'] }, // art. 4º VI: 59% < 60%
      [P('unregistered')]: { amount: '1800.00', codes: ['SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID'] }, // art. 2º V, 4º VII
      [P('lateDap')]: { amount: '1900.00', codes: ['NO_CONTRACT', 'DAP_ISSUED_AFTER_CUTOFF'] }, // Portaria MAPA 174/2022
      [`FOMENTO_EXPENSE:${ids.fomentoSouth}`]: { amount: '3000.00', codes: ['OUTSIDE_PRIORITY_REGION'] }, // art. 3º §2 I c
    });
    // Purchases first by id, then fomento.
    expect(c.excluded.map((e: any) => e.source)).toEqual([...Array(10).fill('PURCHASE'), 'FOMENTO_EXPENSE']);
  });

  test('Contract.conformity explains the contracts behind the exclusions', async () => {
    const d = await api.ok(`query($p: ID!) { producer(id: $p) { contracts(first: 20) { edges { node { id pricePerKg technicalAssistance signedOn conformity(asKnownOn: "${KNOWN}") { conforming findings { code } minimumPrice { pricePerKg source } } } } } } }`, { p });
    const nodes = d.producer.contracts.edges.map((e: any) => e.node);
    const verdicts = nodes.map((n: any) => [n.conformity.conforming, n.conformity.findings.map((f: { code: string }) => f.code)]);
    // Order of creation: k1, kOther, kSignedLate, kEnded, kCheap, kNoTa, kExpired, kLowShare, kUnregistered, kAssociation.
    // kSignedLate was signed on 2025-06-01, after the purchase of 2025-05-15 it covers (art. 3º §2 II).
    expect(verdicts).toEqual([
      [true, []], [true, []], [false, ['NO_PRIOR_CONTRACT']], [true, []], [false, ['PRICE_BELOW_MINIMUM']], [false, ['NO_TECHNICAL_ASSISTANCE']],
      [true, []], [true, []], [true, []], [true, []],
    ]);
    // Soybean contracts show the PGPAF price in force on the signing date; OTHER has none.
    expect(nodes[0].conformity.minimumPrice).toEqual({ pricePerKg: '2.40', source: 'Portaria PGPAF (test) 2024' });
    expect(nodes[1].conformity.minimumPrice).toBeNull();
  });

  test('access: AUDITOR any producer, PRODUCER its own (also nested), another producer NOT_FOUND', async () => {
    const other = await createProducer(api, 'Outra Usina Ltda', PORTO_ALEGRE);
    expect((await api.ok(COMPLIANCE, { p, y: 2025, k: KNOWN }, { role: 'AUDITOR' })).sealCompliance.base).toBe('400000.00');
    const own = await api.ok(`query($p: ID!) { producer(id: $p) { sealCompliance(year: 2025, asKnownOn: "${KNOWN}") { countedTotal compliant } } }`, { p }, { role: 'PRODUCER', producerId: p });
    expect(own.producer.sealCompliance).toEqual({ countedTotal: '636000.00', compliant: false });
    const res = await api.gql(COMPLIANCE, { p, y: 2025, k: KNOWN }, { role: 'PRODUCER', producerId: other });
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(res.errors?.[0].message).not.toContain('Nordeste');
  });

  test('each year on its own: 2024 from its own records; 2026 with nothing recorded yet: zero base, nothing counted', async () => {
    const c = await compliance(p, 2024);
    // 2024: one own sale of R$ 25.000 (5 m³), a purchase without contract and R$ 999 of fomento in Recife × 30 = 29.970.
    expect([c.year, c.model, c.salesRevenue, c.base, c.fomento, c.countedTotal]).toEqual([2024, 'WEIGHTED', '25000.00', '25000.00', '999.00', '29970.00']);
    expect(c.excluded).toEqual([{ id: ids.lastYear, source: 'PURCHASE', amount: '500.00', findings: [{ code: 'NO_CONTRACT' }] }]);
    // Requirement 2 for 2024 (10%) holds: all counted spending is in Recife. 29.970 / 25.000 = 1,1988.
    expect([c.requiredPriorityRegionShare, c.priorityRegionShare, c.achievedShare]).toEqual(['0.1', '1', '1.1988']);
    // As known before Portaria MDA nº 28/2024 was published, 2024 is flat: 999 counted, 999 / 25.000 = 0,03996 < 30%.
    const flat = await compliance(p, 2024, '2024-06-27');
    expect([flat.model, flat.countedTotal, flat.achievedShare, flat.requiredShare, flat.shortfall, flat.status]).toEqual(['FLAT', '999.00', '0.03996', '0.3', '6501.00', 'NOT_COMPLIANT']);
    const empty = await compliance(p, 2026); // nothing recorded for 2026 yet
    expect([empty.base, empty.countedTotal, empty.achievedShare, empty.priorityRegionShare, empty.compliant, empty.status]).toEqual(['0.00', '0.00', '0', '0', null, 'NOT_ESTABLISHED']);
    expect(empty.findings.map((f: { code: string }) => f.code)).toEqual(['ZERO_BASE', 'NO_COUNTED_SPENDING', 'MINIMUM_NOT_PUBLISHED']);
  });

  test('bad input: a year that is not a calendar year is BAD_USER_INPUT', async () => {
    const res = await api.gql(COMPLIANCE, { p, y: 99, k: KNOWN });
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'year' });
  });
});

describe('requirement 1 of the flat model (art. 3º §3º I; 2023): exactly at, just below and just above the minimum', () => {
  const k2023 = { signedOn: '2023-01-10', validFrom: '2023-01-10', validUntil: '2023-12-31' };
  test('a Sul plant (40%) with a base of R$ 100.000: 39.999,99 → 40.000,00 → 40.000,01', async () => {
    const p = await createProducer(api, 'Usina Gaúcha S.A.', PORTO_ALEGRE);
    await baseOf100k(p, 2023);
    const k = await contract(api, p, { farmer: eligibleFarmer, ...k2023 });
    await purchases(api, p, [{ on: '2023-04-01', cost: '39999.99', farmer: eligibleFarmer, contract: k }]);
    let c = await compliance(p, 2023);
    expect([c.model, c.requiredPriorityRegionShare, c.priorityRegion.requiredShare]).toEqual(['FLAT', '0', null]); // no requirement 2 before 2024
    // 39.999,99 / 100.000 = 0,3999999 → shown 0.4 (6 decimals) yet below 0,40: not met, R$ 0,01 short.
    expect([c.achievedShare, c.requiredShare, c.minimumShareMet, c.shortfall, c.compliant]).toEqual(['0.4', '0.4', false, '0.01', false]);
    await purchases(api, p, [{ on: '2023-04-02', cost: '0.01', farmer: eligibleFarmer, contract: k }]);
    c = await compliance(p, 2023);
    expect([c.countedTotal, c.minimumShareMet, c.shortfall, c.compliant]).toEqual(['40000.00', true, '0.00', true]);
    await purchases(api, p, [{ on: '2023-04-03', cost: '0.01', farmer: eligibleFarmer, contract: k }]);
    c = await compliance(p, 2023);
    expect([c.countedTotal, c.minimumShareMet, c.shortfall, c.compliant]).toEqual(['40000.01', true, '0.00', true]);
  });

  test('the same spending: a Nordeste plant (30%) is compliant, a Sul plant (40%) is not', async () => {
    const verdicts = [];
    for (const plant of [RECIFE, PORTO_ALEGRE]) {
      const p = await createProducer(api, `Usina ${plant}`, plant);
      await baseOf100k(p, 2023);
      const k = await contract(api, p, { farmer: eligibleFarmer, ...k2023 });
      await purchases(api, p, [{ on: '2023-04-01', cost: '35000', farmer: eligibleFarmer, contract: k }]);
      const c = await compliance(p, 2023);
      verdicts.push([c.achievedShare, c.requiredShare, c.shortfall, c.compliant]);
    }
    // 35.000 / 100.000 = 0,35: ≥ 0,30 in the Nordeste; < 0,40 in the Sul, 5.000 short.
    expect(verdicts).toEqual([['0.35', '0.3', '0.00', true], ['0.35', '0.4', '5000.00', false]]);
  });
});

/**
 * Art. 3º §2º II–III in a flat year (docs/LAW.md): contracts judged per purchase, technical assistance
 * the producer's obligation, a finding of the year. 2023, plant in Recife (minimum 30%), base R$
 * 100.000: contract A signed 2023-03-01 covers purchases of 02-15 (R$ 1.000) and 04-01 (R$ 20.000);
 * castor R$ 10.000 under contract B, conforming but without technical assistance. By hand: 20.000 +
 * 10.000 = 30.000 counted, 30.000 / 100.000 = 0,30 ≥ 0,30: compliant, nothing short; the 02-15
 * purchase excluded (NO_PRIOR_CONTRACT); NO_TECHNICAL_ASSISTANCE on the year, naming B.
 */
test('a flat year (2023): judged per purchase, and technical assistance a finding of the year (art. 3º §2º II–III)', async () => {
  const p = await createProducer(api, 'Usina Contratos 2023', RECIFE);
  await baseOf100k(p, 2023);
  const a = await contract(api, p, { farmer: eligibleFarmer, signedOn: '2023-03-01', validFrom: '2023-01-01', validUntil: '2023-12-31' });
  const b = await contract(api, p, { farmer: eligibleFarmer, signedOn: '2023-01-02', validFrom: '2023-01-02', validUntil: '2023-12-31', feedstock: 'CASTOR_BEAN', technicalAssistance: false });
  const [feb, apr, castor] = await purchases(api, p, [
    { on: '2023-02-15', cost: '1000', farmer: eligibleFarmer, contract: a },
    { on: '2023-04-01', cost: '20000', farmer: eligibleFarmer, contract: a },
    { on: '2023-05-01', cost: '10000', farmer: eligibleFarmer, contract: b, feedstock: 'CASTOR_BEAN' },
  ]);
  const c = await compliance(p, 2023);
  expect([c.model, c.base, c.countedTotal, c.achievedShare, c.requiredShare, c.shortfall, c.minimumShareMet, c.compliant, c.status])
    .toEqual(['FLAT', '100000.00', '30000.00', '0.3', '0.3', '0.00', true, true, 'COMPLIANT']);
  expect(c.excluded).toEqual([{ id: feb, source: 'PURCHASE', amount: '1000.00', findings: [{ code: 'NO_PRIOR_CONTRACT' }] }]);
  expect(c.findings).toEqual([{ code: 'NO_TECHNICAL_ASSISTANCE' }]);
  const selo = await api.ok(`query($a: ID!, $c: ID!) { a: purchase(id: $a) { selo { counts findings { code } } } c: purchase(id: $c) { selo { counts findings { code } } } }`, { a: apr, c: castor });
  expect([selo.a.selo, selo.c.selo]).toEqual([{ counts: true, findings: [] }, { counts: true, findings: [] }]);
  const message = (await api.ok(`query($p: ID!) { sealCompliance(producerId: $p, year: 2023) { findings { message } } }`, { p })).sealCompliance.findings[0].message;
  expect(message).toContain(`Contract(s) ${b} do not assure`);
});

/**
 * Portaria MAPA 174/2022 (docs/LAW.md): a DAP issued after 31/10/2022 is kept and counts by its
 * dates, with DAP_ISSUED_AFTER_CUTOFF wherever the purchase is shown. A farmer with a DAP valid
 * 2022-11-01 to 2025-12-31, a conforming contract, a purchase of R$ 1.000 on 2025-03-01 produced in
 * Recife: counted, 1.000 × d 4 = 4.000; the item (spending and countedItems), Purchase.selo's
 * warnings and the year (one counted purchase) carry the finding, as FamilyFarmer.eligibility does.
 */
test('a DAP issued after the cutoff: the purchase counts × 4 and says DAP_ISSUED_AFTER_CUTOFF on the item, Purchase.selo and the year', async () => {
  const p = await createProducer(api, 'Usina DAP Tardia', RECIFE);
  await baseOf100k(p);
  const late = await farmer(api, [['DAP', '2022-11-01', '2025-12-31']]);
  const k = await contract(api, p, { farmer: late });
  // 400 kg for R$ 1.000 (R$ 2,50/kg, above the PGPAF minimum of R$ 2,40: no other finding).
  const bought = (await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [{
    producerId: p, purchasedOn: '2025-03-01', feedstock: 'SOYBEAN', quantityKg: '400', cost: '1000', supplierKind: 'FAMILY_FARMER',
    familyFarmerId: late, contractId: k, originMunicipalityCode: RECIFE, purpose: 'BIODIESEL_FEEDSTOCK',
  }] })).recordPurchases[0].id;
  const c = await compliance(p);
  expect([c.actualTotal, c.countedTotal, c.excluded]).toEqual(['1000.00', '4000.00', []]);
  expect(c.spending.map((i: any) => [i.actual, i.weighted, i.findings])).toEqual([['1000.00', '4000.00', [{ code: 'DAP_ISSUED_AFTER_CUTOFF' }]]]);
  expect(c.findings.filter((f: any) => f.code === 'DAP_ISSUED_AFTER_CUTOFF')).toHaveLength(1);
  const more = await api.ok(`query($p: ID!, $b: ID!, $f: ID!) {
    sealCompliance(producerId: $p, year: 2025, asKnownOn: "${KNOWN}") { countedItems { items { id findings { code } } } findings { code message } }
    purchase(id: $b) { selo(asKnownOn: "${KNOWN}") { counts weighted findings { code } warnings { code } } }
    familyFarmer(id: $f) { eligibility(on: "2025-03-01") { eligible findings { code } } } }`, { p, b: bought, f: late });
  expect(more.sealCompliance.countedItems.items).toEqual([{ id: bought, findings: [{ code: 'DAP_ISSUED_AFTER_CUTOFF' }] }]);
  expect(more.sealCompliance.findings.find((f: any) => f.code === 'DAP_ISSUED_AFTER_CUTOFF').message).toMatch(/^1 counted purchase/);
  expect(more.purchase.selo).toEqual({ counts: true, weighted: '4000.00', findings: [], warnings: [{ code: 'DAP_ISSUED_AFTER_CUTOFF' }] });
  expect(more.familyFarmer.eligibility).toEqual({ eligible: true, findings: [{ code: 'DAP_ISSUED_AFTER_CUTOFF' }] });
});

/**
 * Portaria MDA nº 28/2024, arts. 15–16 (docs/LAW.md, Interpretation): the countable cost of
 * technical assistance is the technicians' pay and travel, lodging and meals at a percentage our
 * sources do not give; the records cannot split them, so from the Portaria's model the recorded
 * amount is taken as the cost declared — unchanged, and said. A producer in Feira de Santana
 * (Nordeste, Semiárido) spends R$ 1.000 of ATER on 2025-06-01: counted 1.000 × c 30 = 30.000 with
 * ATER_COST_AS_DECLARED on the item, on its countedItems row and on the year (1 expense, R$ 1000.00).
 * An INVESTMENT of R$ 500 in the same place and run joins its group (1.500 × 30 = 45.000): the item
 * says 1 of its 2 expenses is ATER, and only the ATER row of countedItems carries the finding.
 */
test('technical assistance as fomento (arts. 15–16): counted as recorded, × 30 in Feira de Santana, with ATER_COST_AS_DECLARED on the item, its row and the year', async () => {
  const p = await createProducer(api, 'Usina ATER Feira', FEIRA);
  await baseOf100k(p);
  const [ater] = await fomento(p, [{ on: '2025-06-01', amount: '1000', municipality: FEIRA }]);
  const YEAR = `query($p: ID!) { sealCompliance(producerId: $p, year: 2025, asKnownOn: "${KNOWN}") {
    actualTotal countedTotal excluded { id } spending { count actual weighted findings { code message } }
    countedItems { items { id source actual weighted findings { code } } } findings { code message } } }`;
  let c = (await api.ok(YEAR, { p })).sealCompliance;
  expect([c.actualTotal, c.countedTotal, c.excluded]).toEqual(['1000.00', '30000.00', []]);
  expect(c.spending.map((i: any) => [i.count, i.actual, i.weighted, i.findings.map((f: any) => f.code)])).toEqual([[1, '1000.00', '30000.00', ['ATER_COST_AS_DECLARED']]]);
  expect(c.countedItems.items).toEqual([{ id: ater, source: 'FOMENTO_EXPENSE', actual: '1000.00', weighted: '30000.00', findings: [{ code: 'ATER_COST_AS_DECLARED' }] }]);
  const year = c.findings.filter((f: any) => f.code === 'ATER_COST_AS_DECLARED');
  expect(year).toHaveLength(1);
  expect(year[0].message).toMatch(/^1 counted technical-assistance \(ATER\) fomento expense\(s\) of the year, R\$ 1000\.00, .*Portaria MDA nº 28\/2024, arts\. 15–16.*percentage for travel, lodging and meals is not in our sources/);
  const pt = await api.gql(YEAR, { p }, undefined, { 'accept-language': 'pt-BR' });
  expect(pt.data!.sealCompliance.findings.find((f: any) => f.code === 'ATER_COST_AS_DECLARED').message)
    .toMatch(/^1 gasto\(s\) de fomento em assistência técnica \(ATER\) computado\(s\) no ano, R\$ 1000\.00, .*arts\. 15–16.*deslocamento, hospedagem e alimentação não consta das nossas fontes/);

  const investment = (await api.ok(`mutation($i: [RecordFomentoInput!]!) { recordFomento(input: $i) { id } }`, {
    i: [{ producerId: p, spentOn: '2025-06-02', kind: 'INVESTMENT', amount: '500', municipalityCode: FEIRA }],
  })).recordFomento[0].id;
  c = (await api.ok(YEAR, { p })).sealCompliance;
  expect([c.actualTotal, c.countedTotal]).toEqual(['1500.00', '45000.00']);
  expect(c.spending.map((i: any) => [i.count, i.actual, i.weighted, i.findings.map((f: any) => f.code)])).toEqual([[2, '1500.00', '45000.00', ['ATER_COST_AS_DECLARED']]]);
  expect(c.spending[0].findings[0].message).toMatch(/^1 of the 2 fomento expense\(s\) of this item, R\$ 1000\.00, are technical assistance \(ATER\)/);
  // Each row by its own kind: the investment carries no ATER finding.
  expect(c.countedItems.items.map((i: any) => [i.id, i.weighted, i.findings.map((f: any) => f.code)])).toEqual([
    [ater, '30000.00', ['ATER_COST_AS_DECLARED']], [investment, '15000.00', []],
  ]);
  expect(c.findings.find((f: any) => f.code === 'ATER_COST_AS_DECLARED').message).toMatch(/^1 counted .* R\$ 1000\.00, /);

  // Before the Portaria: 2023 (fomento not yet in the decree's wording: excluded, no ATER finding)
  // and 2024 as known on 2024-06-01 (the flat model counts it, × 1): no ATER finding either.
  await fomento(p, [{ on: '2023-06-01', amount: '1000', municipality: FEIRA }, { on: '2024-06-01', amount: '1000', municipality: FEIRA }]);
  await baseOf100k(p, 2024);
  const y2023 = await compliance(p, 2023);
  expect([y2023.model, y2023.excluded.map((e: any) => e.findings.map((f: any) => f.code))]).toEqual(['FLAT', [['SPENDING_NOT_IN_WORDING']]]);
  expect(y2023.findings.map((f: any) => f.code)).not.toContain('ATER_COST_AS_DECLARED');
  const flat2024 = await compliance(p, 2024, '2024-06-01');
  expect([flat2024.model, flat2024.fomento, flat2024.spending.map((i: any) => i.findings)]).toEqual(['FLAT', '1000.00', [[]]]);
  expect(flat2024.findings.map((f: any) => f.code)).not.toContain('ATER_COST_AS_DECLARED');
});

describe('requirement 2 (Portaria Interministerial MME/MDA nº 2/2023): the actual priority-region part, year by year', () => {
  // A Nordeste plant with a base of R$ 1.000, actual counted spending of R$ 100.000: soy from Porto
  // Alegre (outside, × 1) plus fomento in Recife (inside, × 30) of X. Weighted, the fomento alone
  // is far above every minimum (X × 30 of 100.000 − X + X × 30); on actual values a centavo below
  // the minimum fails. The minimum weighted percentage is not published: met, the year is
  // NOT_ESTABLISHED; not met, NOT_COMPLIANT.
  test.each([
    [2024, '0.1'],
    [2025, '0.15'],
    [2026, '0.2'],
  ])('%i: minimum %s — exactly at it is met, a centavo below is not, a centavo above is', async (year, minimum) => {
    const atX = new Decimal(minimum).times(100000);
    const results = [];
    for (const x of [atX.minus('0.01'), atX, atX.plus('0.01')]) {
      const p = await createProducer(api, `Usina ${year} ${x.toFixed()}`, RECIFE);
      await sales(p, [{ on: `${year}-02-01`, m3: '1', revenue: '1000' }]);
      const k = await contract(api, p, { farmer: eligibleFarmer, signedOn: `${year}-01-02`, validFrom: `${year}-01-02`, validUntil: `${year}-12-31` });
      await purchases(api, p, [{ on: `${year}-03-01`, cost: new Decimal(100000).minus(x).toFixed(), farmer: eligibleFarmer, contract: k, origin: PORTO_ALEGRE }]);
      await fomento(p, [{ on: `${year}-03-02`, amount: x.toFixed(), municipality: RECIFE }]);
      const c = await compliance(p, year);
      results.push([c.actualTotal, c.priorityRegionAmount, c.requiredPriorityRegionShare, c.priorityRegionShareMet, c.status]);
      if (x.lt(atX)) {
        // The weighted priority part, 30 × X / (100.000 − X + 30 × X), would pass any of these minimums.
        expect(new Decimal(x).times(30).div(new Decimal(100000).plus(x.times(29))).gt('0.5')).toBe(true);
        // Short by x with (X − 0,01 + x) / (100.000 + x) = S: x = 0,01 / (1 − S), rounded up to the centavo.
        expect(c.priorityRegion.shortfall).toBe(new Decimal('0.01').div(new Decimal(1).minus(minimum)).toDecimalPlaces(2, Decimal.ROUND_CEIL).toFixed());
      }
    }
    const shown = (x: Decimal) => x.toFixed(2);
    expect(results).toEqual([
      ['100000.00', shown(atX.minus('0.01')), minimum, false, 'NOT_COMPLIANT'],
      ['100000.00', shown(atX), minimum, true, 'NOT_ESTABLISHED'],
      ['100000.00', shown(atX.plus('0.01')), minimum, true, 'NOT_ESTABLISHED'],
    ]);
  });
});

describe('a contract over two years (art. 3º §2 II): its first covered purchase may lie in the year before', () => {
  test('signed after a covered purchase of 2024: judged per acquisition, the 2025 purchase after the signing counts, in both models', async () => {
    const p = await createProducer(api, 'Usina Bianual S.A.', RECIFE);
    await baseOf100k(p);
    const k = await contract(api, p, { farmer: eligibleFarmer, signedOn: '2024-07-01', validFrom: '2024-06-01', validUntil: '2025-12-31' });
    const [early] = await purchases(api, p, [
      { on: '2024-06-15', cost: '2000', farmer: eligibleFarmer, contract: k },
      { on: '2025-03-01', cost: '3000', farmer: eligibleFarmer, contract: k },
    ]);
    const c2025 = await compliance(p);
    // Weighted (docs/LAW.md): the 2025 purchase is after the signing: 3.000 of soy from Recife × 4 = 12.000.
    expect([c2025.actualTotal, c2025.countedTotal, c2025.excluded]).toEqual(['3000.00', '12000.00', []]);
    const c2024 = await compliance(p, 2024);
    expect(c2024.excluded).toEqual([{ id: early, source: 'PURCHASE', amount: '2000.00', findings: [{ code: 'NO_PRIOR_CONTRACT' }] }]);
    // The flat model (as known before 2024-06-28) judges per acquisition too (art. 3º §2º II; docs/LAW.md):
    // 2025-03-01 is after the signing of 2024-07-01, so its 3.000 count at factor 1.
    const flat = await compliance(p, 2025, '2024-06-27');
    expect([flat.model, flat.countedTotal, flat.excluded]).toEqual(['FLAT', '3000.00', []]);
    expect((await compliance(p, 2024, '2024-06-27')).excluded).toEqual([{ id: early, source: 'PURCHASE', amount: '2000.00', findings: [{ code: 'NO_PRIOR_CONTRACT' }] }]);
  });

  test('signed before its first covered purchase of 2024, the same contract counts its 2025 purchase', async () => {
    const p = await createProducer(api, 'Usina Bianual Regular S.A.', RECIFE);
    await baseOf100k(p);
    const k = await contract(api, p, { farmer: eligibleFarmer, signedOn: '2024-05-31', validFrom: '2024-06-01', validUntil: '2025-12-31' });
    await purchases(api, p, [
      { on: '2024-06-15', cost: '2000', farmer: eligibleFarmer, contract: k },
      { on: '2025-03-01', cost: '3000', farmer: eligibleFarmer, contract: k },
    ]);
    const c = await compliance(p);
    expect([c.familyFarmingAcquisitions, c.countedTotal, c.excluded]).toEqual(['3000.00', '12000.00', []]); // 3.000 × 4 (d)
  });
});

describe('many conforming contracts signed the same day (art. 3º §2 II): each purchase counted or excluded as under its own contract', () => {
  test('four farmers, four contracts of 2025-01-10: the eligible ones count in full, the expired ones are each excluded with their reason', async () => {
    const p = await createProducer(api, 'Usina Muitos Contratos S.A.', RECIFE);
    await baseOf100k(p);
    const expired = await farmer(api, [['CAF', '2023-01-01', '2024-12-31']]);
    const expiredToo = await farmer(api, [['CAF', '2022-01-01', '2024-06-30']]);
    const eligibleToo = await farmer(api, [['CAF', '2024-01-01', '2027-12-31']]);
    const ks: string[] = [];
    for (const f of [eligibleFarmer, eligibleToo, expired, expiredToo]) ks.push(await contract(api, p, { farmer: f }));
    const ids = await purchases(api, p, [
      { on: '2025-03-01', cost: '1000', farmer: eligibleFarmer, contract: ks[0] },
      { on: '2025-03-01', cost: '2000', farmer: eligibleToo, contract: ks[1] },
      { on: '2025-04-01', cost: '4000', farmer: eligibleToo, contract: ks[1] },
      { on: '2025-03-01', cost: '300', farmer: expired, contract: ks[2] },
      { on: '2025-03-01', cost: '500', farmer: expiredToo, contract: ks[3] },
    ]);
    const c = await compliance(p);
    // The eligible farmers' 7.000 of soy from Recife count, × 4 (d) = 28.000 weighted; the expired CAFs' 800 do not.
    expect([c.familyFarmingAcquisitions, c.actualTotal, c.countedTotal]).toEqual(['7000.00', '7000.00', '28000.00']);
    const shown = c.spending as Array<{ count: number; actual: string; weighted: string }>;
    expect([shown.reduce((n, s) => n + s.count, 0), Decimal.sum(...shown.map((s) => s.actual)).toFixed(2), Decimal.sum(...shown.map((s) => s.weighted)).toFixed(2)]).toEqual([3, '7000.00', '28000.00']);
    const reason = [{ code: 'SUPPLIER_NOT_ELIGIBLE' }, { code: 'REGISTRATION_NOT_VALID' }];
    expect(c.excluded).toEqual([
      { id: ids[3], source: 'PURCHASE', amount: '300.00', findings: reason },
      { id: ids[4], source: 'PURCHASE', amount: '500.00', findings: reason },
    ]);
    // Every counted purchase is listed, each with its own value.
    const items = (await api.ok(`query($p: ID!) { sealCompliance(producerId: $p, year: 2025, asKnownOn: "${KNOWN}") { countedItems(first: 10) { totalCount items { id actual weighted } } } }`, { p }))
      .sealCompliance.countedItems;
    expect(items).toEqual({ totalCount: 3, items: [
      { id: ids[0], actual: '1000.00', weighted: '4000.00' }, { id: ids[1], actual: '2000.00', weighted: '8000.00' }, { id: ids[2], actual: '4000.00', weighted: '16000.00' },
    ] });
  });
});

test('a year of fewer purchases than the registrations reads its own suppliers\' registrations only, with the same answer', async () => {
  const q = await createProducer(api, 'Biodiesel Poucas Compras S.A.', RECIFE);
  await nordesteYear(api, q, eligibleFarmer);
  const restricted = /family_farmer_id IN \(SELECT p\.family_farmer_id/;
  const statementsOf = async () => {
    api.statements.reset();
    const answer = await compliance(q);
    return { answer, restricted: api.statements.statements.some((s) => restricted.test(s)) };
  };
  // Never analyzed, the registrations count as none: every supplier's are aggregated.
  await api.db.dataSource.query('ANALYZE family_farmer_registration');
  const before = await statementsOf();
  const rows = await api.count(`SELECT count(*) FROM purchase WHERE producer_id = $1 AND purchased_on BETWEEN '2025-01-01' AND '2025-12-31'`, [q]);
  const registrations = await api.count('SELECT count(*) FROM family_farmer_registration');
  expect(before.restricted).toBe(rows < registrations);
  // More registrations than the year's purchases: its suppliers are found first.
  for (let i = registrations; i <= rows; i++) await farmer(api, [['CAF', '2023-01-01', '2027-12-31']]);
  await api.db.dataSource.query('ANALYZE family_farmer_registration');
  const after = await statementsOf();
  expect(after.restricted).toBe(true);
  expect(after.answer).toEqual(before.answer);
  // A page of producers reads every supplier's registrations: the same figures and exclusions.
  const FIELDS = 'base countedTotal achievedShare compliant excluded { id source amount findings { code } } spending { kind actual weighted count }';
  const page = await api.ok(`query($k: Date) { producers(first: 100) { edges { node { id sealCompliance(year: 2025, asKnownOn: $k) { ${FIELDS} } } } } }`, { k: KNOWN });
  const fromPage = page.producers.edges.find((e: { node: { id: string } }) => e.node.id === q).node.sealCompliance;
  const { base, countedTotal, achievedShare, compliant, excluded, spending } = after.answer;
  expect(fromPage).toEqual({ base, countedTotal, achievedShare, compliant, excluded, spending: spending.map((x: Record<string, unknown>) => ({ kind: x.kind, actual: x.actual, weighted: x.weighted, count: x.count })) });
  expect(excluded.length).toBeGreaterThan(5);
});
