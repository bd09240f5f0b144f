import fc from 'fast-check';
import { FragmentDefinitionNode, Kind, OperationDefinitionNode, parse as parseGraphql, SelectionNode, SelectionSetNode, ValueNode } from 'graphql';
import { NESTED_PAGE_QUERY } from '../../bench/run';
import { createLoaders } from '../../src/graphql/loaders';
import { Decimal } from '../../src/law/decimal';
import { Role } from '../../src/law/types';
import { createServices } from '../../src/services';
import { Caller, startTestApi, TestApi } from '../support/api';
import { BIG, BIG_PURCHASES, buildPlan, dump, EVERY_KIND, FEW, NONE, ONE, Plan, RENAMED, seed, Seeded } from './compiled-reads.fixtures';
import { checkProperty } from '../support/property';
import { today } from '../../src/law/dates';

/**
 * The compiled read path (src/graphql/compiled/: a read of the supported shape answered by one SQL
 * statement that builds the response JSON) against graphql-js execution: two servers, one with
 * compiled reads and one without, each on its own database holding the same rows with the same
 * ids, must answer every request with the same HTTP status and the same body, byte for byte —
 * hand-written reads, rejected arguments, every role, requests the compiled path must decline,
 * and generated selections. And the compiled path must really answer the requests it supports:
 * one SQL statement for the whole request, whatever its size.
 */

let fast: TestApi;
let slow: TestApi;
let plan: Plan;
let ids: Seeded;
let seededSlow: Seeded;
let dumps: { fast: string; slow: string };

beforeAll(async () => {
  [fast, slow] = await Promise.all([startTestApi(), startTestApi({ compiledReads: false })]);
  plan = buildPlan();
  [ids, seededSlow] = await Promise.all([seed(fast, plan), seed(slow, plan)]);
  dumps = { fast: await dump(fast), slow: await dump(slow) };
}, 60_000);
afterAll(async () => { await Promise.all([fast?.close(), slow?.close()]); });

// ---------------------------------------------------------------------------------------------
// Sending one request to both servers and comparing the answers.

/** A caller (token signed for it), no token at all, or an Authorization header as given. */
type Who = Caller | null | { header: string };
const ADMIN: Caller = { role: 'ADMIN' };
const AUDITOR: Caller = { role: 'AUDITOR' };

interface Raw { status: number; contentType: string | null; body: string }
interface Request { query: string; variables?: Record<string, unknown>; operationName?: string; as?: Who }
interface Outcome { fast: Raw; slow: Raw; fastStatements: number; slowStatements: number; fastSql: string[]; difference: string | null }

async function authorization(who: Who): Promise<string | null> {
  if (who === null) return null;
  if ('header' in who) return who.header;
  return `Bearer ${await fast.token(who)}`;
}

async function post(api: TestApi, body: string, auth: string | null): Promise<Raw> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth !== null) headers.authorization = auth;
  const res = await fetch(api.url, { method: 'POST', headers, body });
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
}

/** Where two bodies first differ, with some text of each around it. */
function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 80), i + 120));
  return `bodies differ at character ${i} (lengths ${a.length} and ${b.length}):\n    compiled: …${around(a)}…\n    graphql-js: …${around(b)}…`;
}

/**
 * A non-null root field that fails nulls the whole data, and graphql-js answers at once with the
 * errors recorded so far: which other root fields' errors made it in is a matter of timing. The
 * compiled path waits for every root field and gives all their errors in the order of the root
 * fields. So when both answers are `data: null`, every error graphql-js gave must be in the
 * compiled answer, unchanged.
 */
function nulledAlike(fastBody: string, slowBody: string): boolean {
  const f = JSON.parse(fastBody);
  const s = JSON.parse(slowBody);
  if (f.data !== null || s.data !== null || !f.errors || !s.errors) return false;
  const given = new Set((f.errors as unknown[]).map((e) => JSON.stringify(e)));
  return (s.errors as unknown[]).every((e) => given.has(JSON.stringify(e)));
}

let lastHadErrors = false;

/**
 * The statements that read: a PRODUCER's compiled read runs in the transaction that sets its
 * row-level security scope (src/services/compiled-read.service.ts), whose framing reads nothing.
 */
const FRAMING = /^(START TRANSACTION|COMMIT|ROLLBACK)$|^SELECT set_config\('role', 'selo_producer', true\)/;
const reads = (statements: readonly string[]) => statements.filter((s) => !FRAMING.test(s));

/** The same request (same token) to both servers at once, with the SQL statements each sent. */
async function both(request: Request): Promise<Outcome> {
  const body = JSON.stringify({ query: request.query, variables: request.variables ?? {}, ...(request.operationName ? { operationName: request.operationName } : {}) });
  const auth = await authorization(request.as === undefined ? ADMIN : request.as);
  // graphql-js answers as soon as an error nulls a non-null field, and the resolvers still under
  // way go on (and send their statements) after the answer: let them end before counting.
  if (lastHadErrors) await new Promise((resolve) => setTimeout(resolve, 250));
  fast.statements.reset();
  slow.statements.reset();
  const [f, s] = await Promise.all([post(fast, body, auth), post(slow, body, auth)]);
  const fastSql = reads(fast.statements.statements);
  const fastStatements = fastSql.length;
  const slowStatements = reads(slow.statements.statements).length;
  lastHadErrors = f.body.includes('"errors"') || s.body.includes('"errors"');
  const differences: string[] = [];
  if (f.status !== s.status) differences.push(`HTTP status ${f.status} (compiled) vs ${s.status} (graphql-js)`);
  if (f.contentType !== s.contentType) differences.push(`content-type ${f.contentType} vs ${s.contentType}`);
  const bodies = firstDifference(f.body, s.body);
  if (bodies && !nulledAlike(f.body, s.body)) differences.push(bodies);
  return { fast: f, slow: s, fastStatements, slowStatements, fastSql, difference: differences.length ? differences.join('\n  ') : null };
}

function describeRequest(name: string, r: Request): string {
  const who = r.as === undefined ? 'ADMIN' : r.as === null ? 'no token' : 'header' in r.as ? `Authorization: ${r.as.header}` : JSON.stringify(r.as);
  return `${name} [${who}]\n  query: ${r.query.replace(/\s+/g, ' ')}${r.variables ? `\n  variables: ${JSON.stringify(r.variables)}` : ''}${r.operationName ? `\n  operationName: ${r.operationName}` : ''}`;
}

/** What a case expects of the graphql-js answer (so that two equal failures cannot pass for equal data). */
type Expect = 'data' | 'error' | 'BAD_USER_INPUT' | 'UNAUTHENTICATED' | 'QUERY_TOO_COMPLEX' | 'GRAPHQL_VALIDATION_FAILED' | 'GRAPHQL_PARSE_FAILED';
/** `compiled`: a read with computed fields, answered by a compiled statement and the fields' resolvers (not a fallback). */
interface Case extends Request { name: string; expect: Expect; compiled?: true }

function expectationFailure(c: Case, slowBody: string): string | null {
  let parsed: { data?: unknown; errors?: Array<{ extensions?: { code?: string } }> };
  try {
    parsed = JSON.parse(slowBody);
  } catch {
    return `${c.name}: the graphql-js answer is not JSON: ${slowBody.slice(0, 200)}`;
  }
  if (c.expect === 'data') {
    return parsed.errors === undefined && parsed.data ? null : `${c.name}: expected data without errors, got ${slowBody.slice(0, 300)}`;
  }
  if (!parsed.errors?.length) return `${c.name}: expected an error, got ${slowBody.slice(0, 300)}`;
  if (c.expect !== 'error' && !parsed.errors.some((e) => e.extensions?.code === c.expect)) return `${c.name}: expected ${c.expect}, got ${slowBody.slice(0, 300)}`;
  return null;
}

interface Ran { c: Case; outcome: Outcome }

/** Run cases one after the other; every difference and every unmet expectation, each with its request. */
async function runCases(cases: Case[]): Promise<{ ran: Ran[]; problems: string[] }> {
  const ran: Ran[] = [];
  const problems: string[] = [];
  for (const c of cases) {
    const outcome = await both(c);
    ran.push({ c, outcome });
    if (outcome.difference) problems.push(`${describeRequest(c.name, c)}\n  ${outcome.difference}`);
    const unmet = expectationFailure(c, outcome.slow.body);
    if (unmet) problems.push(unmet);
  }
  return { ran, problems };
}

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const parse = (raw: Raw) => JSON.parse(raw.body);
/**
 * A stored numeric as the API writes it at a scale: plain decimal, at least `scale` decimals
 * (kg 3, R$ 2), none of the value's own cut: "1000" is "1000.000" in kg, "0.10" is "0.10" in R$.
 */
const atScale = (text: string, scale: number) => new Decimal(text).toFixed(Math.max(scale, new Decimal(text).decimalPlaces()));

// ---------------------------------------------------------------------------------------------
// The hand-written reads.

const MUNICIPALITY = '__typename ibgeCode name state region semiarid priorityRegion';
const PAGE_INFO = 'pageInfo { __typename hasNextPage hasPreviousPage startCursor endCursor }';
const PURCHASE = `__typename id purchasedOn consumedOn feedstock quantityKg cost supplierKind supplierName purpose externalId
  familyFarmer { __typename id cpf name municipality { ${MUNICIPALITY} } }
  originMunicipality { ${MUNICIPALITY} }
  producer { __typename id cnpj legalName anpAuthorization version plantMunicipality { ${MUNICIPALITY} } }`;

/** Every supported field at every level, with __typename everywhere. */
const EVERYTHING = `query Everything {
  __typename
  producers(first: 10) {
    __typename totalCount ${PAGE_INFO}
    edges { __typename cursor node {
      __typename id cnpj legalName anpAuthorization version
      plantMunicipality { ${MUNICIPALITY} }
      purchases(first: 60) { __typename totalCount ${PAGE_INFO} edges { __typename cursor node { ${PURCHASE} } } }
    } }
  }
}`;

const RECURSION = `{
  producers(first: 4) { edges { node { id
    purchases(first: 3) { totalCount edges { cursor node { id consumedOn
      producer { id legalName
        purchases(first: 2, from: "2025-01-01") { totalCount pageInfo { hasNextPage endCursor } edges { node { id consumedOn quantityKg producer { id cnpj } } } }
        again: purchases(first: 1, to: "2024-12-31") { totalCount edges { node { id } } }
      }
    } } }
  } } }
}`;

const ALIASES = `query Aliases($c: String) {
  first2: producers(first: 2) { totalCount edges { node { id } } }
  rest: producers(first: 3, after: $c) { pageInfo { hasPreviousPage hasNextPage startCursor endCursor } edges { cursor node { id name: legalName legalName: id } } }
  producers { kind: __typename totalCount }
  t: __typename
  all: producers(first: 100) { edges { node {
    id
    early: purchases(first: 2, to: "2025-01-01") { totalCount edges { node { id consumedOn } } }
    late: purchases(first: 2, from: "2025-07-01") { totalCount edges { node { id consumedOn } } }
    purchases { totalCount pageInfo { hasNextPage } }
    q: purchases(first: 1) { edges { node { kg: quantityKg quantityKg: cost cost: quantityKg } } }
  } } }
}`;

