import { createHmac, createSecretKey } from 'node:crypto';
import fc from 'fast-check';
import {
  GraphQLArgument, GraphQLInputType, GraphQLObjectType, GraphQLSchema, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType,
} from 'graphql';
import { ImportKind } from '../../src/import/import-kind';
import { IMPORT_KINDS } from '../../src/import/kinds';
import { getSchema } from '../../src/graphql/schema';
import { DateScalar, DecimalScalar } from '../../src/graphql/scalars';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';
import { checkProperty } from '../support/property';

/**
 * Property-based bad input (docs/API.md "Errors"): for every mutation of the schema, values generated from
 * its argument types — valid-looking and hostile alike — never produce an INTERNAL_SERVER_ERROR
 * or an HTTP 500, and a rejected mutation writes nothing. The schema drives the generators, so a
 * new mutation is fuzzed without a change here. The same holds for forged cursors on every
 * connection, every column of every import (NUL characters, long texts, dates at the calendar's
 * edges) and every claim of a token.
 */

const TABLES_SQL = `SELECT relname, n_live_tup FROM pg_stat_user_tables`;

/** Texts at and over the lengths fields take (255 ids, 500 names, 2000 notes), and a btree entry's (about 2.7 KB). */
const LONG_TEXTS = [255, 256, 500, 501, 2000, 2001, 3000].map((n) => 'é'.repeat(n));
/** Dates at the calendar's edges: the first and last the API reads, the year 0000 and 10000, leap days that are and are not. */
const EDGE_DATES = ['0000-01-01', '0001-01-01', '9999-12-31', '10000-01-01', '0000-02-29', '0004-02-29', '0100-02-29', '1900-02-29', '2000-02-29', '9999-02-29'];
const hostileString = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', '0', '-1', '1e309', 'NaN', 'Infinity', '9'.repeat(400), "'; DROP TABLE producer; --", '\u0000', 'a\u0000b', '\u0001\u001f\u007f', '2025-02-30', '2026-13-01', '99999999999999', '12.ABC.345/01DE-35'),
  fc.constantFrom(...LONG_TEXTS, ...EDGE_DATES),
  fc.string({ minLength: 250, maxLength: 3000 }),
  fc.stringMatching(/^[0-9]{1,20}$/),
  fc.stringMatching(/^-?[0-9]{1,8}\.[0-9]{1,12}$/),
);
const someDate = fc.oneof(
  fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom(...EDGE_DATES),
  hostileString,
);
const someId = fc.oneof(fc.constantFrom('1', '2', '3', '0', '-1', '999999999999999999999', 'abc'), fc.stringMatching(/^[0-9]{1,6}$/));
const someInt = fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constantFrom(2147483647, -2147483648, 0));

function scalarArbitrary(name: string): fc.Arbitrary<unknown> {
  switch (name) {
    case 'Int': return someInt;
    case 'Float': return fc.double();
    case 'Boolean': return fc.boolean();
    case 'ID': return someId;
    case 'Date': return someDate;
    case 'Decimal': return fc.oneof(fc.stringMatching(/^-?[0-9]{1,9}(\.[0-9]{1,6})?$/), fc.integer(), fc.double(), hostileString);
    case 'CPF': return fc.oneof(fc.constantFrom('52998224725', '529.982.247-25', '11111111111'), hostileString);
    case 'CNPJ': return fc.oneof(fc.constantFrom('11222333000181', '11.222.333/0001-81', '12ABC34501DE35', '00000000000000'), hostileString);
    case 'DateTime': return fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), hostileString);
    default: return fc.oneof(hostileString, fc.integer(), fc.constant(null));
  }
}

function arbitraryFor(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return arbitraryFor(type.ofType, depth);
  if (isListType(type)) return fc.array(arbitraryFor(type.ofType, depth + 1), { maxLength: depth > 1 ? 1 : 3 });
  if (isEnumType(type)) return fc.oneof(fc.constantFrom(...type.getValues().map((v) => v.value as string)), fc.constant('NOT_A_VALUE'));
  if (isScalarType(type)) return scalarArbitrary(type.name);
  if (isInputObjectType(type)) {
    const fields = type.getFields();
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, field] of Object.entries(fields)) record[name] = arbitraryFor(field.type, depth + 1);
    // Sometimes a field is left out, sometimes it is null: both must be handled as input errors.
    return fc.record(record, { requiredKeys: [] }).chain((value) =>
      fc.constantFrom('as is', 'null one').map((how) => {
        if (how === 'as is') return value;
        const keys = Object.keys(value);
        return keys.length ? { ...value, [keys[0]]: null } : value;
      }));
  }
  return fc.constant(null);
}

