import { Caller, GraphQLResponse, startTestApi, TestApi } from '../support/api';
import { ownAndOtherProducers } from '../support/fixtures';

/**
 * A PRODUCER against another producer's records, through every path: by id, lists and their
 * totalCount, nested fields, computed queries, the audit log, and mutations that name the other
 * producer or its records. Nothing of the other producer may come back, and each refusal must be
 * indistinguishable from asking for something that does not exist.
 */

let api: TestApi;
let own: string;
let other: string;
let as: Caller;
const MISSING = '987654321';
const ids: Record<string, string> = {};

const PURCHASE = (producerId: string, cost: string, extra = '') =>
  `{ producerId: "${producerId}", purchasedOn: "2025-03-10", feedstock: SOYBEAN, quantityKg: "1000", cost: "${cost}", supplierKind: THIRD_PARTY, supplierName: "Cerealista", originMunicipalityCode: "2611606"${extra} }`;
const SALE = (producerId: string, revenue: string) =>
  `{ producerId: "${producerId}", soldOn: "2025-03-20", volumeM3: "10", revenue: "${revenue}" }`;

beforeAll(async () => {
  api = await startTestApi();
  ({ own, other } = await ownAndOtherProducers(api));
  as = { role: 'PRODUCER', producerId: own, sub: 'own-team' };
  const [farmer] = await api.db.dataSource.query(`INSERT INTO family_farmer (cpf, name, municipality_code) VALUES ('52998224725', 'Maria', '2611606') RETURNING id`);
  ids.farmer = String(farmer.id);
  const contract = (id: string, price: string) => `mutation { createContract(input: { producerId: "${id}", familyFarmerId: "${ids.farmer}", signedOn: "2025-01-05", validFrom: "2025-01-05", validUntil: "2025-12-31", feedstock: SOYBEAN, quantityKg: "5000", pricePerKg: "${price}", technicalAssistance: true }) { id } }`;
  ids.otherContract = (await api.ok(contract(other, '3.1111'))).createContract.id;
  ids.ownContract = (await api.ok(contract(own, '2.5'))).createContract.id;
  ids.otherPurchase = (await api.ok(`mutation { recordPurchases(input: [${PURCHASE(other, '7777.77')}]) { id } }`)).recordPurchases[0].id;
  ids.ownPurchase = (await api.ok(`mutation { recordPurchases(input: [${PURCHASE(own, '1000')}]) { id } }`)).recordPurchases[0].id;
  ids.otherSale = (await api.ok(`mutation { recordSales(input: [${SALE(other, '88888.88')}]) { id } }`)).recordSales[0].id;
  await api.ok(`mutation { recordSales(input: [${SALE(own, '5000')}]) { id } }`);
  await api.ok(`mutation { recordFomento(input: [{ producerId: "${other}", spentOn: "2025-04-01", kind: TECHNICAL_ASSISTANCE, amount: "6666.66", municipalityCode: "2611606" }]) { id } }`);
  ids.otherGrant = (await api.ok(`mutation { grantSeal(input: { producerId: "${other}", grantedOn: "2024-01-10", validUntil: "2029-01-09", act: "Portaria Alheia 9/2024" }) { id } }`)).grantSeal.id;
  await api.ok(`mutation { electRegime(input: { producerId: "${other}", regime: SPECIAL_PER_M3, electedOn: "2024-11-01" }) { effectiveYear } }`);
});
afterAll(async () => { await api.close(); });

/** Markers of the other producer's data: none may appear in any answer to the PRODUCER. */
function expectNothingOfOther(res: unknown) {
  const text = JSON.stringify(res);
  for (const marker of ['Alheia', '11444777000161', '7777.77', '88888.88', '6666.66', '3.1111', 'SPECIAL_PER_M3', '2029-01-09']) expect(text).not.toContain(marker);
}