const FRAGMENTS = `query Fragments {
  producers(first: 5) { ...Page edges { cursor } }
}
fragment Page on ProducerConnection { totalCount edges { node { legalName ...P id } } }
fragment P on Producer {
  id cnpj legalName
  purchases(first: 4) { edges { cursor } ...Conn ... on PurchaseConnection { totalCount } }
  ... { version plantMunicipality { ...M } }
}
fragment Conn on PurchaseConnection { totalCount edges { node { ...Pu supplierKind } } }
fragment Pu on Purchase {
  id ... on Purchase { cost supplierKind } ... { quantityKg originMunicipality { ...M name } }
  familyFarmer { ... on FamilyFarmer { name municipality { ...M } } }
}
fragment M on Municipality { ibgeCode name state }`;

const DIRECTIVES = `query Directives($yes: Boolean!, $no: Boolean!, $n: Int = 3) {
  producers(first: $n) {
    totalCount @include(if: $no)
    pageInfo @skip(if: $no) { hasNextPage }
    edges @include(if: $yes) { node {
      id @skip(if: $yes)
      legalName @skip(if: $no)
      cnpj @skip(if: $no) @include(if: $no)
      version @skip(if: false) @include(if: true)
      ...F @include(if: $no)
      ...G @include(if: $yes)
      ... @include(if: $yes) { anpAuthorization }
      ... on Producer @skip(if: true) { plantMunicipality { name } }
      purchases(first: 2) @skip(if: $no) { totalCount @skip(if: true) edges { node { id cost @include(if: $yes) } } }
    } }
  }
  skipped: producers @skip(if: $yes) { totalCount }
}
fragment F on Producer { plantMunicipality { ibgeCode } }
fragment G on Producer { plantMunicipality { name } purchases(first: 2) { edges { cursor } } }`;

const VARIABLES = `query Vars($first: Int, $after: String, $pf: Int = 7, $from: Date, $to: Date, $none: String = null) {
  producers(first: $first, after: $after) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { node { id
    purchases(first: $pf, after: $none, from: $from, to: $to) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id consumedOn } } }
  } } }
}`;

const DUPLICATES = `{
  producers(first: 3) {
    edges { cursor }
    totalCount
    edges { node { id } }
    totalCount
    edges { node { legalName id purchases(first: 2) { edges { node { id } } } purchases(first: 2) { totalCount edges { cursor node { cost } } } } }
  }
}`;

const FILTERS = `{
  producers(first: 20) { edges { node { id
    between: purchases(first: 3, from: "2025-01-01", to: "2025-06-30") { totalCount ${PAGE_INFO} edges { node { id consumedOn } } }
    oneDay: purchases(from: "2025-03-01", to: "2025-03-01") { totalCount edges { node { id consumedOn } } }
    inverted: purchases(from: "2025-06-30", to: "2025-01-01") { totalCount ${PAGE_INFO} edges { node { id } } }
    fromOnly: purchases(first: 1, from: "2026-01-01") { totalCount pageInfo { hasNextPage } }
    toOnly: purchases(first: 100, to: "2024-12-31") { totalCount pageInfo { hasNextPage } edges { node { consumedOn } } }
    nothing: purchases(first: 5, from: "2030-01-01") { totalCount ${PAGE_INFO} edges { cursor } }
  } } }
}`;

function readCases(): Case[] {
  return [
    { name: 'the benchmark nested page', query: NESTED_PAGE_QUERY, expect: 'data' },
    { name: 'every supported field', query: EVERYTHING, expect: 'data' },
    { name: 'aliases', query: ALIASES, variables: { c: null }, expect: 'data' },
    { name: 'fragments and inline fragments', query: FRAGMENTS, expect: 'data' },
    { name: '@include/@skip (true, false)', query: DIRECTIVES, variables: { yes: true, no: false }, expect: 'data' },
    { name: '@include/@skip (false, true)', query: DIRECTIVES, variables: { yes: false, no: true, n: 100 }, expect: 'data' },
    { name: 'variables: all null', query: VARIABLES, variables: {}, expect: 'data' },
    { name: 'variables: set', query: VARIABLES, variables: { first: 3, pf: 100, from: '2024-12-31', to: '2025-07-01', none: null }, expect: 'data' },
    { name: 'variables: first explicitly null', query: VARIABLES, variables: { first: null, pf: null }, expect: 'data' },
    { name: 'the same field twice, merged', query: DUPLICATES, expect: 'data' },
    { name: 'from/to filters', query: FILTERS, expect: 'data' },
    { name: 'Purchase.producer.purchases', query: RECURSION, expect: 'data' },
    { name: 'Query.__typename only', query: '{ __typename }', expect: 'data' },
    { name: 'only __typename under producers', query: '{ producers { __typename } }', expect: 'data' },
    { name: 'totalCount only', query: '{ producers { totalCount } }', expect: 'data' },
    {
      name: 'imports of biodiesel, dated pages with cursors',
      query: `{ producers(first: 6) { edges { node { id all: imports(first: 100) { totalCount edges { cursor node { id clearedOn volumeM3 declarationNumber producer { id } __typename } } }
        march: imports(first: 1, from: "2025-03-01", to: "2025-03-31") { totalCount ${PAGE_INFO} edges { node { id volumeM3 } } } } } } }`,
      expect: 'data',
    },
    { name: 'pageInfo only', query: '{ producers(first: 1) { pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }', expect: 'data' },
    { name: 'edges without node', query: '{ producers(first: 100) { edges { cursor __typename } } }', expect: 'data' },
    { name: 'a big page of purchases', query: `{ producers(first: 1) { edges { node { purchases(first: 100) { totalCount ${PAGE_INFO} edges { cursor node { ${PURCHASE} } } } } } } }`, expect: 'data' },
    {
      name: 'two operations, operationName chooses the compiled one',
      query: 'query A { producers(first: 2) { edges { node { id } } } } query B { lawParameterCatalogue { name } }',
      operationName: 'A', expect: 'data',
    },
    { name: 'an anonymous query with a name-less shorthand and comments', query: '# a comment\n{\n  producers (first : 2) { edges { node { id , legalName } } } # another\n}', expect: 'data' },
  ];
}

/** The cursors the server hands out (from the graphql-js server, read once). */
/** Cursors the API hands out, of every connection (read from graphql-js). */
interface Cursors { producers: string[]; purchases: string[]; bigPurchases: string[]; fewPurchases: string[]; sales: string[]; contracts: string[]; farmers: string[]; organizations: string[]; audit: string[]; parameters: string[] }

async function cursors(): Promise<Cursors> {
  const data = {
    ...(await slow.ok(`{ producers(first: 100) { edges { cursor node { id purchases(first: 100) { edges { cursor } } } } } }`)),
    ...(await slow.ok(`{ more: producers(first: 10) { edges { node { sales(first: 100) { edges { cursor } } contracts(first: 20) { edges { cursor } } } } } }`)),
    ...(await slow.ok(`{ familyFarmers(first: 100) { edges { cursor } } organizations(first: 100) { edges { cursor } } }`)),
    ...(await slow.ok(`{ auditLog(first: 100) { edges { cursor } } lawParameterVersions { parameter } }`)),
  };
  data.more.edges.forEach((e: any, i: number) => Object.assign(data.producers.edges[i].node, e.node));
  type Page = { edges: Array<{ cursor: string }> };
  const edges = data.producers.edges as Array<{ cursor: string; node: { id: string; purchases: Page; sales: Page; contracts: Page } }>;
  expect(edges.map((e) => e.node.id)).toEqual(ids.producers);
  const all = (k: 'purchases' | 'sales' | 'contracts') => edges.flatMap((e) => e.node[k].edges.map((x) => x.cursor));
  const result: Cursors = {
    producers: edges.map((e) => e.cursor),
    purchases: [...edges[BIG].node.purchases.edges.map((e) => e.cursor).filter((_, i) => i % 9 === 0), ...all('purchases').slice(-12)],
    bigPurchases: edges[BIG].node.purchases.edges.map((e) => e.cursor),
    fewPurchases: edges[FEW].node.purchases.edges.map((e) => e.cursor),
    sales: all('sales'),
    contracts: all('contracts'),
    farmers: (data.familyFarmers as Page).edges.map((e) => e.cursor),
    organizations: (data.organizations as Page).edges.map((e) => e.cursor),
    audit: (data.auditLog as Page).edges.map((e) => e.cursor).filter((_, i) => i % 3 === 0),
    parameters: [...new Set((data.lawParameterVersions as Array<{ parameter: string }>).map((v) => v.parameter))],
  };
  expect(Object.values(result).every((list) => list.length > 0)).toBe(true);
  return result;
}

async function rejectedCases(): Promise<Case[]> {
  const c = await cursors();
  const purchases = (args: string) => `{ producers(first: 3) { edges { node { id purchases(${args}) { totalCount edges { node { id } } } } } } }`;
  return [
    { name: 'producers first: 101', query: '{ producers(first: 101) { edges { node { id } } } }', expect: 'BAD_USER_INPUT' },
    { name: 'producers first: -1 (variable)', query: 'query($f: Int) { producers(first: $f) { edges { node { id } } } }', variables: { f: -1 }, expect: 'BAD_USER_INPUT' },
    { name: 'producers after: "garbage"', query: '{ producers(after: "garbage") { edges { node { id } } } }', expect: 'BAD_USER_INPUT' },
    { name: 'producers after: empty string', query: '{ producers(after: "") { edges { node { id } } } }', expect: 'BAD_USER_INPUT' },
    { name: 'producers after: a purchases cursor', query: 'query($a: String) { producers(after: $a) { edges { node { id } } } }', variables: { a: c.bigPurchases[3] }, expect: 'BAD_USER_INPUT' },
    { name: 'producers after: a cursor with a word', query: `{ producers(after: "${b64('["x"]')}") { edges { node { id } } } }`, expect: 'BAD_USER_INPUT' },
    { name: 'producers after: a cursor beyond bigint', query: `{ producers(after: "${b64('[1e30]')}") { edges { node { id } } } }`, expect: 'BAD_USER_INPUT' },
    { name: 'producers first: 2147483648', query: '{ producers(first: 2147483648) { totalCount } }', expect: 'GRAPHQL_VALIDATION_FAILED' },
    { name: 'producers first: "5"', query: '{ producers(first: "5") { totalCount } }', expect: 'GRAPHQL_VALIDATION_FAILED' },
    { name: 'producers first: "x" as a variable', query: 'query($f: Int) { producers(first: $f) { totalCount } }', variables: { f: 'x' }, expect: 'BAD_USER_INPUT' },
    { name: 'a required variable not given', query: 'query($f: Int!) { producers(first: $f) { totalCount } }', expect: 'BAD_USER_INPUT' },
    { name: 'purchases first: 101', query: purchases('first: 101'), expect: 'BAD_USER_INPUT' },
    { name: 'purchases after: "garbage"', query: purchases('after: "garbage"'), expect: 'BAD_USER_INPUT' },
    { name: 'purchases after: a producers cursor', query: purchases(`after: "${c.producers[1]}"`), expect: 'BAD_USER_INPUT' },
    { name: 'purchases after: a cursor with a bad date', query: purchases(`after: "${b64('["purchase","2025-02-30","1"]')}"`), expect: 'BAD_USER_INPUT' },
    { name: 'purchases after: a sales cursor', query: purchases(`after: "${c.sales[1]}"`), expect: 'BAD_USER_INPUT' },
    { name: 'familyFarmers after: a contracts cursor', query: `{ familyFarmers(after: "${c.contracts[0]}") { edges { node { id } } } }`, expect: 'BAD_USER_INPUT' },
    { name: 'producers after: a cursor without its tag', query: `{ producers(after: "${b64('[1]')}") { edges { node { id } } } }`, expect: 'BAD_USER_INPUT' },
    { name: 'purchases from: "2025-02-30"', query: purchases('from: "2025-02-30"'), expect: 'error' },
    { name: 'purchases to: "2025-13-01"', query: purchases('to: "2025-13-01"'), expect: 'error' },
    { name: 'purchases from: "2025-02-30" as a variable', query: 'query($d: Date) { producers { edges { node { purchases(from: $d) { totalCount } } } } }', variables: { d: '2025-02-30' }, expect: 'BAD_USER_INPUT' },
    { name: 'purchases from: 20250101 (a number)', query: 'query($d: Date) { producers { edges { node { purchases(from: $d) { totalCount } } } } }', variables: { d: 20250101 }, expect: 'BAD_USER_INPUT' },
    { name: 'a rejected page under an alias, beside a good one', query: '{ good: producers(first: 2) { edges { node { id } } } bad: producers(first: -1) { totalCount } }', expect: 'BAD_USER_INPUT' },
    { name: 'an unknown field', query: '{ producers { edges { node { id nope } } } }', expect: 'GRAPHQL_VALIDATION_FAILED' },
    { name: 'a fragment on the wrong type', query: '{ producers { edges { node { ... on Purchase { id } } } } }', expect: 'GRAPHQL_VALIDATION_FAILED' },
    { name: 'conflicting fields under one alias', query: '{ producers { edges { node { x: id x: legalName } } } }', expect: 'GRAPHQL_VALIDATION_FAILED' },
    { name: 'a syntax error', query: '{ producers(first: 1) { totalCount }', expect: 'GRAPHQL_PARSE_FAILED' },
    {
      name: 'over the cost limit',
      query: `{ producers(first: 100) { edges { node { purchases(first: 100) { edges { node { id purchasedOn consumedOn feedstock quantityKg cost supplierKind supplierName purpose externalId } } } } } } }`,
      expect: 'QUERY_TOO_COMPLEX',
    },
    {
      name: 'over the depth limit',
      query: '{ producers(first: 1) { edges { node { purchases(first: 1) { edges { node { producer { purchases(first: 1) { edges { node { familyFarmer { municipality { name } } } } } } } } } } } } }',
      expect: 'QUERY_TOO_COMPLEX',
    },
    {
      name: 'over the alias limit',
      query: `{ producers(first: 1) { edges { node { ${Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ')} } } } }`,
      expect: 'QUERY_TOO_COMPLEX',
    },
    { name: 'an operationName that is not in the document', query: 'query A { producers { totalCount } }', operationName: 'B', expect: 'error' },
  ];
}