function mutationDocument(name: string, args: readonly GraphQLArgument[]): string {
  const vars = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const pass = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  return `mutation Fuzz${vars ? `(${vars})` : ''} { ${name}${pass ? `(${pass})` : ''} { __typename } }`;
}

/** Exact row counts of every table (pg_stat's counters lag, so only its list of tables is used), in one statement. */
let countsSql: string | null = null;
async function tableCounts(api: TestApi): Promise<Map<string, number>> {
  if (!countsSql) {
    const tables: Array<{ relname: string }> = await api.db.dataSource.query(TABLES_SQL);
    countsSql = `SELECT ${tables.filter((t) => t.relname !== 'migrations').map((t) => `(SELECT count(*) FROM "${t.relname}")::int AS "${t.relname}"`).join(', ')}`;
  }
  const [row]: Array<Record<string, number>> = await api.db.dataSource.query(countsSql);
  return new Map(Object.entries(row));
}

let api: TestApi;
let schema: GraphQLSchema;

beforeAll(async () => {
  api = await startTestApi();
  schema = await getSchema();
  // A little real data, so that generated ids sometimes point at existing records.
  await api.ok(`mutation { upsertMunicipalities(input: [
    { ibgeCode: "2611606", name: "Recife", semiarid: false },
    { ibgeCode: "4314902", name: "Porto Alegre", semiarid: false }]) { ibgeCode } }`);
  await api.ok(`mutation { createProducer(input: { cnpj: "11222333000181", legalName: "Biodiesel Sul", plantMunicipalityCode: "4314902" }) { id } }`);
});
afterAll(async () => { await api.close(); });

test('every mutation survives generated bad input: no internal error, no HTTP 500, nothing written when rejected', async () => {
  const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});
  expect(mutations.length).toBeGreaterThan(1);
  const failures: string[] = [];
  for (const mutation of mutations) {
    const document = mutationDocument(mutation.name, mutation.args);
    const variables = fc.record(Object.fromEntries(mutation.args.map((a) => [a.name, arbitraryFor(a.type)])), { requiredKeys: [] });
    await checkProperty(
      fc.asyncProperty(variables, fc.constantFrom('ADMIN', 'AUDITOR', 'PRODUCER'), async (vars, role) => {
        const before = await tableCounts(api);
        const res = await api.gql(document, vars as Record<string, unknown>, role === 'PRODUCER' ? { role, producerId: '1' } : { role });
        const codes = (res.errors ?? []).map((e) => e.extensions?.code);
        if (res.status >= 500 || codes.includes('INTERNAL_SERVER_ERROR')) {
          failures.push(`${mutation.name} ${JSON.stringify(vars).slice(0, 300)} → ${res.status} ${JSON.stringify(res.errors).slice(0, 300)}`);
          return false;
        }
        if (res.errors?.length) {
          const after = await tableCounts(api);
          for (const [table, n] of before) {
            if (after.get(table) !== n) {
              failures.push(`${mutation.name} was rejected (${codes.join(',')}) yet ${table} went from ${n} to ${after.get(table)}`);
              return false;
            }
          }
        }
        return true;
      }),
      { numRuns: 25, seed: 20261203, endOnFailure: true },
    ).catch((e) => { failures.push(`${mutation.name}: ${String(e).slice(0, 500)}`); });
  }
  expect(failures).toEqual([]);
}, 300_000);

