import { startTestApi, TestApi } from '../support/api';
import { efdProblems } from '../support/efd-layout';
import { Decimal } from '../../src/law/decimal';
import { Role } from '../../src/law/types';
import { BiodieselImportService } from '../../src/services/biodiesel-import.service';
import { createProducer, electSpecialRegime, FEIRA, newCnpj, nfeKey, PORTO_ALEGRE, producerCnpj, upsertMunicipalities } from '../support/fixtures';

/**
 * Records change as their fiscal documents do: a cancelled NF-e's records are kept, audited and
 * counted nowhere; a record is corrected against the version read; a change that reaches a closed
 * month is refused with the month to reopen, or made by an ADMIN with the closed month's drift shown.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [PORTO_ALEGRE, FEIRA]);
});
afterAll(async () => { await api.close(); });

const PURCHASES = `mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id state version invoiceKey } }`;
const SALES = `mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id state version invoiceKey } }`;
const MARCH = `query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 3) { status ownProductionPricePerKg pisDue cofinsDue recomputedDiffers differences { field closed recomputed } } }`;
const CANCEL = `mutation($k: String!) { cancelDocument(key: $k) {
  key purchases { id state version } sales { id state version } imports { id } fomentoExpenses { id } returns { id }
  closedPeriods { year month status pisDue recomputedDiffers differences { field closed recomputed } } evaluatedSeloYears } }`;
const CORRECT = `mutation($id: ID!, $i: CorrectPurchaseInput!, $v: Int!) { correctPurchase(id: $id, input: $i, expectedVersion: $v) {
  purchase { id quantityKg cost version state } closedPeriods { year month status ownProductionPricePerKg pisDue cofinsDue recomputedDiffers differences { field closed recomputed } } evaluatedSeloYears } }`;
const asProducer = (producerId: string) => ({ role: 'PRODUCER' as const, producerId });

/** Third-party soybean from Porto Alegre (GENERAL), and own castor from Feira de Santana (Semiárido: art. 6º I). */
async function marchOf(name: string) {
  const p = await createProducer(api, name, FEIRA);
  await electSpecialRegime(api, p);
  const cnpj = await producerCnpj(api, p);
  const lot = (over: object) => ({ producerId: p, feedstock: 'SOYBEAN', quantityKg: '1000', originMunicipalityCode: PORTO_ALEGRE, ...over });
  const [own, bought, entry] = (await api.ok(PURCHASES, { i: [
    lot({ purchasedOn: '2026-03-02', feedstock: 'CASTOR_BEAN', supplierKind: 'OWN_PRODUCTION', originMunicipalityCode: FEIRA }),
    lot({ purchasedOn: '2026-03-03', cost: '2000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading SA', invoiceKey: nfeKey(cnpj, 1) }),
    lot({ purchasedOn: '2026-03-04', cost: '4000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading SA', invoiceKey: nfeKey(cnpj, 2) }),
  ] })).recordPurchases;
  const [sale, sale2] = (await api.ok(SALES, { i: [
    { producerId: p, soldOn: '2026-03-20', volumeM3: '10', revenue: '50000' },
    { producerId: p, soldOn: '2026-03-21', volumeM3: '5', revenue: '25000', invoiceKey: nfeKey(cnpj, 3) },
  ] })).recordSales;
  return { p, cnpj, own, bought, entry, sale, sale2 };
}

