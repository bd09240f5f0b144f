import { startTestApi, TestApi } from '../support/api';
import { errorOf, RecordsWorld, setUpWorld } from './records-b.fixtures';

/** Purchases and sales may not be recorded into a CLOSED tax period (CONFLICT PERIOD_CLOSED), all or nothing. */

let api: TestApi;
let w: RecordsWorld;

beforeAll(async () => {
  api = await startTestApi();
  w = await setUpWorld(api);
  // March 2025 of producer A is closed (a snapshot row as closeTaxPeriod leaves it); B's March is open.
  await api.db.dataSource.query(
    `INSERT INTO tax_period (producer_id, year, month, status, snapshot, fingerprint, closed_at, closed_by) VALUES ($1, 2025, 3, 'CLOSED', '{}', 'test', now(), 'test')`,
    [w.producerA],
  );
});
afterAll(async () => { await api.close(); });

const PURCHASES = `mutation($input: [RecordPurchaseInput!]!) { recordPurchases(input: $input) { id consumedOn } }`;
const SALES = `mutation($input: [RecordSaleInput!]!) { recordSales(input: $input) { id soldOn } }`;

function purchase(overrides: Record<string, unknown> = {}) {
  return {
    producerId: w.producerA, purchasedOn: '2025-04-02', feedstock: 'SOYBEAN', quantityKg: '10', cost: '20',
    supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista', originMunicipalityCode: w.recife, ...overrides,
  };
}

test('a purchase consumed in a closed month: CONFLICT PERIOD_CLOSED naming consumedOn, nothing written', async () => {
  const before = await api.count('SELECT count(*) FROM purchase');
  const res = await api.gql(PURCHASES, { input: [purchase(), purchase({ purchasedOn: '2025-02-27', consumedOn: '2025-03-31' })] });
  expect(errorOf(res)).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input[1].consumedOn' });
  // consumedOn left to default to purchasedOn: the error names purchasedOn.
  expect(errorOf(await api.gql(PURCHASES, { input: [purchase({ purchasedOn: '2025-03-01' })] })))
    .toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input[0].purchasedOn' });
  expect(await api.count('SELECT count(*) FROM purchase')).toBe(before);
});

test('the month of consumedOn decides (art. 6º §3º): own production from the closed month, used in April, is accepted', async () => {
  // A third-party lot bought in March enters March's average price per kg (art. 6º §4º) and is
  // refused (test/e2e/tax-period-closing.test.ts); own production has no acquisition cost.
  const own = { supplierKind: 'OWN_PRODUCTION', supplierName: null, cost: null };
  const data = await api.ok(PURCHASES, { input: [purchase({ ...own, purchasedOn: '2025-03-15', consumedOn: '2025-04-01' })] });
  expect(data.recordPurchases[0].consumedOn).toBe('2025-04-01');
  // Another producer's March is open.
  expect((await api.ok(PURCHASES, { input: [purchase({ producerId: w.producerB, purchasedOn: '2025-03-15' })] })).recordPurchases).toHaveLength(1);
});

test('a sale in a closed month: CONFLICT PERIOD_CLOSED naming soldOn, nothing written', async () => {
  const before = await api.count('SELECT count(*) FROM sale');
  const sale = (producerId: string, soldOn: string) => ({ producerId, soldOn, volumeM3: '1', revenue: '100' });
  const res = await api.gql(SALES, { input: [sale(w.producerB, '2025-03-10'), sale(w.producerA, '2025-04-01'), sale(w.producerA, '2025-03-31')] });
  expect(errorOf(res)).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input[2].soldOn' });
  expect(await api.count('SELECT count(*) FROM sale')).toBe(before);
  const ok = await api.ok(SALES, { input: [sale(w.producerB, '2025-03-10'), sale(w.producerA, '2025-04-01')] });
  expect(ok.recordSales.map((s: { soldOn: string }) => s.soldOn)).toEqual(['2025-03-10', '2025-04-01']);
});