/** Reads whose answers depend on the caller. */
function roleCases(): Case[] {
  return [
    { name: 'every supported field', query: EVERYTHING, expect: 'data' },
    { name: 'the benchmark nested page', query: NESTED_PAGE_QUERY, expect: 'data' },
    { name: 'Purchase.producer.purchases', query: RECURSION, expect: 'data' },
    { name: 'from/to filters', query: FILTERS, expect: 'data' },
    { name: 'producers after the first producer', query: `query($a: String) { producers(after: $a) { totalCount ${PAGE_INFO} edges { cursor node { id } } } }`, variables: { a: null }, expect: 'data' },
  ];
}

/** Reads the compiled path does not support: they must fall back to graphql-js. */
function unsupportedCases(): Case[] {
  const page = (fields: string) => `{ producers(first: 4) { totalCount edges { node { id legalName purchases(first: 5) { totalCount edges { node { id quantityKg ${fields} } } } } } } }`;
  return [
    { name: 'with Query.lawParameterCatalogue', query: '{ producers(first: 2) { edges { node { id legalName } } } lawParameterCatalogue { name scopes } }', expect: 'data' },
    { name: 'Purchase.selo', query: page('supplierKind selo { counts }'), expect: 'data', compiled: true },
    { name: 'Purchase.familyFarmingOrigin', query: page('familyFarmingOrigin'), expect: 'data', compiled: true },
    { name: 'computed fields at several levels of one compiled tree', query: COMPUTED, expect: 'data', compiled: true },
    { name: 'computed fields, as a PRODUCER', query: COMPUTED, as: { role: 'PRODUCER', producerId: '1' }, expect: 'data', compiled: true },
    { name: 'computed fields of every kind inside compiled trees', query: COMPUTED_EVERY_KIND, expect: 'data', compiled: true },
    { name: 'computed fields of every kind inside compiled trees, as a PRODUCER', query: COMPUTED_EVERY_KIND, as: { role: 'PRODUCER', producerId: '1' }, expect: 'data', compiled: true },
    { name: 'a computed field whose resolver refuses (a month 13): the root field executes normally', query: '{ producers(first: 1) { edges { node { id taxPeriod(year: 2026, month: 13) { totalDue } } } } }', expect: 'error' },
    { name: 'AuditEntry.before and after (JSON, written by their resolver)', query: '{ auditLog(first: 20) { totalCount edges { node { id entity before after } } } }', expect: 'data', compiled: true },
    { name: 'LawParameterVersion.values (computed)', query: '{ lawParameterVersions(parameter: "minimum-spending-share") { id scope values { name value } } }', expect: 'data', compiled: true },
    { name: 'lawParameterVersions with an empty parameter (the resolver)', query: '{ lawParameterVersions(parameter: "") { id } }', expect: 'data' },
    { name: 'a mutation', query: 'mutation { createProducer(input: { cnpj: "00000000000000", legalName: "X", plantMunicipalityCode: "2611606" }) { id } }', expect: 'error' },
  ];
}

/** Cases whose request is supported (and succeeds): the compiled path must answer them in one statement. */
function supportedForCount(): Case[] {
  const page = (fields: string) => `{ producers(first: 4) { totalCount edges { node { id legalName purchases(first: 5) { totalCount edges { node { id quantityKg ${fields} } } } } } } }`;
  return [
    { name: 'with Query.municipality', query: '{ producers(first: 2) { totalCount edges { node { id } } } municipality(ibgeCode: "2408003") { name region } }', expect: 'data' },
    { name: 'with Query.producer', query: `query($id: ID!) { producers(first: 1) { totalCount } producer(id: $id) { id legalName } }`, variables: { id: '1' }, expect: 'data' },
    { name: 'with Query.purchase', query: `query($id: ID!) { producers(first: 1) { totalCount } purchase(id: $id) { id cost } }`, variables: { id: '3' }, expect: 'data' },
    { name: 'Purchase.organization', query: page('supplierKind organization { id name kind municipality { name } }'), expect: 'data' },
    { name: 'Purchase.contract', query: page('contract { id }'), expect: 'data' },
    { name: 'FamilyFarmer.registrations', query: page('familyFarmer { name registrations { kind } }'), expect: 'data' },
    { name: 'Producer.sales', query: '{ producers(first: 5) { edges { node { id sales(first: 2) { totalCount edges { node { id } } } purchases(first: 2) { totalCount } } } } }', expect: 'data' },
    { name: 'Producer.contracts', query: '{ producers(first: 5) { edges { node { id contracts { totalCount } } } } }', expect: 'data' },
    { name: 'Producer.sealGrants inside a fragment', query: '{ producers(first: 5) { edges { node { ...S } } } } fragment S on Producer { id sealGrants { id } }', expect: 'data' },
    { name: 'Producer.sales skipped by a variable', query: 'query($s: Boolean!) { producers(first: 3) { edges { node { id sales @skip(if: $s) { totalCount } } } } }', variables: { s: true }, expect: 'data' },
    { name: 'with introspection', query: '{ producers(first: 1) { totalCount } __schema { queryType { name } } __type(name: "Purchase") { name kind } }', expect: 'data' },
    { name: 'an operation mixing compiled and other root fields, chosen by operationName', query: 'query A { producers(first: 2) { totalCount } } query B { producers(first: 2) { totalCount } lawParameterCatalogue { name } }', operationName: 'B', expect: 'data' },
    { name: 'every compiled root field at once', query: everyRoot(), expect: 'data' },
    ...datedCases(),
    { name: 'every compiled root field at once, as a PRODUCER', query: everyRoot(), as: { role: 'PRODUCER', producerId: '1' }, expect: 'data' },
    ...readCases().filter((c) => c.query !== '{ __typename }' && c.operationName === undefined),
    { name: 'two operations, operationName chooses the compiled one', query: 'query A { producers(first: 2) { edges { node { id } } } } query B { lawParameterCatalogue { name } }', operationName: 'A', expect: 'data' },
    { name: 'every supported field, as a PRODUCER', query: EVERYTHING, as: { role: 'PRODUCER', producerId: '1' }, expect: 'data' },
    { name: 'Purchase.producer.purchases, as an AUDITOR', query: RECURSION, as: AUDITOR, expect: 'data' },
  ];
}

/** The dated and recorded lists, each root with its filters (see seedDated in the fixtures). */
function datedCases(): Case[] {
  const [m0, m1] = plan.municipalities.map((m) => m.ibgeCode);
  return [
    { name: 'Organization.membershipHistory', query: '{ organizations(first: 3) { edges { node { id membershipHistory { __typename declaredOn members familyFarmerMembers recordedAt } } } } }', expect: 'data' },
    { name: 'Municipality.semiaridMemberships', query: `{ a: municipality(ibgeCode: "${m0}") { ibgeCode semiarid semiaridMemberships { validFrom validUntil act } } b: municipality(ibgeCode: "${m1}") { semiaridMemberships { act validFrom } } }`, expect: 'data' },
    { name: 'minimumPrices, all and by feedstock', query: '{ all: minimumPrices { id feedstock validFrom pricePerKg source } soy: minimumPrices(feedstock: SOYBEAN, on: null) { id validFrom validUntil publishedOn } palm: minimumPrices(feedstock: PALM) { id } }', expect: 'data' },
    {
      name: 'minimumPrices in force on a date, as known on a date',
      query: `{ mar: minimumPrices(on: "2025-03-01") { id feedstock pricePerKg } lastDay: minimumPrices(on: "2025-06-30", feedstock: SOYBEAN) { pricePerKg } july: minimumPrices(on: "2025-07-01") { feedstock pricePerKg }
        knownBefore: minimumPrices(on: "2025-03-01", asKnownOn: "2024-12-31") { id } old: minimumPrices(on: "2024-12-31", asKnownOn: "2025-01-01") { feedstock pricePerKg validUntil }
        ignored: minimumPrices(asKnownOn: "2020-01-01", feedstock: CASTOR_BEAN) { id } }`,
      expect: 'data',
    },
    { name: 'lawParameterVersions, all and by parameter', query: '{ all: lawParameterVersions { id parameter scope validFrom validUntil note shipped } one: lawParameterVersions(parameter: "minimum-spending-share") { id scope legalBasis } none: lawParameterVersions(parameter: "nothing") { id } }', expect: 'data' },
    { name: 'auditLog pages and filters', query: `{ all: auditLog(first: 100) { totalCount ${PAGE_INFO} edges { cursor node { __typename id at actor role operation entity entityId } } }
      producers: auditLog(entity: "Producer", first: 2) { totalCount edges { node { id entityId } } } one: auditLog(entityId: "${ids.producers[0]}") { totalCount edges { node { operation } } }
      none: auditLog(entity: "Nothing") { totalCount ${PAGE_INFO} } }`, expect: 'data' },
    { name: 'auditLog as a PRODUCER', query: '{ auditLog(first: 100) { totalCount edges { node { id entity entityId operation } } } }', as: { role: 'PRODUCER', producerId: ids.producers[0] }, expect: 'data' },
  ];
}