test('a month before and after its NF-e are cancelled: the records kept, CANCELLED, audited, counted nowhere', async () => {
  const { p, cnpj, entry, sale2 } = await marchOf('Usina Cancela');
  expect(entry).toMatchObject({ state: 'ACTIVE', version: 1, invoiceKey: nfeKey(cnpj, 2) });

  // Before: R$ 6.000 / 2.000 kg bought = R$ 3 per kg; own 1.000 kg worth 3.000 (art. 6º I, castor
  // in the Semiárido), 2.000 kg worth 6.000 GENERAL: own thirds of 15 m³ = 5 m³ at 22,48 / 103,51,
  // 10 m³ at 26,41 / 121,59. PIS 5 × 22,48 + 10 × 26,41 = 112,40 + 264,10 = 376,50;
  // Cofins 5 × 103,51 + 10 × 121,59 = 517,55 + 1.215,90 = 1.733,45.
  expect((await api.ok(MARCH, { p })).taxPeriod).toMatchObject({ ownProductionPricePerKg: '3.00', pisDue: '376.50', cofinsDue: '1733.45' });

  // The entry note of R$ 4.000 cancelled (by the producer itself): R$ 2.000 / 1.000 kg = R$ 2;
  // own 2.000, GENERAL 2.000, halves of 15 m³: PIS 7,5 × (22,48 + 26,41) = 366,675 → 366,68;
  const cancelled = (await api.ok(CANCEL, { k: nfeKey(cnpj, 2) }, asProducer(p))).cancelDocument;
  expect(cancelled).toEqual({ key: nfeKey(cnpj, 2), purchases: [{ id: entry.id, state: 'CANCELLED', version: 2 }], sales: [], imports: [], fomentoExpenses: [], returns: [], closedPeriods: [], evaluatedSeloYears: [] });
  // Cofins 7,5 × (103,51 + 121,59) = 1.688,25.
  expect((await api.ok(MARCH, { p })).taxPeriod).toMatchObject({ ownProductionPricePerKg: '2.00', pisDue: '366.68', cofinsDue: '1688.25' });

  // The sale note of 5 m³ cancelled: 10 m³, halves: PIS 5 × 48,89 = 244,45; Cofins 5 × 225,10 = 1.125,50.
  expect((await api.ok(CANCEL, { k: nfeKey(cnpj, 3) })).cancelDocument.sales).toEqual([{ id: sale2.id, state: 'CANCELLED', version: 2 }]);
  expect((await api.ok(MARCH, { p })).taxPeriod).toMatchObject({ ownProductionPricePerKg: '2.00', pisDue: '244.45', cofinsDue: '1125.50' });

  // Kept and shown with their state; audited with before and after.
  const read = await api.ok(`query($id: ID!) { purchase(id: $id) { state version invoiceKey } }`, { id: entry.id });
  expect(read.purchase).toEqual({ state: 'CANCELLED', version: 2, invoiceKey: nfeKey(cnpj, 2) });
  const audit = await api.db.dataSource.query(`SELECT entity, before, after FROM audit_entry WHERE operation = 'cancelDocument' AND entity_id = $1`, [entry.id]);
  expect(audit).toEqual([{ entity: 'Purchase', before: { state: 'ACTIVE', version: 1 }, after: { state: 'CANCELLED', version: 2, invoiceKey: nfeKey(cnpj, 2) } }]);

  // Again: CONFLICT CANCELLED; a key of no record: NOT_FOUND; a wrong digit: BAD_USER_INPUT.
  expect((await api.gql(CANCEL, { k: nfeKey(cnpj, 2) })).errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'CANCELLED', field: 'key' });
  expect((await api.gql(CANCEL, { k: nfeKey(cnpj, 9) })).errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', field: 'key' });
  const wrong = `${nfeKey(cnpj, 9).slice(0, 43)}${(Number(nfeKey(cnpj, 9)[43]) + 1) % 10}`;
  expect((await api.gql(CANCEL, { k: wrong })).errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'key' });
  // Another producer cannot see, let alone cancel, this one's notes.
  const other = await createProducer(api, 'Usina Outra', FEIRA);
  const lotKey = nfeKey(cnpj, 1);
  expect((await api.gql(CANCEL, { k: lotKey }, asProducer(other))).errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
  expect(await api.count(`SELECT count(*) FROM purchase WHERE invoice_key = $1 AND state = 'ACTIVE'`, [lotKey])).toBe(1);

  // The closed month's EFD-Contribuições: the cancelled sale is no C-level record, and Bloco M is the dues.
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status } }`, { p });
  const efd = await fetch(api.url.replace('/graphql', `/export/efd?producer=${p}&year=2026&month=3`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  const file = Buffer.from(await efd.arrayBuffer());
  expect(efd.status).toBe(200);
  expect(efdProblems(file)).toEqual([]);
  const lines = file.toString('latin1').split('\r\n');
  expect(lines.filter((l) => l.startsWith('|C181|')).map((l) => l.split('|')[8])).toEqual(['5,000', '5,000']);
  expect(lines.find((l) => l.startsWith('|M200|'))?.split('|')[2]).toBe('244,45');
  expect(lines.find((l) => l.startsWith('|M600|'))?.split('|')[2]).toBe('1125,50');
});

test('a lot in a closed month: corrected by its producer refused with the month to reopen; by an ADMIN made, the drift shown', async () => {
  const { p, bought } = await marchOf('Usina Corrige');
  const closed = (await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { pisDue cofinsDue } }`, { p })).closeTaxPeriod;
  expect(closed).toEqual({ pisDue: '376.50', cofinsDue: '1733.45' });

  // The lot of R$ 2.000 was in truth R$ 8.000: the producer is refused, nothing written.
  const refused = await api.gql(CORRECT, { id: bought.id, i: { cost: '8000' }, v: 1 }, asProducer(p));
  expect(refused.errors?.[0]).toMatchObject({
    message: `The change touches the closed tax period 2026-03 of producer ${p}: reopen it (reopenTaxPeriod, with a reason) first, or an ADMIN makes it and the closed month shows its drift from the snapshot`,
    extensions: { code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'id', period: '2026-03' },
  });
  expect(await api.count(`SELECT count(*) FROM purchase WHERE id = $1 AND cost = 2000 AND version = 1`, [bought.id])).toBe(1);

  // A stale version is refused before anything else is judged.
  expect((await api.gql(CORRECT, { id: bought.id, i: { cost: '8000' }, v: 7 })).errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'VERSION_MISMATCH', field: 'expectedVersion' });

  // An ADMIN corrects it: the month stays CLOSED with its snapshot; the drift is the recomputation:
  // R$ 12.000 / 2.000 kg = R$ 6 per kg; own 1.000 kg worth 6.000, GENERAL 12.000: thirds again,
  // so the dues do not move — only the price per kg does (3,00 closed, 6,00 recomputed).
  const made = (await api.ok(CORRECT, { id: bought.id, i: { cost: '8000' }, v: 1 })).correctPurchase;
  expect(made.purchase).toEqual({ id: bought.id, quantityKg: '1000.000', cost: '8000.00', version: 2, state: 'ACTIVE' });
  expect(made.evaluatedSeloYears).toEqual([]);
  expect(made.closedPeriods).toHaveLength(1);
  expect(made.closedPeriods[0]).toMatchObject({ year: 2026, month: 3, status: 'CLOSED', ownProductionPricePerKg: '3.00', pisDue: '376.50', cofinsDue: '1733.45', recomputedDiffers: true });
  expect(made.closedPeriods[0].differences).toEqual([
    { field: 'feedstockCost', closed: '9000', recomputed: '18000' },
    { field: 'ownProductionPricePerKg', closed: '3', recomputed: '6' },
    { field: 'segments[0].mix.CASTOR_PALM_PRIORITY_REGION.cost', closed: '3000', recomputed: '6000' },
    { field: 'segments[0].mix.GENERAL.cost', closed: '6000', recomputed: '12000' },
  ]);

  // Audited with before and after.
  const [entry] = await api.db.dataSource.query(`SELECT before->>'cost' AS before, after->>'cost' AS after, after->>'version' AS version FROM audit_entry WHERE operation = 'correctPurchase' AND entity_id = $1`, [bought.id]);
  expect(entry).toEqual({ before: '2000', after: '8000', version: '2' });

  // Reopened, the producer corrects it itself (quantity), against the version it read.
  await api.ok(`mutation($p: ID!) { reopenTaxPeriod(producerId: $p, year: 2026, month: 3, reason: "corrigir lote") { status } }`, { p });
  const mine = (await api.ok(CORRECT, { id: bought.id, i: { quantityKg: '2000' }, v: 2 }, asProducer(p))).correctPurchase;
  expect([mine.purchase.version, mine.purchase.quantityKg, mine.closedPeriods]).toEqual([3, '2000.000', []]);
  // Bad values are refused as recordPurchases refuses them, naming the field.
  expect((await api.gql(CORRECT, { id: bought.id, i: { quantityKg: '0' }, v: 3 })).errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.quantityKg' });
  expect((await api.gql(CORRECT, { id: bought.id, i: { consumedOn: '2026-02-01' }, v: 3 })).errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.consumedOn' });
});

