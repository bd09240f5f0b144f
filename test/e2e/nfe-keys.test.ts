import { AddressInfo } from 'node:net';
import pino from 'pino';
import { hs256 } from '../../src/graphql/auth/token';
import { createApp } from '../../src/server';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';
import { nfeKey, ownAndOtherProducers } from '../support/fixtures';

/**
 * A sale's NF-e key names its issuer (positions 7 to 20 of the 44 digits): a producer records only
 * keys issued by its own CNPJ or by one of the establishments an ADMIN recorded on it, and a key is
 * unique per producer. So a producer can neither squat another's key nor learn that another holds
 * one, and the GraphQL mutation and the CSV import answer alike.
 */
let api: TestApi;
let own: string;
let other: string;
const OWN_CNPJ = '11222333000181';
const OTHER_CNPJ = '11444777000161';
const BRANCH = '11222333000262'; // another establishment of the own producer's company
const RECORD = 'mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id invoiceKey } }';
const sale = (producerId: string, invoiceKey: string) => ({ producerId, soldOn: '2026-03-10', volumeM3: '10', revenue: '60000', invoiceKey });
const asOwn = () => ({ role: 'PRODUCER' as const, producerId: own });
const asOther = () => ({ role: 'PRODUCER' as const, producerId: other });
const salesOf = (producerId: string) => api.count('SELECT count(*) FROM sale WHERE producer_id = $1', [producerId]);

beforeAll(async () => {
  api = await startTestApi();
  ({ own, other } = await ownAndOtherProducers(api));
});
afterAll(async () => { await api.close(); });

async function upload(producerId: string, keys: string[], as = asOwn()) {
  const csv = ['soldOn,volumeM3,revenue,invoiceKey', ...keys.map((k) => `2026-03-11,1,5000,${k}`)].join('\n');
  const res = await fetch(`${api.url.replace(/\/graphql$/, '')}/import/sales?producer=${producerId}`, {
    method: 'POST', headers: { 'content-type': 'text/csv', authorization: `Bearer ${await api.token(as)}` }, body: csv,
  });
  const body = (await res.json()) as { import?: { rows: number }; error?: { code: string; message: string; line: number; column: string; reason?: string; requestId?: string } };
  delete body.error?.requestId;
  return { status: res.status, body };
}