/** Computed fields (answered by their resolvers once per page) inside compiled trees. */
const COMPUTED = `{
  producers(first: 7) { edges { node { id regime(year: 2025) sealStanding(on: "2025-03-15") { regular reason { code } }
    purchases(first: 30) { edges { node { id familyFarmingOrigin familyFarmingFindings { code legalBasis } familyFarmer { eligibleOn(date: "2025-03-01") } } } }
    regimeElections { regime findings { code } } } } }
  organizations(first: 5) { edges { node { name familyFarmerShare habilitation(on: "2025-03-01") { habilitated findings { code } } } } }
}`;

/** taxPeriod, sealCompliance, Purchase.selo, familyFarmingOrigin, Contract.conformity, habilitation: each under compiled rows. */
const COMPUTED_EVERY_KIND = `{
  producers(first: 5) { edges { node { id establishments taxPeriod(year: 2025, month: 3) { status totalDue pisDue cofinsDue }
    sealCompliance(year: 2025) { compliant status achievedShare }
    purchases(first: 20) { edges { node { id selo { counts kind actual weighted findings { code } } familyFarmingOrigin
      contract { id conformity { conforming findings { code } minimumPrice { pricePerKg } } } organization { habilitation(on: "2025-03-01") { habilitated } } } } }
    contracts(first: 5) { edges { node { id conformity { conforming } } } } } } }
}`;

/** Every root field the compiler answers, each with a little of what lies under it. */
const EVERY_ROOT = `query Every {
  producers(first: 3) { totalCount edges { node { id sealGrants { id events { kind } } regimeElections { regime effectiveYear } } } }
  familyFarmers(first: 2) { totalCount edges { cursor node { name registrations { kind number validFrom } } } }
  organizations(first: 2) { pageInfo { endCursor hasNextPage } edges { node { cnpj kind members familyFarmerMembers registrations { number } municipality { name } membershipHistory { declaredOn members familyFarmerMembers recordedAt } } } }
  producer(id: $id) { legalName contracts(first: 2) { edges { node { id pricePerKg familyFarmer { name } organization { name } } } } sales(first: 2, from: "2025-03-01") { totalCount edges { node { soldOn revenue volumeM3 invoiceKey } } } }
  purchase(id: $id) { id cost contract { signedOn producer { id } } organization { id } }
  contract(id: $id) { id quantityKg technicalAssistance producer { cnpj } }
  familyFarmer(id: $id) { cpf municipality { ibgeCode region } }
  organization(id: $organization) { name }
  sealGrant(id: $id) { act grantedOn validUntil events { kind effectiveOn reason validUntil } }
  municipality(ibgeCode: "2611606") { name semiarid priorityRegion semiaridMemberships { validFrom validUntil act } }
  auditLog(first: 5, entity: "Producer") { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id at actor role operation entity entityId } } }
  minimumPrices(feedstock: SOYBEAN) { id feedstock validFrom validUntil pricePerKg source publishedOn }
  lawParameterVersions { id parameter scope validFrom validUntil publishedOn legalBasis note shipped }
  sealGrants(producerId: $id) { id act }
  regimeElections(producerId: $id) { electedOn startingActivity producer { id } }
}`;
/** Every root on the first record of each kind (organizations number apart from the rest). */
const everyRoot = () => EVERY_ROOT.replace(/\$id/g, '"1"').replace('$organization', `"${ids.organizations[0]}"`);

/** The compiled root fields a hand-written case asks for (each one statement). */
function compiledRootCount(c: Request): number {
  const document = parseGraphql(c.query);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (c.operationName === undefined || d.name?.value === c.operationName))!;
  const keys = new Set<string>();
  const flag = (v: ValueNode) => (v.kind === Kind.VARIABLE ? c.variables?.[v.name.value] : v.kind === Kind.BOOLEAN ? v.value : undefined);
  const included = (s: SelectionNode) => (s.directives ?? []).every((d) => flag(d.arguments![0].value) === (d.name.value === 'include'));
  const walk = (set: SelectionSetNode) => {
    for (const s of set.selections) {
      if (!included(s)) continue;
      if (s.kind === Kind.FIELD) {
        if (COMPILED_ROOTS.has(s.name.value)) keys.add(s.alias?.value ?? s.name.value);
      } else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet);
      else walk((document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value) as FragmentDefinitionNode).selectionSet);
    }
  };
  walk(operation.selectionSet);
  return keys.size;
}

// ---------------------------------------------------------------------------------------------

test('the two databases hold the same rows, with the same ids', () => {
  expect(seededSlow).toEqual(ids);
  expect(ids.producers).toHaveLength(plan.producers.length);
  expect(ids.purchases).toHaveLength(plan.purchases.length);
  expect(new Set(ids.purchases).size).toBe(plan.purchases.length);
  expect(dumps.fast).toBe(dumps.slow);
  // Numerics are stored as written (trailing zeros kept), so the reads have them to normalise.
  expect(dumps.fast).toContain('"quantity_kg":"250.50"');
  expect(dumps.fast).toContain('"quantity_kg":"1000.000"');
});

