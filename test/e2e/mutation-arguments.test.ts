import { startTestApi, TestApi } from '../support/api';
import { createProducer, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * A mutation's selection is read after its write commits: a field of it with a bad argument
 * (`producer { regime(year: 1999) }`) used to answer BAD_USER_INPUT with `data: null` over a
 * committed write. Every field's own argument checks now run before the first root field, and a
 * refusal writes nothing — with the very error the field gives when asked in a query.
 */
let api: TestApi;
let producerId: string;
let serial = 0;
const PT = { 'accept-language': 'pt-BR' };

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  producerId = await createProducer(api, 'Usina Argumentos');
});
afterAll(() => api.close());

const asProducer = () => ({ role: 'PRODUCER' as const, producerId });

/** One purchase from a third party, its externalId new unless given. */
function purchase(externalId = `args-${++serial}`) {
  return {
    producerId, purchasedOn: '2026-03-10', feedstock: 'SOYBEAN', quantityKg: '10', cost: '20', supplierKind: 'THIRD_PARTY', supplierName: 'X',
    originMunicipalityCode: RECIFE, externalId,
  };
}

/** recordPurchases of `$i` with `selection`; `variables`: the other variables it declares. */
const RECORD = (selection: string, variables = '', fragments = '') => `mutation($i: [RecordPurchaseInput!]!${variables}) { recordPurchases(input: $i) ${selection} } ${fragments}`;

async function rows(): Promise<{ purchases: number; audit: number; periods: number }> {
  return {
    purchases: await api.count('SELECT count(*) FROM purchase'),
    audit: await api.count('SELECT count(*) FROM audit_entry'),
    periods: await api.count('SELECT count(*) FROM tax_period'),
  };
}

/** The error a field gives when a query asks it: what the mutation must answer too. */
async function queryError(query: string, variables: Record<string, unknown> = {}, headers?: Record<string, string>) {
  const res = await api.gql(query, { p: producerId, ...variables }, undefined, headers);
  expect(res.errors).toHaveLength(1);
  const { message, extensions } = res.errors![0];
  return { message, extensions: { code: extensions!.code, field: extensions!.field } };
}

/** Sends `mutation`, expects it refused before anything ran (400, no data) with `expected`, and nothing written. */
async function refusedWhole(mutation: string, variables: Record<string, unknown>, expected: { message: string; extensions: Record<string, unknown> }, headers?: Record<string, string>) {
  const before = await rows();
  const res = await api.gql(mutation, variables, asProducer(), headers);
  expect(res.status).toBe(400);
  expect(res.data).toBeUndefined();
  expect(res.errors).toEqual([expected]);
  expect(await rows()).toEqual(before);
}

test('the reported case: a nested regime(year: 1999) refuses the mutation as the query field does, writing nothing; sent valid it commits', async () => {
  const literal = (externalId: string, year: number) => `mutation { recordPurchases(input: [{ producerId: "${producerId}", purchasedOn: "2026-03-10", feedstock: SOYBEAN,
    quantityKg: "10", cost: "20", supplierKind: THIRD_PARTY, supplierName: "X", originMunicipalityCode: "${RECIFE}", externalId: "${externalId}" }]) { id producer { regime(year: ${year}) } } }`;
  const expected = await queryError(`query($p: ID!) { producer(id: $p) { regime(year: 1999) } }`);
  expect(expected).toEqual({ message: 'year must be a calendar year from 2000 to 9999', extensions: { code: 'BAD_USER_INPUT', field: 'year' } });
  await refusedWhole(literal('bubble-2', 1999), {}, expected);
  // In the caller's language, as the field says it.
  await refusedWhole(literal('bubble-2', 1999), {}, await queryError(`query($p: ID!) { producer(id: $p) { regime(year: 1999) } }`, {}, PT), PT);

  // Nothing was kept of the refused one: the same externalId records now, once.
  const before = await rows();
  const ok = await api.gql(literal('bubble-2', 2026), {}, asProducer());
  expect(ok.errors).toBeUndefined();
  expect(ok.data!.recordPurchases).toEqual([{ id: expect.any(String), producer: { regime: 'AD_VALOREM' } }]);
  expect(await rows()).toEqual({ ...before, purchases: before.purchases + 1, audit: before.audit + 1 });
  const again = await api.gql(literal('bubble-2', 2026), {}, asProducer());
  expect(again.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE' });
});

test('other arguments of the selection, from variables too: a month 13, a bad cursor, first: -1, a long list page, a year under sealCompliance', async () => {
  // A cursor of purchases, given to contracts: not one of its cursors.
  const purchasesCursor = Buffer.from(JSON.stringify(['purchase', '2026-03-10', '1'])).toString('base64url');
  // The producer's field as the mutation's payload and a query ask it, the variables they declare and give, the field named.
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    ['regime(year: 2026, month: $m)', ', $m: Int', { m: 13 }, 'month'],
    ['taxPeriod(year: 2026, month: $m) { totalDue }', ', $m: Int!', { m: 0 }, 'month'],
    ['purchases(after: $after) { totalCount }', ', $after: String', { after: Buffer.from('not-ours').toString('base64url') }, 'after'],
    ['sales(first: $first) { totalCount }', ', $first: Int', { first: -1 }, 'first'],
    ['imports(first: 101) { totalCount }', '', {}, 'first'],
    ['contracts(after: $after) { totalCount }', ', $after: String', { after: purchasesCursor }, 'after'],
    ['sealCompliance(year: 2026) { excluded(first: 5000) { source } }', '', {}, 'first'],
    ['sealCompliance(year: 2026) { countedItems(first: 10, offset: -1) { totalCount } }', '', {}, 'offset'],
    ['sealCompliance(year: $y) { status }', ', $y: Int!', { y: 10000 }, 'year'],
  ];
  for (const [field, declared, variables, named] of cases) {
    const expected = await queryError(`query($p: ID!${declared}) { producer(id: $p) { ${field} } }`, variables);
    expect([field, expected.extensions]).toEqual([field, { code: 'BAD_USER_INPUT', field: named }]);
    await refusedWhole(RECORD(`{ id producer { ${field} } }`, declared), { i: [purchase()], ...variables }, expected);
  }
});

