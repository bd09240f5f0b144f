import { Decimal } from '../../src/law/decimal';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, grantSeal, newCpf, PORTO_ALEGRE, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * Producer.taxPeriod over a page (the dashboard): the months of all the producers of the page are
 * computed together, in a fixed number of statements (src/services/tax-period-month.ts), and each
 * must be exactly the month taxPeriod(producerId) answers for that producer alone — figures,
 * segments, warnings, fingerprint, closing facts and errors — over producers whose facts differ:
 * regimes, Selo segments, imports, a month of stock sold (the earlier month's raw material), a
 * closed month, no election.
 */

const TP = `fragment TP on TaxPeriod {
  year month asKnownOn status regime feedstockCost ownProductionPricePerKg ownProductionValuation domesticVolumeM3 importedVolumeM3 exportedVolumeM3
  pisDue cofinsDue totalDue warnings { code message } recomputedDiffers differences { field closed recomputed } fingerprint
  imports { volumeM3 pisDue cofinsDue totalDue imports { declarationNumber clearedOn volumeM3 } }
  segments { from to sealRegular blendedPisPerM3 blendedCofinsPerM3 ownProductionVolumeM3 importedVolumeM3 exportedVolumeM3 domesticRevenue pisDue cofinsDue
    mix { category cost share coefficient pisPerM3 cofinsPerM3 legalBasis } }
}`;
const ONE = `query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m) { ...TP } } ${TP}`;
const PAGE = `query($y: Int!, $m: Int!) { producers(first: 20) { edges { node { id taxPeriod(year: $y, month: $m) { ...TP } } } } } ${TP}`;

let api: TestApi;
let farmer: string;
/** The 20 producers, and what sets each apart. */
const made: Array<{ id: string; kind: string }> = [];
const KINDS = ['blend', 'segments', 'adValorem', 'imports', 'stockSold', 'noSeal', 'noElection', 'closed'] as const;

async function purchase(producerId: string, on: string, kg: string, cost: string, kind: 'FAMILY_FARMER' | 'THIRD_PARTY', consumedOn = on) {
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [{
    producerId, purchasedOn: on, consumedOn, feedstock: 'SOYBEAN', quantityKg: kg, cost, supplierKind: kind,
    familyFarmerId: kind === 'FAMILY_FARMER' ? farmer : null, supplierName: kind === 'THIRD_PARTY' ? 'Trading Grãos SA' : null,
    originMunicipalityCode: kind === 'FAMILY_FARMER' ? PORTO_ALEGRE : RECIFE,
  }] });
}
async function sale(producerId: string, on: string, m3: string, origin: 'OWN_PRODUCTION' | 'IMPORTED' = 'OWN_PRODUCTION') {
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId, soldOn: on, volumeM3: m3, revenue: '100000', origin, market: 'DOMESTIC' }] });
}

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE]);
  farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, {
    i: { cpf: newCpf(), name: 'Agricultora do Sul', municipalityCode: PORTO_ALEGRE, registrations: [{ kind: 'CAF', number: 'CAF-B1', validFrom: '2024-01-01', validUntil: '2027-12-31' }] },
  })).createFamilyFarmer.id;
  for (let i = 0; i < 20; i++) {
    const kind = KINDS[i % KINDS.length];
    const id = await createProducer(api, `Usina ${i}`, RECIFE);
    made.push({ id, kind });
    const regime = kind === 'noElection' ? null : kind === 'adValorem' ? 'AD_VALOREM' : 'SPECIAL_PER_M3';
    // 2012 for some: the special regime, whose May has no coefficient rule in force (before Decreto
    // 7.768/2012, 2012-06-28), or ad valorem, which has its rates.
    if (kind !== 'noElection' && i % 3 !== 2) {
      await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: id, regime: i % 3 ? 'AD_VALOREM' : 'SPECIAL_PER_M3', electedOn: '2011-11-03' } });
    }
    if (regime) await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: id, regime, electedOn: '2025-11-03' } });
    const grantId = kind === 'noSeal' ? null : await grantSeal(api, id);
    const kg = String(1000 + 10 * i);
    if (kind === 'stockSold') {
      // docs/LAW.md: no raw material used in March; January's blend is taken.
      await purchase(id, '2026-01-12', kg, '3000', 'FAMILY_FARMER');
      await purchase(id, '2026-01-13', kg, '2000', 'THIRD_PARTY');
    } else {
      await purchase(id, '2026-03-02', kg, String(2000 + i), 'FAMILY_FARMER');
      await purchase(id, '2026-03-03', kg, '1500', 'THIRD_PARTY');
    }
    await sale(id, '2026-03-05', `${10 + i}.5`);
    await sale(id, '2026-03-25', '7');
    if (kind === 'segments') {
      // art. 6º §2º: suspended on 03-10, reinstated on 03-21: three segments.
      for (const [k, on] of [['SUSPENDED', '2026-03-10'], ['REINSTATED', '2026-03-21']]) {
        await api.ok(`mutation($i: SealEventInput!) { recordSealEvent(input: $i) { id } }`, { i: { grantId, kind: k, effectiveOn: on, validUntil: null, reason: 'Portaria MDA (teste)' } });
      }
      await sale(id, '2026-03-15', '3');
    }
    if (kind === 'imports') {
      await api.ok(`mutation($i: [RecordImportInput!]!) { recordImports(input: $i) { id } }`, { i: [{ producerId: id, clearedOn: '2026-03-04', volumeM3: `2${i}.25`, declarationNumber: `26/030000${i}-1` }] });
      await sale(id, '2026-03-06', '4', 'IMPORTED');
    }
    if (kind === 'closed') await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status } }`, { p: id });
  }
}, 120_000);
afterAll(async () => { await api?.close(); });

const one = async (p: string, y: number, m: number) => api.gql(ONE, { p, y, m });

test('20 producers\' months in a page: each the month of the producer alone, in a fixed number of statements', async () => {
  await api.ok(PAGE, { y: 2026, m: 3 }); // the law book is loaded once, then cached
  api.statements.reset();
  const page = await api.ok(PAGE, { y: 2026, m: 3 });
  const statements = api.statements.count;
  // 8 for the months, and one credit fold for all the closed months' filed balances (their differences): a fixed number, whatever the producers.
  expect(statements).toBeLessThanOrEqual(22);
  const nodes = page.producers.edges.map((e: any) => e.node);
  expect(nodes.map((n: any) => n.id)).toEqual(made.map((p) => p.id));
  for (const node of nodes) {
    const alone = await one(node.id, 2026, 3);
    expect(alone.errors).toBeUndefined();
    expect(node.taxPeriod).toEqual(alone.data!.taxPeriod);
  }
  // The facts really differ from one producer to the next.
  const of = (kind: string) => nodes.find((n: any) => made.find((p) => p.id === n.id)!.kind === kind).taxPeriod;
  expect(of('segments').segments).toHaveLength(3);
  expect(of('adValorem').regime).toBe('AD_VALOREM');
  expect(new Decimal(of('imports').importedVolumeM3).toFixed()).toBe('4');
  expect(new Decimal(of('imports').imports.totalDue).gt(0)).toBe(true);
  expect(of('stockSold').warnings.map((w: any) => w.code)).toContain('BLEND_OF_EARLIER_PERIOD');
  expect(of('closed').status).toBe('CLOSED');
  expect(of('noElection').warnings.map((w: any) => w.code)).toContain('NO_REGIME_ELECTION');
  expect(new Set(nodes.map((n: any) => n.taxPeriod.totalDue)).size).toBeGreaterThan(10);
  expect(new Set(nodes.map((n: any) => n.taxPeriod.fingerprint)).size).toBe(20);
});

test('a month the law refuses for some producers only: the same errors, at their producers, and the others\' months', async () => {
  // May 2012: no coefficient rule in force for the special regime (before 2012-06-28); ad valorem is computed.
  const page = await api.gql(PAGE, { y: 2012, m: 5 });
  const nodes = page.data!.producers.edges.map((e: any) => e.node);
  let refused = 0;
  for (const [i, node] of nodes.entries()) {
    const alone = await one(node.id, 2012, 5);
    if (alone.errors) {
      refused++;
      expect(node.taxPeriod).toBeNull();
      const error = page.errors!.find((e) => e.path?.join('.') === `producers.edges.${i}.node.taxPeriod`);
      expect({ message: error?.message, code: error?.extensions?.code }).toEqual({ message: alone.errors[0].message, code: alone.errors[0].extensions?.code });
    } else {
      expect(node.taxPeriod).toEqual(alone.data!.taxPeriod);
    }
  }
  expect(refused).toBeGreaterThan(0);
  expect(refused).toBeLessThan(20);
  expect(page.errors).toHaveLength(refused);
});

test('a PRODUCER\'s page holds its own month only, the same as its taxPeriod; another producer\'s month is NOT_FOUND', async () => {
  const [own, other] = made;
  const as = { role: 'PRODUCER' as const, producerId: own.id };
  const page = await api.gql(PAGE, { y: 2026, m: 3 }, as);
  expect(page.errors).toBeUndefined();
  expect(page.data!.producers.edges.map((e: any) => e.node.id)).toEqual([own.id]);
  expect(page.data!.producers.edges[0].node.taxPeriod).toEqual((await one(own.id, 2026, 3)).data!.taxPeriod);
  const refused = await api.gql(ONE, { p: other.id, y: 2026, m: 3 }, as);
  expect(refused.errors?.[0].extensions?.code).toBe('NOT_FOUND');
});

// A page asking several months of each producer (the dashboard's year): the months of every producer
// in the statements of one month, each exactly the month asked alone; May 2012 refused for the special
// regime only (no coefficient rule in force before 2012-06-28), a month 13 refused at its own field.
const MONTHS = { jan: [2026, 1], mar: [2026, 3], may2012: [2012, 5], bad: [2026, 13] } as const;
const MONTHS_PAGE = `query { producers(first: 20) { edges { node { id
  ${Object.entries(MONTHS).map(([alias, [y, m]]) => `${alias}: taxPeriod(year: ${y}, month: ${m}) { ...TP }`).join(' ')} } } } } ${TP}`;

test('20 producers × 4 months in a page: the statements of one month, each month the month alone, a refused month only itself', async () => {
  await api.gql(MONTHS_PAGE);
  api.statements.reset();
  const page = await api.gql(MONTHS_PAGE);
  // As above: the months' 8, and one credit fold for the closed months' differences.
  expect(api.statements.count).toBeLessThanOrEqual(22);
  const nodes = page.data!.producers.edges.map((e: any) => e.node);
  expect(nodes).toHaveLength(20);
  let refused = 0;
  for (const [i, node] of nodes.entries()) {
    for (const [alias, [y, m]] of Object.entries(MONTHS)) {
      const alone = await one(node.id, y, m);
      if (!alone.errors) {
        expect([node.id, alias, node[alias]]).toEqual([node.id, alias, alone.data!.taxPeriod]);
        continue;
      }
      refused++;
      expect(node[alias]).toBeNull();
      const error = page.errors!.find((e) => e.path?.join('.') === `producers.edges.${i}.node.${alias}`);
      expect({ message: error?.message, code: error?.extensions?.code }).toEqual({ message: alone.errors[0].message, code: alone.errors[0].extensions?.code });
    }
  }
  // Month 13 for all 20; May 2012 for some only.
  expect(page.errors!.filter((e) => e.path?.[4] === 'bad').map((e) => e.extensions?.code)).toEqual(Array(20).fill('BAD_USER_INPUT'));
  expect(refused).toBeGreaterThan(20);
  expect(refused).toBeLessThan(40);
  expect(page.errors).toHaveLength(refused);
});