test('a sale corrected; a cancelled record is not; another producer\'s record is NOT_FOUND', async () => {
  const { p, cnpj, sale, sale2 } = await marchOf('Usina Venda');
  const CORRECT_SALE = `mutation($id: ID!, $i: CorrectSaleInput!, $v: Int!) { correctSale(id: $id, input: $i, expectedVersion: $v) { sale { id volumeM3 revenue version invoiceKey } closedPeriods { month } } }`;
  const made = (await api.ok(CORRECT_SALE, { id: sale.id, i: { volumeM3: '12', invoiceKey: nfeKey(cnpj, 4) }, v: 1 }, asProducer(p))).correctSale;
  expect(made).toEqual({ sale: { id: sale.id, volumeM3: '12.000', revenue: '50000.00', version: 2, invoiceKey: nfeKey(cnpj, 4) }, closedPeriods: [] });
  // Its key cannot be another sale's.
  expect((await api.gql(CORRECT_SALE, { id: sale.id, i: { invoiceKey: nfeKey(cnpj, 3) }, v: 2 })).errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE', field: 'input.invoiceKey' });
  await api.ok(CANCEL, { k: nfeKey(cnpj, 3) });
  expect((await api.gql(CORRECT_SALE, { id: sale2.id, i: { volumeM3: '1' }, v: 2 })).errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'CANCELLED', field: 'id' });
  const other = await createProducer(api, 'Usina Vizinha', FEIRA);
  expect((await api.gql(CORRECT_SALE, { id: sale.id, i: { volumeM3: '1' }, v: 2 }, asProducer(other))).errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
});

test('returns reduce the month of the return, not the original month', async () => {
  const { p, cnpj, entry, sale2 } = await marchOf('Usina Devolução');
  const RETURNS = `mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id purchaseId saleId returnedOn quantity value originalKey invoiceKey state } }`;
  const APRIL = `query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 4) { ownProductionPricePerKg pisDue cofinsDue } }`;
  // Half of the R$ 4.000 lot goes back to its supplier on 03-25: 1.500 kg for R$ 4.000 bought in
  // March, R$ 2,6666… per kg; own 1.000 kg worth 2.666,67 of 6.666,67 = 40 % (art. 6º I), 60 % GENERAL:
  // PIS 15 × (0,4 × 22,48 + 0,6 × 26,41) = 15 × 24,838 = 372,57; Cofins 15 × (0,4 × 103,51 + 0,6 × 121,59) = 15 × 114,358 = 1.715,37.
  const [lotBack] = (await api.ok(RETURNS, { i: [{ originalKey: nfeKey(cnpj, 2), purchaseId: entry.id, returnedOn: '2026-03-25', quantity: '500', value: '2000', invoiceKey: nfeKey(cnpj, 10) }] }, asProducer(p))).recordReturns;
  expect(lotBack).toMatchObject({ purchaseId: entry.id, saleId: null, quantity: '500.000', value: '2000.00', state: 'ACTIVE' });
  expect((await api.ok(MARCH, { p })).taxPeriod).toMatchObject({ pisDue: '372.57', cofinsDue: '1715.37' });

  // 2 m³ of the 5 m³ sale come back in April: March keeps its 15 m³; April alone is reduced.
  const before = (await api.ok(APRIL, { p })).taxPeriod;
  await api.ok(RETURNS, { i: [{ originalKey: nfeKey(cnpj, 3), saleId: sale2.id, returnedOn: '2026-04-02', quantity: '2', value: '10000' }] });
  expect((await api.ok(MARCH, { p })).taxPeriod).toMatchObject({ pisDue: '372.57', cofinsDue: '1715.37' });
  const after = (await api.ok(APRIL, { p })).taxPeriod;
  // April has no raw material of its own: its mix is March's, the last month that used some
  // (40 % / 60 % after the lot's return). −2 m³: PIS −2 × 24,838 = −49,676 → −49,68;
  // Cofins −2 × 114,358 = −228,716 → −228,72: the return's contributions, in April, to recover.
  expect([before.pisDue, after.pisDue, after.cofinsDue]).toEqual(['0.00', '-49.68', '-228.72']);

  // The reads show each record's state and its documents: its own key and its returns.
  const lot = await api.ok(`query($id: ID!) { purchase(id: $id) { state invoiceKey returns { returnedOn quantity value invoiceKey originalKey } } }`, { id: entry.id });
  expect(lot.purchase).toEqual({ state: 'ACTIVE', invoiceKey: nfeKey(cnpj, 2), returns: [{ returnedOn: '2026-03-25', quantity: '500.000', value: '2000.00', invoiceKey: nfeKey(cnpj, 10), originalKey: nfeKey(cnpj, 2) }] });
  const listed = await api.ok(`query($id: ID!) { producer(id: $id) { sales { edges { node { id state invoiceKey returns { returnedOn quantity } } } } } }`, { id: p });
  expect(listed.producer.sales.edges.map((e: { node: unknown }) => e.node)).toEqual([
    { id: expect.any(String), state: 'ACTIVE', invoiceKey: null, returns: [] },
    { id: sale2.id, state: 'ACTIVE', invoiceKey: nfeKey(cnpj, 3), returns: [{ returnedOn: '2026-04-02', quantity: '2.000' }] },
  ]);

  // More than was sold, a key that is not the sale's, or a sale of another producer: refused, nothing written.
  const count = await api.count('SELECT count(*) FROM record_return');
  const tooMuch = await api.gql(RETURNS, { i: [{ originalKey: nfeKey(cnpj, 3), saleId: sale2.id, returnedOn: '2026-04-03', quantity: '3.001', value: '1' }] });
  expect(tooMuch.errors?.[0]).toMatchObject({ message: `The returns of Sale ${sale2.id} would exceed it: quantity returned 5.001 of 5`, extensions: { code: 'BAD_USER_INPUT', field: 'input[0].quantity' } });
  expect((await api.gql(RETURNS, { i: [{ originalKey: nfeKey(cnpj, 2), saleId: sale2.id, returnedOn: '2026-04-03', quantity: '1', value: '1' }] })).errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input[0].originalKey' });
  const other = await createProducer(api, 'Usina Terceira', FEIRA);
  expect((await api.gql(RETURNS, { i: [{ originalKey: nfeKey(cnpj, 3), saleId: sale2.id, returnedOn: '2026-04-03', quantity: '1', value: '1' }] }, asProducer(other))).errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', field: 'input[0].saleId' });
  expect(await api.count('SELECT count(*) FROM record_return')).toBe(count);

  // A correction cannot leave the sale smaller than what came back of it.
  const CORRECT_SALE = `mutation($id: ID!, $i: CorrectSaleInput!, $v: Int!) { correctSale(id: $id, input: $i, expectedVersion: $v) { sale { volumeM3 } } }`;
  expect((await api.gql(CORRECT_SALE, { id: sale2.id, i: { volumeM3: '1.5' }, v: 1 })).errors?.[0]).toMatchObject({
    message: `The returns of Sale ${sale2.id} would exceed it: quantity returned 2 of 1.5`, extensions: { code: 'BAD_USER_INPUT', field: 'input.volumeM3' },
  });
  expect((await api.ok(CORRECT_SALE, { id: sale2.id, i: { volumeM3: '2' }, v: 1 })).correctSale.sale.volumeM3).toBe('2.000');

  // The return note cancelled: the lot counts whole again (thirds, as before the return), on the
  // 12 m³ now sold in March: PIS 12 × 25,10 = 301,20; Cofins 12 × 115,5633… = 1.386,76.
  expect((await api.ok(CANCEL, { k: nfeKey(cnpj, 10) })).cancelDocument.returns).toEqual([{ id: lotBack.id }]);
  expect((await api.ok(MARCH, { p })).taxPeriod).toMatchObject({ pisDue: '301.20', cofinsDue: '1386.76' });
});

test('a record returned again under the same return note is a batch sent twice: CONFLICT DUPLICATE, nothing written', async () => {
  const { p, cnpj, bought, entry, sale2 } = await marchOf('Usina Devolução Dupla');
  const RETURNS = `mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`;
  const back = (over: object) => ({ originalKey: nfeKey(cnpj, 2), purchaseId: entry.id, returnedOn: '2026-03-25', quantity: '100', value: '400', invoiceKey: nfeKey(cnpj, 20), ...over });
  const [first] = (await api.ok(RETURNS, { i: [back({})] }, asProducer(p))).recordReturns;
  const count = await api.count('SELECT count(*) FROM record_return');
  const again = await api.gql(RETURNS, { i: [back({ quantity: '50', value: '200' })] }, asProducer(p));
  expect(again.errors?.[0]).toMatchObject({
    message: `Purchase ${entry.id} is already returned under the return note ${nfeKey(cnpj, 20)} (return ${first.id}): record the note's items of one record as one return`,
    extensions: { code: 'CONFLICT', reason: 'DUPLICATE', field: 'input[0].invoiceKey' },
  });
  const twice = await api.gql(RETURNS, { i: [back({ invoiceKey: nfeKey(cnpj, 21) }), back({ invoiceKey: nfeKey(cnpj, 21) })] });
  expect(twice.errors?.map((e) => [e.extensions?.code, e.extensions?.field])).toEqual([['CONFLICT', 'input[1].invoiceKey']]);
  expect(await api.count('SELECT count(*) FROM record_return')).toBe(count);
  // Another record under the same note, the same record under another note or with none, a sale: each is a return of its own.
  const made = (await api.ok(RETURNS, { i: [
    back({ originalKey: nfeKey(cnpj, 1), purchaseId: bought.id }), back({ invoiceKey: nfeKey(cnpj, 22) }), back({ invoiceKey: null }), back({ invoiceKey: null }),
    { originalKey: nfeKey(cnpj, 3), saleId: sale2.id, returnedOn: '2026-03-25', quantity: '1', value: '5000', invoiceKey: nfeKey(cnpj, 20) },
  ] })).recordReturns;
  expect(made).toHaveLength(5);
  // A cancelled return leaves its note free for the record again.
  await api.db.dataSource.query(`UPDATE record_return SET state = 'CANCELLED' WHERE id = $1`, [first.id]);
  expect((await api.ok(RETURNS, { i: [back({})] }, asProducer(p))).recordReturns).toHaveLength(1);
});

test('a return into a closed month or an evaluated Selo year: refused for the producer, made by an ADMIN and told', async () => {
  const { p, cnpj, entry } = await marchOf('Usina Devolve Fechado');
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status } }`, { p });
  const RETURNS = `mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id returnedOn closedPeriod { year month status pisDue cofinsDue recomputedDiffers differences { field closed recomputed } } evaluatedSeloYear } }`;
  const lotBack = { originalKey: nfeKey(cnpj, 2), purchaseId: entry.id, returnedOn: '2026-03-25', quantity: '500', value: '2000' };
  const count = await api.count('SELECT count(*) FROM record_return');
  const refused = await api.gql(RETURNS, { i: [{ ...lotBack, returnedOn: '2026-04-01', quantity: '1', value: '1' }, lotBack] }, asProducer(p));
  expect(refused.errors?.[0]).toMatchObject({
    message: `The change touches the closed tax period 2026-03 of producer ${p}: reopen it (reopenTaxPeriod, with a reason) first, or an ADMIN makes it and the closed month shows its drift from the snapshot`,
    extensions: { code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input[1].returnedOn', period: '2026-03' },
  });
  expect(await api.count('SELECT count(*) FROM record_return')).toBe(count);

  // The ADMIN's: March keeps its snapshot (PIS 376,50, Cofins 1.733,45, as closed) and shows the
  // drift to the figures with the lot's half returned, worked out in "returns reduce the month of
  // the return": PIS 372,57, Cofins 1.715,37.
  const [made] = (await api.ok(RETURNS, { i: [lotBack] })).recordReturns;
  expect(made.closedPeriod).toMatchObject({ year: 2026, month: 3, status: 'CLOSED', pisDue: '376.50', cofinsDue: '1733.45', recomputedDiffers: true });
  expect(made.closedPeriod.differences).toEqual(expect.arrayContaining([{ field: 'pisDue', closed: '376.5', recomputed: '372.57' }, { field: 'cofinsDue', closed: '1733.45', recomputed: '1715.37' }]));
  expect(made.evaluatedSeloYear).toBeNull();

  // A sale of 2025, its Selo year evaluated: its return in 2025 reduces that year's base.
  const [sold] = (await api.ok(SALES, { i: [{ producerId: p, soldOn: '2025-10-01', volumeM3: '4', revenue: '20000', invoiceKey: nfeKey(cnpj, 20) }] })).recordSales;
  await api.ok(`mutation($i: RecordSealEvaluationInput!) { recordSealEvaluation(input: $i) { id } }`, { i: { producerId: p, year: 2025, communicatedOn: '2026-04-10' } });
  const saleBack = { originalKey: nfeKey(cnpj, 20), saleId: sold.id, returnedOn: '2025-11-10', quantity: '1', value: '5000' };
  expect((await api.gql(RETURNS, { i: [saleBack] }, asProducer(p))).errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input[0].returnedOn', seloYear: 2025 });
  const [evaluated] = (await api.ok(RETURNS, { i: [saleBack] })).recordReturns;
  expect([evaluated.closedPeriod, evaluated.evaluatedSeloYear]).toEqual([null, 2025]);
  // An open month and an unevaluated year: nothing to tell.
  const [open] = (await api.ok(RETURNS, { i: [{ ...lotBack, returnedOn: '2026-04-01', quantity: '1', value: '1' }] }, asProducer(p))).recordReturns;
  expect([open.closedPeriod, open.evaluatedSeloYear]).toEqual([null, null]);
});

test('an import in a closed month and fomento of an evaluated Selo year: refused for the producer, made by an ADMIN and told', async () => {
  const p = await createProducer(api, 'Usina Importa', FEIRA);
  const [imported] = (await api.ok(`mutation($i: [RecordImportInput!]!) { recordImports(input: $i) { id version } }`,
    { i: [{ producerId: p, clearedOn: '2026-03-05', volumeM3: '10', declarationNumber: '26/0000001-1' }] })).recordImports;
  const [fomento] = (await api.ok(`mutation($i: [RecordFomentoInput!]!) { recordFomento(input: $i) { id version } }`,
    { i: [{ producerId: p, spentOn: '2025-06-01', kind: 'DONATION', amount: '1000', municipalityCode: FEIRA }] })).recordFomento;
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status } }`, { p });
  await api.ok(`mutation($i: RecordSealEvaluationInput!) { recordSealEvaluation(input: $i) { id } }`, { i: { producerId: p, year: 2025, communicatedOn: '2026-04-10' } });

  const IMPORT = `mutation($id: ID!, $v: Int!) { correctImport(id: $id, input: { volumeM3: "12" }, expectedVersion: $v) { biodieselImport { volumeM3 version } closedPeriods { month recomputedDiffers } } }`;
  const FOMENTO = `mutation($id: ID!, $v: Int!) { correctFomento(id: $id, input: { amount: "1500" }, expectedVersion: $v) { fomentoExpense { amount version } closedPeriods { month } evaluatedSeloYears } }`;
  expect((await api.gql(IMPORT, { id: imported.id, v: 1 }, asProducer(p))).errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', period: '2026-03' });
  const fomentoRefused = await api.gql(FOMENTO, { id: fomento.id, v: 1 }, asProducer(p));
  expect(fomentoRefused.errors?.[0]).toMatchObject({
    message: `The change touches the Selo year 2025 of producer ${p}, already evaluated (communicated on 2026-04-10): only an ADMIN makes it`,
    extensions: { code: 'CONFLICT', reason: 'PERIOD_CLOSED', seloYear: 2025 },
  });
  // The ADMIN's: 12 m³ instead of 10 moves March's import contributions, which the closed month shows as drift.
  expect((await api.ok(IMPORT, { id: imported.id, v: 1 })).correctImport).toEqual({ biodieselImport: { volumeM3: '12.000', version: 2 }, closedPeriods: [{ month: 3, recomputedDiffers: true }] });
  expect((await api.ok(FOMENTO, { id: fomento.id, v: 1 })).correctFomento).toEqual({ fomentoExpense: { amount: '1500.00', version: 2 }, closedPeriods: [], evaluatedSeloYears: [2025] });
});