test('a key issued by another producer\'s CNPJ is refused on both paths with the same message, whether or not that producer recorded it', async () => {
  const theirs = nfeKey(OTHER_CNPJ, 1);
  const message = `invoiceKey names the issuer CNPJ ${OTHER_CNPJ} (positions 7 to 20 of the key), which is neither the producer's CNPJ nor one of its establishments (an ADMIN records them: updateProducer, establishments)`;
  const before = await api.gql(RECORD, { i: [sale(own, theirs)] }, asOwn());
  expect(before.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT', field: 'input[0].invoiceKey' } });
  const importedBefore = await upload(own, [nfeKey(OWN_CNPJ, 1), theirs]);
  expect([importedBefore.status, importedBefore.body.error]).toEqual([400, expect.objectContaining({ code: 'BAD_USER_INPUT', line: 3, column: 'invoiceKey', message: `line 3, column invoiceKey: ${message}` })]);
  expect(await salesOf(own)).toBe(0);

  // The rightful issuer records it, through either path; it was never squatted.
  expect((await api.ok(RECORD, { i: [sale(other, theirs)] }, asOther())).recordSales[0].invoiceKey).toBe(theirs);

  // Asked again, the answers are word for word the same: nothing says another producer holds the key.
  const after = await api.gql(RECORD, { i: [sale(own, theirs)] }, asOwn());
  expect(after.errors).toEqual(before.errors);
  const importedAfter = await upload(own, [nfeKey(OWN_CNPJ, 1), theirs]);
  expect(importedAfter).toEqual(importedBefore);
  // Even an ADMIN cannot record it for the wrong producer.
  expect((await api.gql(RECORD, { i: [sale(own, theirs)] })).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  expect(await salesOf(own)).toBe(0);
});

test('the producer\'s own keys: recorded on either path, a second time a DUPLICATE of its own sale on both', async () => {
  const k1 = nfeKey(OWN_CNPJ, 11);
  const k2 = nfeKey(OWN_CNPJ, 12);
  await api.ok(RECORD, { i: [sale(own, k1)] }, asOwn());
  const imported = await upload(own, [k2]);
  expect([imported.status, imported.body.import?.rows]).toEqual([200, 1]);
  const again = await api.gql(RECORD, { i: [sale(own, k2)] }, asOwn());
  expect(again.errors?.[0]).toMatchObject({ message: `A sale with invoiceKey ${k2} already exists`, extensions: { code: 'CONFLICT', reason: 'DUPLICATE', field: 'input[0].invoiceKey' } });
  const reimported = await upload(own, [k1]);
  expect([reimported.status, reimported.body.error?.code, reimported.body.error?.reason, reimported.body.error?.line]).toEqual([409, 'CONFLICT', 'DUPLICATE', 2]);
  expect(await salesOf(own)).toBe(2);
});

test('establishments: an ADMIN records them (a PRODUCER may not), each CNPJ of one producer only; their keys are the producer\'s', async () => {
  const UPDATE = 'mutation($id: ID!, $i: UpdateProducerInput!, $v: Int!) { updateProducer(id: $id, input: $i, expectedVersion: $v) { establishments version } }';
  const version = async (id: string) => (await api.ok(`query($id: ID!) { producer(id: $id) { version } }`, { id })).producer.version;
  const branchKey = nfeKey(BRANCH, 21);
  expect((await api.gql(RECORD, { i: [sale(own, branchKey)] }, asOwn())).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');

  const byProducer = await api.gql(UPDATE, { id: own, i: { establishments: [BRANCH] }, v: await version(own) }, asOwn());
  expect([byProducer.errors?.[0].extensions?.code, byProducer.errors?.[0].message]).toEqual(['FORBIDDEN', 'Only an ADMIN records a producer\'s establishments']);
  // Masked input is read as a CNPJ; the producer's own CNPJ is not another establishment.
  const ownCnpj = await api.gql(UPDATE, { id: own, i: { establishments: ['11.222.333/0001-81'] }, v: await version(own) });
  expect([ownCnpj.errors?.[0].extensions?.code, ownCnpj.errors?.[0].extensions?.field]).toEqual(['BAD_USER_INPUT', 'input.establishments[0]']);
  const set = await api.ok(UPDATE, { id: own, i: { establishments: ['11.222.333/0002-62'] }, v: await version(own) });
  expect(set.updateProducer.establishments).toEqual([BRANCH]);

  // Another producer's CNPJ, or an establishment already recorded, cannot be given to a second producer.
  const taken = await api.gql(UPDATE, { id: other, i: { establishments: [BRANCH] }, v: await version(other) });
  expect(taken.errors?.[0]).toMatchObject({ message: `CNPJ ${BRANCH} already belongs to producer ${own} (its CNPJ or one of its establishments)`, extensions: { code: 'CONFLICT', reason: 'DUPLICATE', field: 'input.establishments[0]' } });
  const theirCnpj = await api.gql(UPDATE, { id: other, i: { establishments: [OWN_CNPJ] }, v: await version(other) });
  expect(theirCnpj.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', field: 'input.establishments[0]' });
  const newProducer = await api.gql(`mutation($i: CreateProducerInput!) { createProducer(input: $i) { id } }`, { i: { cnpj: BRANCH, legalName: 'Filial', plantMunicipalityCode: '2611606' } });
  expect(newProducer.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE', field: 'input.cnpj' });

  // Now the branch's keys are the producer's, on both paths; the other producer still cannot record them.
  expect((await api.ok(RECORD, { i: [sale(own, branchKey)] }, asOwn())).recordSales).toHaveLength(1);
  expect((await upload(own, [nfeKey(BRANCH, 22)])).status).toBe(200);
  expect((await api.gql(RECORD, { i: [sale(other, nfeKey(BRANCH, 23))] }, asOther())).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');

  // Producer.establishments reads the same on the compiled reads and on the resolvers.
  const plain = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), compiledReads: false });
  await new Promise<void>((resolve) => plain.httpServer.listen(0, '127.0.0.1', resolve));
  try {
    const query = JSON.stringify({ query: '{ producers { edges { node { id establishments } } } }' });
    const token = await api.token();
    const read = async (url: string) => (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: query })).text()).trim();
    const expected = JSON.stringify({ data: { producers: { edges: [{ node: { id: own, establishments: [BRANCH] } }, { node: { id: other, establishments: [] } }] } } });
    expect(await read(api.url)).toBe(expected);
    expect(await read(`http://127.0.0.1:${(plain.httpServer.address() as AddressInfo).port}/graphql`)).toBe(expected);
  } finally {
    await plain.stop();
  }
});

