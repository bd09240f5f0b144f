import { FAMILY_FARMER_KEYSET, ORGANIZATION_KEYSET } from '../../src/services/keysets';
import { encodeCursor } from '../../src/services/pagination';
import { Caller, startTestApi, TestApi } from '../support/api';
import { createProducer, insertContract, insertFarmer, insertOrganization, MUNICIPALITIES } from './records-b.fixtures';

/**
 * pageInfo.hasPreviousPage is "items before startCursor": whether a row of the same filtered,
 * ordered list comes before the page (for an empty page, at or before the cursor), not whether
 * `after` was given. A cursor may point before the filters' window (a purchase of 2025 given to
 * `from: "2026-03-01"`) or at a row the filters leave out (another producer's contract, another
 * entity's audit entry): nothing of the list precedes the page then. Every connection, on the
 * compiled read (one statement) and on the resolvers alike.
 */

interface World {
  producerA: string;
  producerB: string;
  farmer: string;
}

/** The reads a request sends (a PRODUCER's compiled read is framed by its row-level security transaction). */
const FRAMING = /^(START TRANSACTION|COMMIT|ROLLBACK)$|^SELECT set_config\('role', 'selo_producer', true\)/;

async function seed(api: TestApi): Promise<World> {
  await api.ok(`mutation($m: [MunicipalityInput!]!) { upsertMunicipalities(input: $m) { ibgeCode } }`, { m: MUNICIPALITIES });
  const producerA = await createProducer(api, 'Biodiesel Alfa S.A.');
  const producerB = await createProducer(api, 'Biodiesel Beta Ltda', '4314902');
  const farmer = await insertFarmer(api);
  await insertFarmer(api, '2611606', 'João Souza');
  await insertOrganization(api, 'COOPERATIVE');
  await insertOrganization(api, 'ASSOCIATION');
  // A's contract has the smallest id: a cursor of it lies before every contract of B.
  await insertContract(api, producerA, farmer);
  await insertContract(api, producerB, farmer);
  await insertContract(api, producerB, farmer);
  const days = ['2025-07-02', '2026-03-05', '2026-03-10'];
  await api.ok(`mutation($input: [RecordSaleInput!]!) { recordSales(input: $input) { id } }`, {
    input: days.map((soldOn) => ({ producerId: producerA, soldOn, volumeM3: '10', revenue: '1000' })),
  });
  await api.ok(`mutation($input: [RecordImportInput!]!) { recordImports(input: $input) { id } }`, {
    input: days.map((clearedOn, i) => ({ producerId: producerA, clearedOn, volumeM3: '5', declarationNumber: `26/030000${i}-1` })),
  });
  // Recorded last: the newest audit entries are purchases.
  const purchase = (producerId: string, purchasedOn: string) => ({
    producerId, purchasedOn, feedstock: 'SOYBEAN', quantityKg: '100', cost: '10', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista', originMunicipalityCode: '4314902',
  });
  await api.ok(`mutation($input: [RecordPurchaseInput!]!) { recordPurchases(input: $input) { id } }`, {
    input: [purchase(producerA, '2025-07-02'), purchase(producerA, '2026-03-05'), purchase(producerA, '2026-03-05'), purchase(producerA, '2026-04-01'), purchase(producerB, '2026-03-05')],
  });
  return { producerA, producerB, farmer };
}

interface Page { totalCount?: number; edges: Array<{ cursor: string; node: { id: string } }>; pageInfo: { hasPreviousPage: boolean; hasNextPage: boolean; startCursor: string | null } }

const CONNECTION = 'totalCount edges { cursor node { id } } pageInfo { hasPreviousPage hasNextPage startCursor }';
const DATED = (field: string) => `query($id: ID!, $first: Int, $after: String, $from: Date, $to: Date) {
  producer(id: $id) { ${field}(first: $first, after: $after, from: $from, to: $to) { ${CONNECTION} } } }`;

