import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { hs256 } from '../../src/graphql/auth/token';
import { today } from '../../src/law/dates';
import { createApp, RunningApp } from '../../src/server';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';
import { createProducer, newCpf, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * Input at the edges that once reached PostgreSQL and came back as internal errors: each is now the
 * caller's error with its field (docs/API.md "Errors"), or, when the database could not finish in time, a
 * retryable DATABASE_BUSY (HTTP 503 with Retry-After). Nothing is written in either case.
 */
let api: TestApi;
let producerId: string;
const cursor = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
const purchaseCount = () => api.count('SELECT count(*) FROM purchase');
const RECORD = 'mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id externalId supplierName } }';
const lot = (extra: Record<string, unknown> = {}) => ({
  producerId, purchasedOn: '2026-02-01', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista', originMunicipalityCode: RECIFE, ...extra,
});

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  producerId = await createProducer(api, 'Usina Bordas');
  await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, { i: { cpf: newCpf(), name: 'Agricultora', municipalityCode: RECIFE, registrations: [] } });
  await api.ok(RECORD, { i: [lot()] });
});
afterAll(async () => { await api.close(); });

const base = () => api.url.replace(/\/graphql$/, '');
async function upload(path: string, csv: string) {
  const res = await fetch(`${base()}${path}`, { method: 'POST', headers: { 'content-type': 'text/csv', authorization: `Bearer ${await api.token()}` }, body: csv });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { error?: { code: string; message: string; line?: number; column?: string } } };
}

describe('cursors', () => {
  test.each(['producers', 'familyFarmers', 'organizations'])('a date-shaped or otherwise foreign after on %s is BAD_USER_INPUT naming after, on the compiled reads and on the resolvers', async (root) => {
    const plain = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), compiledReads: false });
    await new Promise<void>((resolve) => plain.httpServer.listen(0, '127.0.0.1', resolve));
    const plainUrl = `http://127.0.0.1:${(plain.httpServer.address() as AddressInfo).port}/graphql`;
    const token = await api.token();
    try {
      for (const url of [api.url, plainUrl]) {
        for (const after of [cursor(['2026-01-01']), cursor(['0000-01-01']), cursor([-1]), cursor(['1', '2']), cursor([1e20]), 'not base64 at all', cursor([{}]), cursor(['producer', -1]), cursor(['farmer', 1e20]), cursor(['organization', '1'])]) {
          const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: `query($a: String) { ${root}(first: 5, after: $a) { totalCount } }`, variables: { a: after } }) });
          const body = await res.json() as any;
          expect([root, after, res.status, body.errors?.[0].extensions?.code, body.errors?.[0].extensions?.field]).toEqual([root, after, 200, 'BAD_USER_INPUT', 'after']);
        }
      }
    } finally {
      await plain.stop();
    }
  });

  test('a purchases cursor with the year 0000 or a day that does not exist is BAD_USER_INPUT; a real one pages', async () => {
    for (const after of [cursor(['purchase', '0000-01-01', '1']), cursor(['purchase', '2026-02-30', '1']), cursor(['purchase', '10000-01-01', '1'])]) {
      const res = await api.gql(`query($p: ID!, $a: String) { producer(id: $p) { purchases(after: $a) { totalCount } } }`, { p: producerId, a: after });
      expect([after, res.errors?.[0].extensions?.code]).toEqual([after, 'BAD_USER_INPUT']);
    }
    const page = await api.ok(`query($p: ID!, $a: String) { producer(id: $p) { purchases(after: $a) { edges { node { purchasedOn } } } } }`, { p: producerId, a: cursor(['purchase', '0001-01-01', '0']) });
    expect(page.producer.purchases.edges).toEqual([{ node: { purchasedOn: '2026-02-01' } }]);
  });
});