test('a key is 44 positions anchored at both ends, model 55, its digit right; each refused by name on both paths', async () => {
  const good = nfeKey(OWN_CNPJ, 31);
  // 45 characters that begin with a valid key naming the producer's own CNPJ: never reaches char(44).
  const cases: Array<[string, string]> = [
    [`${good}1`, 'invoiceKey must be an NF-e access key: 44 digits, the issuer\'s CNPJ (positions 7 to 18) may hold letters A to Z'],
    [`${good.slice(0, 43)}${(Number(good[43]) + 1) % 10}`, `invoiceKey's check digit is ${(Number(good[43]) + 1) % 10}, but its first 43 positions give ${good[43]} (modulo 11)`],
  ];
  const nfce43 = good.slice(0, 43).replace(/^(.{20})55/, '$165');
  const nfce = `${nfce43}${(await import('../../src/formats/nfe-key')).nfeKeyDigit(nfce43)}`;
  cases.push([nfce, 'invoiceKey names model 65 (positions 21 and 22); an NF-e key names model 55']);
  for (const [key, message] of cases) {
    const answer = await api.gql(RECORD, { i: [sale(own, key)] }, asOwn());
    expect(answer.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT', field: 'input[0].invoiceKey' } });
    const imported = await upload(own, [key]);
    // The file names the column apart: a message that starts with it leaves it out.
    expect([imported.status, imported.body.error?.code, imported.body.error?.message]).toEqual([400, 'BAD_USER_INPUT', `line 2, column invoiceKey: ${message.replace(/^invoiceKey /, '')}`]);
  }
  expect(await api.count('SELECT count(*) FROM sale WHERE producer_id = $1 AND invoice_key LIKE $2', [own, `${good.slice(0, 43)}%`])).toBe(0);
});

test('a refused key is named as the argument that held it: originalKey of a return, key of a cancellation', async () => {
  const good = nfeKey(OWN_CNPJ, 32);
  const bad = `${good.slice(0, 43)}${(Number(good[43]) + 1) % 10}`;
  const digit = (name: string) => `${name}'s check digit is ${bad[43]}, but its first 43 positions give ${good[43]} (modulo 11)`;
  const returned = await api.gql('mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }',
    { i: [{ originalKey: bad, saleId: '1', quantity: '1', value: '1', returnedOn: '2026-03-10' }] });
  expect(returned.errors?.[0]).toMatchObject({ message: digit('originalKey'), extensions: { code: 'BAD_USER_INPUT', field: 'input[0].originalKey' } });
  const cancelled = await api.gql('mutation($k: String!) { cancelDocument(key: $k) { key } }', { k: `${good}1` });
  expect(cancelled.errors?.[0]).toMatchObject({ message: 'key must be an NF-e access key: 44 digits, the issuer\'s CNPJ (positions 7 to 18) may hold letters A to Z', extensions: { code: 'BAD_USER_INPUT', field: 'key' } });
});

test('a producer whose CNPJ is alphanumeric records its NF-e keys (NT Conjunta 2025.001)', async () => {
  const alnum = (await api.ok(`mutation($i: CreateProducerInput!) { createProducer(input: $i) { id cnpj } }`,
    { i: { cnpj: '12.ABC.345/01DE-35', legalName: 'Usina Alfanumérica', plantMunicipalityCode: '2611606' } })).createProducer;
  expect(alnum.cnpj).toBe('12ABC34501DE35');
  // The key worked by hand in test/formats/nfe-key.test.ts: digit 7.
  const key = '35260712ABC34501DE35550010000001231123456787';
  const recorded = await api.ok(RECORD, { i: [sale(alnum.id, key)] });
  expect(recorded.recordSales[0].invoiceKey).toBe(key);
  const csv = await upload(alnum.id, [nfeKey('12ABC34501DE35', 124)], { role: 'PRODUCER', producerId: alnum.id });
  expect([csv.status, csv.body.import?.rows]).toEqual([200, 1]);
  // Its last digit changed: refused.
  expect((await api.gql(RECORD, { i: [sale(alnum.id, `${key.slice(0, 43)}8`)] })).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
});