test("an import's NF-e key names the importer (Ajuste SINIEF 07/2005, positions 7 to 20): another producer's CNPJ is refused on correction and on record, nothing written", async () => {
  const p = await createProducer(api, 'Usina Importa Chave', FEIRA);
  const other = await createProducer(api, 'Usina Vizinha', FEIRA);
  const [cnpj, otherCnpj, branch] = [await producerCnpj(api, p), await producerCnpj(api, other), newCnpj()];
  await api.ok(`mutation($id: ID!, $e: [CNPJ!]) { updateProducer(id: $id, expectedVersion: 1, input: { establishments: $e }) { id } }`, { id: p, e: [branch] });
  const [imported] = (await api.ok(`mutation($i: [RecordImportInput!]!) { recordImports(input: $i) { id version } }`,
    { i: [{ producerId: p, clearedOn: '2026-03-05', volumeM3: '10', declarationNumber: '26/0000002-1' }] }, asProducer(p))).recordImports;
  const KEY = `mutation($id: ID!, $k: String!, $v: Int!) { correctImport(id: $id, input: { invoiceKey: $k }, expectedVersion: $v) { biodieselImport { invoiceKey version } } }`;

  // The other producer's key: BAD_USER_INPUT at the field, the import unchanged.
  const refused = await api.gql(KEY, { id: imported.id, k: nfeKey(otherCnpj, 7), v: 1 }, asProducer(p));
  expect(refused.errors?.[0]).toMatchObject({
    message: expect.stringContaining(`issuer CNPJ ${otherCnpj}`),
    extensions: { code: 'BAD_USER_INPUT', field: 'input.invoiceKey' },
  });
  expect(await api.db.dataSource.query('SELECT invoice_key, version FROM biodiesel_import WHERE id = $1', [imported.id])).toEqual([{ invoice_key: null, version: 1 }]);
  // The producer's own entry note, then one of its establishment's.
  expect((await api.ok(KEY, { id: imported.id, k: nfeKey(cnpj, 7), v: 1 }, asProducer(p))).correctImport.biodieselImport).toEqual({ invoiceKey: nfeKey(cnpj, 7), version: 2 });
  expect((await api.ok(KEY, { id: imported.id, k: nfeKey(branch, 8), v: 2 }, asProducer(p))).correctImport.biodieselImport).toEqual({ invoiceKey: nfeKey(branch, 8), version: 3 });

  // Recording (the NF-e upload's way in: recordImports takes no key) applies the same rule.
  const service = new BiodieselImportService(api.db.dataSource, async () => { throw new Error('not read'); });
  const actor = { sub: 'test', role: Role.PRODUCER, producerId: p, requestId: null };
  const input = (key: string, n: number) => ({ producerId: p, clearedOn: '2026-03-06', volumeM3: new Decimal('5'), declarationNumber: `26/000000${n}-9`, invoiceKey: key });
  await expect(service.record(actor, [input(nfeKey(cnpj, 9), 3), input(nfeKey(otherCnpj, 10), 4)])).rejects.toThrow(`invoiceKey names the issuer CNPJ ${otherCnpj}`);
  expect(await api.count(`SELECT count(*) FROM biodiesel_import WHERE producer_id = ${p}`)).toBe(1);
  expect((await service.record(actor, [input(nfeKey(cnpj, 9), 3)])).map((r) => r.invoiceKey)).toEqual([nfeKey(cnpj, 9)]);
});

