import { startTestApi, TestApi } from '../support/api';
import { errorOf, RecordsWorld, setUpWorld } from './records-b.fixtures';

let api: TestApi;
let w: RecordsWorld;

/** 45 purchases of producer A, consumed on days spread over March–May 2025, recorded out of order. */
const DAYS = Array.from({ length: 45 }, (_, i) => {
  const n = (i * 17) % 45; // a permutation of 0..44
  const month = 3 + Math.floor(n / 15);
  return `2025-0${month}-${String(1 + (n % 15) * 2).padStart(2, '0')}`;
});

beforeAll(async () => {
  api = await startTestApi();
  w = await setUpWorld(api);
  const input = DAYS.map((day, i) => ({
    producerId: w.producerA, purchasedOn: day, feedstock: 'SOYBEAN', quantityKg: String(i + 1), cost: '10',
    supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista', originMunicipalityCode: w.portoAlegre,
  }));
  // Two purchases on the same day as another one: ties are broken by id.
  input.push({ ...input[0], quantityKg: '1000' }, { ...input[0], quantityKg: '1001' });
  await api.ok(`mutation($input: [RecordPurchaseInput!]!) { recordPurchases(input: $input) { id } }`, { input });
  await api.ok(`mutation($input: [RecordPurchaseInput!]!) { recordPurchases(input: $input) { id } }`, {
    input: [{ producerId: w.producerB, purchasedOn: '2025-03-01', feedstock: 'PALM', quantityKg: '5', cost: '5', supplierKind: 'THIRD_PARTY', supplierName: 'X', originMunicipalityCode: w.recife }],
  });
  const sales = Array.from({ length: 25 }, (_, i) => ({ producerId: w.producerA, soldOn: `2025-04-${String(25 - i).padStart(2, '0')}`, volumeM3: String(i + 1), revenue: '1000' }));
  await api.ok(`mutation($input: [RecordSaleInput!]!) { recordSales(input: $input) { id } }`, { input: sales });
});
afterAll(async () => { await api.close(); });

const PURCHASES = `query($id: ID!, $first: Int, $after: String, $from: Date, $to: Date) {
  producer(id: $id) { purchases(first: $first, after: $after, from: $from, to: $to) {
    totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id consumedOn quantityKg } }
  } }
}`;

type Page = { totalCount: number; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }; edges: Array<{ cursor: string; node: { id: string; consumedOn: string; quantityKg: string } }> };

async function purchasesPage(vars: Record<string, unknown>, as?: { role: 'PRODUCER'; producerId: string }): Promise<Page> {
  return (await api.ok(PURCHASES, { id: w.producerA, ...vars }, as)).producer.purchases;
}

/** The order the connection must follow, straight from the table. */
async function storedOrder(from?: string, to?: string): Promise<string[]> {
  const rows = await api.db.dataSource.query(
    `SELECT id::text FROM purchase WHERE producer_id = $1 AND ($2::date IS NULL OR consumed_on >= $2) AND ($3::date IS NULL OR consumed_on <= $3) ORDER BY consumed_on, id`,
    [w.producerA, from ?? null, to ?? null],
  );
  return rows.map((r: { id: string }) => r.id);
}

