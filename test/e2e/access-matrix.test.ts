import {
  getNamedType, GraphQLArgument, GraphQLField, GraphQLInputObjectType, GraphQLInputType, GraphQLSchema,
  isEnumType, isInputObjectType, isLeafType, isListType, isNonNullType, isScalarType,
} from 'graphql';
import { MUTATION_RULES, QUERY_RULES, Rule, ruleFor } from '../../src/graphql/auth/rules';
import { Role } from '../../src/law/types';
import { getSchema } from '../../src/graphql/schema';
import { Caller, startTestApi, TestApi } from '../support/api';
import { ownAndOtherProducers } from '../support/fixtures';

/**
 * The authorization matrix, enumerated from the schema itself: every Query and Mutation field
 * must have a rule, and each role gets the outcome its rule promises. A new operation without a
 * rule fails here (and is refused for every role at run time).
 */

let api: TestApi;
let schema: GraphQLSchema;
let own: string;
let other: string;

beforeAll(async () => {
  api = await startTestApi();
  schema = await getSchema();
  ({ own, other } = await ownAndOtherProducers(api));
});
afterAll(async () => { await api.close(); });

type Root = 'Query' | 'Mutation';

function rootFields(root: Root): GraphQLField<unknown, unknown>[] {
  const type = root === 'Query' ? schema.getQueryType() : schema.getMutationType();
  return type ? Object.values(type.getFields()) : [];
}

test('every query and mutation of the schema has an authorization rule', () => {
  const missing = (['Query', 'Mutation'] as const).flatMap((root) => rootFields(root).filter((f) => !ruleFor(root, f.name)).map((f) => `${root}.${f.name}`));
  expect(missing).toEqual([]);
});

test('every rule is for an operation the schema has (the table stays exact)', () => {
  const stale = [
    ...Object.keys(QUERY_RULES).filter((name) => !schema.getQueryType()?.getFields()[name]).map((n) => `Query.${n}`),
    ...Object.keys(MUTATION_RULES).filter((name) => !schema.getMutationType()?.getFields()[name]).map((n) => `Mutation.${n}`),
  ];
  expect(stale).toEqual([]);
});

/**
 * the access rules, README "Tokens", written out per operation independently of the rule table: who may call what.
 * shared = every role reads; own = every role reads, a PRODUCER only its own producer's records;
 * write-own = ADMIN, and a PRODUCER for its own producer; write-shared = ADMIN and PRODUCER
 * (new records readable by all, e.g. farmers); admin = ADMIN only (the law, the Selo, reference
 * data, and changing an organization, whose members other producers' figures read);
 * ministry = ADMIN and AUDITOR only (the program as a whole).
 */
const EXPECTED_ACCESS: Record<string, 'shared' | 'own' | 'write-own' | 'write-shared' | 'admin' | 'ministry'> = {
  'Query.municipality': 'shared', 'Query.familyFarmer': 'shared', 'Query.familyFarmers': 'shared',
  'Query.organization': 'shared', 'Query.organizations': 'shared', 'Query.coefficientRules': 'shared',
  'Query.minimumPrices': 'shared', 'Query.rate': 'shared', 'Query.lawParameterVersions': 'shared',
  'Query.lawParameterCatalogue': 'shared',
  'Query.producer': 'own', 'Query.producers': 'own', 'Query.contract': 'own', 'Query.purchase': 'own',
  'Query.sealGrant': 'own', 'Query.sealGrants': 'own', 'Query.regimeElections': 'own', 'Query.taxPeriod': 'own', 'Query.creditBalances': 'own',
  'Query.sealCompliance': 'own', 'Query.sealPlan': 'own', 'Query.auditLog': 'own', 'Query.importContributions': 'own',
  'Query.programOverview': 'ministry',
  'Mutation.upsertMunicipalities': 'admin', 'Mutation.createProducer': 'admin', 'Mutation.grantSeal': 'admin',
  'Mutation.recordSealEvent': 'admin', 'Mutation.publishMinimumPrice': 'admin', 'Mutation.publishCoefficientRule': 'admin',
  'Mutation.publishLawParameter': 'admin', 'Mutation.recordSealEvaluation': 'admin',
  'Mutation.createFamilyFarmer': 'write-shared', 'Mutation.createOrganization': 'write-shared', 'Mutation.updateOrganization': 'admin',
  'Mutation.updateProducer': 'write-own', 'Mutation.electRegime': 'write-own', 'Mutation.createContract': 'write-own',
  'Mutation.recordPurchases': 'write-own', 'Mutation.recordSales': 'write-own', 'Mutation.recordFomento': 'write-own',
  'Mutation.recordImports': 'write-own', 'Mutation.closeTaxPeriod': 'write-own', 'Mutation.reopenTaxPeriod': 'write-own',
  'Mutation.cancelDocument': 'write-own', 'Mutation.recordReturns': 'write-own', 'Mutation.correctPurchase': 'write-own', 'Mutation.correctSale': 'write-own',
  'Mutation.correctImport': 'write-own', 'Mutation.correctFomento': 'write-own',
  'Mutation.recordCreditClaim': 'write-own', 'Mutation.electCreditApportionment': 'write-own', 'Mutation.electIncidenceRegime': 'write-own',
};

