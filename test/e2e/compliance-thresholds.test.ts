import { Decimal } from '../../src/law/decimal';
import { startTestApi, TestApi } from '../support/api';
import { newCnpj, newCpf } from './records-b.fixtures';

/**
 * Selo compliance at its edges (Decreto 10.527/2020, art. 3º §2 I–III and §3º; art. 4º VI;
 * Portaria Interministerial MME/MDA nº 2/2023; docs/LAW.md). Shipped parameters: minimum shares
 * 30% Nordeste / 40% Sul (Portaria MAPA 144/2019, secondary) with weighting factors 1 — the flat
 * model, which 2024 has as known before Portaria MDA nº 28/2024 was published (2024-06-28, FLAT);
 * from then on the weighted model (factors b 1,1 · c 30 · d 4 · e 3 · f 2, no minimum weighted
 * percentage published); priority-region minimum 15% (2025), 10% (2024), 20% (2026 on), on actual
 * values; member minimum 0,6. Every expected figure is worked out here.
 */

/** 2024 as known the day before Portaria MDA nº 28/2024 was published: the flat model. */
const FLAT_2024 = '2024-06-27';

const RECIFE = '2611606'; //        PE, Nordeste
const PORTO_ALEGRE = '4314902'; //  RS, Sul
const MONTES_CLAROS = '3143302'; // MG, Sudeste, in the Semiárido
const BELEM = '1501402'; //         PA, Norte: plant minimum 15%

let api: TestApi;
let farmer: string;

beforeAll(async () => {
  api = await startTestApi();
  await api.ok(`mutation($i: [MunicipalityInput!]!) { upsertMunicipalities(input: $i) { ibgeCode } }`, { i: [
    { ibgeCode: RECIFE, name: 'Recife', semiarid: false },
    { ibgeCode: PORTO_ALEGRE, name: 'Porto Alegre', semiarid: false },
    { ibgeCode: MONTES_CLAROS, name: 'Montes Claros', semiarid: true },
    { ibgeCode: BELEM, name: 'Belém', semiarid: false },
  ] });
  // PGPAF minimum price of soybean (Decreto 5.996/2006): R$ 2,40/kg from 2024, published 2023-12-20 (test act).
  await api.ok(`mutation($i: PublishMinimumPriceInput!) { publishMinimumPrice(input: $i) { id } }`, {
    i: { feedstock: 'SOYBEAN', validFrom: '2024-01-01', validUntil: '2026-12-31', pricePerKg: '2.40', source: 'Portaria PGPAF (teste)', publishedOn: '2023-12-20' },
  });
  farmer = await newFarmer('2023-01-01', '2027-12-31');
});
afterAll(async () => { await api.close(); });

async function newFarmer(validFrom: string, validUntil: string): Promise<string> {
  const cpf = newCpf();
  return (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, {
    i: { cpf, name: 'Agricultora', municipalityCode: RECIFE, registrations: [{ kind: 'CAF', number: `CAF-${cpf}`, validFrom, validUntil }] },
  })).createFamilyFarmer.id;
}
async function cooperative(members: number, familyFarmerMembers: number): Promise<string> {
  const cnpj = newCnpj();
  return (await api.ok(`mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }`, {
    i: { cnpj, name: `Cooperativa ${familyFarmerMembers}/${members}`, kind: 'COOPERATIVE', municipalityCode: RECIFE, members, familyFarmerMembers,
      registrations: [{ kind: 'CAF', number: `CAFJ-${cnpj}`, validFrom: '2023-01-01', validUntil: '2027-12-31' }] },
  })).createOrganization.id;
}
async function producer(plant: string): Promise<string> {
  return (await api.ok(`mutation($i: CreateProducerInput!) { createProducer(input: $i) { id } }`, { i: { cnpj: newCnpj(), legalName: 'Usina Limiar', plantMunicipalityCode: plant } })).createProducer.id;
}
async function contract(producerId: string, c: { farmer?: string; org?: string; signedOn: string; validFrom: string; validUntil: string; feedstock?: string; pricePerKg?: string; ta?: boolean }): Promise<string> {
  return (await api.ok(`mutation($i: CreateContractInput!) { createContract(input: $i) { id } }`, { i: {
    producerId, familyFarmerId: c.farmer ?? null, organizationId: c.org ?? null, signedOn: c.signedOn, validFrom: c.validFrom, validUntil: c.validUntil,
    feedstock: c.feedstock ?? 'SOYBEAN', quantityKg: '100000', pricePerKg: c.pricePerKg ?? '2.50', technicalAssistance: c.ta ?? true,
  } })).createContract.id;
}
async function purchases(producerId: string, list: Array<{ on: string; cost: string; farmer?: string; org?: string; contract?: string; origin?: string; feedstock?: string; purpose?: string }>): Promise<string[]> {
  return (await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: list.map((p) => ({
    producerId, purchasedOn: p.on, feedstock: p.feedstock ?? 'SOYBEAN', quantityKg: '1000', cost: p.cost, supplierKind: p.org ? 'COOPERATIVE' : 'FAMILY_FARMER',
    familyFarmerId: p.farmer ?? null, organizationId: p.org ?? null, contractId: p.contract ?? null, originMunicipalityCode: p.origin ?? RECIFE,
    purpose: p.purpose ?? 'BIODIESEL_FEEDSTOCK',
  })) })).recordPurchases.map((r: { id: string }) => r.id);
}
async function sales(producerId: string, list: Array<{ on: string; m3: string; revenue: string; market?: string }>) {
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: list.map((s) => ({
    producerId, soldOn: s.on, volumeM3: s.m3, revenue: s.revenue, origin: 'OWN_PRODUCTION', market: s.market ?? 'DOMESTIC',
  })) });
}
const Q = `query($p: ID!, $y: Int!, $k: Date) { sealCompliance(producerId: $p, year: $y, asKnownOn: $k) {
  salesRevenue exportedValue base familyFarmingAcquisitions otherProductAcquisitions fomento countedTotal priorityRegionAmount
  achievedShare requiredShare shortfall minimumShareMet priorityRegionShare requiredPriorityRegionShare priorityRegionShareMet compliant
  excluded { id source amount findings { code } } findings { code message } } }`;