describe('Producer.purchases', () => {
  test('47 purchases in pages of 20: 20, 20, 7, ordered by consumedOn then id', async () => {
    const p1 = await purchasesPage({});
    expect(p1.totalCount).toBe(47);
    expect(p1.edges).toHaveLength(20);
    expect(p1.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: p1.edges[0].cursor, endCursor: p1.edges[19].cursor });
    const p2 = await purchasesPage({ after: p1.pageInfo.endCursor });
    expect(p2.edges).toHaveLength(20);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const p3 = await purchasesPage({ after: p2.pageInfo.endCursor });
    expect(p3.edges).toHaveLength(7);
    expect(p3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true, endCursor: p3.edges[6].cursor });
    expect(p3.totalCount).toBe(47);
    const seen = [...p1.edges, ...p2.edges, ...p3.edges].map((e) => e.node.id);
    expect(seen).toEqual(await storedOrder());
    // The earliest day is 2025-03-01 (n = 0) and holds three purchases, ties broken by id.
    expect(p1.edges.slice(0, 3).map((e) => e.node.consumedOn)).toEqual(['2025-03-01', '2025-03-01', '2025-03-01']);
    expect(p1.edges.slice(0, 3).map((e) => e.node.quantityKg)).toEqual(['1.000', '1000.000', '1001.000']);
    expect(p3.edges[6].node.consumedOn).toBe('2025-05-29');
  });

  test('first defaults to 20 and may be 0 to 100; beyond 100, or below 0, is BAD_USER_INPUT', async () => {
    expect((await purchasesPage({ first: 100 })).edges).toHaveLength(47);
    expect(errorOf(await api.gql(PURCHASES, { id: w.producerA, first: 101 }))).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first', message: 'first must be between 0 and 100' });
    expect(errorOf(await api.gql(PURCHASES, { id: w.producerA, first: -1 }))).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
    expect(errorOf(await api.gql(PURCHASES, { id: w.producerA, after: 'not-a-cursor' }))).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    const forged = Buffer.from(JSON.stringify(['purchase', '2025-02-30', '1'])).toString('base64url');
    expect(errorOf(await api.gql(PURCHASES, { id: w.producerA, after: forged }))).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
  });

  test('first: 0 is a page of no edges: totalCount, and whether purchases follow the cursor', async () => {
    const none = { startCursor: null, endCursor: null };
    // 47 purchases, none shown: all 47 follow.
    expect(await purchasesPage({ first: 0 })).toEqual({ totalCount: 47, pageInfo: { ...none, hasNextPage: true, hasPreviousPage: false }, edges: [] });
    // After the 46th: the 47th follows. After the 47th: nothing does.
    const all = await purchasesPage({ first: 47 });
    expect(await purchasesPage({ first: 0, after: all.edges[45].cursor })).toEqual({ totalCount: 47, pageInfo: { ...none, hasNextPage: true, hasPreviousPage: true }, edges: [] });
    expect(await purchasesPage({ first: 0, after: all.edges[46].cursor })).toEqual({ totalCount: 47, pageInfo: { ...none, hasNextPage: false, hasPreviousPage: true }, edges: [] });
    // April: days 1, 3, …, 29 → 15 purchases; none in 2026.
    expect((await purchasesPage({ first: 0, from: '2025-04-01', to: '2025-04-30' })).totalCount).toBe(15);
    expect((await purchasesPage({ first: 0, from: '2026-01-01' })).pageInfo.hasNextPage).toBe(false);
  });

  test('from/to bound consumedOn inclusively, and totalCount follows them', async () => {
    // April: days 1, 3, …, 29 → 15 purchases.
    const april = await purchasesPage({ from: '2025-04-01', to: '2025-04-30', first: 10 });
    expect(april.totalCount).toBe(15);
    expect(april.edges).toHaveLength(10);
    const rest = await purchasesPage({ from: '2025-04-01', to: '2025-04-30', first: 10, after: april.pageInfo.endCursor });
    expect(rest.edges).toHaveLength(5);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    expect([...april.edges, ...rest.edges].map((e) => e.node.id)).toEqual(await storedOrder('2025-04-01', '2025-04-30'));
    // Both bounds inclusive: 2025-03-29 and 2025-04-01 are in.
    const edge = await purchasesPage({ from: '2025-03-29', to: '2025-04-01' });
    expect(edge.totalCount).toBe(2);
    expect(edge.edges.map((e) => e.node.consumedOn)).toEqual(['2025-03-29', '2025-04-01']);
    const onlyFrom = await purchasesPage({ from: '2025-05-29' });
    expect(onlyFrom.edges.map((e) => e.node.consumedOn)).toEqual(['2025-05-29']);
    const onlyTo = await purchasesPage({ to: '2025-03-01' });
    expect(onlyTo.totalCount).toBe(3);
    expect((await purchasesPage({ from: '2026-01-01' })).totalCount).toBe(0);
  });

  test("a PRODUCER pages its own purchases; another producer's stay hidden", async () => {
    const own = await purchasesPage({}, { role: 'PRODUCER', producerId: w.producerA });
    expect(own.totalCount).toBe(47);
    const res = await api.ok(PURCHASES, { id: w.producerB }, { role: 'PRODUCER', producerId: w.producerA });
    expect(res.producer).toBeNull();
  });
});

describe('Producer.sales', () => {
  const SALES = `query($id: ID!, $first: Int, $after: String, $from: Date, $to: Date) {
    producer(id: $id) { sales(first: $first, after: $after, from: $from, to: $to) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { soldOn volumeM3 } } } }
  }`;

  test('ordered by soldOn then id, across pages, with from/to on soldOn', async () => {
    const p1 = (await api.ok(SALES, { id: w.producerA })).producer.sales;
    expect(p1.totalCount).toBe(25);
    expect(p1.edges).toHaveLength(20);
    // Sale i was sold on 2025-04-(25 − i) with volume i + 1: the earliest day holds volume 25.
    expect(p1.edges[0].node).toEqual({ soldOn: '2025-04-01', volumeM3: '25.000' });
    const p2 = (await api.ok(SALES, { id: w.producerA, after: p1.pageInfo.endCursor })).producer.sales;
    expect(p2.edges.map((e: { node: { soldOn: string } }) => e.node.soldOn)).toEqual(['2025-04-21', '2025-04-22', '2025-04-23', '2025-04-24', '2025-04-25']);
    expect(p2.pageInfo.hasNextPage).toBe(false);
    const week = (await api.ok(SALES, { id: w.producerA, from: '2025-04-07', to: '2025-04-13' })).producer.sales;
    expect(week.totalCount).toBe(7);
    expect(week.edges.map((e: { node: { volumeM3: string } }) => e.node.volumeM3)).toEqual(['19.000', '18.000', '17.000', '16.000', '15.000', '14.000', '13.000']);
    expect(errorOf(await api.gql(SALES, { id: w.producerA, first: 500 }))).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
  });
});
