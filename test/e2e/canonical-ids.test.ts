import { AddressInfo } from 'node:net';
import pino from 'pino';
import { hs256 } from '../../src/graphql/auth/token';
import { createApp, RunningApp } from '../../src/server';
import { Caller, startTestApi, TEST_SECRET, TestApi } from '../support/api';
import { createProducer, grantSeal, nfeKey, producerCnpj, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * An id is the text the API hands out ("1"), never another spelling of the same number ("01",
 * "001"): a client caching records by id must not meet one record under two ids. Every lookup by
 * id and every argument naming a record answers a non-canonical id as it answers an unknown one —
 * null for a lookup that answers null, NOT_FOUND for the others — on the compiled reads and on the
 * resolvers alike, and a mutation so named writes nothing.
 */
let api: TestApi;
let plain: RunningApp;
let plainUrl: string;
const ids: Record<string, string> = {};
const UNKNOWN = '987654321';

beforeAll(async () => {
  api = await startTestApi();
  plain = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), compiledReads: false });
  await new Promise<void>((resolve) => plain.httpServer.listen(0, '127.0.0.1', resolve));
  plainUrl = `http://127.0.0.1:${(plain.httpServer.address() as AddressInfo).port}/graphql`;
  await upsertMunicipalities(api, [RECIFE]);
  ids.producer = await createProducer(api, 'Usina Um');
  ids.grant = await grantSeal(api, ids.producer);
  ids.key = nfeKey(await producerCnpj(api, ids.producer), 1, '2503');
  ids.farmer = (await api.ok(`mutation { createFamilyFarmer(input: { cpf: "52998224725", name: "Maria", municipalityCode: "${RECIFE}",
    registrations: [{ kind: CAF, number: "CAF-1", validFrom: "2024-01-01", validUntil: "2027-12-31" }] }) { id } }`)).createFamilyFarmer.id;
  ids.organization = (await api.ok(`mutation { createOrganization(input: { cnpj: "11444777000161", name: "Coop", kind: COOPERATIVE, municipalityCode: "${RECIFE}",
    registrations: [{ kind: CAF, number: "CAF-J-1", validFrom: "2024-01-01", validUntil: "2027-12-31" }], members: 10, familyFarmerMembers: 8 }) { id } }`)).createOrganization.id;
  ids.contract = (await api.ok(`mutation { createContract(input: { producerId: "${ids.producer}", familyFarmerId: "${ids.farmer}", signedOn: "2025-01-05", validFrom: "2025-01-05",
    validUntil: "2025-12-31", feedstock: SOYBEAN, quantityKg: "5000", pricePerKg: "2", technicalAssistance: true }) { id } }`)).createContract.id;
  ids.purchase = (await api.ok(`mutation { recordPurchases(input: [{ producerId: "${ids.producer}", purchasedOn: "2025-03-10", feedstock: SOYBEAN, quantityKg: "1000",
    cost: "2500", supplierKind: THIRD_PARTY, supplierName: "Cerealista", originMunicipalityCode: "${RECIFE}" }]) { id } }`)).recordPurchases[0].id;
  ids.sale = (await api.ok(`mutation { recordSales(input: [{ producerId: "${ids.producer}", soldOn: "2025-03-20", volumeM3: "10", revenue: "5000" }]) { id } }`)).recordSales[0].id;
  ids.import = (await api.ok(`mutation { recordImports(input: [{ producerId: "${ids.producer}", clearedOn: "2025-03-05", volumeM3: "1", declarationNumber: "25/0300001-1" }]) { id } }`)).recordImports[0].id;
  ids.fomento = (await api.ok(`mutation { recordFomento(input: [{ producerId: "${ids.producer}", spentOn: "2025-04-01", kind: DONATION, amount: "10", municipalityCode: "${RECIFE}" }]) { id } }`)).recordFomento[0].id;
});
afterAll(async () => {
  await plain?.stop();
  await api?.close();
});

type Answer = { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };

