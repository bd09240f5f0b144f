import fc from 'fast-check';
import {
  GraphQLArgument, GraphQLInputType, GraphQLSchema, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType,
} from 'graphql';
import { getSchema } from '../../src/graphql/schema';
import { DateScalar, DecimalScalar } from '../../src/graphql/scalars';
import { startTestApi, TestApi } from '../support/api';

/**
 * Property-based bad input (DESIGN §5): for every mutation of the schema, values generated from
 * its argument types — valid-looking and hostile alike — never produce an INTERNAL_SERVER_ERROR
 * or an HTTP 500, and a rejected mutation writes nothing. The schema drives the generators, so a
 * new mutation is fuzzed without a change here.
 */

const TABLES_SQL = `SELECT relname, n_live_tup FROM pg_stat_user_tables`;

const hostileString = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', '0', '-1', '1e309', 'NaN', 'Infinity', '9'.repeat(400), "'; DROP TABLE producer; --", '\u0000', '2025-02-30', '2026-13-01', '99999999999999', '12.ABC.345/01DE-35'),
  fc.stringMatching(/^[0-9]{1,20}$/),
  fc.stringMatching(/^-?[0-9]{1,8}\.[0-9]{1,12}$/),
);
const someDate = fc.oneof(
  fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
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

/** Exact row counts of every table (pg_stat's counters lag, so only its list of tables is used). */
async function tableCounts(api: TestApi): Promise<Map<string, number>> {
  const tables: Array<{ relname: string }> = await api.db.dataSource.query(TABLES_SQL);
  const counts = new Map<string, number>();
  for (const { relname } of tables) {
    if (relname === 'migrations') continue;
    counts.set(relname, await api.count(`SELECT count(*) FROM "${relname}"`));
  }
  return counts;
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
    await fc.assert(
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
  fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)), (d) => {
    expect(() => DecimalScalar.parseValue(d)).toThrow(/string/);
  }), { seed: 7 });
  fc.assert(fc.property(fc.stringMatching(/^-?[1-9][0-9]{0,20}\.[0-9]{1,20}[1-9]$/), (text) => {
    expect(DecimalScalar.serialize(DecimalScalar.parseValue(text))).toBe(text);
  }), { seed: 8 });
  fc.assert(fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }), (d) => {
    const iso = d.toISOString().slice(0, 10);
    expect(DateScalar.parseValue(iso)).toBe(iso);
  }), { seed: 9 });
  for (const bad of ['2025-02-30', '2026-02-29', '2026-00-10', '26-01-01', '2026-1-1', '2026-04-31']) {
    expect(() => DateScalar.parseValue(bad)).toThrow(/calendar date/);
  }
});