describe.each([['the compiled read', true], ['the resolvers', false]] as const)('hasPreviousPage on %s', (_side, compiled) => {
  let api: TestApi;
  let w: World;

  beforeAll(async () => {
    api = await startTestApi({ compiledReads: compiled });
    w = await seed(api);
  }, 60_000);
  afterAll(async () => { await api?.close(); });

  /** The request's data, checking that the compiled side answered each root field in one statement of its own. */
  async function ask(query: string, variables: Record<string, unknown>, as?: Caller): Promise<Record<string, any>> {
    api.statements.reset();
    const data = await api.ok(query, variables, as);
    if (compiled) expect(api.statements.statements.filter((s) => !FRAMING.test(s))).toHaveLength(1);
    return data;
  }

  const dated = async (field: string, variables: Record<string, unknown>): Promise<Page> =>
    (await ask(DATED(field), { id: w.producerA, first: 10, ...variables })).producer[field];
  const ids = (page: Page) => page.edges.map((e) => e.node.id);

  test.each(['purchases', 'sales', 'imports'])('%s: a cursor before `from` has nothing before it; one inside the window has', async (field) => {
    const all = await dated(field, {});
    // purchases: 2025-07-02, 2026-03-05 (twice), 2026-04-01; sales and imports: 2025-07-02, 2026-03-05, 2026-03-10.
    const [c2025, cInside] = all.edges.map((e) => e.cursor);
    const from = '2026-03-01';
    const fromStart = await dated(field, { from });
    expect(fromStart.pageInfo.hasPreviousPage).toBe(false);
    // The cursor of 2025-07-02 gives the same page as no cursor, and says so.
    const afterEarlier = await dated(field, { from, after: c2025 });
    expect(afterEarlier).toEqual(fromStart);
    expect(ids(afterEarlier)).toEqual(ids(all).slice(1));
    // From inside the window: its first row precedes the page.
    const afterInside = await dated(field, { from, after: cInside });
    expect(afterInside.pageInfo).toMatchObject({ hasPreviousPage: true, startCursor: all.edges[2].cursor });
    expect(ids(afterInside)).toEqual(ids(all).slice(2));
    // Without `from`, the row of 2025 is in the list and precedes the page.
    expect((await dated(field, { after: c2025 })).pageInfo.hasPreviousPage).toBe(true);
    // A cursor past the window (`to` before it): an empty page, and the window's rows before it.
    const pastWindow = await dated(field, { to: '2025-12-31', after: cInside });
    expect(pastWindow).toMatchObject({ totalCount: 1, edges: [], pageInfo: { hasPreviousPage: true, hasNextPage: false, startCursor: null } });
    // first: 0 — nothing shown; whether a row of the list is at or before the cursor.
    const empty = async (variables: Record<string, unknown>) => (await dated(field, { first: 0, ...variables })).pageInfo;
    expect(await empty({ from })).toEqual({ hasPreviousPage: false, hasNextPage: true, startCursor: null });
    expect(await empty({ from, after: c2025 })).toEqual({ hasPreviousPage: false, hasNextPage: true, startCursor: null });
    expect(await empty({ from, after: cInside })).toEqual({ hasPreviousPage: true, hasNextPage: true, startCursor: null });
    expect(await empty({ from, after: all.edges[all.edges.length - 1].cursor })).toEqual({ hasPreviousPage: true, hasNextPage: false, startCursor: null });
    // A window after the cursor's row and every row of the list: empty, nothing before.
    expect(await empty({ from: '2027-01-01', after: cInside })).toEqual({ hasPreviousPage: false, hasNextPage: false, startCursor: null });
  });

  test("purchases: the report's query, the cursor of the first purchase (2025-07-02) against from: 2026-03-01", async () => {
    const query = `query($a: String) { producer(id: "${w.producerA}") { purchases(first: 2, from: "2026-03-01", after: $a) {
      totalCount edges { node { id consumedOn } } pageInfo { hasPreviousPage startCursor } } } }`;
    const first = await dated('purchases', { first: 1 });
    const withCursor = (await ask(query, { a: first.edges[0].cursor })).producer.purchases;
    const withoutCursor = (await ask(query, { a: null })).producer.purchases;
    expect(withCursor).toEqual(withoutCursor);
    expect(withCursor.totalCount).toBe(3);
    expect(withCursor.edges.map((e: { node: { consumedOn: string } }) => e.node.consumedOn)).toEqual(['2026-03-05', '2026-03-05']);
    expect(withCursor.pageInfo.hasPreviousPage).toBe(false);
  });

  test("contracts: a cursor of another producer's contract precedes none of this producer's", async () => {
    const query = `query($id: ID!, $first: Int, $after: String) { producer(id: $id) { contracts(first: $first, after: $after) { ${CONNECTION} } } }`;
    const contracts = async (id: string, variables: Record<string, unknown>): Promise<Page> => (await ask(query, { id, first: 10, ...variables })).producer.contracts;
    const ofA = await contracts(w.producerA, {});
    const ofB = await contracts(w.producerB, {});
    expect(ofB.edges).toHaveLength(2);
    expect(Number(ofA.edges[0].node.id)).toBeLessThan(Number(ofB.edges[0].node.id));
    const afterA = await contracts(w.producerB, { after: ofA.edges[0].cursor });
    expect(afterA).toEqual(ofB);
    expect(afterA.pageInfo.hasPreviousPage).toBe(false);
    expect((await contracts(w.producerB, { after: ofB.edges[0].cursor })).pageInfo).toMatchObject({ hasPreviousPage: true, startCursor: ofB.edges[1].cursor });
    expect((await contracts(w.producerB, { first: 0, after: ofA.edges[0].cursor })).pageInfo).toEqual({ hasPreviousPage: false, hasNextPage: true, startCursor: null });
    expect((await contracts(w.producerB, { first: 0, after: ofB.edges[1].cursor })).pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: false, startCursor: null });
  });

  test('producers: for a PRODUCER, the cursor of a producer it does not see precedes nothing', async () => {
    const query = `query($first: Int, $after: String) { producers(first: $first, after: $after) { ${CONNECTION} } }`;
    const producers = async (variables: Record<string, unknown>, as?: Caller): Promise<Page> => (await ask(query, { first: 10, ...variables }, as)).producers;
    const all = await producers({});
    const cursorOfA = all.edges.find((e) => e.node.id === w.producerA)!.cursor;
    const asB: Caller = { role: 'PRODUCER', producerId: w.producerB };
    const own = await producers({ after: cursorOfA }, asB);
    expect(ids(own)).toEqual([w.producerB]);
    expect(own.pageInfo.hasPreviousPage).toBe(false);
    expect((await producers({ first: 0, after: cursorOfA }, asB)).pageInfo).toEqual({ hasPreviousPage: false, hasNextPage: true, startCursor: null });
    expect((await producers({ first: 0, after: own.edges[0].cursor }, asB)).pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: false, startCursor: null });
    // An ADMIN sees A before B.
    expect((await producers({ after: cursorOfA })).pageInfo.hasPreviousPage).toBe(true);
  });

  test.each([
    ['familyFarmers', FAMILY_FARMER_KEYSET],
    ['organizations', ORGANIZATION_KEYSET],
  ] as const)('%s: a cursor before the first row has nothing before it', async (field, keyset) => {
    const query = `query($first: Int, $after: String) { ${field}(first: $first, after: $after) { ${CONNECTION} } }`;
    const list = async (variables: Record<string, unknown>): Promise<Page> => (await ask(query, { first: 10, ...variables }))[field];
    const all = await list({});
    expect(all.edges).toHaveLength(2);
    // The cursor of id 0 (a row deleted, or none ever): every row follows it, none precedes the page.
    const beforeAll = encodeCursor(keyset, [0]);
    const fromZero = await list({ after: beforeAll });
    expect(fromZero).toEqual(all);
    expect(fromZero.pageInfo.hasPreviousPage).toBe(false);
    expect((await list({ after: all.edges[0].cursor })).pageInfo).toMatchObject({ hasPreviousPage: true, startCursor: all.edges[1].cursor });
    expect((await list({ first: 0, after: beforeAll })).pageInfo).toEqual({ hasPreviousPage: false, hasNextPage: true, startCursor: null });
    expect((await list({ first: 0, after: all.edges[1].cursor })).pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: false, startCursor: null });
  });

  test('auditLog (newest first): the cursor of a newer entry of another entity precedes no entry of this one', async () => {
    const query = `query($first: Int, $after: String, $entity: String) { auditLog(first: $first, after: $after, entity: $entity) { ${CONNECTION} } }`;
    const log = async (variables: Record<string, unknown>): Promise<Page> => (await ask(query, { first: 10, entity: null, ...variables })).auditLog;
    const newest = await log({ first: 1 });
    const sales = await log({ entity: 'Sale' });
    expect(sales.edges).toHaveLength(3);
    // The newest entry is a purchase's, newer than every sale's.
    expect(Number(newest.edges[0].node.id)).toBeGreaterThan(Number(sales.edges[0].node.id));
    const afterNewest = await log({ entity: 'Sale', after: newest.edges[0].cursor });
    expect(afterNewest).toEqual(sales);
    expect(afterNewest.pageInfo.hasPreviousPage).toBe(false);
    expect((await log({ entity: 'Sale', after: sales.edges[0].cursor })).pageInfo).toMatchObject({ hasPreviousPage: true, startCursor: sales.edges[1].cursor });
    // Unfiltered, the newest entry precedes the page after it.
    expect((await log({ first: 1, after: newest.edges[0].cursor })).pageInfo.hasPreviousPage).toBe(true);
    expect((await log({ entity: 'Sale', first: 0, after: newest.edges[0].cursor })).pageInfo).toEqual({ hasPreviousPage: false, hasNextPage: true, startCursor: null });
    expect((await log({ entity: 'Sale', first: 0, after: sales.edges[2].cursor })).pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: false, startCursor: null });
  });

  test('looked up only when selected, in the statements a page already sends whatever the number of producers', async () => {
    const cursor = (await dated('purchases', { first: 1 })).edges[0].cursor;
    const nested = (info: string) => `query($first: Int, $after: String) { producers(first: $first) { edges { node { id
      purchases(first: 2, after: $after, from: "2026-03-01") { edges { node { id } } pageInfo { ${info} } } } } } }`;
    const run = async (query: string, variables: Record<string, unknown>) => {
      api.statements.reset();
      const data = await api.ok(query, variables);
      return { data, statements: [...api.statements.statements] };
    };
    const one = await run(nested('hasNextPage hasPreviousPage'), { first: 1, after: cursor });
    const both = await run(nested('hasNextPage hasPreviousPage'), { first: 10, after: cursor });
    const unasked = await run(nested('hasNextPage'), { first: 10, after: cursor });
    expect(both.data.producers.edges.map((e: any) => e.node.purchases.pageInfo)).toEqual([
      { hasNextPage: true, hasPreviousPage: false }, // A: 2026-03-05 twice, then 2026-04-01; its 2025 purchase is before the window
      { hasNextPage: false, hasPreviousPage: false }, // B: its one purchase of 2026-03-05 follows A's 2025 cursor
    ]);
    expect(both.statements).toHaveLength(one.statements.length);
    expect(unasked.statements).toHaveLength(both.statements.length);
    if (compiled) {
      expect(both.statements).toHaveLength(1);
      expect(both.statements[0]).toMatch(/EXISTS \(SELECT 1 FROM purchase /);
      expect(unasked.statements[0]).not.toMatch(/EXISTS \(SELECT 1 FROM purchase /);
    } else {
      expect(both.statements.filter((s) => s.includes('has_previous'))).toHaveLength(1);
      expect(unasked.statements.filter((s) => s.includes('has_previous'))).toHaveLength(0);
    }
    // A root list: one EXISTS more on the resolvers, when asked after a cursor; none on the compiled read.
    const root = (info: string) => `query($after: String) { familyFarmers(first: 1, after: $after) { totalCount pageInfo { ${info} } } }`;
    const farmers = (await api.ok(root('endCursor'), {})).familyFarmers.pageInfo.endCursor;
    const asked = await run(root('hasPreviousPage'), { after: farmers });
    const notAsked = await run(root('hasNextPage'), { after: farmers });
    expect(asked.data.familyFarmers.pageInfo.hasPreviousPage).toBe(true);
    expect(asked.statements).toHaveLength(compiled ? 1 : notAsked.statements.length + 1);
  });
});
