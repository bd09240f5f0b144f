import { startTestApi, TestApi } from '../support/api';
import { createProducer, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * A month's `credits.purchases` lists its purchases by day, then by id as a number, as every list
 * of the API does: ids 99, 937 and 1008 of one day come in that order, where their texts would sort
 * "1008", "937", "99".
 */

let api: TestApi;
let producerId: string;

/** Tallow from a company (CST 01): a credit of 1,65% / 7,6% of its cost (Lei 10.637/2002 and Lei 10.833/2003, art. 3º II). */
const tallow = (purchasedOn: string) => ({
  producerId, purchasedOn, quantityKg: '1000', originMunicipalityCode: RECIFE, feedstock: 'BEEF_TALLOW', cost: '100000',
  supplierKind: 'THIRD_PARTY', supplierName: 'Frigorífico SA', creditSupplier: 'COMPANY', pisCofinsCst: '01', icmsValue: '0',
});

/** A purchase recorded through the API with the id asked (the sequence set just before). */
async function purchaseWithId(id: number, purchasedOn: string): Promise<void> {
  await api.db.dataSource.query(`SELECT setval(pg_get_serial_sequence('purchase', 'id'), $1)`, [id - 1]);
  const { recordPurchases } = await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [tallow(purchasedOn)] });
  expect(recordPurchases).toEqual([{ id: String(id) }]);
}

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  producerId = await createProducer(api, 'Usina da Ordem');
  // Recorded in neither order: the highest id of the day first; the day before, a higher id still.
  await purchaseWithId(1008, '2026-08-04');
  await purchaseWithId(937, '2026-08-04');
  await purchaseWithId(99, '2026-08-04');
  await purchaseWithId(2000, '2026-08-03');
});
afterAll(async () => { await api?.close(); });

test('credits.purchases: by day, then by id as a number', async () => {
  const { taxPeriod } = await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 8) { credits {
    purchaseCount purchases { purchaseId pis cofins } page: purchases(first: 2, offset: 1) { purchaseId } } } }`, { p: producerId });
  expect(taxPeriod.credits.purchaseCount).toBe(4);
  expect(taxPeriod.credits.purchases.map((p: { purchaseId: string }) => p.purchaseId)).toEqual(['2000', '99', '937', '1008']);
  expect(taxPeriod.credits.purchases[0]).toEqual({ purchaseId: '2000', pis: '1650.00', cofins: '7600.00' });
  expect(taxPeriod.credits.page).toEqual([{ purchaseId: '99' }, { purchaseId: '937' }]);
  // The purchases connection orders them alike.
  const { producer } = await api.ok(`query($p: ID!) { producer(id: $p) { purchases(from: "2026-08-01", to: "2026-08-31") { edges { node { id } } } } }`, { p: producerId });
  expect(producer.purchases.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['2000', '99', '937', '1008']);
});