test('scalars: a non-integer number is never taken as a Decimal; decimal strings round-trip exactly; only real dates pass', () => {
  checkProperty(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)), (d) => {
    expect(() => DecimalScalar.parseValue(d)).toThrow(/string/);
  }), { seed: 7 });
  checkProperty(fc.property(fc.stringMatching(/^-?[1-9][0-9]{0,14}\.[0-9]{0,9}[1-9]$/), (text) => {
    expect(DecimalScalar.serialize(DecimalScalar.parseValue(text))).toBe(text);
  }), { seed: 8 });
  // Wider than INPUT_BOUNDS (16 integer digits, 11 decimals): refused, never rounded.
  checkProperty(fc.property(fc.oneof(fc.stringMatching(/^-?[1-9][0-9]{15,30}(\.[0-9]{1,5})?$/), fc.stringMatching(/^-?[0-9]{1,5}\.[0-9]{10,30}[1-9]$/)), (text) => {
    expect(() => DecimalScalar.parseValue(text)).toThrow(/at most 10 decimals/);
  }), { seed: 10 });
  checkProperty(fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }), (d) => {
    const iso = d.toISOString().slice(0, 10);
    expect(DateScalar.parseValue(iso)).toBe(iso);
  }), { seed: 9 });
  for (const bad of ['2025-02-30', '2026-02-29', '2026-00-10', '26-01-01', '2026-1-1', '2026-04-31', '0000-01-01', '0000-02-29', '0100-02-29', '1900-02-29', '10000-01-01']) {
    expect(() => DateScalar.parseValue(bad)).toThrow(/calendar date/);
  }
  for (const good of ['0001-01-01', '0004-02-29', '2000-02-29', '9999-12-31']) expect(DateScalar.parseValue(good)).toBe(good);
});

/** An answer that is ours to fix: an HTTP 500, or an INTERNAL_SERVER_ERROR in a GraphQL body. */
function internal(status: number, body: unknown): boolean {
  return status >= 500 && status !== 503 ? true : JSON.stringify(body ?? null).includes('"INTERNAL_SERVER_ERROR"');
}

test('forged cursors on every connection (root and Producer\'s) are refused as the caller\'s error, never an internal one', async () => {
  const cursorValue = fc.oneof(
    fc.constantFrom(...EDGE_DATES), fc.constantFrom('1', '0', '-1', '01', '9'.repeat(19), '9'.repeat(40), 'a\u0000', '', 'constructor'),
    fc.integer(), fc.double(), fc.constant(null), fc.boolean(), fc.constant({}), fc.constant([1]), fc.string(),
  );
  const cursor = fc.oneof(
    fc.array(cursorValue, { maxLength: 3 }).map((values) => Buffer.from(JSON.stringify(values)).toString('base64url')),
    fc.constantFrom(...LONG_TEXTS, 'not base64', '', '\u0000', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('[').toString('base64url')),
    fc.string(),
  );
  const documents: string[] = [];
  for (const field of Object.values(schema.getQueryType()!.getFields())) {
    if (!field.args.some((a) => a.name === 'after') || field.args.some((a) => a.name !== 'after' && isNonNullType(a.type))) continue;
    documents.push(`query Fuzz($a: String) { ${field.name}(after: $a) { edges { cursor } } }`);
  }
  const producer = schema.getType('Producer') as GraphQLObjectType;
  for (const field of Object.values(producer.getFields())) {
    if (!field.args.some((a) => a.name === 'after') || field.args.some((a) => a.name !== 'after' && isNonNullType(a.type))) continue;
    documents.push(`query Fuzz($a: String) { producers(first: 2) { edges { node { ${field.name}(after: $a) { edges { cursor } } } } } }`);
  }
  expect(documents.length).toBeGreaterThan(5);
  const failures: string[] = [];
  for (const document of documents) {
    await checkProperty(fc.asyncProperty(cursor, fc.constantFrom('ADMIN', 'PRODUCER'), async (after, role) => {
      const res = await api.gql(document, { a: after }, role === 'PRODUCER' ? { role, producerId: '1' } : { role });
      if (internal(res.status, res.errors)) failures.push(`${document} after=${JSON.stringify(after).slice(0, 120)} → ${res.status} ${JSON.stringify(res.errors).slice(0, 200)}`);
      return true;
    }), { numRuns: 20, seed: 20261204 });
  }
  expect(failures).toEqual([]);
}, 300_000);

/** A value of each column that the import takes (the other columns of the row keep theirs while one is made hostile). */
const GOOD_CELLS: Record<string, string> = {
  ibgeCode: '2611606', name: 'Recife', semiarid: 'false', cpf: '52998224725', municipalityCode: '2611606', registrationKind: 'CAF', registrationNumber: 'CAF-1',
  validFrom: '2024-01-01', validUntil: '2027-12-31', purchasedOn: '2026-02-02', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500', supplierKind: 'THIRD_PARTY',
  supplierName: 'Cerealista', originMunicipalityCode: '2611606', soldOn: '2026-02-02', volumeM3: '10', revenue: '60000',
};
/** What each column is given in turn: NUL characters, control characters, long texts, dates at the calendar's edges, numbers out of range. */
const HOSTILE_CELLS = ['\u0000', 'Cerea\u0000lista', '\u0001\u0008\u001b', ...LONG_TEXTS.filter((t) => [256, 501, 2001, 3000].includes(t.length)), '0000-01-01', '0001-01-01', '9999-12-31', '10000-01-01', '0000-02-29', '9'.repeat(30), '-1', '1e309', 'constructor'];

