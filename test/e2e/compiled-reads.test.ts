import { NESTED_PAGE_QUERY } from '../../bench/run';
import { Caller, startTestApi, TestApi } from '../support/api';

/**
 * Reads answered by one SQL statement (src/graphql/compiled/) must be byte for byte what
 * graphql-js execution gives: the same data, as the same JSON text, with the same HTTP status, for
 * every role, and the same errors where the arguments are refused (the compiled path then steps
 * aside). Two APIs on two databases holding the same rows: one with the compiled path, one without.
 */

let fast: TestApi;
let slow: TestApi;

async function seed(api: TestApi): Promise<void> {
  const q = (sql: string) => api.db.dataSource.query(sql);
  await q(`INSERT INTO municipality (ibge_code, name, state, region, semiarid, priority_region) VALUES
    ('2611606', 'Recife', 'PE', 'NORTHEAST', false, true), ('4314902', 'Porto Alegre', 'RS', 'SOUTH', false, false),
    ('2910800', 'Feira de Santana', 'BA', 'NORTHEAST', true, true) ON CONFLICT (ibge_code) DO NOTHING`);
  // Seven producers: 1 to 6 with purchases (producer 1 with more than 100), 7 with none.
  await q(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code, anp_authorization)
    SELECT lpad(g::text, 14, '0'), CASE g WHEN 2 THEN 'Óleos "Sertão" d''Água — 日本' ELSE 'Produtora ' || g END,
           CASE WHEN g % 2 = 0 THEN '2611606' ELSE '4314902' END, CASE WHEN g % 3 = 0 THEN 'ANP-' || g END
      FROM generate_series(1, 7) g`);
  await q(`INSERT INTO family_farmer (cpf, name, municipality_code)
    SELECT lpad(g::text, 11, '0'), 'Agricultor ' || g || CASE WHEN g = 2 THEN ' São João\\n' ELSE '' END, '2910800' FROM generate_series(1, 6) g`);
  await q(`INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id,
                                 supplier_name, origin_municipality_code, purpose, external_id)
    SELECT CASE WHEN g <= 130 THEN 1 ELSE 2 + g % 5 END,
           date '2025-01-01' + (g % 40), date '2025-01-01' + (g % 40) + (g % 3),
           CASE WHEN g % 4 = 0 THEN 'CASTOR_BEAN' ELSE 'SOYBEAN' END,
           (ARRAY[250.50, 0.001, 1000, 12345678.123, 7])[1 + g % 5],
           CASE WHEN g % 5 = 0 THEN NULL ELSE (ARRAY[250.50, 0.01, 1000, 12345678.12])[1 + g % 4] END,
           CASE WHEN g % 5 = 0 THEN 'OWN_PRODUCTION' WHEN g % 2 = 0 THEN 'FAMILY_FARMER' ELSE 'THIRD_PARTY' END,
           CASE WHEN g % 5 <> 0 AND g % 2 = 0 THEN 1 + g % 6 END,
           CASE WHEN g % 5 <> 0 AND g % 2 = 1 THEN 'Terceiro ' || g END,
           (ARRAY['2611606', '4314902', '2910800'])[1 + g % 3],
           CASE WHEN g % 7 = 0 THEN 'OTHER_PRODUCT' ELSE 'BIODIESEL_FEEDSTOCK' END,
           CASE WHEN g % 3 = 0 THEN 'ext-' || g END
      FROM generate_series(1, 200) g`);
}

beforeAll(async () => {
  [fast, slow] = await Promise.all([startTestApi(), startTestApi({ compiledReads: false })]);
  await seed(fast);
  await seed(slow);
});
afterAll(async () => {
  await Promise.all([fast?.close(), slow?.close()]);
});

async function raw(api: TestApi, query: string, variables: Record<string, unknown>, as: Caller | null): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (as) headers.authorization = `Bearer ${await api.token(as)}`;
  const res = await fetch(api.url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return `${res.status} ${await res.text()}`;
}

/** Both answers, and the statements the compiled side sent. */
async function both(query: string, variables: Record<string, unknown> = {}, as: Caller | null = { role: 'ADMIN' }) {
  fast.statements.reset();
  const a = await raw(fast, query, variables, as);
  const statements = fast.statements.count;
  const b = await raw(slow, query, variables, as);
  return { fast: a, slow: b, statements };
}

const PAGE = `query Page($n: Int, $after: String, $m: Int, $pAfter: String, $from: Date, $to: Date, $withCost: Boolean!) {
  __typename
  producers(first: $n, after: $after) {
    __typename totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { ...P } }
  }
}
fragment P on Producer {
  __typename id cnpj legalName anpAuthorization version plantMunicipality { ibgeCode name state region semiarid priorityRegion }
  purchases(first: $m, after: $pAfter, from: $from, to: $to) {
    totalCount
    pageInfo { endCursor hasNextPage startCursor hasPreviousPage __typename }
    edges { __typename cursor node {
      id purchasedOn consumedOn feedstock quantityKg cost @include(if: $withCost) supplierKind supplierName purpose externalId
      ... on Purchase { familyFarmer { id cpf name municipality { name semiarid } } }
      originMunicipality { ibgeCode region }
      producer { id legalName }
    } }
  }
}`;

const SUPPORTED: Array<[string, string, Record<string, unknown>]> = [
  ['the benchmark page', NESTED_PAGE_QUERY, {}],
  ['every supported field', PAGE, { withCost: true }],
  ['small pages, a field skipped', PAGE, { n: 2, m: 3, withCost: false }],
  ['date bounds', PAGE, { n: 7, m: 50, from: '2025-01-10', to: '2025-01-20', withCost: true }],
  ['only a count, only a type name', `{ producers { totalCount } p: producers(first: 1) { __typename pageInfo { hasPreviousPage } } }`, {}],
  ['aliases, the same connection twice', `{ a: producers(first: 1) { edges { node { x: id y: id purchases(first: 2) { edges { node { id } } } z: purchases(first: 3, from: "2025-01-30") { totalCount edges { node { cost } } } } } } b: producers(first: 100) { totalCount } }`, {}],
  ['nested back to the producer', `{ producers(first: 2) { edges { node { purchases(first: 2) { edges { node { producer { purchases(first: 1) { edges { cursor node { id } } } } } } } } } } }`, {}],
  ['only skipped fields', `query($s: Boolean!) { producers { edges { node { id @skip(if: $s) } } } }`, { s: true }],
];

describe('compiled reads answer as graphql-js does', () => {
  test.each(SUPPORTED)('%s: the same JSON, in one SQL statement', async (_name, query, variables) => {
    const r = await both(query, variables);
    expect(r.fast).toBe(r.slow);
    expect(r.fast.startsWith('200 {"data":')).toBe(true);
    expect(r.statements).toBe(1);
  });

  test('a big producer walked page by page equals its one big page; the same cursors on both sides', async () => {
    const query = `query($after: String) { producers(first: 1) { edges { node { purchases(first: 7, after: $after) { pageInfo { hasNextPage endCursor } edges { cursor node { id consumedOn } } } } } } }`;
    const ids: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 30; page++) {
      const r = await both(query, { after });
      expect(r.fast).toBe(r.slow);
      const conn = JSON.parse(r.fast.slice(4)).data.producers.edges[0].node.purchases;
      ids.push(...conn.edges.map((e: { node: { id: string } }) => e.node.id));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    const all = await fast.ok(`{ producers(first: 1) { edges { node { purchases(first: 100) { edges { node { id } } } } } } }`);
    expect(ids.length).toBe(130);
    expect(new Set(ids).size).toBe(130);
    expect(ids.slice(0, 100)).toEqual(all.producers.edges[0].node.purchases.edges.map((e: { node: { id: string } }) => e.node.id));
  });

  test.each([
    ['ADMIN', { role: 'ADMIN' }],
    ['AUDITOR', { role: 'AUDITOR' }],
    ['a PRODUCER (its own producer only)', { role: 'PRODUCER', producerId: '2' }],
    ['a PRODUCER of no producer', { role: 'PRODUCER', producerId: '999' }],
  ] as Array<[string, Caller]>)('%s: the same page', async (_name, as) => {
    const r = await both(PAGE, { n: 100, m: 4, withCost: true }, as);
    expect(r.fast).toBe(r.slow);
    expect(r.statements).toBe(1);
    if (as.role === 'PRODUCER') {
      const edges = JSON.parse(r.fast.slice(4)).data.producers.edges;
      expect(edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(as.producerId === '2' ? ['2'] : []);
    }
  });

  test('no token: the same 401', async () => {
    const r = await both(NESTED_PAGE_QUERY, {}, null);
    expect(r.fast).toBe(r.slow);
    expect(r.fast.startsWith('401 ')).toBe(true);
  });

  test.each([
    ['first: 0', `{ producers(first: 0) { totalCount } }`],
    ['first: 101', `{ producers(first: 101) { totalCount } }`],
    ['a word as cursor', `{ producers(after: "garbage") { totalCount } }`],
    ['a purchase cursor given to producers', `{ producers(after: "WyIyMDI1LTAxLTAxIiwiMSJd") { totalCount } }`],
    ['a producer cursor given to purchases', `{ producers { edges { node { purchases(after: "WzFd") { totalCount } } } } }`],
    ['purchases first: 101', `{ producers { edges { node { purchases(first: 101) { totalCount } } } } }`],
  ])('%s: the same error', async (_name, query) => {
    const r = await both(query);
    expect(r.fast).toBe(r.slow);
    expect(r.fast).toContain('"code":"BAD_USER_INPUT"');
  });

  test('a date that does not exist, in a variable: the same refusal', async () => {
    const r = await both(`query($d: Date) { producers { edges { node { purchases(from: $d) { totalCount } } } } }`, { d: '2025-02-30' });
    expect(r.fast).toBe(r.slow);
    expect(r.fast.startsWith('400 ')).toBe(true);
  });

  test.each([
    ['another root field beside', `{ producers(first: 2) { totalCount } municipality(ibgeCode: "2611606") { name } }`],
    ['a computed purchase field', `{ producers(first: 2) { edges { node { purchases(first: 3) { edges { node { id selo { counts } organization { id } } } } } } } }`],
    ['another connection of the producer', `{ producers(first: 2) { edges { node { id sales(first: 2) { totalCount } } } } }`],
  ])('%s: executed by graphql-js, the same answer', async (_name, query) => {
    const r = await both(query);
    expect(r.fast).toBe(r.slow);
    expect(r.statements).toBeGreaterThan(1);
  });
});