test('each operation\'s rule is what the access rules, README "Tokens" says for it', () => {
  const wrong: string[] = [];
  for (const root of ['Query', 'Mutation'] as const) {
    for (const field of rootFields(root)) {
      const key = `${root}.${field.name}`;
      const rule = ruleFor(root, field.name);
      const expected = EXPECTED_ACCESS[key];
      if (!expected) { wrong.push(`${key}: not in this test's table`); continue; }
      if (!rule) continue; // reported by the first test
      const got = rule.roles.length === 1 ? 'admin'
        : rule.kind === 'read' && !rule.roles.includes(Role.PRODUCER) ? 'ministry'
          : rule.kind === 'read' ? (rule.producerSees === 'own' ? 'own' : 'shared')
          : (rule.producerSees === 'own' ? 'write-own' : 'write-shared');
      if (got !== expected || (expected === 'admin' && rule.roles[0] !== Role.ADMIN)) wrong.push(`${key}: rule says ${got}, expected ${expected}`);
    }
  }
  expect(wrong).toEqual([]);
});

test('the rules are consistent: writes are mutations and never open to AUDITOR; queries are reads', () => {
  for (const [name, rule] of Object.entries(MUTATION_RULES)) {
    expect([name, rule.kind]).toEqual([name, 'write']);
    expect(rule.roles).not.toContain('AUDITOR');
  }
  for (const [name, rule] of Object.entries(QUERY_RULES)) {
    // Every query is open to every role, but the program as a whole, which is the ministry's.
    const roles = EXPECTED_ACCESS[`Query.${name}`] === 'ministry' ? ['ADMIN', 'AUDITOR'] : ['ADMIN', 'AUDITOR', 'PRODUCER'];
    expect([name, rule.kind, rule.roles]).toEqual([name, 'read', roles]);
  }
});

