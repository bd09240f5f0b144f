import { AddressInfo } from 'node:net';
import { createSecretKey } from 'node:crypto';
import pino from 'pino';
import { SignJWT } from 'jose';
import { hs256 } from '../../src/graphql/auth/token';
import { createApp, RunningApp } from '../../src/server';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';
import { ownAndOtherProducers, RECIFE } from '../support/fixtures';

/**
 * Names that come from outside (a token's claims, a path, a parameter's value names) are looked up
 * among a table's own entries only: `constructor`, `toString` and `__proto__` are names like any
 * other, never what an object inherits; a token's claims are checked as a whole (the access rules, README "Tokens", §5).
 */
let api: TestApi;
let own: string;
let other: string;
beforeAll(async () => {
  api = await startTestApi();
  ({ own, other } = await ownAndOtherProducers(api));
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, {
    i: [1, 2, 3].map((n) => ({ producerId: own, purchasedOn: `2026-02-0${n}`, feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista', originMunicipalityCode: RECIFE })),
  });
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, {
    i: [{ producerId: other, purchasedOn: '2026-02-01', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista', originMunicipalityCode: RECIFE }],
  });
});
afterAll(async () => { await api.close(); });

function sign(claims: Record<string, unknown>, sub: string | null = 'someone') {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h');
  if (sub !== null) jwt.setSubject(sub);
  return jwt.sign(createSecretKey(Buffer.from(TEST_SECRET, 'utf8')));
}

async function graphql(url: string, token: string, query: string) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query }) });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };
}

