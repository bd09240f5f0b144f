import { parse } from 'csv-parse/sync';
import { getNamedType, isObjectType } from 'graphql';
import { getSchema } from '../../src/graphql/schema';
import { scaleOf } from '../../src/graphql/scalars';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, FEIRA, upsertMunicipalities } from '../support/fixtures';

/**
 * Decimals keep the scale of what they measure: R$ at least 2 decimals (`30120.50`, never
 * `30120.5`), m³ and kg at least 3 — on the compiled reads (the JSON written by PostgreSQL,
 * src/graphql/compiled/), on graphql-js's execution, for computed figures, and in the exports.
 * A value typed with more decimals keeps them all: the scale pads, it never rounds.
 */

let compiled: TestApi;
let executed: TestApi;
const producers = new Map<TestApi, string>();

async function seed(api: TestApi): Promise<void> {
  await upsertMunicipalities(api, [FEIRA]);
  const p = await createProducer(api, 'Usina Escala', FEIRA);
  producers.set(api, p);
  await electSpecialRegime(api, p);
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    { producerId: p, purchasedOn: '2026-03-02', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '30120.5', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista', originMunicipalityCode: FEIRA },
    { producerId: p, purchasedOn: '2026-03-03', feedstock: 'SOYBEAN', quantityKg: '1.2345', cost: '0.125', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista', originMunicipalityCode: FEIRA },
  ] });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [
    { producerId: p, soldOn: '2026-03-10', volumeM3: '10', revenue: '30120.50', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' },
  ] });
}

beforeAll(async () => {
  [compiled, executed] = await Promise.all([startTestApi(), startTestApi({ compiledReads: false })]);
  await Promise.all([seed(compiled), seed(executed)]);
});
afterAll(async () => { await Promise.all([compiled?.close(), executed?.close()]); });

const RECORDS = `query($p: ID!) { producer(id: $p) {
  purchases(first: 10) { edges { node { quantityKg cost } } }
  sales(first: 10) { edges { node { volumeM3 revenue } } } } }`;

test.each([['compiled reads', () => compiled], ['graphql-js', () => executed]])('stored figures at their scale: %s', async (_name, which) => {
  const api = which();
  api.statements.reset();
  const { producer } = await api.ok(RECORDS, { p: producers.get(api) });
  expect(producer.purchases.edges.map((e: any) => e.node)).toEqual([
    { quantityKg: '1000.000', cost: '30120.50' },
    // More decimals than the scale: kept as typed, nothing rounded.
    { quantityKg: '1.2345', cost: '0.125' },
  ]);
  expect(producer.sales.edges.map((e: any) => e.node)).toEqual([{ volumeM3: '10.000', revenue: '30120.50' }]);
  // The compiled reads answer the whole field with one statement: the text is PostgreSQL's.
  if (api === compiled) expect(api.statements.count).toBe(1);
});

test('both paths send the same bytes', async () => {
  const body = async (api: TestApi) => {
    const res = await fetch(api.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await api.token()}` }, body: JSON.stringify({ query: RECORDS, variables: { p: producers.get(api) } }) });
    return res.text();
  };
  const [a, b] = await Promise.all([body(compiled), body(executed)]);
  expect(a).toContain('"30120.50"');
  expect(a).toBe(b.replace(producers.get(executed)!, producers.get(compiled)!));
});

test('computed figures: dues, costs and volumes of a month at their scale, shares and coefficients as they are', async () => {
  const { taxPeriod } = await compiled.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 3) {
    feedstockCost domesticVolumeM3 exportedVolumeM3 pisDue cofinsDue totalDue
    segments { domesticRevenue mix { category cost quantityKg share coefficient pisPerM3 } } } }`, { p: producers.get(compiled) });
  // R$ 30.120,50 + R$ 0,125 = 30.120,625, valued to the centavo half-even: 30.120,62.
  expect(taxPeriod.feedstockCost).toBe('30120.62');
  expect([taxPeriod.domesticVolumeM3, taxPeriod.exportedVolumeM3]).toEqual(['10.000', '0.000']);
  // 10 m³ × R$ 26,41 (GENERAL, art. 5º §1º) = 264,10; × 121,59 = 1.215,90.
  expect([taxPeriod.pisDue, taxPeriod.cofinsDue, taxPeriod.totalDue]).toEqual(['264.10', '1215.90', '1480.00']);
  expect(taxPeriod.segments[0].domesticRevenue).toBe('30120.50');
  expect(taxPeriod.segments[0].mix).toEqual([{ category: 'GENERAL', cost: '30120.62', quantityKg: '1001.2345', share: '1', coefficient: '0.7802', pisPerM3: '26.41' }]);
});