/** The answer about the other producer's record equals the answer about a missing one. */
async function expectSameAsMissing(query: (id: string) => string, otherId: string) {
  const forOther = await api.gql(query(otherId), {}, as);
  const forMissing = await api.gql(query(MISSING), {}, as);
  expectNothingOfOther(forOther);
  const normal = (r: GraphQLResponse, id: string) => JSON.parse(JSON.stringify(r).split(`"${id}"`).join('"ID"').split(` ${id} `).join(' ID '));
  expect(normal(forOther, otherId)).toEqual(normal(forMissing, MISSING));
  return forOther;
}

test('the baseline: ADMIN and AUDITOR see both producers and their records', async () => {
  for (const caller of [{ role: 'ADMIN' }, { role: 'AUDITOR' }] as Caller[]) {
    const data = await api.ok(`{ producers { totalCount edges { node { legalName purchases { totalCount } sales { totalCount } contracts { totalCount } } } } }`, {}, caller);
    expect(data.producers.totalCount).toBe(2);
    expect(data.producers.edges.map((e: any) => [e.node.legalName, e.node.purchases.totalCount, e.node.sales.totalCount, e.node.contracts.totalCount]))
      .toEqual([['Usina Própria', 1, 1, 1], ['Usina Alheia', 1, 1, 1]]);
  }
});