const csvCell = (text: string) => `"${text.replace(/"/g, '""')}"`;

test('every column of every import, given a NUL, a long text, a date at the calendar\'s edge: a 4xx or accepted, never a 500; nothing written when refused', async () => {
  const base = api.url.replace(/\/graphql$/, '');
  const token = await api.token();
  const failures: string[] = [];
  let refusals = 0;
  for (const [kindName, kind] of Object.entries(IMPORT_KINDS) as Array<[string, ImportKind]>) {
    const params = kind.producerScoped ? '?producer=1' : kindName === 'semiarid' ? '?act=Res.%20176%2F2024&validFrom=2024-01-01' : '';
    const names = kind.columns.map((c) => c.name);
    for (const column of names) {
      for (const hostile of HOSTILE_CELLS) {
        const row = names.map((n) => csvCell(n === column ? hostile : (GOOD_CELLS[n] ?? '')));
        const body = `${names.join(',')}\n${row.join(',')}\n`;
        const before = await tableCounts(api);
        const res = await fetch(`${base}/import/${kindName}${params}`, { method: 'POST', headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` }, body });
        const answer = await res.json();
        const where = `${kindName}.${column} = ${JSON.stringify(hostile).slice(0, 40)}`;
        if (internal(res.status, answer)) failures.push(`${where} → ${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
        if (res.status !== 200) {
          refusals++;
          const after = await tableCounts(api);
          for (const [table, n] of before) if (after.get(table) !== n) failures.push(`${where} refused (${res.status}) yet ${table} went from ${n} to ${after.get(table)}`);
        }
      }
    }
  }
  expect(refusals).toBeGreaterThan(100);
  expect(failures).toEqual([]);
}, 300_000);

test('every claim of a token, forged with hostile values: 401 or served as the claims allow, never a 500, on GraphQL and on an import', async () => {
  const base = api.url.replace(/\/graphql$/, '');
  const hostile: unknown[] = ['\u0000', 'a\u0000b', '\u0001', ...LONG_TEXTS.slice(0, 4), 'constructor', '__proto__', 'toString', '01', '-1', '9'.repeat(30), '', 0, -1, 1e308, 1.5, true, null, [], ['ADMIN'], {}, { role: 'ADMIN' }];
  const base64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const key = createSecretKey(Buffer.from(TEST_SECRET, 'utf8'));
  const failures: string[] = [];
  const now = Math.floor(Date.now() / 1000);
  for (const claim of ['sub', 'role', 'producerId', 'iat', 'exp', 'nbf', 'iss', 'aud', 'jti', 'scope']) {
    for (const value of hostile) {
      const payload: Record<string, unknown> = { sub: 'fuzz', role: 'PRODUCER', producerId: '1', iat: now, exp: now + 3600, [claim]: value };
      // Signed by hand, so that any value reaches the server as the claim (a library would refuse some).
      const head = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(payload)}`;
      const token = `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
      const where = `${claim} = ${JSON.stringify(value)?.slice(0, 40)}`;
      const graphql = await fetch(api.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: 'mutation { upsertMunicipalities(input: [{ ibgeCode: "2304400", name: "Fortaleza", semiarid: false }]) { ibgeCode } }' }) });
      const graphqlBody = await graphql.json();
      if (internal(graphql.status, graphqlBody)) failures.push(`GraphQL ${where} → ${graphql.status} ${JSON.stringify(graphqlBody).slice(0, 200)}`);
      const imported = await fetch(`${base}/import/sales?producer=1`, { method: 'POST', headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` }, body: 'soldOn,volumeM3,revenue\n2026-02-03,1,1000\n' });
      const importedBody = await imported.json();
      if (internal(imported.status, importedBody)) failures.push(`import ${where} → ${imported.status} ${JSON.stringify(importedBody).slice(0, 200)}`);
      if (![200, 401, 403, 404].includes(imported.status)) failures.push(`import ${where} → ${imported.status}`);
    }
  }
  expect(failures).toEqual([]);
  // No forged claim made a PRODUCER an ADMIN: the municipality only an ADMIN may write is not there.
  expect(await api.count(`SELECT count(*) FROM municipality WHERE ibge_code = '2304400'`)).toBe(0);
}, 300_000);