const compliance = async (p: string, year: number, asKnownOn: string | null = null) => (await api.ok(Q, { p, y: year, k: asKnownOn })).sealCompliance;

test('requirement 1 against the unrounded base (art. 3º §3º II–III; docs/LAW.md): a third of the volume exported', async () => {
  // R$ 100.000 of own biodiesel, 3 m³, of which 1 m³ exported: exportedValue = 100.000 × 1/3 = 33.333,333…,
  // shown 33.333,33; base = 66.666,666…, shown 66.666,67. Nordeste: 30% × 66.666,666… = 20.000,00 exactly
  // (from the rounded base it would be 20.000,001 and 20.000,00 would miss it).
  const results = [];
  for (const spent of ['19999.99', '20000']) {
    const p = await producer(RECIFE);
    await sales(p, [{ on: '2024-02-01', m3: '2', revenue: '60000' }, { on: '2024-02-02', m3: '1', revenue: '40000', market: 'EXPORT' }]);
    const k = await contract(p, { farmer, signedOn: '2024-01-02', validFrom: '2024-01-02', validUntil: '2024-12-31' });
    await purchases(p, [{ on: '2024-03-01', cost: spent, farmer, contract: k }]);
    const c = await compliance(p, 2024, FLAT_2024);
    results.push([c.salesRevenue, c.exportedValue, c.base, c.countedTotal, c.minimumShareMet, c.shortfall]);
  }
  expect(results).toEqual([
    ['100000.00', '33333.33', '66666.67', '19999.99', false, '0.01'],
    ['100000.00', '33333.33', '66666.67', '20000.00', true, '0.00'],
  ]);
});

test('requirement 1 exactly at a round threshold over a base of thirds: a Norte plant (15%), R$ 160.520 with 2 of 3 m³ exported', async () => {
  // exportedValue = 160.520 × 2 / 3 = 107.013,333…; base = 53.506,666…; 15% × 160.520 × 1 / 3 = 24.078 / 3 = 8.026,00 exactly.
  const results = [];
  for (const spent of ['8025.99', '8026']) {
    const p = await producer(BELEM);
    await sales(p, [{ on: '2024-02-01', m3: '1', revenue: '60520' }, { on: '2024-02-02', m3: '2', revenue: '100000', market: 'EXPORT' }]);
    const k = await contract(p, { farmer, signedOn: '2024-01-02', validFrom: '2024-01-02', validUntil: '2024-12-31' });
    await purchases(p, [{ on: '2024-03-01', cost: spent, farmer, contract: k }]);
    const c = await compliance(p, 2024, FLAT_2024);
    results.push([c.exportedValue, c.base, c.requiredShare, c.countedTotal, c.minimumShareMet, c.shortfall, c.compliant]);
  }
  expect(results).toEqual([
    ['107013.33', '53506.67', '0.15', '8025.99', false, '0.01', false],
    ['107013.33', '53506.67', '0.15', '8026.00', true, '0.00', true],
  ]);
});