test("a page of returns reads their months and Selo years together, each as it reads alone", async () => {
  const RETURNS = `mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`;
  const RETURNED = `{ producers(first: 100) { edges { node { id purchases(first: 10) { edges { node { id
    returns { id returnedOn evaluatedSeloYear closedPeriod { month status pisDue recomputedDiffers } } } } } } } } }`;
  const counted = async () => {
    await api.ok(RETURNED);
    api.statements.reset();
    const data = await api.ok(RETURNED);
    return { data, statements: api.statements.count };
  };
  // Each producer's March and April lots go back in part, March closed for the first and the last;
  // an ADMIN's return into a closed March follows, so that March drifts.
  const month = async (name: string, close: boolean) => {
    const m = await marchOf(name);
    await api.ok(RETURNS, { i: [
      { originalKey: nfeKey(m.cnpj, 1), purchaseId: m.bought.id, returnedOn: '2026-03-10', quantity: '100', value: '200' },
      { originalKey: nfeKey(m.cnpj, 2), purchaseId: m.entry.id, returnedOn: '2026-04-10', quantity: '100', value: '400' },
    ] });
    if (close) {
      await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status } }`, { p: m.p });
      await api.ok(RETURNS, { i: [{ originalKey: nfeKey(m.cnpj, 2), purchaseId: m.entry.id, returnedOn: '2026-03-28', quantity: '50', value: '200' }] });
    }
    return m;
  };
  const marches = [await month('Usina Página A', true)];
  const before = await counted();
  marches.push(await month('Usina Página B', false), await month('Usina Página C', true));
  const after = await counted();
  // Six more returns, two more closed months: not one statement more.
  expect(after.statements).toBe(before.statements);
  const returnsOf = (p: string) => after.data.producers.edges.find((e: any) => e.node.id === p).node.purchases.edges.flatMap((n: any) => n.node.returns);
  const march = async (p: string) => (await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 3) { month status pisDue recomputedDiffers } }`, { p })).taxPeriod;
  for (const [i, m] of marches.entries()) {
    const mine = returnsOf(m.p);
    expect(mine).toHaveLength(i === 1 ? 2 : 3);
    // A closed March reads as its taxPeriod does alone, drifted; April and an open March read null.
    for (const r of mine) {
      expect(r.closedPeriod).toEqual(i !== 1 && r.returnedOn.startsWith('2026-03') ? { ...(await march(m.p)), recomputedDiffers: true } : null);
      expect(r.evaluatedSeloYear).toBeNull();
    }
  }
});