test('another mutation and payload: closeTaxPeriod with a bad page of its month\'s purchase credits closes nothing', async () => {
  const expected = await queryError(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 2) { credits { purchases(first: 0) { purchaseId } } } }`);
  expect(expected).toEqual({ message: 'first must be between 1 and 1000', extensions: { code: 'BAD_USER_INPUT', field: 'first' } });
  const close = (first: number) => `mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 2) { status credits { purchases(first: ${first}) { purchaseId } } } }`;
  await refusedWhole(close(0), { p: producerId }, expected);
  const closed = await api.gql(close(10), { p: producerId }, asProducer());
  expect(closed.errors).toBeUndefined();
  expect(closed.data!.closeTaxPeriod).toEqual({ status: 'CLOSED', credits: { purchases: [] } });
});

test('fragments, aliases and several root fields are all checked first; a field skipped by @skip is not asked', async () => {
  const year = await queryError(`query($p: ID!) { producer(id: $p) { regime(year: 1999) } }`);
  // In a named fragment, under an alias.
  await refusedWhole(RECORD('{ ...Bought }', ', $y: Int!', 'fragment Bought on Purchase { producer { ok: regime(year: 2026) bad: regime(year: $y) } }'), { i: [purchase()], y: 1999 }, year);
  // The second root field's argument: the first root field does not run either.
  const month = await queryError(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 13) { totalDue } }`);
  await refusedWhole(`mutation($i: [RecordPurchaseInput!]!, $p: ID!) { recordPurchases(input: $i) { id } closeTaxPeriod(producerId: $p, year: 2026, month: 13) { status } }`,
    { i: [purchase()], p: producerId }, month);

  // Skipped, the bad field is not asked: the mutation runs and writes.
  const before = await rows();
  const skipped = await api.gql(RECORD('{ id producer { regime(year: $y) @skip(if: $skip) legalName } }', ', $y: Int!, $skip: Boolean!'), { i: [purchase()], y: 1999, skip: true }, asProducer());
  expect(skipped.errors).toBeUndefined();
  expect(skipped.data!.recordPurchases).toEqual([{ id: expect.any(String), producer: { legalName: 'Usina Argumentos' } }]);
  expect((await rows()).purchases).toBe(before.purchases + 1);
});

test('a root field the caller may not run refuses itself as before (an AUDITOR: FORBIDDEN, not the nested argument)', async () => {
  const before = await rows();
  const res = await api.gql(RECORD('{ id producer { regime(year: 1999) } }'), { i: [purchase()] }, { role: 'AUDITOR' });
  expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
  expect(await rows()).toEqual(before);
});

test('an error that depends on the records stays the selection\'s: NO_RULE_IN_FORCE comes with its path inside the payload, and the write stands', async () => {
  const before = await rows();
  // A special-regime month before Decreto 7.768/2012 has no coefficient rule: data, not the argument's form.
  await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId, regime: 'SPECIAL_PER_M3', electedOn: '2011-11-03' } });
  const res = await api.gql(RECORD('{ id producer { taxPeriod(year: 2012, month: 5) { totalDue } } }'), { i: [purchase()] }, asProducer());
  expect(res.status).toBe(200);
  expect(res.errors).toMatchObject([{ path: ['recordPurchases', 0, 'producer', 'taxPeriod'], extensions: { code: 'NO_RULE_IN_FORCE' } }]);
  expect(res.data!.recordPurchases).toEqual([{ id: expect.any(String), producer: { taxPeriod: null } }]);
  expect((await rows()).purchases).toBe(before.purchases + 1);
});