test('hand-written reads: the same status and body from both', async () => {
  const { ran, problems } = await runCases(readCases());
  expect(problems).toEqual([]);

  // The answers are the data, not two equal mistakes: checked against the plan.
  const everything = parse(ran.find((r) => r.c.name === 'every supported field')!.outcome.slow).data.producers;
  expect(everything.totalCount).toBe(plan.producers.length);
  expect(everything.edges.map((e: any) => e.node.id)).toEqual(ids.producers);
  const counts = plan.producers.map((_, i) => plan.purchases.filter((p) => p.producer === i).length);
  expect(everything.edges.map((e: any) => e.node.purchases.totalCount)).toEqual(counts);
  expect(counts[BIG]).toBe(BIG_PURCHASES);
  expect(counts[NONE]).toBe(0);
  expect(counts[ONE]).toBe(1);
  expect(everything.edges[RENAMED].node).toMatchObject({ legalName: plan.producers[RENAMED].renamedTo, version: 2 });
  expect(everything.edges[NONE].node.purchases.pageInfo).toEqual({ __typename: 'PageInfo', hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
  const byId = new Map(plan.purchases.map((p, i) => [ids.purchases[i], p]));
  const nodes = everything.edges.flatMap((e: any) => e.node.purchases.edges.map((x: any) => x.node));
  for (const node of nodes) {
    const planned = byId.get(node.id)!;
    expect({ quantityKg: node.quantityKg, cost: node.cost, consumedOn: node.consumedOn, supplierKind: node.supplierKind, externalId: node.externalId })
      .toEqual({ quantityKg: atScale(planned.quantityKg, 3), cost: planned.cost === null ? null : atScale(planned.cost, 2), consumedOn: planned.consumedOn, supplierKind: planned.supplierKind, externalId: planned.externalId });
    expect(node.familyFarmer === null).toBe(planned.farmer === null);
  }
  const kinds = new Set(nodes.map((n: any) => n.supplierKind));
  expect([...kinds].sort()).toEqual(['ASSOCIATION', 'COOPERATIVE', 'FAMILY_FARMER', 'OWN_PRODUCTION', 'THIRD_PARTY']);

  const filters = parse(ran.find((r) => r.c.name === 'from/to filters')!.outcome.slow).data.producers.edges;
  const inRange = (i: number, from: string, to: string) => plan.purchases.filter((p) => p.producer === i && p.consumedOn >= from && p.consumedOn <= to).length;
  expect(filters.map((e: any) => e.node.between.totalCount)).toEqual(plan.producers.map((_, i) => inRange(i, '2025-01-01', '2025-06-30')));
  expect(filters.map((e: any) => e.node.oneDay.totalCount)).toEqual(plan.producers.map((_, i) => inRange(i, '2025-03-01', '2025-03-01')));
  expect(filters[BIG].node.oneDay.totalCount).toBeGreaterThan(3);
  expect(filters.every((e: any) => e.node.inverted.totalCount === 0 && e.node.inverted.pageInfo.endCursor === null)).toBe(true);
}, 30_000);

test('dated and recorded lists: the same body from both, in the services\' order, with their filters', async () => {
  const { ran, problems } = await runCases(datedCases());
  expect(problems).toEqual([]);
  const data = (name: string) => parse(ran.find((r) => r.c.name === name)!.outcome.fast).data;
  // Undated first, then by day, equal days by recording; times to the millisecond, in UTC.
  const history = data('Organization.membershipHistory').organizations.edges[0].node.membershipHistory;
  expect(history.map((d: any) => [d.declaredOn, d.members])).toEqual([[null, 120], ['2024-07-15', 180], ['2025-03-01', 200], ['2025-03-01', 210]]);
  expect(history.every((d: any) => /^2025-02-\d\dT04:05:\d\d\.\d{3}Z$/.test(d.recordedAt))).toBe(true);
  const intervals = data('Municipality.semiaridMemberships').a.semiaridMemberships;
  const froms = intervals.map((i: any) => i.validFrom);
  expect(froms[0]).toBeNull();
  expect(froms.filter((f: string | null) => f !== null)).toEqual(froms.filter((f: string | null) => f !== null).sort());
  expect(intervals).toEqual(expect.arrayContaining([{ validFrom: null, validUntil: '2017-11-22', act: 'Resolução "antiga" \\ nº 107/2017' }, expect.objectContaining({ validFrom: '2021-08-01', validUntil: null })]));
  const prices = data('minimumPrices, all and by feedstock');
  expect(prices.all.map((p: any) => [p.feedstock, p.validFrom, p.pricePerKg])).toEqual([
    ['CASTOR_BEAN', '2025-01-01', '3.50'], ['SOYBEAN', '2024-01-01', '1.90'], ['SOYBEAN', '2025-01-01', '2.10'], ['SOYBEAN', '2025-01-01', '2.25'],
  ]);
  expect(prices.soy).toHaveLength(3);
  expect(prices.palm).toEqual([]);
  // The latest published wins (equal publication days: the latest recorded), valid to its last day inclusive, known from its publication.
  const inForce = data('minimumPrices in force on a date, as known on a date');
  expect(inForce.mar.map((p: any) => [p.feedstock, p.pricePerKg])).toEqual([['CASTOR_BEAN', '3.50'], ['SOYBEAN', '2.25']]);
  expect(inForce.lastDay).toEqual([{ pricePerKg: '2.25' }]);
  expect(inForce.july).toEqual([{ feedstock: 'CASTOR_BEAN', pricePerKg: '3.50' }, { feedstock: 'SOYBEAN', pricePerKg: '2.10' }]);
  expect(inForce.knownBefore).toEqual([]);
  expect(inForce.old).toEqual([{ feedstock: 'SOYBEAN', pricePerKg: '1.90', validUntil: '2024-12-31' }]);
  expect(inForce.ignored).toHaveLength(1);
  const versions = data('lawParameterVersions, all and by parameter');
  expect(versions.all.length).toBeGreaterThan(versions.one.length);
  expect(versions.one.length).toBeGreaterThan(0);
  expect(versions.none).toEqual([]);
  const audit = data('auditLog pages and filters');
  const entries: Array<{ id: string; entity: string; entity_id: string | null }> = await fast.db.dataSource.query('SELECT a.id::text AS id, a.entity, a.entity_id FROM audit_entry a ORDER BY a.id DESC');
  expect(audit.all.totalCount).toBe(entries.length);
  expect(audit.all.edges.map((e: any) => e.node.id)).toEqual(entries.slice(0, 100).map((e) => e.id));
  expect(audit.producers.totalCount).toBe(entries.filter((e) => e.entity === 'Producer').length);
  expect(audit.producers.totalCount).toBeGreaterThan(2);
  expect(audit.one.totalCount).toBe(entries.filter((e) => e.entity_id === ids.producers[0]).length);
  expect(audit.none).toMatchObject({ totalCount: 0, pageInfo: { hasNextPage: false, endCursor: null } });
  // Each root field in one statement.
  expect(ran.map((r) => [r.c.name, r.outcome.fastStatements])).toEqual(ran.map((r) => [r.c.name, compiledRootCount(r.c)]));
}, 30_000);

test('arguments the normal path rejects: the same error body from both', async () => {
  const { problems } = await runCases(await rejectedCases());
  expect(problems).toEqual([]);
}, 30_000);

test('each role and no token: the same body from both; a PRODUCER sees only its own producer', async () => {
  const callers: Array<{ label: string; who: Who }> = [
    { label: 'ADMIN', who: ADMIN },
    { label: 'AUDITOR', who: AUDITOR },
    { label: 'PRODUCER of the big producer', who: { role: 'PRODUCER', producerId: ids.producers[BIG] } },
    { label: 'PRODUCER of the producer with every kind', who: { role: 'PRODUCER', producerId: ids.producers[EVERY_KIND] } },
    { label: 'PRODUCER of a producer without purchases', who: { role: 'PRODUCER', producerId: ids.producers[NONE] } },
    { label: 'PRODUCER whose producer does not exist', who: { role: 'PRODUCER', producerId: '987654321' } },
  ];
  const problems: string[] = [];
  const answers = new Map<string, any>();
  for (const { label, who } of callers) {
    const result = await runCases(roleCases().map((c) => ({ ...c, name: `${c.name} as ${label}`, as: who })));
    problems.push(...result.problems);
    answers.set(label, parse(result.ran[0].outcome.slow).data.producers);
  }
  const refused = await runCases([
    ...roleCases().map((c): Case => ({ ...c, name: `${c.name} without a token`, as: null, expect: 'UNAUTHENTICATED' })),
    { name: 'a token that is not valid', query: EVERYTHING, as: { header: 'Bearer not.a.token' }, expect: 'UNAUTHENTICATED' },
    { name: 'not a Bearer header', query: EVERYTHING, as: { header: 'Basic YWRtaW46YWRtaW4=' }, expect: 'UNAUTHENTICATED' },
  ]);
  problems.push(...refused.problems);
  expect(problems).toEqual([]);

  expect(answers.get('AUDITOR').edges.map((e: any) => e.node.id)).toEqual(ids.producers);
  const own = answers.get('PRODUCER of the producer with every kind');
  expect(own.totalCount).toBe(1);
  expect(own.edges.map((e: any) => e.node.id)).toEqual([ids.producers[EVERY_KIND]]);
  expect(own.edges[0].node.purchases.totalCount).toBe(plan.purchases.filter((p) => p.producer === EVERY_KIND).length);
  expect(answers.get('PRODUCER whose producer does not exist')).toMatchObject({ totalCount: 0, edges: [], pageInfo: { startCursor: null, endCursor: null, hasNextPage: false } });
  expect(refused.ran[0].outcome.slow.status).toBe(401);
}, 40_000);

test('computed and unsupported fields: the same body from both', async () => {
  const { ran, problems } = await runCases(unsupportedCases());
  expect(problems).toEqual([]);
  // Computed fields inside compiled trees are resolved once per page through the same resolvers
  // and loaders, from the rows the statement wrote: the root fields' statements and the computed
  // fields' own batched statements (as graphql-js sends them), never more than graphql-js alone.
  const computed = ran.find((r) => r.c.name === 'computed fields at several levels of one compiled tree')!.outcome;
  expect(computed.fastStatements).toBeLessThanOrEqual(computed.slowStatements);
  const everyKind = ran.find((r) => r.c.name === 'computed fields of every kind inside compiled trees')!.outcome;
  expect(everyKind.fastStatements).toBeLessThanOrEqual(everyKind.slowStatements);
  const page = JSON.parse(everyKind.fast.body).data.producers.edges;
  expect(page.length).toBe(5);
  expect(page.some((e: any) => e.node.purchases.edges.some((p: any) => p.node.selo !== null))).toBe(true);
  expect(JSON.parse(computed.slow.body).data.producers.edges[0].node.purchases.edges.length).toBeGreaterThan(20);
  // A stored JSON value and a version's computed list of values, both written by their resolvers
  // from the row: the root field's statement alone.
  for (const name of ['AuditEntry.before and after (JSON, written by their resolver)', 'LawParameterVersion.values (computed)']) {
    expect([name, ran.find((r) => r.c.name === name)!.outcome.fastStatements]).toEqual([name, 1]);
  }
}, 30_000);

interface Page { edges: Array<{ cursor: string; node: any }>; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }; totalCount: number }

/** Walk a connection with endCursor until hasNextPage is false, comparing each page of both servers. */
async function walk(name: string, query: string, pick: (data: any) => Page, variables: Record<string, unknown>, problems: string[]): Promise<{ pages: Page[]; edges: Page['edges'] }> {
  const pages: Page[] = [];
  let after: string | null = null;
  for (let n = 0; n < 100; n++) {
    const request: Case = { name: `${name}, page ${n + 1}`, query, variables: { ...variables, after }, expect: 'data' };
    const { ran, problems: found } = await runCases([request]);
    problems.push(...found);
    const page = pick(parse(ran[0].outcome.fast).data);
    pages.push(page);
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  return { pages, edges: pages.flatMap((p) => p.edges) };
}

test('pagination: producers walked two at a time give the one big page', async () => {
  const problems: string[] = [];
  const query = `query($after: String, $first: Int) { producers(first: $first, after: $after) { totalCount ${PAGE_INFO} edges { cursor node { id legalName purchases(first: 2) { totalCount edges { node { id } } } } } } }`;
  const { pages, edges } = await walk('producers', query, (d) => d.producers, { first: 2 }, problems);
  const { ran, problems: big } = await runCases([{ name: 'producers in one page', query, variables: { first: 100, after: null }, expect: 'data' }]);
  problems.push(...big);
  expect(problems).toEqual([]);
  const whole = parse(ran[0].outcome.fast).data.producers as Page;
  expect(edges).toEqual(whole.edges);
  expect(edges.map((e) => e.node.id)).toEqual(ids.producers);
  expect(pages).toHaveLength(Math.ceil(plan.producers.length / 2));
  expect(pages.map((p) => p.pageInfo.hasPreviousPage)).toEqual(pages.map((_, i) => i > 0));
  expect(pages.every((p) => p.totalCount === plan.producers.length)).toBe(true);
}, 30_000);

test("pagination: the big producer's purchases walked nine at a time give the big pages, by consumedOn then id", async () => {
  const problems: string[] = [];
  const query = `query($after: String, $first: Int, $from: Date, $to: Date) { producers(first: 1) { edges { node { id purchases(first: $first, after: $after, from: $from, to: $to) {
    totalCount ${PAGE_INFO} edges { cursor node { id consumedOn quantityKg cost supplierKind familyFarmer { name } originMunicipality { name } } } } } } } }`;
  const purchasesOf = (d: any) => {
    expect(d.producers.edges[0].node.id).toBe(ids.producers[BIG]);
    return d.producers.edges[0].node.purchases as Page;
  };
  const walked = await walk('big producer purchases', query, purchasesOf, { first: 9, from: null, to: null }, problems);
  const first = await runCases([{ name: 'first 100', query, variables: { first: 100, after: null }, expect: 'data' }]);
  const firstPage = purchasesOf(parse(first.ran[0].outcome.fast).data);
  const second = await runCases([{ name: 'the next 100', query, variables: { first: 100, after: firstPage.pageInfo.endCursor }, expect: 'data' }]);
  const secondPage = purchasesOf(parse(second.ran[0].outcome.fast).data);
  problems.push(...first.problems, ...second.problems);

  // With from/to: totalCount counts the filtered purchases, not the cursor.
  const from = '2025-01-01';
  const to = '2025-07-01';
  const filtered = await walk('big producer purchases from/to', query, purchasesOf, { first: 4, from, to }, problems);
  expect(problems).toEqual([]);

  const order = plan.purchases
    .map((p, i) => ({ p, id: ids.purchases[i] }))
    .filter(({ p }) => p.producer === BIG)
    .sort((a, b) => (a.p.consumedOn < b.p.consumedOn ? -1 : a.p.consumedOn > b.p.consumedOn ? 1 : Number(a.id) - Number(b.id)));
  expect(walked.pages).toHaveLength(Math.ceil(BIG_PURCHASES / 9));
  expect(walked.edges).toEqual([...firstPage.edges, ...secondPage.edges]);
  expect(firstPage.pageInfo.hasNextPage).toBe(true);
  expect(secondPage.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  expect(walked.edges.map((e) => e.node.id)).toEqual(order.map((o) => o.id));
  // Ids alone would give another order: the equal dates and the order by date are both exercised.
  expect(order.map((o) => Number(o.id))).not.toEqual([...order.map((o) => Number(o.id))].sort((a, b) => a - b));

  const expected = order.filter(({ p }) => p.consumedOn >= from && p.consumedOn <= to).map((o) => o.id);
  expect(filtered.edges.map((e) => e.node.id)).toEqual(expected);
  expect(filtered.pages.every((p) => p.totalCount === expected.length)).toBe(true);
  expect(filtered.pages.map((p) => p.pageInfo.hasPreviousPage)).toEqual(filtered.pages.map((_, i) => i > 0));
}, 40_000);

test('pagination: a cursor is taken only by its own connection, only as written, the same from both', async () => {
  const c = await cursors();
  const connections: Array<[string, keyof Cursors, string]> = [
    ['producers', 'producers', '{ producers(first: 2, after: $a) { edges { cursor node { id } } } }'],
    ['familyFarmers', 'farmers', '{ familyFarmers(first: 2, after: $a) { edges { cursor node { id } } } }'],
    ['organizations', 'organizations', '{ organizations(first: 2, after: $a) { edges { cursor node { id } } } }'],
    ['auditLog', 'audit', '{ auditLog(first: 2, after: $a) { edges { cursor node { id } } } }'],
    ['Producer.purchases', 'bigPurchases', `{ producer(id: "${ids.producers[BIG]}") { purchases(first: 2, after: $a) { edges { cursor node { id } } } } }`],
    ['Producer.sales', 'sales', `{ producer(id: "${ids.producers[BIG]}") { sales(first: 2, after: $a) { edges { cursor node { id } } } } }`],
    ['Producer.contracts', 'contracts', `{ producer(id: "${ids.producers[BIG]}") { contracts(first: 2, after: $a) { edges { cursor node { id } } } } }`],
  ];
  const cases: Case[] = [];
  for (const [name, own, body] of connections) {
    const query = `query($a: String) ${body}`;
    const mine = c[own][0];
    cases.push({ name: `${name} after its own cursor`, query, variables: { a: mine }, expect: 'data' });
    // Every other connection's cursor, though purchases and sales (or the registers) share a key's shape.
    for (const [other, theirs] of connections) {
      if (theirs !== own) cases.push({ name: `${name} after a ${other} cursor`, query, variables: { a: c[theirs][0] }, expect: 'BAD_USER_INPUT' });
    }
    // Its own cursor written otherwise: blanks, padding, another letter case, an extra character.
    if (!['producers', 'auditLog', 'Producer.purchases'].includes(name)) continue;
    for (const [how, a] of [['with blanks', `${mine.slice(0, 2)}  ${mine.slice(2)}`], ['padded', `${mine}==`], ['padded once', `${mine}=`], ['upper case', mine.toUpperCase()], ['with a character more', `${mine}A`], ['in base64 with + and /', Buffer.from(mine, 'base64url').toString('base64')]]) {
      if (a !== mine) cases.push({ name: `${name} after its own cursor ${how}`, query, variables: { a }, expect: 'BAD_USER_INPUT' });
    }
  }
  // A number written 1.0 or 1e0 is the number 1 to JSON, not the text we write.
  const one = Buffer.from(JSON.stringify(['producer', Number(ids.producers[0])])).toString('base64url');
  cases.push({ name: 'producers after the first producer', query: 'query($a: String) { producers(first: 1, after: $a) { edges { node { id } } } }', variables: { a: one }, expect: 'data' });
  for (const text of [`["producer",${ids.producers[0]}.0]`, `["producer",${ids.producers[0]}e0]`, `[ "producer",${ids.producers[0]}]`, `["producer","${ids.producers[0]}"]`]) {
    cases.push({ name: `producers after ${text}`, query: 'query($a: String) { producers(first: 1, after: $a) { edges { node { id } } } }', variables: { a: b64(text) }, expect: 'BAD_USER_INPUT' });
  }
  const { ran, problems } = await runCases(cases);
  expect(problems).toEqual([]);
  // The refused ones name `after`; its own cursor pages on: the page after the first producer is the second.
  const refused = ran.filter((r) => r.c.expect === 'BAD_USER_INPUT').map((r) => parse(r.outcome.fast).errors[0].extensions);
  expect(refused.length).toBeGreaterThan(50);
  // The compiled path answers the cursors it takes itself, one statement each.
  const taken = ran.filter((r) => r.c.expect === 'data');
  expect(taken.map((r) => [r.c.name, r.outcome.fastStatements])).toEqual(taken.map((r) => [r.c.name, 1]));
  expect(refused.every((e: any) => e.code === 'BAD_USER_INPUT' && e.field === 'after')).toBe(true);
  expect(parse(ran.find((r) => r.c.name === 'producers after the first producer')!.outcome.fast).data.producers.edges).toEqual([{ node: { id: ids.producers[1] } }]);
  expect(parse(ran.find((r) => r.c.name === 'producers after its own cursor')!.outcome.fast).data.producers.edges.map((e: any) => e.node.id)).toEqual(ids.producers.slice(1, 3));
}, 60_000);

test('pagination: first: 0 gives no edges, the count, and whether rows follow the cursor, the same from both', async () => {
  const c = await cursors();
  const { producer: one } = await slow.ok(`{ producer(id: "${ids.producers[ONE]}") { purchases { edges { cursor } } } }`);
  const query = `query($a: String, $p: String) {
    producers(first: 0, after: $a) { totalCount ${PAGE_INFO} edges { cursor node { id } } }
    producer(id: "${ids.producers[ONE]}") { purchases(first: 0, after: $p) { totalCount ${PAGE_INFO} edges { node { id } } } }
    all: producers(first: 100) { edges { node { purchases(first: 0) { totalCount pageInfo { hasNextPage } edges { cursor } } } } }
    familyFarmers(first: 0) { totalCount ${PAGE_INFO} } organizations(first: 0) { totalCount pageInfo { hasNextPage } } auditLog(first: 0) { totalCount pageInfo { hasNextPage } } }`;
  const cases: Case[] = [
    { name: 'first: 0 from the start', query, variables: { a: null, p: null }, expect: 'data' },
    { name: 'first: 0 after the second producer and after the one purchase', query, variables: { a: c.producers[1], p: one.purchases.edges[0].cursor }, expect: 'data' },
    { name: 'first: 0 after the last producer', query, variables: { a: c.producers[c.producers.length - 1], p: null }, expect: 'data' },
  ];
  const { ran, problems } = await runCases(cases);
  expect(problems).toEqual([]);
  // The compiled path answers them itself: one statement per root field.
  expect(ran.map((r) => r.outcome.fastStatements)).toEqual(ran.map((r) => compiledRootCount(r.c)));
  const [start, middle, end] = ran.map((r) => parse(r.outcome.fast).data);
  const none = { __typename: 'PageInfo', startCursor: null, endCursor: null };
  const n = plan.producers.length;
  expect(c.producers).toHaveLength(n);
  // From the start: every producer follows; the one producer's one purchase follows.
  expect(start.producers).toEqual({ totalCount: n, pageInfo: { ...none, hasNextPage: true, hasPreviousPage: false }, edges: [] });
  expect(start.producer.purchases).toEqual({ totalCount: 1, pageInfo: { ...none, hasNextPage: true, hasPreviousPage: false }, edges: [] });
  // Each producer's empty page counts its purchases; more follow where it has any (NONE has 0).
  const counts = plan.producers.map((_, i) => plan.purchases.filter((p) => p.producer === i).length);
  expect(start.all.edges.map((e: any) => e.node.purchases)).toEqual(counts.map((k) => ({ totalCount: k, pageInfo: { hasNextPage: k > 0 }, edges: [] })));
  expect(start.familyFarmers).toEqual({ totalCount: ids.farmers.length, pageInfo: { ...none, hasNextPage: true, hasPreviousPage: false } });
  expect(start.organizations).toEqual({ totalCount: ids.organizations.length, pageInfo: { hasNextPage: true } });
  expect(start.auditLog.pageInfo).toEqual({ hasNextPage: true });
  // After the second producer: n − 2 follow; after the one purchase, none. totalCount ignores the cursor.
  expect(middle.producers).toEqual({ totalCount: n, pageInfo: { ...none, hasNextPage: n > 2, hasPreviousPage: true }, edges: [] });
  expect(middle.producer.purchases).toEqual({ totalCount: 1, pageInfo: { ...none, hasNextPage: false, hasPreviousPage: true }, edges: [] });
  expect(end.producers).toEqual({ totalCount: n, pageInfo: { ...none, hasNextPage: false, hasPreviousPage: true }, edges: [] });
}, 30_000);

// ---------------------------------------------------------------------------------------------
// Generated selections within the supported shape.

/** How a generated field's arguments are drawn: a page of a kind of cursor, an id of a table, a producer, an IBGE code. */
type ArgKind = 'page' | 'datedPage' | 'id' | 'producerId' | 'ibgeCode' | 'auditPage' | 'minimumPrices' | 'parameter';
interface FieldSpec {
  type?: string; args?: ArgKind; cursors?: keyof Cursors; ids?: keyof Seeded | 'producers'; computed?: boolean;
  /** Arguments always given, with these values (a computed field's year, month or date). */
  fixed?: Array<[string, GenArg['type'], unknown]>;
}
const conn = (node: string, cursors: keyof Cursors, dated = false): FieldSpec => ({ type: `${node}Connection`, args: dated ? 'datedPage' : 'page', cursors });
const connectionShape = (node: string) => ({
  [`${node}Connection`]: { edges: { type: `${node}Edge` }, pageInfo: { type: 'PageInfo' }, totalCount: {}, __typename: {} },
  [`${node}Edge`]: { cursor: {}, node: { type: node }, __typename: {} },
});
/**
 * Every compiled shape: the root fields the compiler answers, and under them every field of the
 * types they lead to. Computed fields (answered by their resolvers) are drawn rarely: they make
 * their root field execute normally, which must give the same answer too.
 */
const SHAPE: Record<string, Record<string, FieldSpec>> = {
  Query: {
    producers: conn('Producer', 'producers'), 'producers#2': conn('Producer', 'producers'),
    familyFarmers: conn('FamilyFarmer', 'farmers'), organizations: conn('FamilyFarmingOrganization', 'organizations'),
    producer: { type: 'Producer', args: 'id', ids: 'producers' }, purchase: { type: 'Purchase', args: 'id', ids: 'purchases' },
    contract: { type: 'Contract', args: 'id', ids: 'contracts' }, familyFarmer: { type: 'FamilyFarmer', args: 'id', ids: 'farmers' },
    organization: { type: 'FamilyFarmingOrganization', args: 'id', ids: 'organizations' }, sealGrant: { type: 'SealGrant', args: 'id', ids: 'grants' },
    municipality: { type: 'Municipality', args: 'ibgeCode' },
    sealGrants: { type: 'SealGrant', args: 'producerId' }, regimeElections: { type: 'RegimeElection', args: 'producerId' },
    auditLog: { type: 'AuditEntryConnection', args: 'auditPage' }, minimumPrices: { type: 'MinimumPrice', args: 'minimumPrices' },
    lawParameterVersions: { type: 'LawParameterVersion', args: 'parameter' },
    __typename: {},
  },
  ...connectionShape('Producer'), ...connectionShape('Purchase'), ...connectionShape('Sale'), ...connectionShape('Contract'),
  ...connectionShape('FamilyFarmer'), ...connectionShape('FamilyFarmingOrganization'), ...connectionShape('AuditEntry'),
  PageInfo: { hasNextPage: {}, hasPreviousPage: {}, startCursor: {}, endCursor: {}, __typename: {} },
  Producer: {
    id: {}, cnpj: {}, legalName: {}, anpAuthorization: {}, version: {}, plantMunicipality: { type: 'Municipality' },
    purchases: conn('Purchase', 'purchases', true), 'purchases#2': conn('Purchase', 'purchases', true), sales: conn('Sale', 'sales', true),
    contracts: conn('Contract', 'contracts'), sealGrants: { type: 'SealGrant' }, regimeElections: { type: 'RegimeElection' }, establishments: {},
    taxPeriod: { type: 'TaxPeriod', computed: true, fixed: [['year', 'Int!', 2025], ['month', 'Int!', 3]] },
    sealCompliance: { type: 'SealCompliance', computed: true, fixed: [['year', 'Int!', 2025]] }, __typename: {},
  },
  Purchase: {
    id: {}, purchasedOn: {}, consumedOn: {}, feedstock: {}, quantityKg: {}, cost: {}, supplierKind: {}, supplierName: {}, purpose: {}, externalId: {},
    familyFarmer: { type: 'FamilyFarmer' }, organization: { type: 'FamilyFarmingOrganization' }, originMunicipality: { type: 'Municipality' },
    producer: { type: 'Producer' }, contract: { type: 'Contract' }, familyFarmingOrigin: { computed: true },
    selo: { type: 'PurchaseSeloStatus', computed: true }, __typename: {},
  },
  Sale: { id: {}, soldOn: {}, volumeM3: {}, revenue: {}, origin: {}, market: {}, invoiceKey: {}, producer: { type: 'Producer' }, __typename: {} },
  Contract: {
    id: {}, signedOn: {}, validFrom: {}, validUntil: {}, feedstock: {}, quantityKg: {}, pricePerKg: {}, technicalAssistance: {},
    producer: { type: 'Producer' }, familyFarmer: { type: 'FamilyFarmer' }, organization: { type: 'FamilyFarmingOrganization' },
    conformity: { type: 'ContractConformity', computed: true }, __typename: {},
  },
  SealGrant: { id: {}, grantedOn: {}, validUntil: {}, act: {}, producer: { type: 'Producer' }, events: { type: 'SealEvent' }, __typename: {} },
  SealEvent: { kind: {}, effectiveOn: {}, reason: {}, validUntil: {}, __typename: {} },
  RegimeElection: { regime: {}, electedOn: {}, startingActivity: {}, effectiveYear: {}, producer: { type: 'Producer' }, findings: { type: 'Finding', computed: true }, __typename: {} },
  Finding: { code: {}, message: {}, legalBasis: {} },
  FamilyFarmer: { id: {}, cpf: {}, name: {}, municipality: { type: 'Municipality' }, registrations: { type: 'FamilyFarmingRegistration' }, __typename: {} },
  FamilyFarmingOrganization: {
    id: {}, cnpj: {}, name: {}, kind: {}, members: {}, familyFarmerMembers: {}, municipality: { type: 'Municipality' },
    registrations: { type: 'FamilyFarmingRegistration' }, membershipHistory: { type: 'MembershipDeclaration' }, familyFarmerShare: { computed: true },
    habilitation: { type: 'Habilitation', computed: true, fixed: [['on', 'Date!', '2025-03-01']] }, __typename: {},
  },
  FamilyFarmingRegistration: { kind: {}, number: {}, validFrom: {}, validUntil: {}, __typename: {} },
  Municipality: { ibgeCode: {}, name: {}, state: {}, region: {}, semiarid: {}, priorityRegion: {}, semiaridMemberships: { type: 'SemiaridMembership' }, __typename: {} },
  SemiaridMembership: { validFrom: {}, validUntil: {}, act: {}, __typename: {} },
  MembershipDeclaration: { declaredOn: {}, members: {}, familyFarmerMembers: {}, recordedAt: {}, __typename: {} },
  AuditEntry: { id: {}, at: {}, actor: {}, role: {}, operation: {}, entity: {}, entityId: {}, before: { computed: true }, after: { computed: true }, __typename: {} },
  MinimumPrice: { id: {}, feedstock: {}, validFrom: {}, validUntil: {}, pricePerKg: {}, source: {}, publishedOn: {}, __typename: {} },
  LawParameterVersion: {
    id: {}, parameter: {}, scope: {}, values: { type: 'LawValue', computed: true }, validFrom: {}, validUntil: {}, publishedOn: {}, legalBasis: {}, note: {}, shipped: {}, __typename: {},
  },
  LawValue: { name: {}, value: {} },
  // Computed inside compiled trees (their resolvers, once per page), with a little of what they hold.
  TaxPeriod: { year: {}, month: {}, status: {}, regime: {}, pisDue: {}, cofinsDue: {}, totalDue: {}, warnings: { type: 'Finding' }, __typename: {} },
  SealCompliance: { compliant: {}, status: {}, achievedShare: {}, requiredShare: {}, findings: { type: 'Finding' }, __typename: {} },
  PurchaseSeloStatus: { counts: {}, kind: {}, year: {}, actual: {}, weighted: {}, priorityRegion: {}, findings: { type: 'Finding' }, __typename: {} },
  ContractConformity: { conforming: {}, findings: { type: 'Finding' }, minimumPrice: { type: 'MinimumPrice' }, __typename: {} },
  Habilitation: { habilitated: {}, on: {}, findings: { type: 'Finding' }, __typename: {} },
};
/** The root fields the compiler answers (each one statement). */
const COMPILED_ROOTS = new Set(Object.keys(SHAPE.Query).filter((k) => k !== '__typename').map((k) => k.replace(/#2$/, '')));
/** The field a connection or edge is rarely asked without. */
const USUAL: Record<string, string> = Object.fromEntries(Object.keys(SHAPE).flatMap((t) => (t.endsWith('Connection') ? [[t, 'edges']] : t.endsWith('Edge') ? [[t, 'node']] : [])));

interface GenDirective { kind: 'skip' | 'include'; value: boolean; viaVariable: boolean }
interface GenArg { name: string; type: 'Int' | 'Int!' | 'String' | 'Date' | 'Date!' | 'ID' | 'ID!' | 'String!' | 'Feedstock'; value: unknown; viaVariable: boolean; refused?: boolean }
interface GenField { kind: 'field'; name: string; alias: string | null; args: GenArg[]; directive: GenDirective | null; children: GenSel[] }
interface GenFragment { kind: 'inline' | 'typed' | 'named'; directive: GenDirective | null; children: GenSel[] }
type GenSel = GenField | GenFragment;

/** How deep a generated selection goes, and how many connections it has opened. */
interface Levels { depth: number; connections: number }
const MAX_DEPTH = 6;

function generators(c: Cursors) {
  const directive: fc.Arbitrary<GenDirective | null> = fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('skip' as const, 'include' as const), value: fc.boolean(), viaVariable: fc.boolean() }) },
  );
  const first = fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 1, max: 10 }) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 100 }) },
    { weight: 1, arbitrary: fc.constantFrom(0, 101, -1, 1000, null) },
  );
  const isoDate = fc.integer({ min: 0, max: 800 }).map((d) => new Date(Date.UTC(2024, 0, 1) + d * 86_400_000).toISOString().slice(0, 10));
  const date = fc.oneof(
    { weight: 6, arbitrary: isoDate },
    { weight: 3, arbitrary: fc.constantFrom('2024-02-29', '2025-01-01', '2025-03-01', '2025-05-05', '2025-08-10', '2025-12-31', '2026-01-01') },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_DATES) },
  );
  const after = (kind: keyof Cursors) => fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...c[kind]) },
    // Another page's cursor, a word, null.
    { weight: 1, arbitrary: fc.constantFrom('garbage', c[kind === 'producers' ? 'purchases' : 'producers'][0], c.sales[1], null) },
  );
  const arg = (name: string, type: GenArg['type'], value: fc.Arbitrary<unknown>, weight: number) => fc.oneof(
    { weight: 10 - weight, arbitrary: fc.constant(null) },
    { weight, arbitrary: fc.record({ name: fc.constant(name), type: fc.constant(type), value, viaVariable: fc.boolean() }) },
  );
  const required = (name: string, type: GenArg['type'], value: fc.Arbitrary<unknown>) => fc.record({ name: fc.constant(name), type: fc.constant(type), value, viaVariable: fc.boolean() });
  const someId = (list: string[]) => fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...list) }, { weight: 1, arbitrary: fc.constantFrom('987654321', 'x1', '01') });
  const args = (spec: FieldSpec): fc.Arbitrary<GenArg[]> => {
    const list: Array<fc.Arbitrary<GenArg | null>> = spec.args === 'page' || spec.args === 'datedPage'
      ? [arg('first', 'Int', first, 8), arg('after', 'String', after(spec.cursors!), 2),
        ...(spec.args === 'datedPage' ? [arg('from', 'Date', date, 3), arg('to', 'Date', date, 3)] : [])]
      : spec.args === 'id' ? [required('id', 'ID!', someId(ids[spec.ids as keyof Seeded]))]
        : spec.args === 'producerId' ? [required('producerId', 'ID!', someId(ids.producers))]
          : spec.args === 'ibgeCode' ? [required('ibgeCode', 'String!', fc.constantFrom(...plan.municipalities.map((m) => m.ibgeCode), '2611606 ', '9999999'))]
            : spec.args === 'auditPage' ? [arg('first', 'Int', first, 8), arg('after', 'String', after('audit'), 2),
              arg('entity', 'String', fc.constantFrom('Producer', 'Purchase', 'Municipality', 'Nothing', ''), 3),
              arg('entityId', 'String', fc.constantFrom(...ids.producers.slice(0, 3), '1', ''), 2)]
              : spec.args === 'minimumPrices' ? [arg('feedstock', 'Feedstock', fc.constantFrom('SOYBEAN', 'CASTOR_BEAN', 'PALM'), 4), arg('on', 'Date', date, 1)]
                : spec.args === 'parameter' ? [arg('parameter', 'String', fc.constantFrom(...c.parameters, 'nothing', ''), 5)]
                  : (spec.fixed ?? []).map(([name, type, value]) => required(name, type, fc.constant(value)));
    // A value the resolvers refuse (the compiler declines it): marked, for the statement counts.
    const refused = (a: GenArg) => (a.name === 'first' && typeof a.value === 'number' && (a.value < 0 || a.value > 100))
      || (a.name === 'after' && a.value !== null && !c[spec.cursors ?? 'audit'].includes(a.value as string))
      || (['from', 'to', 'on'].includes(a.name) && BAD_DATES.includes(a.value as string));
    return list.length ? fc.tuple(...list).map((xs) => xs.filter((x): x is GenArg => x !== null).map((a) => ({ ...a, refused: refused(a) }))) : fc.constant([]);
  };
  const alias = (name: string): fc.Arbitrary<string | null> => fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    { weight: 3, arbitrary: fc.constantFrom(`${name}_a`, `${name}_b`) },
    { weight: 1, arbitrary: fc.constantFrom('x', 'y') },
  );

  const field = (type: string, key: string, levels: Levels): fc.Arbitrary<GenSel> => {
    const spec = SHAPE[type][key];
    const name = key.replace(/#2$/, '');
    const nextLevels: Levels = { depth: levels.depth + 1, connections: levels.connections + (spec.args === 'page' || spec.args === 'datedPage' ? 1 : 0) };
    return fc.record({
      kind: fc.constant('field' as const),
      name: fc.constant(name),
      // The second copy of a field always has an alias of its own (its arguments may differ).
      alias: key.endsWith('#2') ? fc.constant(`${name}2`) : alias(name),
      args: args(spec),
      directive,
      children: spec.type ? fc.constant(null).chain(() => selections(spec.type!, nextLevels)) : fc.constant([]),
    });
  };

  const allowed = (type: string, key: string, levels: Levels) => {
    const spec = SHAPE[type][key];
    if (spec.type && levels.depth >= MAX_DEPTH) return false;
    if ((spec.args === 'page' || spec.args === 'datedPage') && levels.connections >= 2) return false;
    return true;
  };

  const selections = (type: string, levels: Levels): fc.Arbitrary<GenSel[]> => {
    const keys = Object.keys(SHAPE[type]).filter((k) => allowed(type, k, levels));
    const plain = keys.filter((k) => !SHAPE[type][k].computed);
    const usual = USUAL[type];
    return fc.record({
      chosen: fc.shuffledSubarray(plain, { minLength: 1, maxLength: Math.min(plain.length, type === 'Query' ? 3 : 7) }),
      addUsual: fc.integer({ min: 0, max: 9 }),
      at: fc.nat(),
      // A computed field now and then (in about one selection of a type in ten that has one).
      computed: fc.integer({ min: 0, max: 9 }),
    }).chain(({ chosen, addUsual, at, computed }) => {
      const names = [...chosen];
      if (usual && !names.includes(usual) && addUsual < 8) names.splice(at % (names.length + 1), 0, usual);
      const extra = keys.filter((k) => SHAPE[type][k].computed);
      if (extra.length && computed === 0) names.push(extra[at % extra.length]);
      return fc.tuple(...names.map((k) => field(type, k, levels)));
    }).chain((fields) => fc.record({
      wrap: fc.integer({ min: 0, max: 9 }),
      start: fc.nat(),
      length: fc.integer({ min: 1, max: 4 }),
      kind: fc.constantFrom('inline' as const, 'typed' as const, 'named' as const),
      directive,
      // Sometimes the fragment repeats a field the selection already has (merged in first-seen order).
      repeat: fc.boolean(),
    }).map(({ wrap, start, length, kind, directive: d, repeat }): GenSel[] => {
      if (wrap >= 3 || fields.length === 0) return fields;
      const from = start % fields.length;
      const inside = fields.slice(from, from + length);
      const outside = [...fields.slice(0, from), ...fields.slice(from + length)];
      const fragment: GenFragment = { kind, directive: d, children: repeat && outside.length ? [...inside, outside[0]] : inside };
      return [...outside.slice(0, from), fragment, ...outside.slice(from)];
    }));
  };

  const roles: fc.Arbitrary<Caller> = fc.oneof(
    { weight: 5, arbitrary: fc.constant(ADMIN) },
    { weight: 1, arbitrary: fc.constant(AUDITOR) },
    { weight: 2, arbitrary: fc.constantFrom(...[BIG, FEW, EVERY_KIND].map((i): Caller => ({ role: 'PRODUCER', producerId: ids.producers[i] }))) },
    { weight: 1, arbitrary: fc.constant<Caller>({ role: 'PRODUCER', producerId: '987654321' }) },
  );
  return { query: selections('Query', { depth: 0, connections: 0 }), roles };
}