test('art. 3º §2 I b and c, "no Semiárido": other products and fomento in Montes Claros (MG) count, and so does (a) raw material produced there for requirement 2', async () => {
  const p = await producer(RECIFE);
  await sales(p, [{ on: '2024-02-01', m3: '10', revenue: '100000' }]);
  const k = await contract(p, { farmer, signedOn: '2024-01-02', validFrom: '2024-01-02', validUntil: '2024-12-31' });
  const kOther = await contract(p, { farmer, signedOn: '2024-01-02', validFrom: '2024-01-02', validUntil: '2024-12-31', feedstock: 'OTHER', pricePerKg: '1.00' });
  await purchases(p, [
    { on: '2024-03-01', cost: '10000', farmer, contract: k, origin: MONTES_CLAROS }, //                                     (a), priority region
    { on: '2024-03-02', cost: '15000', farmer, contract: k, origin: PORTO_ALEGRE }, //                                      (a), outside
    { on: '2024-03-03', cost: '4000', farmer, contract: kOther, origin: MONTES_CLAROS, feedstock: 'OTHER', purpose: 'OTHER_PRODUCT' }, // (b)
  ]);
  await api.ok(`mutation($i: [RecordFomentoInput!]!) { recordFomento(input: $i) { id } }`, { i: [
    { producerId: p, spentOn: '2024-04-01', kind: 'TECHNICAL_ASSISTANCE', amount: '1000', municipalityCode: MONTES_CLAROS }, // (c)
  ] });
  const c = await compliance(p, 2024, FLAT_2024);
  // (a) 25.000, (b) 4.000, (c) 1.000 → 30.000 = 30% of 100.000: requirement 1 met exactly (Nordeste 30%).
  // Priority region: 10.000 + 4.000 + 1.000 = 15.000; 15.000 / 30.000 = 0,5 ≥ 0,10 (2024).
  expect([c.familyFarmingAcquisitions, c.otherProductAcquisitions, c.fomento, c.countedTotal, c.priorityRegionAmount]).toEqual(['25000.00', '4000.00', '1000.00', '30000.00', '15000.00']);
  expect([c.achievedShare, c.minimumShareMet, c.priorityRegionShare, c.requiredPriorityRegionShare, c.compliant, c.excluded]).toEqual(['0.3', true, '0.5', '0.1', true, []]);
});

test('excluded: every reason that applies to one purchase is listed (docs/LAW.md)', async () => {
  const p = await producer(RECIFE);
  await sales(p, [{ on: '2024-02-01', m3: '10', revenue: '100000' }]);
  const unregistered = await newFarmer('2020-01-01', '2023-12-31'); // no CAF valid in 2024
  // Signed after the purchase, for soybean at R$ 2,00 < PGPAF 2,40, without technical assistance.
  const bad = await contract(p, { farmer, signedOn: '2024-05-01', validFrom: '2024-01-01', validUntil: '2024-12-31', pricePerKg: '2.00', ta: false });
  const [otherFromSouth, castorUnderBad] = await purchases(p, [
    // (b) from Porto Alegre, with no contract, from a farmer without a valid registration.
    { on: '2024-03-01', cost: '700', farmer: unregistered, origin: PORTO_ALEGRE, feedstock: 'OTHER', purpose: 'OTHER_PRODUCT' },
    // (a) castor bean under the soybean contract, bought before its signing.
    { on: '2024-03-02', cost: '800', farmer, contract: bad, feedstock: 'CASTOR_BEAN' },
  ]);
  const c = await compliance(p, 2024, FLAT_2024);
  const codes = (id: string) => c.excluded.find((e: any) => e.id === id)?.findings.map((f: any) => f.code);
  expect(codes(otherFromSouth)).toEqual(['NO_CONTRACT', 'OUTSIDE_PRIORITY_REGION', 'SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID']);
  // Technical assistance (art. 3º §2º III) is the producer's obligation: a finding of the year naming the contract, not the purchase's.
  expect(codes(castorUnderBad)).toEqual(['NO_PRIOR_CONTRACT', 'CONTRACT_NOT_COVERING', 'PRICE_BELOW_MINIMUM']);
  expect(c.findings.filter((f: any) => f.code === 'NO_TECHNICAL_ASSISTANCE')).toEqual([{ code: 'NO_TECHNICAL_ASSISTANCE', message: expect.stringContaining(`Contract(s) ${bad} do not`) }]);
  expect(c.excluded.map((e: any) => [e.source, e.amount])).toEqual([['PURCHASE', '700.00'], ['PURCHASE', '800.00']]);
  expect(c.countedTotal).toBe('0.00');
});