test('specific outcomes: AUDITOR writes nothing, PRODUCER cannot touch the law or reference data', async () => {
  const auditor = await api.gql(`mutation { updateProducer(id: "${own}", input: { legalName: "Renamed" }, expectedVersion: 1) { id } }`, {}, { role: 'AUDITOR' });
  expect(auditor.errors?.[0]).toMatchObject({ message: 'AUDITOR reads everything and writes nothing', path: ['updateProducer'], extensions: { code: 'FORBIDDEN' } });
  const producer = await api.gql(`mutation { upsertMunicipalities(input: [{ ibgeCode: "4314902", name: "Porto Alegre", semiarid: false }]) { ibgeCode } }`, {}, { role: 'PRODUCER', producerId: own });
  expect(producer.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  expect(await api.count(`SELECT count(*) FROM municipality WHERE ibge_code = '4314902'`)).toBe(0);
  expect(await api.count(`SELECT count(*) FROM producer WHERE legal_name = 'Renamed'`)).toBe(0);
  // reads of shared data are open to a PRODUCER
  const read = await api.ok('{ municipality(ibgeCode: "2611606") { name } }', {}, { role: 'PRODUCER', producerId: own });
  expect(read.municipality).toEqual({ name: 'Recife' });
  // and its own producer is writable by it
  const renamed = await api.ok(`mutation { updateProducer(id: "${own}", input: { legalName: "Usina Própria S.A." }, expectedVersion: 1) { legalName version } }`, {}, { role: 'PRODUCER', producerId: own });
  expect(renamed.updateProducer).toEqual({ legalName: 'Usina Própria S.A.', version: 2 });
});

test('a PRODUCER may register an organization but not change one: its members decide other producers\' figures (FORBIDDEN, nothing written)', async () => {
  const asOwn = { role: 'PRODUCER' as const, producerId: own };
  const created = await api.ok(`mutation { createOrganization(input: { cnpj: "11444777000161", name: "Coop Comum", kind: COOPERATIVE, municipalityCode: "2611606",
    registrations: [{ kind: CAF, number: "CAF-J-9", validFrom: "2024-01-01", validUntil: "2027-12-31" }], members: 100, familyFarmerMembers: 80 }) { id } }`, {}, asOwn);
  const id = created.createOrganization.id;
  const declarations = () => api.count('SELECT count(*) FROM organization_membership WHERE organization_id = $1', [id]);
  const before = await declarations();
  const refused = await api.gql(`mutation($id: ID!) { updateOrganization(id: $id, input: { familyFarmerMembers: 0, members: 260, membersDeclaredOn: "2025-01-01" }) { id } }`, { id }, asOwn);
  expect(refused.errors?.[0]).toMatchObject({
    message: 'updateOrganization is not allowed for PRODUCER: a PRODUCER writes only its own producer\'s records, and an organization\'s members decide the figures of every producer that buys from it, so only an ADMIN changes an organization',
    path: ['updateOrganization'], extensions: { code: 'FORBIDDEN' },
  });
  expect(refused.data?.updateOrganization ?? null).toBeNull();
  expect(await declarations()).toBe(before);
  expect((await api.ok(`query($id: ID!) { organization(id: $id) { members familyFarmerMembers } }`, { id }, asOwn)).organization).toEqual({ members: 100, familyFarmerMembers: 80 });
  // The ministry's change is made.
  const changed = await api.ok(`mutation($id: ID!) { updateOrganization(id: $id, input: { familyFarmerMembers: 70, members: 100, membersDeclaredOn: "2025-01-01" }) { familyFarmerMembers } }`, { id });
  expect(changed.updateOrganization).toEqual({ familyFarmerMembers: 70 });
});

// ---- type-correct dummy arguments, generated from the schema ----------------------------------

const SCALARS: Record<string, unknown> = {
  ID: '999999999', String: 'x', Int: 1, Float: 1, Boolean: false, Date: '2025-03-15', DateTime: '2025-03-15T12:00:00Z',
  Decimal: '1', CNPJ: '60701190000104', CPF: '52998224725', JSON: {},
};
const BY_NAME: Record<string, unknown> = { year: 2025, month: 3, members: 10, familyFarmerMembers: 8, expectedVersion: 1 };

function dummy(type: GraphQLInputType, name: string, producerPath: string[] | null, producerId: string): unknown {
  if (isNonNullType(type)) return dummy(type.ofType, name, producerPath, producerId);
  if (isListType(type)) return [dummy(type.ofType, name, producerPath && producerPath[0] === '[]' ? producerPath.slice(1) : null, producerId)];
  if (isInputObjectType(type)) return inputObject(type, producerPath, producerId);
  if (producerPath && producerPath.length === 0) return producerId;
  if (/municipalityCode$|ibgeCode$/i.test(name)) return '2611606';
  if (name in BY_NAME && isScalarType(type) && type.name === 'Int') return BY_NAME[name];
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isScalarType(type)) return SCALARS[type.name] ?? 'x';
  return null;
}

function inputObject(type: GraphQLInputObjectType, producerPath: string[] | null, producerId: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of Object.values(type.getFields())) {
    const path = producerPath && producerPath[0] === field.name ? producerPath.slice(1) : null;
    if (isNonNullType(field.type) || path) out[field.name] = dummy(field.type, field.name, path, producerId);
  }
  return out;
}

/** `input[].producerId` → ['input', '[]', 'producerId']. */
function splitPath(path: string): string[] {
  return path.split('.').flatMap((p) => (p.endsWith('[]') ? [p.slice(0, -2), '[]'] : [p]));
}