async function upload(path: string, token: string, csv: string) {
  const res = await fetch(`${api.url.replace(/\/graphql$/, '')}${path}`, { method: 'POST', headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` }, body: csv });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

const PURCHASES_CSV = 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode\n2026-03-01,SOYBEAN,1000,2500,THIRD_PARTY,Cerealista,2611606\n';
const purchaseCount = () => api.count('SELECT count(*) FROM purchase');

test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])('a token whose role is %s is refused (UNAUTHENTICATED) on GraphQL and on /import, and writes nothing', async (role) => {
  const token = await sign({ role, producerId: own });
  const read = await graphql(api.url, token, '{ producers { totalCount } }');
  expect([read.status, read.body.errors?.[0].extensions?.code, read.body.errors?.[0].message]).toEqual([401, 'UNAUTHENTICATED', 'The token role must be ADMIN, AUDITOR or PRODUCER']);
  expect(read.body.data ?? null).toBeNull();
  const before = await purchaseCount();
  const imported = await upload(`/import/purchases?producer=${other}`, token, PURCHASES_CSV);
  expect([imported.status, imported.body.error?.code]).toEqual([401, 'UNAUTHENTICATED']);
  expect(await purchaseCount()).toBe(before);
});

test('a token subject with a NUL or another control character, a direction override or isolate, a lone surrogate, nothing visible, or longer than 255 characters, is refused (401), not a 500 on the audit entry it would write', async () => {
  // As every text input (src/formats/control-characters.ts): "\u202Eadmin" shows as "nimda" reversed in an audit log.
  for (const sub of ['tax\u0000team', 'line\nbreak', '\u202Eadmin', 'embed\u202Aed', 'iso\u2066late', 'half\ud800', '\udc00tail', 'x'.repeat(256), ' ', '\u200b', '\u00a0\u2003']) {
    const token = await sign({ role: 'ADMIN' }, sub);
    const res = await graphql(api.url, token, 'mutation { upsertMunicipalities(input: [{ ibgeCode: "4314902", name: "Porto Alegre", semiarid: false }]) { ibgeCode } }');
    expect([res.status, res.body.errors?.[0].extensions?.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect(res.body.errors?.[0].message).toBe('The token subject (sub) must be visible text of 1 to 255 characters without control characters, direction overrides or isolates (U+202A to U+202E, U+2066 to U+2069) or lone surrogates');
  }
  expect(await api.count(`SELECT count(*) FROM municipality WHERE ibge_code = '4314902'`)).toBe(0);
  expect(await api.count(`SELECT count(*) FROM audit_entry WHERE actor <> 'test-admin'`)).toBe(0);
  // A whole pair of surrogates is one character (an emoji), and a right-to-left script is text.
  for (const sub of ['equipe \u{1F33B}', '\u05D0\u05D1']) {
    expect((await graphql(api.url, await sign({ role: 'AUDITOR' }, sub), '{ producers { totalCount } }')).body.data).toEqual({ producers: { totalCount: 2 } });
  }
  // 255 characters, accents included, are a subject.
  const longest = await graphql(api.url, await sign({ role: 'AUDITOR' }, 'á'.repeat(255)), '{ producers { totalCount } }');
  expect(longest.body.data).toEqual({ producers: { totalCount: 2 } });
});

test('claims of the wrong type are refused as a whole: a number as producerId, a list as role, an object as sub, a number as jti', async () => {
  const cases: Array<[Record<string, unknown>, string | null, RegExp]> = [
    [{ role: 'PRODUCER', producerId: Number(own) }, 'someone', /needs a producerId/],
    [{ role: ['ADMIN'] }, 'someone', /role must be/],
    [{ role: 'ADMIN', sub: { id: 1 } }, null, /not valid|subject/],
    [{ role: 'ADMIN', jti: 5 }, 'someone', /not valid/],
  ];
  for (const [claims, sub, message] of cases) {
    const res = await graphql(api.url, await sign(claims, sub), '{ producers { totalCount } }');
    expect([res.status, res.body.errors?.[0].extensions?.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect(res.body.errors?.[0].message).toMatch(message);
  }
});

describe('a producerId written with leading zeros', () => {
  let plain: RunningApp;
  let plainUrl: string;
  beforeAll(async () => {
    plain = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), compiledReads: false });
    await new Promise<void>((resolve) => plain.httpServer.listen(0, '127.0.0.1', resolve));
    plainUrl = `http://127.0.0.1:${(plain.httpServer.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => { await plain.stop(); });

  test('is the same producer on the compiled reads and on the resolvers: its own three purchases, nobody else\'s', async () => {
    const token = await sign({ role: 'PRODUCER', producerId: `00${own}` });
    const query = '{ producers { totalCount edges { node { id purchases(first: 10) { totalCount } } } } }';
    const expected = { producers: { totalCount: 1, edges: [{ node: { id: own, purchases: { totalCount: 3 } } }] } };
    expect((await graphql(api.url, token, query)).body).toEqual({ data: expected });
    expect((await graphql(plainUrl, token, query)).body).toEqual({ data: expected });
    // The other producer, named with its own zeros, is out of reach as any other.
    const res = await graphql(api.url, token, `{ producer(id: "${other}") { id } }`);
    expect(res.body.data).toEqual({ producer: null });
  });

  test('imports for its own producer, whichever way the token writes the id', async () => {
    const before = await purchaseCount();
    const res = await upload(`/import/purchases?producer=${own}`, await sign({ role: 'PRODUCER', producerId: `0${own}` }), PURCHASES_CSV);
    expect([res.status, res.body.error]).toEqual([200, undefined]);
    expect(await api.count('SELECT count(*) FROM purchase WHERE producer_id = $1', [own])).toBe(4);
    expect(await purchaseCount()).toBe(before + 1);
  });
});

test('a law parameter value named constructor or __proto__ is an unknown value, not "given twice" nor dropped', async () => {
  const PUBLISH = 'mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }';
  const versions = await api.count('SELECT count(*) FROM law_parameter_version');
  for (const name of ['constructor', '__proto__', 'toString']) {
    const res = await api.gql(PUBLISH, { i: {
      parameter: 'weighting-factor', scope: 'FOMENTO', values: [{ name: 'factor', value: '2' }, { name, value: '1' }], validFrom: '2027-01-01', validUntil: null,
      publishedOn: '2026-06-02', legalBasis: 'Portaria (test), art. 1º',
    } });
    expect([name, res.errors?.[0].extensions?.code, res.errors?.[0].extensions?.field]).toEqual([name, 'BAD_USER_INPUT', 'input.values[1].name']);
    expect(res.errors?.[0].message).toBe(`weighting-factor has no value "${name}"; it has: factor`);
  }
  expect(await api.count('SELECT count(*) FROM law_parameter_version')).toBe(versions);
});