test('art. 4º VI: the member minimum in force on each purchase date, as known on asKnownOn; exactly 60% passes', async () => {
  // A new minimum of 0,7 for the second half of 2025, published on 2025-06-15 (test act).
  await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'cooperative-min-family-farmer-share', values: [{ name: 'share', value: '0.7' }], validFrom: '2025-07-01', validUntil: '2025-12-31',
    publishedOn: '2025-06-15', legalBasis: 'Decreto 10.527/2020, art. 4º VI (test act)',
  } });
  const p = await producer(RECIFE);
  await sales(p, [{ on: '2025-02-01', m3: '10', revenue: '100000' }]);
  const coop65 = await cooperative(100, 65);
  const coop60 = await cooperative(100, 60);
  const k65 = await contract(p, { org: coop65, signedOn: '2025-01-02', validFrom: '2025-01-02', validUntil: '2025-12-31' });
  const k60 = await contract(p, { org: coop60, signedOn: '2025-01-02', validFrom: '2025-01-02', validUntil: '2025-12-31' });
  const [, july] = await purchases(p, [
    { on: '2025-06-30', cost: '1000', org: coop65, contract: k65 }, // 0,65 ≥ 0,6 in force on 06-30
    { on: '2025-07-01', cost: '2000', org: coop65, contract: k65 }, // 0,65 < 0,7 in force from 07-01, once published
    { on: '2025-06-10', cost: '4000', org: coop60, contract: k60 }, // 0,60 = 0,6: at the minimum, habilitated
  ]);
  const before = await compliance(p, 2025, '2025-06-14');
  expect([before.familyFarmingAcquisitions, before.excluded]).toEqual(['7000.00', []]);
  const after = await compliance(p, 2025, '2025-06-15');
  expect(after.familyFarmingAcquisitions).toBe('5000.00'); // 1.000 + 4.000
  expect(after.excluded).toEqual([{ id: july, source: 'PURCHASE', amount: '2000.00', findings: [{ code: 'SUPPLIER_NOT_ELIGIBLE' }, { code: 'MEMBER_SHARE_BELOW_MINIMUM' }] }]);
  // Weighted (2025): both cooperatives are up to 75% family farmers (b × 1,1), soy from Recife (d × 4): 5.000 × 4,4 = 22.000;
  // 22.000 / 100.000 = 0,22, no minimum weighted percentage published (shortfall and verdict unknown: null).
  expect([after.countedTotal, after.achievedShare, after.shortfall, after.minimumShareMet]).toEqual([new Decimal(5000).times('4.4').toFixed(2), '0.22', null, null]);
});

test('the Selo goes on in 2027 (EC 132/2023 ends PIS/Cofins, not the Selo): weighted, with the 2026-on priority minimum of 20% on actual values', async () => {
  const p = await producer(RECIFE);
  await sales(p, [{ on: '2027-02-01', m3: '10', revenue: '100000' }]);
  const k = await contract(p, { farmer, signedOn: '2027-01-04', validFrom: '2027-01-04', validUntil: '2027-12-31' });
  await purchases(p, [{ on: '2027-03-01', cost: '24000', farmer, contract: k, origin: PORTO_ALEGRE }]);
  await api.ok(`mutation($i: [RecordFomentoInput!]!) { recordFomento(input: $i) { id } }`, { i: [
    { producerId: p, spentOn: '2027-04-01', kind: 'DONATION', amount: '6000', municipalityCode: RECIFE },
  ] });
  const c = await compliance(p, 2027, '2027-06-30');
  // Weighted: soy from Porto Alegre 24.000 × 1 + fomento in Recife 6.000 × 30 = 204.000; 204.000 / 100.000 = 2,04.
  // Actual priority part 6.000 / 30.000 = 0,2 = the 20% minimum: met. No minimum weighted percentage: not established (null).
  expect([c.countedTotal, c.achievedShare, c.minimumShareMet, c.priorityRegionShare, c.requiredPriorityRegionShare, c.priorityRegionShareMet, c.compliant])
    .toEqual(['204000.00', '2.04', null, '0.2', '0.2', true, null]);
});