function operation(root: Root, field: GraphQLField<unknown, unknown>, rule: Rule | undefined, producerId: string) {
  const paths = (rule?.producerArgs ?? []).map(splitPath);
  const variables: Record<string, unknown> = {};
  const used = field.args.filter((a: GraphQLArgument) => isNonNullType(a.type) || paths.some((p) => p[0] === a.name));
  for (const arg of used) {
    const path = paths.find((p) => p[0] === arg.name)?.slice(1) ?? null;
    variables[arg.name] = dummy(arg.type, arg.name, path, producerId);
  }
  const declared = used.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const passed = used.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  const keyword = root === 'Query' ? 'query' : 'mutation';
  return {
    query: `${keyword}${declared ? ` (${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`,
    variables,
  };
}

async function rowsWritten(): Promise<number> {
  const rows: Array<{ n: string }> = await api.db.dataSource.query(
    `SELECT sum((xpath('/row/c/text()', query_to_xml(format('SELECT count(*) AS c FROM %I.%I', table_schema, table_name), false, true, '')))[1]::text::bigint) AS n
       FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'migrations'`,
  );
  return Number(rows[0].n);
}

interface Case { caller: Caller; names: string; expect: 'FORBIDDEN' | 'NOT_FOUND' | 'NOT_REFUSED' }

function casesFor(rule: Rule | undefined): Case[] {
  const roleCase = (role: 'ADMIN' | 'AUDITOR' | 'PRODUCER', names: string): Case => ({
    caller: role === 'PRODUCER' ? { role, producerId: own } : { role },
    names,
    expect: !rule || !rule.roles.includes(role as Role) ? 'FORBIDDEN' : 'NOT_REFUSED',
  });
  const cases = [roleCase('ADMIN', other), roleCase('AUDITOR', other), roleCase('PRODUCER', own)];
  // a PRODUCER naming another producer: NOT_FOUND, exactly as an unknown producer
  if (rule && rule.roles.includes(Role.PRODUCER) && rule.producerArgs.length > 0) {
    cases.push({ caller: { role: 'PRODUCER', producerId: own }, names: other, expect: 'NOT_FOUND' });
  }
  return cases;
}

test('each role gets its rule\'s outcome for every operation; refusals write nothing', async () => {
  const mismatches: string[] = [];
  let checked = 0;
  for (const root of ['Query', 'Mutation'] as const) {
    for (const field of rootFields(root)) {
      const rule = ruleFor(root, field.name);
      for (const c of casesFor(rule)) {
        const { query, variables } = operation(root, field, rule, c.names);
        // An allowed overview stores its computed years after answering: counted once they are.
        await api.app.settled();
        const before = await rowsWritten();
        const res = await api.gql(query, variables, c.caller);
        const code = res.errors?.find((e) => e.path?.[0] === field.name)?.extensions?.code ?? res.errors?.[0]?.extensions?.code ?? 'OK';
        const who = `${root}.${field.name} as ${c.caller.role}${c.caller.role === 'PRODUCER' ? ` naming ${c.names === own ? 'its own' : 'another'} producer` : ''}`;
        checked++;
        if (code === 'GRAPHQL_VALIDATION_FAILED' || code === 'UNAUTHENTICATED' || code === 'INTERNAL_SERVER_ERROR') {
          mismatches.push(`${who}: unexpected ${code} ${res.errors?.[0]?.message}`);
          continue;
        }
        if (c.expect === 'NOT_REFUSED') {
          if (code === 'FORBIDDEN') mismatches.push(`${who}: FORBIDDEN, the rule allows it`);
          // the producer it names exists and is within its scope: it must not be reported missing
          if (res.errors?.some((e) => e.message === `Producer ${c.names} not found`)) mismatches.push(`${who}: an existing producer in scope reported missing`);
          continue;
        }
        if (code !== c.expect) mismatches.push(`${who}: ${code}, expected ${c.expect}`);
        if (c.expect === 'NOT_FOUND' && res.errors?.[0]?.message !== `Producer ${other} not found`) {
          mismatches.push(`${who}: message "${res.errors?.[0]?.message}" is not that of a missing producer`);
        }
        if (JSON.stringify(res.data ?? null).includes('Alheia')) mismatches.push(`${who}: leaked the other producer`);
        if ((await rowsWritten()) !== before) mismatches.push(`${who}: refused but wrote rows`);
      }
    }
  }
  expect(mismatches).toEqual([]);
  expect(checked).toBeGreaterThan(40);
});

test('an operation with no rule is refused for every role, ADMIN included', async () => {
  const { authorize } = await import('../../src/graphql/auth/protect');
  for (const role of ['ADMIN', 'AUDITOR', 'PRODUCER'] as const) {
    expect(() => authorize('Mutation', 'dropEverything', { sub: 's', role: role as Role, producerId: role === 'PRODUCER' ? own : null, requestId: null }, {}))
      .toThrow('Mutation.dropEverything has no authorization rule');
  }
});