test('by id: producer, purchase, contract of another producer answer as missing ones', async () => {
  const producer = await expectSameAsMissing((id) => `{ producer(id: "${id}") { id legalName } }`, other);
  expect(producer.data).toEqual({ producer: null });
  const purchase = await expectSameAsMissing((id) => `{ purchase(id: "${id}") { id cost } }`, ids.otherPurchase);
  expect(purchase.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  const contract = await expectSameAsMissing((id) => `{ contract(id: "${id}") { id pricePerKg } }`, ids.otherContract);
  expect(contract.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  // its own records answer
  const mine = await api.ok(`{ purchase(id: "${ids.ownPurchase}") { cost producer { legalName } } contract(id: "${ids.ownContract}") { pricePerKg } }`, {}, as);
  expect(mine).toEqual({ purchase: { cost: '1000.00', producer: { legalName: 'Usina Própria' } }, contract: { pricePerKg: '2.50' } });
});

test('lists and their totalCount hold only its own producer', async () => {
  const data = await api.ok(`{ producers(first: 100) { totalCount edges { node { id legalName purchases { totalCount edges { node { cost } } } sales { totalCount edges { node { revenue } } } contracts { totalCount } } } } }`, {}, as);
  expectNothingOfOther(data);
  expect(data.producers.totalCount).toBe(1);
  expect(data.producers.edges).toHaveLength(1);
  expect(data.producers.edges[0].node).toMatchObject({ id: own, purchases: { totalCount: 1, edges: [{ node: { cost: '1000.00' } }] }, sales: { totalCount: 1, edges: [{ node: { revenue: '5000.00' } }] }, contracts: { totalCount: 1 } });
  // paging with a cursor forged to start before the other producer does not reach it
  const forged = Buffer.from(JSON.stringify(['producer', 0])).toString('base64url');
  const page = await api.ok(`{ producers(after: "${forged}") { totalCount edges { node { id } } } }`, {}, as);
  expect(page.producers.edges.map((e: any) => e.node.id)).toEqual([own]);
});

test('nested fields lead back only to its own producer', async () => {
  const data = await api.ok(`{ purchase(id: "${ids.ownPurchase}") { producer { id purchases { totalCount edges { node { producer { legalName } } } } } } contract(id: "${ids.ownContract}") { producer { legalName contracts { totalCount } } } }`, {}, as);
  expectNothingOfOther(data);
  expect(data.purchase.producer).toEqual({ id: own, purchases: { totalCount: 1, edges: [{ node: { producer: { legalName: 'Usina Própria' } } }] } });
  expect(data.contract.producer).toEqual({ legalName: 'Usina Própria', contracts: { totalCount: 1 } });
});

test('computed queries: sealCompliance of another producer answers as a missing producer', async () => {
  const res = await expectSameAsMissing((id) => `{ sealCompliance(producerId: "${id}", year: 2025) { salesRevenue base } }`, other);
  expect(res.errors?.[0]).toMatchObject({ message: `Producer ${other} not found`, extensions: { code: 'NOT_FOUND' } });
  expect(res.data ?? null).toBeNull();
});

test('computed queries: taxPeriod of another producer answers as a missing producer; its own answers', async () => {
  const res = await expectSameAsMissing((id) => `{ taxPeriod(producerId: "${id}", year: 2025, month: 3) { totalDue domesticVolumeM3 status producer { legalName } } }`, other);
  expect(res.errors?.[0]).toMatchObject({ message: `Producer ${other} not found`, extensions: { code: 'NOT_FOUND' } });
  const mine = await api.ok(`{ taxPeriod(producerId: "${own}", year: 2025, month: 3) { status domesticVolumeM3 producer { legalName } } }`, {}, as);
  expectNothingOfOther(mine);
  expect(mine.taxPeriod).toMatchObject({ status: 'OPEN', domesticVolumeM3: '10.000', producer: { legalName: 'Usina Própria' } });
});

test('Selo grants and regime elections of another producer answer as a missing producer\'s', async () => {
  const grant = await expectSameAsMissing((id) => `{ sealGrant(id: "${id}") { id act validUntil events { kind } } }`, ids.otherGrant);
  expect(grant.data?.sealGrant ?? null).toBeNull();
  await expectSameAsMissing((id) => `{ sealGrants(producerId: "${id}") { id act } }`, other);
  await expectSameAsMissing((id) => `{ regimeElections(producerId: "${id}") { regime effectiveYear } }`, other);
  const nested = await api.ok('{ producers { edges { node { sealGrants { act } regimeElections { regime } sealStanding(on: "2025-03-01") { regular } } } } }', {}, as);
  expectNothingOfOther(nested);
  expect(nested.producers.edges).toEqual([{ node: { sealGrants: [], regimeElections: [], sealStanding: expect.objectContaining({ regular: false }) } }]);
});

test('the audit log shows a PRODUCER only the entries of its own records', async () => {
  const all = await api.ok('{ auditLog(first: 100) { totalCount edges { node { entity entityId } } } }', {}, { role: 'AUDITOR' });
  const mine = await api.ok('{ auditLog(first: 100) { totalCount edges { node { entity entityId before after } } } }', {}, as);
  expectNothingOfOther(mine);
  const expectedMine = await api.count('SELECT count(*) FROM audit_entry WHERE producer_id = $1', [own]);
  expect(expectedMine).toBeGreaterThanOrEqual(4); // createProducer, createContract, recordPurchases, recordSales
  expect(mine.auditLog.totalCount).toBe(expectedMine);
  expect(mine.auditLog.edges).toHaveLength(expectedMine);
  expect(all.auditLog.totalCount).toBe(await api.count('SELECT count(*) FROM audit_entry'));
  expect(all.auditLog.totalCount).toBeGreaterThan(expectedMine);
  // filtering by the other producer's record gives nothing, not an error
  const filtered = await api.ok(`{ auditLog(entity: "Purchase", entityId: "${ids.otherPurchase}") { totalCount edges { node { id } } } }`, {}, as);
  expect(filtered.auditLog).toEqual({ totalCount: 0, edges: [] });
});

describe('mutations naming another producer or its records are refused as if it did not exist, and write nothing', () => {
  async function expectRefusedLikeMissing(mutation: (id: string) => string, otherId: string) {
    const rowsBefore = await api.count('SELECT count(*) FROM audit_entry');
    const res = await expectSameAsMissing(mutation, otherId);
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(await api.count('SELECT count(*) FROM audit_entry')).toBe(rowsBefore);
    return res;
  }

  test('recordPurchases, recordSales, recordFomento, createContract for the other producer', async () => {
    await expectRefusedLikeMissing((id) => `mutation { recordPurchases(input: [${PURCHASE(id, '1.00')}]) { id } }`, other);
    await expectRefusedLikeMissing((id) => `mutation { recordSales(input: [${SALE(id, '1.00')}]) { id } }`, other);
    await expectRefusedLikeMissing((id) => `mutation { recordFomento(input: [{ producerId: "${id}", spentOn: "2025-04-01", kind: DONATION, amount: "1", municipalityCode: "2611606" }]) { id } }`, other);
    await expectRefusedLikeMissing((id) => `mutation { createContract(input: { producerId: "${id}", familyFarmerId: "${ids.farmer}", signedOn: "2025-01-05", validFrom: "2025-01-05", validUntil: "2025-12-31", feedstock: SOYBEAN, quantityKg: "1", pricePerKg: "1", technicalAssistance: false }) { id } }`, other);
    expect(await api.count('SELECT count(*) FROM purchase WHERE producer_id = $1', [other])).toBe(1);
    expect(await api.count('SELECT count(*) FROM sale WHERE producer_id = $1', [other])).toBe(1);
  });

  test('a batch with one item of the other producer writes nothing at all', async () => {
    const before = await api.count('SELECT count(*) FROM purchase');
    const res = await api.gql(`mutation { recordPurchases(input: [${PURCHASE(own, '2.00')}, ${PURCHASE(other, '3.00')}]) { id } }`, {}, as);
    expect(res.errors?.[0]).toMatchObject({ message: `Producer ${other} not found`, extensions: { code: 'NOT_FOUND' } });
    expect(await api.count('SELECT count(*) FROM purchase')).toBe(before);
  });

  test('electRegime for the other producer; Selo acts on its grant (ADMIN only) are refused as for a missing grant', async () => {
    await expectRefusedLikeMissing((id) => `mutation { electRegime(input: { producerId: "${id}", regime: AD_VALOREM, electedOn: "2025-11-03" }) { effectiveYear } }`, other);
    const from = await api.count('SELECT count(*) FROM audit_entry');
    const event = await expectSameAsMissing((id) => `mutation { recordSealEvent(input: { grantId: "${id}", kind: CANCELLED, effectiveOn: "2025-06-01", reason: "x" }) { id } }`, ids.otherGrant);
    expect(event.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(await api.count('SELECT count(*) FROM audit_entry')).toBe(from);
    expect(await api.count('SELECT count(*) FROM seal_event')).toBe(0);
  });

  test('closeTaxPeriod and reopenTaxPeriod of the other producer', async () => {
    await expectRefusedLikeMissing((id) => `mutation { closeTaxPeriod(producerId: "${id}", year: 2025, month: 3) { status } }`, other);
    await api.ok(`mutation { closeTaxPeriod(producerId: "${other}", year: 2025, month: 4) { status } }`);
    await expectRefusedLikeMissing((id) => `mutation { reopenTaxPeriod(producerId: "${id}", year: 2025, month: 4, reason: "mine now") { status } }`, other);
    expect(await api.count('SELECT count(*) FROM tax_period WHERE producer_id = $1', [other])).toBe(1);
    expect(await api.count(`SELECT count(*) FROM tax_period WHERE producer_id = $1 AND year = 2025 AND month = 3`, [other])).toBe(0);
  });

  test('updateProducer of the other producer', async () => {
    await expectRefusedLikeMissing((id) => `mutation { updateProducer(id: "${id}", input: { legalName: "Taken" }, expectedVersion: 1) { id } }`, other);
    expect(await api.count(`SELECT count(*) FROM producer WHERE legal_name = 'Taken'`)).toBe(0);
  });

  test('its own purchase under the other producer\'s contract', async () => {
    const res = await expectRefusedLikeMissing((id) => `mutation { recordPurchases(input: [${PURCHASE(own, '4.00', `, contractId: "${id}"`)}]) { id } }`, ids.otherContract);
    expect(res.errors?.[0].message).toBe(`Contract ${ids.otherContract} (input[0].contractId) not found`);
    expect(await api.count('SELECT count(*) FROM purchase WHERE contract_id = $1', [ids.otherContract])).toBe(0);
  });
});