test('the exports write the same figures at the same scale (CSV in English), a value typed finer to its centavo or gram', async () => {
  const res = await fetch(compiled.url.replace('/graphql', `/export/purchases?producer=${producers.get(compiled)}&format=csv&locale=en`), {
    headers: { authorization: `Bearer ${await compiled.token()}` },
  });
  expect(res.status).toBe(200);
  const rows: string[][] = parse(Buffer.from(await res.arrayBuffer()), { bom: true, relax_column_count: true });
  const header = rows.find((r) => r.includes('quantityKg'))!;
  const data = rows.slice(rows.indexOf(header) + 1).filter((r) => r.length === header.length);
  expect(data.map((r) => [r[header.indexOf('quantityKg')], r[header.indexOf('cost')]])).toEqual([['1000.000', '30120.50'], ['1.234', '0.12']]);
});

/**
 * The Decimal fields that carry no scale: ratios, coefficients, factors and rates, written without
 * trailing zeros. Every other Decimal field measures reais, m³ or kg and is marked @Money() or
 * @Quantity() (src/graphql/scalars.ts): a new one that is not fails here.
 */
const UNSCALED = [
  'CategoryShare.coefficient', 'CategoryShare.share', 'CoefficientRule.coefficient', 'FamilyFarmingOrganization.familyFarmerShare', 'LawValue.value',
  'PurchaseSeloStatus.weight', 'RateAnswer.coefficient', 'SealAppliedFactor.value', 'SealCompliance.achievedShare', 'SealCompliance.priorityRegionShare',
  'SealCompliance.requiredPriorityRegionShare', 'SealCompliance.requiredShare', 'SealMinimumShare.achievedShare', 'SealMinimumShare.requiredShare',
  'SealPlanItem.organizationShare', 'SealPlanItem.weight', 'SealPlanLever.weight',
  'SealPriorityRegionRequirement.requiredShare', 'SealPriorityRegionRequirement.share', 'SealSpendingItem.organizationShare', 'SealSpendingItem.weight', 'SealCountedItem.weight', 'ProgramSpending.priorityRegionShare',
  // Shown half-even to 6 decimals (docs/LAW.md), and the ad valorem fractions of revenue.
  'TaxSegment.blendedCofinsPerM3', 'TaxSegment.blendedPisPerM3', 'TaxSegment.cofinsRate', 'TaxSegment.pisRate',
  // The credit rates as fractions (1,65% = 0.0165), the art. 31 share and the CBS presumed credit's rate, unrounded.
  'CreditLine.cofinsRate', 'CreditLine.pisRate', 'PresumedCreditPart.share', 'PurchaseCredit.cofinsRate', 'PurchaseCredit.pisRate', 'CbsPurchaseCredit.rate',
];

test('every Decimal field of reais, m³ or kg has its scale; the others are the listed ratios', async () => {
  const schema = await getSchema();
  const unscaled: string[] = [];
  let scaled = 0;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (getNamedType(field.type).name !== 'Decimal') continue;
      if (scaleOf(field) === undefined) unscaled.push(`${type.name}.${field.name}`);
      else scaled++;
    }
  }
  expect(unscaled.sort()).toEqual([...UNSCALED].sort());
  expect(scaled).toBeGreaterThan(60);
});
