import { cpf as cpfLib } from 'cpf-cnpj-validator';
import { today } from '../../src/law/dates';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, FEIRA, PORTO_ALEGRE, RECIFE } from '../support/fixtures';
import { contract, purchases, setUpSeloYear } from '../support/selo-year';

/**
 * PGPAF minimum prices (Decreto 5.996/2006) as dated, cited versions (docs/LAW.md), and the
 * contract price condition they feed (Decreto 10.527/2020, art. 3º §2 II).
 */

let api: TestApi;
const PUBLISH = `mutation($i: PublishMinimumPriceInput!) { publishMinimumPrice(input: $i) { id feedstock validFrom validUntil pricePerKg source publishedOn } }`;
const LIST = `query($f: Feedstock, $on: Date, $k: Date) { minimumPrices(feedstock: $f, on: $on, asKnownOn: $k) { id feedstock pricePerKg validFrom publishedOn source } }`;
const castor = { feedstock: 'CASTOR_BEAN', validFrom: '2025-01-01', validUntil: '2025-12-31', pricePerKg: '3.10', source: 'Portaria PGPAF (test) 1/2024' };

beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api.close(); });

test('an ADMIN publishes a version: read back, dated today by default, audited', async () => {
  const d = await api.ok(PUBLISH, { i: castor });
  expect(d.publishMinimumPrice).toMatchObject({ feedstock: 'CASTOR_BEAN', validFrom: '2025-01-01', validUntil: '2025-12-31', pricePerKg: '3.10', source: 'Portaria PGPAF (test) 1/2024', publishedOn: today() });
  const id = d.publishMinimumPrice.id;
  expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'publishMinimumPrice' AND entity = 'MinimumPrice' AND entity_id = $1`, [id])).toBe(1);
  const read = await api.ok(LIST, { f: 'CASTOR_BEAN' }, { role: 'PRODUCER', producerId: '1' });
  expect(read.minimumPrices.map((m: { id: string }) => m.id)).toEqual([id]);
});

test('a new version never overwrites: the later publication wins from its publication date on, the earlier stays', async () => {
  const first = (await api.ok(PUBLISH, { i: { ...castor, feedstock: 'PALM', pricePerKg: '1.00', publishedOn: '2024-12-15' } })).publishMinimumPrice;
  const second = (await api.ok(PUBLISH, { i: { ...castor, feedstock: 'PALM', validFrom: '2025-07-01', pricePerKg: '1.20', source: 'Portaria PGPAF (test) 2/2025', publishedOn: '2025-06-20' } })).publishMinimumPrice;
  expect(await api.count(`SELECT count(*) FROM minimum_price WHERE feedstock = 'PALM'`)).toBe(2);
  expect(await api.count(`SELECT count(*) FROM minimum_price WHERE id = $1 AND price_per_kg = 1.00`, [first.id])).toBe(1);
  const inForce = async (on: string, k: string) => (await api.ok(LIST, { f: 'PALM', on, k }, { role: 'AUDITOR' })).minimumPrices.map((m: { pricePerKg: string }) => m.pricePerKg);
  expect(await inForce('2025-08-01', '2025-12-31')).toEqual(['1.20']);
  expect(await inForce('2025-08-01', '2025-06-19')).toEqual(['1.00']); // not yet published
  expect(await inForce('2025-03-01', '2025-12-31')).toEqual(['1.00']);
  expect(await inForce('2026-01-01', '2026-12-31')).toEqual([]);
  // Without `on`: every version.
  expect((await api.ok(LIST, { f: 'PALM' })).minimumPrices.map((m: { id: string }) => m.id)).toEqual([first.id, second.id]);
});

test('AUDITOR and PRODUCER may not publish: FORBIDDEN, nothing written', async () => {
  const before = await api.count(`SELECT count(*) FROM minimum_price`);
  const audits = await api.count(`SELECT count(*) FROM audit_entry`);
  for (const as of [{ role: 'AUDITOR' as const }, { role: 'PRODUCER' as const, producerId: '1' }]) {
    const res = await api.gql(PUBLISH, { i: castor }, as);
    expect(res.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  }
  expect(await api.count(`SELECT count(*) FROM minimum_price`)).toBe(before);
  expect(await api.count(`SELECT count(*) FROM audit_entry`)).toBe(audits);
});

test.each([
  ['validUntil before validFrom', { validUntil: '2024-12-31' }, 'input.validUntil'],
  ['a zero price', { pricePerKg: '0' }, 'input.pricePerKg'],
  ['a negative price', { pricePerKg: '-1' }, 'input.pricePerKg'],
  ['a blank source', { source: '   ' }, 'input.source'],
])('bad input, %s: BAD_USER_INPUT naming the field, nothing written', async (_what, change, field) => {
  const before = await api.count(`SELECT count(*) FROM minimum_price`);
  const res = await api.gql(PUBLISH, { i: { ...castor, ...change } });
  expect(res.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
  expect(await api.count(`SELECT count(*) FROM minimum_price`)).toBe(before);
});

test('a binary float price and an impossible date are refused by the scalars, nothing written', async () => {
  const float = await api.gql(PUBLISH, { i: { ...castor, pricePerKg: 2.4 } });
  expect(float.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  const date = await api.gql(PUBLISH, { i: { ...castor, publishedOn: '2025-02-30' } });
  expect(date.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  expect(await api.count(`SELECT count(*) FROM minimum_price WHERE feedstock = 'CASTOR_BEAN'`)).toBe(1);
});

test('Contract.conformity uses the minimum price in force on the signing date, as known on asKnownOn (art. 3º §2 II)', async () => {
  await api.ok(`mutation { upsertMunicipalities(input: [{ ibgeCode: "2611606", name: "Recife", semiarid: false }]) { ibgeCode } }`);
  const producerId = (await api.ok(`mutation { createProducer(input: { cnpj: "11222333000181", legalName: "Usina S.A.", plantMunicipalityCode: "2611606" }) { id } }`)).createProducer.id;
  const farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, {
    i: { cpf: cpfLib.generate(), name: 'Agricultor', municipalityCode: '2611606', registrations: [] },
  })).createFamilyFarmer;
  const create = async (signedOn: string, pricePerKg: string) => (await api.ok(`mutation($i: CreateContractInput!) { createContract(input: $i) { id } }`, {
    i: { producerId, familyFarmerId: farmer.id, signedOn, validFrom: signedOn, validUntil: '2025-12-31', feedstock: 'PALM', quantityKg: '1000', pricePerKg, technicalAssistance: true },
  })).createContract.id;
  // PALM: R$ 1,00 from 2025-01-01 (published 2024-12-15), R$ 1,20 from 2025-07-01 (published 2025-06-20).
  const january = await create('2025-01-10', '1.10');
  const july = await create('2025-07-10', '1.10');
  const Q = `query($id: ID!, $k: Date) { contract(id: $id) { conformity(asKnownOn: $k) { conforming findings { code legalBasis } minimumPrice { pricePerKg } } } }`;
  const conf = async (id: string, k: string | null) => (await api.ok(Q, { id, k }, { role: 'PRODUCER', producerId })).contract.conformity;
  expect(await conf(january, '2025-12-31')).toEqual({ conforming: true, findings: [], minimumPrice: { pricePerKg: '1.00' } });
  const late = await conf(july, '2025-12-31');
  expect(late.conforming).toBe(false);
  expect(late.findings).toEqual([{ code: 'PRICE_BELOW_MINIMUM', legalBasis: 'Decreto 10.527/2020, art. 3º §2º II; Decreto 5.996/2006' }]);
  expect(late.minimumPrice).toEqual({ pricePerKg: '1.20' });
  // As known before the R$ 1,20 version was published, the July contract conformed.
  expect((await conf(july, '2025-06-19')).conforming).toBe(true);
});

test('prices as published by product, state or region and period: a purchase is judged against the price for its origin and date', async () => {
  const f = await setUpSeloYear(api); // soybean R$ 2,40/kg nationwide in 2025; a farmer of Recife (PE)
  const publish = (scope: string | null, pricePerKg: string) => api.ok(PUBLISH, { i: {
    feedstock: 'SOYBEAN', scope, validFrom: '2025-01-01', validUntil: '2025-12-31', pricePerKg, source: `Portaria PGPAF (test) 2025, ${scope ?? 'nacional'}`, publishedOn: '2024-12-20',
  } });
  await publish('29', '2.80'); //        Bahia
  await publish('NORTHEAST', '2.60'); // the Nordeste's other states
  const p = await createProducer(api, 'Usina dos Preços', RECIFE);
  const k = await contract(api, p, { farmer: f, pricePerKg: '2.70' });
  const [feira, recife, portoAlegre] = await purchases(api, p, [
    { on: '2025-04-01', cost: '2700', farmer: f, contract: k, origin: FEIRA }, //        2,70/kg < Bahia's 2,80
    { on: '2025-04-02', cost: '2500', farmer: f, contract: k, origin: RECIFE }, //       2,50/kg < the Nordeste's 2,60 (no price for PE)
    { on: '2025-04-03', cost: '2450', farmer: f, contract: k, origin: PORTO_ALEGRE }, // 2,45/kg ≥ the national 2,40 (none for RS or the Sul)
  ]);
  const warnings = async (id: string) => (await api.ok(`query($id: ID!) { purchase(id: $id) { selo(asKnownOn: "2026-01-10") { counts warnings { code } } } }`, { id })).purchase.selo;
  expect(await warnings(feira)).toEqual({ counts: true, warnings: [{ code: 'PURCHASE_BELOW_MINIMUM_PRICE' }] });
  expect(await warnings(recife)).toEqual({ counts: true, warnings: [{ code: 'PURCHASE_BELOW_MINIMUM_PRICE' }] });
  expect(await warnings(portoAlegre)).toEqual({ counts: true, warnings: [] });
  // The contract guarantees the price of its counterparty's place: a farmer of Recife, the Nordeste's 2,60 ≤ 2,70.
  const c = (await api.ok(`query($id: ID!) { contract(id: $id) { conformity(asKnownOn: "2026-01-10") { conforming minimumPrice { pricePerKg source } } } }`, { id: k })).contract.conformity;
  expect(c).toEqual({ conforming: true, minimumPrice: { pricePerKg: '2.60', source: 'Portaria PGPAF (test) 2025, NORTHEAST' } });
  // Every version lists its scope.
  const listed = (await api.ok(`{ minimumPrices(feedstock: SOYBEAN) { scope pricePerKg } }`)).minimumPrices;
  expect(listed).toEqual(expect.arrayContaining([{ scope: null, pricePerKg: '2.40' }, { scope: '29', pricePerKg: '2.80' }, { scope: 'NORTHEAST', pricePerKg: '2.60' }]));
  // In force on a day: one price per scope, compiled to SQL as the service chooses it.
  const onDay = (await api.ok(`{ minimumPrices(feedstock: SOYBEAN, on: "2025-04-01", asKnownOn: "2026-01-10") { scope pricePerKg } }`)).minimumPrices;
  expect(onDay).toHaveLength(3);
  expect(onDay).toEqual(expect.arrayContaining([{ scope: null, pricePerKg: '2.40' }, { scope: '29', pricePerKg: '2.80' }, { scope: 'NORTHEAST', pricePerKg: '2.60' }]));
  const bad = await api.gql(PUBLISH, { i: { ...castor, scope: 'BA' } });
  expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.scope' });
});