describe('dates at the calendar\'s edges', () => {
  test('0001-01-01 to 9999-12-31 are dates (leap years of the first century too); 0000-01-01 is not, and the error says which dates are', async () => {
    const Q = `query($p: ID!, $f: Date, $t: Date) { producer(id: $p) { purchases(from: $f, to: $t) { totalCount } } }`;
    expect((await api.ok(Q, { p: producerId, f: '0001-01-01', t: '9999-12-31' })).producer.purchases.totalCount).toBe(1);
    expect((await api.ok(Q, { p: producerId, f: '0004-02-29', t: null })).producer.purchases.totalCount).toBe(1);
    for (const bad of ['0000-01-01', '0000-02-29', '0100-02-29', '10000-01-01']) {
      const res = await api.gql(Q, { p: producerId, f: bad, t: null });
      expect([bad, res.errors?.[0].extensions?.code]).toEqual([bad, 'BAD_USER_INPUT']);
      expect(res.errors?.[0].message).toContain('from 0001-01-01 to 9999-12-31');
    }
    const before = await purchaseCount();
    const res = await api.gql(RECORD, { i: [lot({ purchasedOn: '0000-01-01' })] });
    expect(res.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(await purchaseCount()).toBe(before);
  });

  test('an import cell dated 0000-01-01 is refused at its line and column', async () => {
    const res = await upload(`/import/purchases?producer=${producerId}`, 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode\n0000-01-01,SOYBEAN,10,25,THIRD_PARTY,X,2611606\n');
    expect([res.status, res.body.error?.code, res.body.error?.line, res.body.error?.column]).toEqual([400, 'BAD_USER_INPUT', 2, 'purchasedOn']);
    expect(res.body.error?.message).toContain('from 0001-01-01 to 9999-12-31');
  });

  test('electRegime takes dates from Lei 11.116/2005 to the end of next year, and says why', async () => {
    const ELECT = 'mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }';
    const nextYearEnd = `${Number(today().slice(0, 4)) + 1}-12-31`;
    const afterIt = `${Number(today().slice(0, 4)) + 2}-01-01`;
    for (const electedOn of ['9999-12-31', afterIt, '2005-05-17', '0001-01-01']) {
      const res = await api.gql(ELECT, { i: { producerId, regime: 'SPECIAL_PER_M3', electedOn } });
      expect([electedOn, res.errors?.[0].extensions?.code, res.errors?.[0].extensions?.field]).toEqual([electedOn, 'BAD_USER_INPUT', 'input.electedOn']);
      expect(res.errors?.[0].message).toBe(`input.electedOn must be from 2005-05-18 to ${nextYearEnd}: the election was created by Lei 11.116/2005 (art. 4º), and it is made by November for the next year (art. 4º §1º), so a later date is not an election made yet`);
    }
    expect(await api.count('SELECT count(*) FROM regime_election')).toBe(0);
    expect((await api.ok(ELECT, { i: { producerId, regime: 'SPECIAL_PER_M3', electedOn: '2005-05-18' } })).electRegime.effectiveYear).toBe(2006);
    expect((await api.ok(ELECT, { i: { producerId, regime: 'AD_VALOREM', electedOn: nextYearEnd } })).electRegime.effectiveYear).toBe(Number(nextYearEnd.slice(0, 4)) + 2);
  });
});

describe('text lengths and NUL characters', () => {
  test('an externalId over 255 characters, a supplierName over 500, a legal name over 500: BAD_USER_INPUT naming the field, nothing written', async () => {
    const before = await purchaseCount();
    const long = await api.gql(RECORD, { i: [lot(), lot({ externalId: 'k'.repeat(3000) })] });
    expect([long.errors?.[0].extensions?.code, long.errors?.[0].extensions?.field]).toEqual(['BAD_USER_INPUT', 'input[1].externalId']);
    expect(long.errors?.[0].message).toBe('input[1].externalId must be at most 255 characters long (it has 3000)');
    const name = await api.gql(RECORD, { i: [lot({ supplierName: 'n'.repeat(501) })] });
    expect(name.errors?.[0].extensions?.field).toBe('input[0].supplierName');
    // A literal in the document is checked as a variable is.
    const literal = await api.gql(`mutation { createProducer(input: { cnpj: "11444777000161", legalName: "${'L'.repeat(501)}", plantMunicipalityCode: "${RECIFE}" }) { id } }`);
    expect([literal.errors?.[0].extensions?.code, literal.errors?.[0].extensions?.field]).toEqual(['BAD_USER_INPUT', 'input.legalName']);
    expect(await purchaseCount()).toBe(before);
    expect(await api.count('SELECT count(*) FROM producer')).toBe(1);
    // At the limits, accepted.
    const atLimit = await api.ok(RECORD, { i: [lot({ externalId: 'é'.repeat(255), supplierName: 'ç'.repeat(500) })] });
    expect([atLimit.recordPurchases[0].externalId.length, atLimit.recordPurchases[0].supplierName.length]).toEqual([255, 500]);
  });

  test('in an import: a cell over its length, or holding a NUL, is refused at its line and column (400), nothing written', async () => {
    const before = await purchaseCount();
    const header = 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode,externalId';
    const long = await upload(`/import/purchases?producer=${producerId}`, `${header}\n2026-03-01,SOYBEAN,10,25,THIRD_PARTY,X,2611606,a\n2026-03-02,SOYBEAN,10,25,THIRD_PARTY,X,2611606,${'k'.repeat(3000)}\n`);
    expect([long.status, long.body.error?.code, long.body.error?.line, long.body.error?.column]).toEqual([400, 'BAD_USER_INPUT', 3, 'externalId']);
    expect(long.body.error?.message).toContain('must be at most 255 characters long (it has 3000)');
    const name = await upload(`/import/purchases?producer=${producerId}`, `${header}\n2026-03-01,SOYBEAN,10,25,THIRD_PARTY,${'n'.repeat(501)},2611606,b\n`);
    expect([name.status, name.body.error?.column]).toEqual([400, 'supplierName']);
    const nul = await upload(`/import/purchases?producer=${producerId}`, `${header}\n2026-03-01,SOYBEAN,10,25,THIRD_PARTY,Cerea\u0000lista,2611606,c\n`);
    expect([nul.status, nul.body.error?.code, nul.body.error?.line, nul.body.error?.column]).toEqual([400, 'BAD_USER_INPUT', 2, 'supplierName']);
    expect(nul.body.error?.message).toContain('NUL character');
    expect(await purchaseCount()).toBe(before);
  });
});

describe('numbers wider than a computation keeps exact', () => {
  // Below 10^15 with at most 10 decimals (src/law/decimal.ts, INPUT_BOUNDS): within it the year's sums stay
  // inside decimal.js's 34 digits; a wider number was stored whole and then computed rounded.
  const quantity = async (value: unknown) => api.gql(RECORD, { i: [lot(), lot({ quantityKg: value })] });

  test('a Decimal with 16 integer digits or 11 decimals is BAD_USER_INPUT, as a variable or a literal; nothing written', async () => {
    const before = await purchaseCount();
    for (const wide of ['1000000000000000', '-1000000000000000', '0.00000000001', '1.00000000001', 1_000_000_000_000_000, '9'.repeat(200)]) {
      const res = await quantity(wide);
      expect([String(wide).slice(0, 20), res.errors?.[0].extensions?.code]).toEqual([String(wide).slice(0, 20), 'BAD_USER_INPUT']);
      expect(res.errors?.[0].message).toContain('must be below 1000000000000000 (15 digits) with at most 10 decimals');
    }
    // The refused number is repeated shortened by its own message (a text over 255 characters is refused as too long before).
    const long = await quantity('9'.repeat(200));
    expect(long.errors?.[0].message).toContain(`"${'9'.repeat(40)}… (200 characters)"`);
    const literal = await api.gql(`mutation { recordPurchases(input: [{ producerId: "${producerId}", purchasedOn: "2026-02-01", feedstock: SOYBEAN, quantityKg: 1000000000000000, cost: "2500", supplierKind: THIRD_PARTY, supplierName: "C", originMunicipalityCode: "${RECIFE}" }]) { id } }`);
    expect(literal.errors?.[0].message).toContain('must be below 1000000000000000 (15 digits)');
    expect(await purchaseCount()).toBe(before);
  });

  test('at the bounds, and with zeros that add no digit, a number is taken and kept to its last digit', async () => {
    const taken = await api.ok('mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { quantityKg cost } }', {
      i: [lot({ quantityKg: '999999999999999.9999999999', cost: '000000000000001234.5000000000000' }), lot({ quantityKg: 999_999_999_999_999, cost: '0.0000000001' })],
    });
    expect(taken.recordPurchases).toEqual([
      { quantityKg: '999999999999999.9999999999', cost: '1234.50' },
      { quantityKg: '999999999999999.000', cost: '0.0000000001' },
    ]);
  });

  test('in an import, a wider number is refused at its line and column, in either notation; nothing written', async () => {
    const before = await purchaseCount();
    const header = 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode';
    const wide = await upload(`/import/purchases?producer=${producerId}`, `${header}\n2026-03-01,SOYBEAN,10,25,THIRD_PARTY,X,2611606\n2026-03-02,SOYBEAN,10,1000000000000000.00,THIRD_PARTY,X,2611606\n`);
    expect([wide.status, wide.body.error?.code, wide.body.error?.line, wide.body.error?.column]).toEqual([400, 'BAD_USER_INPUT', 3, 'cost']);
    expect(wide.body.error?.message).toContain('must be below 1000000000000000 (15 digits) with at most 10 decimals, got "1000000000000000.00"');
    const brazilian = await upload(`/import/purchases?producer=${producerId}&locale=pt-BR`, `${header.replaceAll(',', ';')}\n2026-03-01;SOYBEAN;10;0,00000000001;THIRD_PARTY;X;2611606\n`);
    expect([brazilian.status, brazilian.body.error?.line, brazilian.body.error?.column]).toEqual([400, 2, 'cost']);
    expect(await purchaseCount()).toBe(before);
    const atBounds = await upload(`/import/purchases?producer=${producerId}`, `${header}\n2026-03-03,SOYBEAN,999999999999999.9999999999,0.0000000001,THIRD_PARTY,X,2611606\n`);
    expect(atBounds.status).toBe(200);
    expect(await api.count(`SELECT count(*) FROM purchase WHERE quantity_kg = 999999999999999.9999999999 AND cost = 0.0000000001`)).toBe(1);
  });
});

describe('control characters and direction overrides', () => {
  // A line break in a name would put records of its own in the EFD draft; an override reverses what a person reads.
  const FORGED = 'Planalto\r\n|M200|0|0|0|0|0|0|0|0|0|0|0|0|';
  test.each([
    ['a line break in a legal name (variable)', { i: { cnpj: '11444777000161', legalName: FORGED, plantMunicipalityCode: RECIFE } }, 'input.legalName', 'U+000D'],
    ['a tab in a legal name', { i: { cnpj: '11444777000161', legalName: 'Usina\tTab', plantMunicipalityCode: RECIFE } }, 'input.legalName', 'U+0009'],
    ['a C1 control (NEL)', { i: { cnpj: '11444777000161', legalName: 'Usina\u0085Nel', plantMunicipalityCode: RECIFE } }, 'input.legalName', 'U+0085'],
    ['a right-to-left override', { i: { cnpj: '11444777000161', legalName: 'Usina \u202Eetnatsiser', plantMunicipalityCode: RECIFE } }, 'input.legalName', 'U+202E'],
    ['a first-strong isolate', { i: { cnpj: '11444777000161', legalName: 'Usina \u2068x\u2069', plantMunicipalityCode: RECIFE } }, 'input.legalName', 'U+2068'],
  ])('GraphQL: %s is BAD_USER_INPUT naming the field, nothing written', async (_what, variables, field, character) => {
    const res = await api.gql('mutation($i: CreateProducerInput!) { createProducer(input: $i) { id } }', variables);
    expect(res.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field });
    expect(res.errors?.[0].message).toBe(`${field} contains a control character (${character}): line breaks, tabs, other control characters and direction overrides are refused`);
    expect(await api.count('SELECT count(*) FROM producer')).toBe(1);
  });

  test.each([
    ['a high surrogate alone', 'Usina \ud83c Sol', 'U+D83C'],
    ['a low surrogate alone', 'Usina \udf31 Sol', 'U+DF31'],
    ['a low surrogate before its high one', 'Usina \udf31\ud83c', 'U+DF31'],
  ])('GraphQL: half a character (%s) in a variable is BAD_USER_INPUT naming the field, nothing written', async (_what, legalName, character) => {
    const res = await api.gql('mutation($i: CreateProducerInput!) { createProducer(input: $i) { id } }', { i: { cnpj: '11444777000161', legalName, plantMunicipalityCode: RECIFE } });
    expect(res.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input.legalName' });
    expect(res.errors?.[0].message).toBe(`input.legalName contains half a character (${character}, a UTF-16 surrogate without its pair), which no text can hold`);
    expect(await api.count('SELECT count(*) FROM producer')).toBe(1);
  });

  test('GraphQL: in a literal of the document, and in a batch at its item', async () => {
    const literal = await api.gql(`mutation { createProducer(input: { cnpj: "11444777000161", legalName: "Planalto\\n|M200|", plantMunicipalityCode: "${RECIFE}" }) { id } }`);
    expect(literal.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input.legalName' });
    const before = await purchaseCount();
    const batch = await api.gql(RECORD, { i: [lot(), lot({ supplierName: 'Cerealista\u202E' })] });
    expect(batch.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input[1].supplierName' });
    expect(await purchaseCount()).toBe(before);
    // Printable text of every script passes.
    const fine = await api.ok(RECORD, { i: [lot({ supplierName: 'Cerealista São João — ação 🌱 עברית' })] });
    expect(fine.recordPurchases[0].supplierName).toBe('Cerealista São João — ação 🌱 עברית');
  });

  test('import: a cell holding one is refused at its line and column (400), by the same check, nothing written', async () => {
    const before = await purchaseCount();
    const header = 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode,externalId';
    const forged = await upload(`/import/purchases?producer=${producerId}`, `${header}\n2026-03-01,SOYBEAN,10,25,THIRD_PARTY,X,2611606,ok\n2026-03-01,SOYBEAN,10,25,THIRD_PARTY,"${FORGED}",2611606,d\n`);
    expect([forged.status, forged.body.error?.code, forged.body.error?.column]).toEqual([400, 'BAD_USER_INPUT', 'supplierName']);
    // The record starts on line 3; the line told is the parser's, counted after the quoted break.
    expect(forged.body.error?.line).toBeGreaterThanOrEqual(3);
    expect(forged.body.error?.message).toContain('the cell holds a control character (U+000D)');
    const override = await upload(`/import/purchases?producer=${producerId}`, `${header}\n2026-03-01,SOYBEAN,10,25,THIRD_PARTY,Cerealista\u202E,2611606,e\n`);
    expect([override.status, override.body.error?.line, override.body.error?.column]).toEqual([400, 2, 'supplierName']);
    expect(override.body.error?.message).toContain('U+202E');
    expect(await purchaseCount()).toBe(before);
  });

});

describe('a statement cancelled or a lock not had in time', () => {
  let busyDs: DataSource;
  let busy: RunningApp;
  let busyUrl: string;
  let locker: Client;
  beforeAll(async () => {
    // This database's sessions give up a lock after 300 ms (55P03); the API's statements are cancelled after 150 ms (57014).
    const name = new URL(api.db.url).pathname.slice(1);
    await api.db.dataSource.query(`ALTER DATABASE ${name} SET lock_timeout = '300ms'`);
    busyDs = createDataSource({ url: api.db.url, poolSize: 2 });
    await busyDs.initialize();
    busy = await createApp({ dataSource: busyDs, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }) });
    await new Promise<void>((resolve) => busy.httpServer.listen(0, '127.0.0.1', resolve));
    busyUrl = `http://127.0.0.1:${(busy.httpServer.address() as AddressInfo).port}`;
    locker = new Client({ connectionString: api.db.url });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end();
    await busy.stop();
    if (busyDs.isInitialized) await busyDs.destroy();
  });

  async function whileLocked<T>(table: string, work: () => Promise<T>): Promise<T> {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    try {
      return await work();
    } finally {
      await locker.query('ROLLBACK');
    }
  }

  test('lock_timeout (55P03) on GraphQL and on /import: DATABASE_BUSY, 503 with Retry-After, nothing written', async () => {
    const before = await purchaseCount();
    const token = await api.token();
    const [graphql, imported] = await whileLocked('producer', async () => {
      const g = await fetch(`${busyUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: '{ producers { totalCount } }' }) });
      const i = await fetch(`${busyUrl}/import/purchases?producer=${producerId}`, { method: 'POST', headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` }, body: 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode\n2026-03-01,SOYBEAN,10,25,THIRD_PARTY,X,2611606\n' });
      return [{ status: g.status, retry: g.headers.get('retry-after'), body: await g.json() as any }, { status: i.status, retry: i.headers.get('retry-after'), body: await i.json() as any }];
    });
    expect([graphql.status, graphql.retry, graphql.body.errors?.[0].extensions?.code]).toEqual([503, '2', 'DATABASE_BUSY']);
    expect(graphql.body.errors?.[0].message).toMatch(/could not finish the request now/);
    expect([imported.status, imported.retry, imported.body.error?.code]).toEqual([503, '2', 'DATABASE_BUSY']);
    expect(await purchaseCount()).toBe(before);
    // Once the lock is gone, the same request passes.
    const again = await fetch(`${busyUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: '{ producers { totalCount } }' }) });
    expect(await again.json()).toEqual({ data: { producers: { totalCount: 1 } } });
  });

  test('a cancelled statement (57014, statement_timeout) is DATABASE_BUSY, 503 with Retry-After', async () => {
    const cancelling = createDataSource({ url: api.db.url, poolSize: 1, statementTimeoutMs: 150 });
    await cancelling.initialize();
    const app = await createApp({ dataSource: cancelling, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }) });
    await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}/graphql`;
      const token = await api.token();
      const res = await whileLocked('purchase', () => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: `{ producer(id: "${producerId}") { purchases { totalCount } } }` }) }));
      const body = await res.json() as any;
      expect([res.status, res.headers.get('retry-after'), body.errors?.[0].extensions?.code]).toEqual([503, '2', 'DATABASE_BUSY']);
    } finally {
      await app.stop();
      if (cancelling.isInitialized) await cancelling.destroy();
    }
  });
});