/** The GraphQL text of a generated selection, its variables, and whether a producers field is really asked for. */
const BAD_DATES = ['2025-02-30', '2025-13-01', '', 'hoje'];

function render(root: GenSel[]): { query: string; variables: Record<string, unknown>; compiledRoots: string[]; rootNames: string[]; computed: boolean; refused: boolean } {
  const definitions: string[] = [];
  const variables: Record<string, unknown> = {};
  const fragments: string[] = [];
  const variable = (type: string, value: unknown) => {
    const name = `v${definitions.length}`;
    definitions.push(`$${name}: ${type}`);
    variables[name] = value;
    return `$${name}`;
  };
  const directiveText = (d: GenDirective | null) => (d ? ` @${d.kind}(if: ${d.viaVariable ? variable('Boolean!', d.value) : String(d.value)})` : '');
  const included = (d: GenDirective | null) => !d || (d.kind === 'include') === d.value;
  const set = (type: string, sels: GenSel[]): string => sels.map((s) => one(type, s)).join(' ');
  const one = (type: string, s: GenSel): string => {
    if (s.kind === 'field') {
      const args = s.args.map((a) => `${a.name}: ${a.viaVariable ? variable(a.type, a.value) : JSON.stringify(a.value)}`);
      const spec = SHAPE[type][s.name];
      const sub = spec.type ? ` { ${set(spec.type, s.children)} }` : '';
      return `${s.alias ? `${s.alias}: ` : ''}${s.name}${args.length ? `(${args.join(', ')})` : ''}${directiveText(s.directive)}${sub}`;
    }
    if (s.kind === 'named') {
      const name = `F${fragments.length}`;
      fragments.push('');
      const index = fragments.length - 1;
      const spread = `...${name}${directiveText(s.directive)}`;
      fragments[index] = `fragment ${name} on ${type} { ${set(type, s.children)} }`;
      return spread;
    }
    return `...${s.kind === 'typed' ? ` on ${type}` : ''}${directiveText(s.directive)} { ${set(type, s.children)} }`;
  };
  const body = set('Query', root);
  // The response keys of the compiled root fields really asked for (each one statement).
  const roots = new Map<string, string>();
  const collectRoots = (sels: GenSel[]) => sels.forEach((s) => {
    if (!included(s.directive)) return;
    if (s.kind === 'field') {
      if (COMPILED_ROOTS.has(s.name)) roots.set(s.alias ?? s.name, s.name);
    } else collectRoots(s.children);
  });
  collectRoots(root);
  const hasComputed = (type: string, sels: GenSel[]): boolean => sels.some((s) => (s.kind === 'field'
    ? SHAPE[type][s.name].computed || (SHAPE[type][s.name].type !== undefined && hasComputed(SHAPE[type][s.name].type!, s.children))
    : hasComputed(type, s.children)));
  const query = `query Generated${definitions.length ? `(${definitions.join(', ')})` : ''} { ${body} }${fragments.length ? `\n${fragments.join('\n')}` : ''}`;
  const hasRefused = (sels: GenSel[]): boolean => sels.some((s) => (s.kind === 'field' ? s.args.some((a) => a.refused) || hasRefused(s.children) : hasRefused(s.children)));
  return { query, variables, compiledRoots: [...roots.keys()], rootNames: [...roots.values()], computed: hasComputed('Query', root), refused: hasRefused(root) };
}