/** The answer to `query(id)`, its errors' messages with the id written ID (what may differ between two ids). */
async function post(url: string, query: (id: string) => string, id: string, as: Caller): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await api.token(as)}` }, body: JSON.stringify({ query: query(id) }) });
  const body = (await res.json()) as Answer;
  if (!body.errors) return body;
  return { ...body, errors: body.errors.map((e) => ({ message: e.message.split(id).join('ID'), extensions: { code: e.extensions?.code, field: e.extensions?.field } })) };
}

/** The answers from the compiled reads and from the resolvers. */
async function answers(query: (id: string) => string, id: string, as: Caller): Promise<Answer[]> {
  return [await post(api.url, query, id, as), await post(plainUrl, query, id, as)];
}

const ADMIN: Caller = { role: 'ADMIN' };
const spellings = (id: string) => [`0${id}`, `00${id}`, `+${id}`, ` ${id}`, `${id}.0`];

const LOOKUPS: Array<[string, string]> = [
  ['producer', 'producer'], ['purchase', 'purchase'], ['contract', 'contract'], ['familyFarmer', 'farmer'], ['organization', 'organization'], ['sealGrant', 'grant'],
];

test.each(LOOKUPS)('%s(id:) reads "0<id>" as an unknown id, on both paths', async (field, key) => {
  const query = (id: string) => `{ ${field}(id: "${id}") { id } }`;
  // The canonical id finds the record on both paths.
  expect(await answers(query, ids[key], ADMIN)).toEqual([{ data: { [field]: { id: ids[key] } } }, { data: { [field]: { id: ids[key] } } }]);
  const unknown = await answers(query, UNKNOWN, ADMIN);
  expect(unknown[0]).toEqual(unknown[1]);
  for (const id of spellings(ids[key])) expect([id, await answers(query, id, ADMIN)]).toEqual([id, unknown]);
});

const BY_PRODUCER: Array<[string, (id: string) => string]> = [
  ['taxPeriod', (id) => `{ taxPeriod(producerId: "${id}", year: 2025, month: 3) { totalDue } }`],
  ['sealCompliance', (id) => `{ sealCompliance(producerId: "${id}", year: 2025) { status } }`],
  ['sealPlan', (id) => `{ sealPlan(producerId: "${id}", year: 2025) { asKnownOn } }`],
  ['sealGrants', (id) => `{ sealGrants(producerId: "${id}") { id } }`],
  ['regimeElections', (id) => `{ regimeElections(producerId: "${id}") { effectiveYear } }`],
  ['creditBalances', (id) => `{ creditBalances(producerId: "${id}", on: "2025-03-31") { codCred } }`],
  ['importContributions', (id) => `{ importContributions(producerId: "${id}", year: 2025, month: 3) { totalDue } }`],
];

test.each(BY_PRODUCER)('%s(producerId:) answers "0<id>" as an unknown producer (NOT_FOUND), for an ADMIN and the producer itself', async (_name, query) => {
  const own: Caller = { role: 'PRODUCER', producerId: ids.producer };
  for (const as of [ADMIN, own]) {
    const found = await answers(query, ids.producer, as);
    expect(found[0].errors).toBeUndefined();
    const unknown = await answers(query, UNKNOWN, as);
    expect(unknown[0].errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    for (const id of spellings(ids.producer)) expect([id, await answers(query, id, as)]).toEqual([id, unknown]);
  }
});

const MUTATIONS: Array<[string, string, (id: string) => string]> = [
  ['updateProducer', 'producer', (id) => `mutation { updateProducer(id: "${id}", input: { legalName: "Outra" }, expectedVersion: 1) { id } }`],
  ['updateOrganization', 'organization', (id) => `mutation { updateOrganization(id: "${id}", input: { members: 11, familyFarmerMembers: 9, membersDeclaredOn: "2025-07-01" }) { id } }`],
  ['correctPurchase', 'purchase', (id) => `mutation { correctPurchase(id: "${id}", input: { cost: "150" }, expectedVersion: 1) { purchase { id } } }`],
  ['correctSale', 'sale', (id) => `mutation { correctSale(id: "${id}", input: { revenue: "4000" }, expectedVersion: 1) { sale { id } } }`],
  ['correctImport', 'import', (id) => `mutation { correctImport(id: "${id}", input: { volumeM3: "2" }, expectedVersion: 1) { biodieselImport { id } } }`],
  ['correctFomento', 'fomento', (id) => `mutation { correctFomento(id: "${id}", input: { amount: "20" }, expectedVersion: 1) { fomentoExpense { id } } }`],
  ['recordReturns', 'sale', (id) => `mutation { recordReturns(input: [{ originalKey: "${ids.key}", saleId: "${id}", returnedOn: "2025-03-25", quantity: "1", value: "5" }]) { id } }`],
  ['recordSealEvent', 'grant', (id) => `mutation { recordSealEvent(input: { grantId: "${id}", kind: SUSPENDED, effectiveOn: "2025-06-01", reason: "Audit" }) { id } }`],
  ['closeTaxPeriod', 'producer', (id) => `mutation { closeTaxPeriod(producerId: "${id}", year: 2025, month: 3) { status } }`],
  ['reopenTaxPeriod', 'producer', (id) => `mutation { reopenTaxPeriod(producerId: "${id}", year: 2025, month: 3, reason: "x") { status } }`],
  ['createContract', 'producer', (id) => `mutation { createContract(input: { producerId: "${id}", familyFarmerId: "${ids.farmer}", signedOn: "2025-01-05", validFrom: "2025-01-05", validUntil: "2025-12-31", feedstock: SOYBEAN, quantityKg: "1", pricePerKg: "1", technicalAssistance: false }) { id } }`],
  ['createContract (familyFarmerId)', 'farmer', (id) => `mutation { createContract(input: { producerId: "${ids.producer}", familyFarmerId: "${id}", signedOn: "2025-01-05", validFrom: "2025-01-05", validUntil: "2025-12-31", feedstock: SOYBEAN, quantityKg: "1", pricePerKg: "1", technicalAssistance: false }) { id } }`],
  ['electRegime', 'producer', (id) => `mutation { electRegime(input: { producerId: "${id}", regime: SPECIAL_PER_M3, electedOn: "2024-11-01" }) { effectiveYear } }`],
  ['grantSeal', 'producer', (id) => `mutation { grantSeal(input: { producerId: "${id}", grantedOn: "2024-01-10", validUntil: "2029-01-09" }) { id } }`],
  ['recordSealEvaluation', 'producer', (id) => `mutation { recordSealEvaluation(input: { producerId: "${id}", year: 2024, communicatedOn: "2025-04-10" }) { id } }`],
  ['recordCreditClaim', 'producer', (id) => `mutation { recordCreditClaim(input: { producerId: "${id}", tax: PIS, originYear: 2025, originMonth: 1, codCred: "301", kind: REFUND, filedOn: "2025-04-10", amount: "1" }) { id } }`],
  ['electCreditApportionment', 'producer', (id) => `mutation { electCreditApportionment(input: { producerId: "${id}", year: 2026, method: REVENUE_RATIO, electedOn: "2026-01-02" }) { year } }`],
  ['electIncidenceRegime', 'producer', (id) => `mutation { electIncidenceRegime(input: { producerId: "${id}", year: 2026, regime: NON_CUMULATIVE, electedOn: "2026-01-02" }) { year } }`],
  ['recordSales', 'producer', (id) => `mutation { recordSales(input: [{ producerId: "${id}", soldOn: "2025-03-21", volumeM3: "1", revenue: "1" }]) { id } }`],
  ['recordPurchases (familyFarmerId)', 'farmer', (id) => `mutation { recordPurchases(input: [{ producerId: "${ids.producer}", purchasedOn: "2025-03-10", feedstock: SOYBEAN, quantityKg: "1", cost: "1", supplierKind: FAMILY_FARMER, familyFarmerId: "${id}", originMunicipalityCode: "${RECIFE}" }]) { id } }`],
  ['recordPurchases (contractId)', 'contract', (id) => `mutation { recordPurchases(input: [{ producerId: "${ids.producer}", purchasedOn: "2025-03-10", feedstock: SOYBEAN, quantityKg: "1", cost: "1", supplierKind: FAMILY_FARMER, familyFarmerId: "${ids.farmer}", contractId: "${id}", originMunicipalityCode: "${RECIFE}" }]) { id } }`],
  ['recordFomento (organizationId)', 'organization', (id) => `mutation { recordFomento(input: [{ producerId: "${ids.producer}", spentOn: "2025-04-01", kind: DONATION, amount: "1", municipalityCode: "${RECIFE}", organizationId: "${id}" }]) { id } }`],
];

test.each(MUTATIONS)('%s: "0<id>" is refused as an unknown id, nothing written', async (_name, key, mutation) => {
  const written = await api.count('SELECT count(*) FROM audit_entry');
  const unknown = await post(api.url, mutation, UNKNOWN, ADMIN);
  expect(unknown.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
  for (const id of [`0${ids[key]}`, `00${ids[key]}`]) expect([id, await post(api.url, mutation, id, ADMIN)]).toEqual([id, unknown]);
  expect(await api.count('SELECT count(*) FROM audit_entry')).toBe(written);
});