/** Statement counts of the generated requests, for the test after the property. */
const generated: Array<{ request: string; ok: boolean; compiledRoots: string[]; rootNames: string[]; computed: boolean; refused: boolean; nullRoots: boolean; fastStatements: number; slowStatements: number; fastSql: string[] }> = [];

test('generated selections within the supported shape: the same status and body from both', async () => {
  const { query, roles } = generators(await cursors());
  await checkProperty(
    fc.asyncProperty(query, roles, async (selection, as) => {
      const { query: text, variables, compiledRoots, rootNames, computed, refused } = render(selection);
      const request: Request = { query: text, variables, as };
      const outcome = await both(request);
      const ok = !outcome.slow.body.includes('"errors"') && outcome.slow.status === 200;
      // A lookup that finds nothing is answered by its resolver (null or NOT_FOUND).
      // So is an id written with a leading zero (it names no record).
      const nullRoots = ok && (compiledRoots.some((k) => JSON.parse(outcome.slow.body).data[k] === null) || JSON.stringify(selection).includes('"01"'));
      generated.push({ request: describeRequest('generated', request), ok, compiledRoots, rootNames, computed, refused, nullRoots, fastStatements: outcome.fastStatements, slowStatements: outcome.slowStatements, fastSql: outcome.fastSql });
      if (outcome.difference) throw new Error(`${describeRequest('generated', request)}\n  ${outcome.difference}`);
    }),
    { numRuns: 200, seed: 20261203 },
  );
  // Most generated requests are answered with data (they exercise the compiled path, not only its refusals).
  expect(generated.filter((g) => g.ok).length).toBeGreaterThan(generated.length * 0.5);
}, 180_000);

// ---------------------------------------------------------------------------------------------
// The compiled path is the one that answers.

test('a supported read is answered with one SQL statement per root field, whatever its size', async () => {
  const { ran, problems } = await runCases(supportedForCount());
  expect(problems).toEqual([]);
  // graphql-js needs several for most of them: the counts are those of real work.
  expect(ran.filter((r) => r.outcome.slowStatements > 1).length).toBeGreaterThan(ran.length / 2);
  expect(ran.map((r) => [r.c.name, r.outcome.fastStatements])).toEqual(ran.map((r) => [r.c.name, compiledRootCount(r.c)]));
  expect(compiledRootCount(ran.find((r) => r.c.name === 'every compiled root field at once')!.c)).toBe(COMPILED_ROOTS.size);
}, 30_000);

test('generated compiled reads each ran as one SQL statement per root field', () => {
  // Not counted: a refused argument under an empty list (no error, but the compiler declined it).
  const supported = generated.filter((g) => g.ok && !g.computed && !g.refused && !g.nullRoots && g.compiledRoots.length > 0);
  expect(supported.length).toBeGreaterThan(60);
  expect(new Set(supported.flatMap((g) => g.rootNames)).size).toBeGreaterThan(10);
  expect(supported.filter((g) => g.fastStatements !== g.compiledRoots.length).map((g) => `${g.request}\n  statements: ${g.fastStatements}, root fields ${g.compiledRoots}\n${g.fastSql.map((q) => q.slice(0, 300)).join('\n')}`)).toEqual([]);
});

test('the generated requests reach every compiled root, the dated lists and the computed fields, answered with data', () => {
  const answered = generated.filter((g) => g.ok).map((g) => g.request);
  const fields = ['auditLog(', 'minimumPrices', 'lawParameterVersions', 'membershipHistory', 'semiaridMemberships', 'establishments', 'recordedAt'];
  expect(fields.map((f) => [f, answered.some((r) => r.includes(f))])).toEqual(fields.map((f) => [f, true]));
  // Computed fields inside compiled trees, of several kinds (each one is also in COMPUTED_EVERY_KIND).
  const computed = ['taxPeriod(', 'sealCompliance(', 'selo', 'conformity', 'habilitation(', 'familyFarmingOrigin'].filter((f) => answered.some((r) => r.includes(f)));
  expect(computed.length).toBeGreaterThanOrEqual(3);
  expect(generated.filter((g) => g.ok && g.computed).length).toBeGreaterThan(10);
});

test('unsupported and rejected requests fall back: more than one statement, or as many as graphql-js', async () => {
  const cases = [...unsupportedCases(), ...(await rejectedCases())];
  const { ran, problems } = await runCases(cases);
  expect(problems).toEqual([]);
  const compiledLooking = ran.filter((r) => !r.c.compiled && !(r.outcome.fastStatements > 1 || r.outcome.fastStatements === r.outcome.slowStatements));
  expect(compiledLooking.map((r) => `${r.c.name}: ${r.outcome.fastStatements} statements, graphql-js ${r.outcome.slowStatements}`)).toEqual([]);
  // The unsupported reads do real work in graphql-js (most of them several statements).
  const unsupported = ran.slice(0, unsupportedCases().length).filter((r) => r.c.expect === 'data');
  expect(unsupported.filter((r) => r.outcome.slowStatements < 1).map((r) => r.c.name)).toEqual([]);
  expect(unsupported.filter((r) => r.outcome.slowStatements > 1).length).toBeGreaterThan(unsupported.length / 2);
  // Rejected generated requests too.
  // (One root field: beside others, the refused one's statements are not told apart from theirs.)
  const refusedGenerated = generated.filter((g) => !g.ok && g.compiledRoots.length === 1 && !(g.fastStatements > 1 || g.fastStatements === g.slowStatements));
  expect(refusedGenerated.map((g) => `${g.request}\n  statements: ${g.fastStatements} vs ${g.slowStatements}`)).toEqual([]);
}, 30_000);

test('executeOperation (no HTTP) gets the compiled answer as an object, the same data as over HTTP', async () => {
  const over = await both({ query: NESTED_PAGE_QUERY });
  const services = createServices(fast.db.dataSource);
  const actor = { sub: 'test-admin', role: Role.ADMIN, producerId: null, requestId: 'in-process' };
  fast.statements.reset();
  const res = await fast.app.apollo.executeOperation({ query: NESTED_PAGE_QUERY }, { contextValue: { actor, requestId: 'in-process', services, loaders: createLoaders(services, actor), today: today() } });
  expect(fast.statements.count).toBe(1);
  if (res.body.kind !== 'single') throw new Error('expected a single result');
  const data = res.body.singleResult.data;
  expect(res.body.singleResult.errors).toBeUndefined();
  expect(data).toEqual(JSON.parse(over.slow.body).data);
  expect((data as any).producers.edges.length).toBe(plan.producers.length);
});
