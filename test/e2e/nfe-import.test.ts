import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { zipSync } from 'fflate';
import { PurchaseInvoiceItem1766460000000 } from '../../src/database/migrations/1766460000000-purchase-invoice-item';
import { nfeKeyDigit } from '../../src/formats/nfe-key';
import { RETURN_NOTE_LOCK_KEY } from '../../src/import/nfe/importer';
import { Caller, startTestApi, TestApi } from '../support/api';
import { FEIRA, newCnpj, nfeKey, ownAndOtherProducers, PORTO_ALEGRE, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * NF-e XML in (test/fixtures/nfe, written by hand; each key's digit is right): what each note
 * becomes for the producer "Usina Própria" (CNPJ 11222333000181, Recife), and what is refused.
 */
let api: TestApi;
let own: string;
let other: string;
const P = '11222333000181';
const KEYS = {
  farmer: '29260300052998224725550010000001011007998198',
  entry: '26260311222333000181550010000002011015917195',
  coop: '26260360701190000104550010000003011023836194',
  sale: '26260311222333000181550010000002021015996386',
  export: '26260311222333000181550010000002031016075575',
  foreign: '26260311222333000181550010000002041016154766',
  return: '26260411222333000181550010000002051016233950',
};
const fixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'nfe', name));
/** The fixture `name` under `key`: the key's fields (Ajuste SINIEF 07/2005) written into its ide too, as an issuer's note has them. */
const rekeyed = (name: string, from: string, key: string) => fixture(name).toString().replaceAll(from, key)
  .replace(/<cUF>\d+<\/cUF>/, `<cUF>${key.slice(0, 2)}</cUF>`).replace(/<serie>\d+<\/serie>/, `<serie>${Number(key.slice(22, 25))}</serie>`)
  .replace(/<nNF>\d+<\/nNF>/, `<nNF>${Number(key.slice(25, 34))}</nNF>`).replace(/<tpEmis>\d<\/tpEmis>/, `<tpEmis>${key[34]}</tpEmis>`)
  .replace(/<cNF>\d+<\/cNF>/, `<cNF>${key.slice(35, 43)}</cNF>`).replace(/<cDV>\d<\/cDV>/, `<cDV>${key[43]}</cDV>`);
let farmer: string;
let farmer2: string;
let coop: string;

beforeAll(async () => {
  api = await startTestApi();
  ({ own, other } = await ownAndOtherProducers(api));
  await upsertMunicipalities(api, [FEIRA, PORTO_ALEGRE]);
  const reg = (n: string) => [{ kind: 'CAF', number: n, validFrom: '2024-01-01', validUntil: '2027-12-31' }];
  farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, { i: { cpf: '52998224725', name: 'Maria da Silva', municipalityCode: FEIRA, registrations: reg('CAF-1') } })).createFamilyFarmer.id;
  farmer2 = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, { i: { cpf: '11144477735', name: 'João Pereira', municipalityCode: PORTO_ALEGRE, registrations: reg('CAF-2') } })).createFamilyFarmer.id;
  coop = (await api.ok(`mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }`, { i: { cnpj: '60701190000104', name: 'Cooperativa Agrícola', kind: 'COOPERATIVE', municipalityCode: RECIFE, registrations: reg('CAF-J-1'), members: 10, familyFarmerMembers: 8 } })).createOrganization.id;
});
afterAll(async () => { await api.close(); });

async function upload(body: Buffer | Uint8Array, query = '', type = 'application/xml', as: Caller = { role: 'PRODUCER', producerId: own }, producer = own, language = 'en') {
  const res = await fetch(`${api.url.replace(/\/graphql$/, '')}/import/nfe?producer=${producer}${query}`, {
    method: 'POST', headers: { 'content-type': type, authorization: `Bearer ${await api.token(as)}`, 'accept-language': language }, body,
  });
  const json = (await res.json()) as { import?: Record<string, unknown>; error?: { code: string; message: string; field?: string; problems?: Array<{ file: string; key: string | null; item: number | null; reason: string; messageKey: string }> } };
  return { status: res.status, ...json };
}
const purchases = (key: string) => api.db.dataSource.query(
  `SELECT feedstock, quantity_kg::text AS kg, cost::text, supplier_kind, family_farmer_id::text AS farmer, organization_id::text AS org,
          origin_municipality_code AS origin, purchased_on::text AS on, invoice_item AS item, pis_cofins_cst AS cst, state
     FROM purchase WHERE invoice_key = $1 ORDER BY invoice_item`, [key]);
const sales = (key: string) => api.db.dataSource.query(`SELECT sold_on::text AS on, volume_m3::text AS m3, revenue::text, market, state FROM sale WHERE invoice_key = $1`, [key]);

test('an unmappable item refuses the whole upload by default, naming note, item and reason; with partial=items the rest is written', async () => {
  // The entry note with its second item changed to diesel (NCM 2710.19.21), under a key of its own.
  const key = nfeKey(P, 999);
  const xml = Buffer.from(rekeyed('entry-note-two-items.xml', KEYS.entry, key).replace('<NCM>12060090</NCM>', '<NCM>27101921</NCM>'));
  const refused = await upload(Buffer.from(zipSync({ 'a.xml': xml })), '', 'application/zip');
  expect(refused.status).toBe(400);
  expect(refused.error?.problems).toEqual([{ file: 'a.xml', key, item: 2, reason: 'NCM 27101921 (Girassol em grao) is neither a feedstock nor biodiesel', messageKey: 'nfe.notFeedstock' }]);
  expect(await purchases(key)).toEqual([]);

  const partial = await upload(Buffer.from(zipSync({ 'a.xml': xml })), '&partial=items', 'application/zip');
  expect([partial.status, partial.import?.purchases, partial.import?.written, (partial.import?.problems as unknown[]).length]).toEqual([200, 1, true, 1]);
  expect((await purchases(key)).map((p: { item: number }) => p.item)).toEqual([1]);
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
});

test('the problems answer in pt-BR when asked (Accept-Language), in English otherwise, with the same messageKey', async () => {
  const key = nfeKey(P, 998);
  const xml = Buffer.from(rekeyed('entry-note-two-items.xml', KEYS.entry, key).replace('<NCM>12060090</NCM>', '<NCM>27101921</NCM>'));
  const me = { role: 'PRODUCER' as const, producerId: own };
  const pt = await upload(xml, '', 'application/xml', me, own, 'pt-BR');
  expect(pt.status).toBe(400);
  expect(pt.error?.message).toBe(`1 item(ns) ou arquivo(s) de NF-e não podem ser importados; nada foi gravado: em upload.xml, NF-e ${key}, item 2: o NCM 27101921 (Girassol em grao) não é matéria-prima nem biodiesel`);
  expect(pt.error?.problems).toEqual([{ file: 'upload.xml', key, item: 2, reason: 'o NCM 27101921 (Girassol em grao) não é matéria-prima nem biodiesel', messageKey: 'nfe.notFeedstock' }]);
  const en = await upload(xml, '', 'application/xml', me, own, 'en');
  expect(en.error?.message).toBe(`1 NF-e item(s) or file(s) cannot be imported; nothing was written: in upload.xml, NF-e ${key}, item 2: NCM 27101921 (Girassol em grao) is neither a feedstock nor biodiesel`);
  // A file refused unread, and the problems of a partial import's summary: in pt-BR too.
  expect((await upload(fixture('entity.xml'), '', 'application/xml', me, own, 'pt-BR')).error?.problems).toEqual([
    { file: 'upload.xml', key: null, item: null, reason: 'o XML declara um DOCTYPE ou uma entidade, o que uma NF-e nunca faz: recusado sem leitura', messageKey: 'nfe.doctype' },
  ]);
  const partial = await upload(xml, '&partial=items', 'application/xml', me, own, 'pt-BR');
  expect(partial.import?.problems).toEqual([{ file: 'upload.xml', key, item: 2, reason: 'o NCM 27101921 (Girassol em grao) não é matéria-prima nem biodiesel', messageKey: 'nfe.notFeedstock' }]);
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
});

test('each hand-written note, and what it becomes', async () => {
  // A farmer's producer note (issuer: her CPF, behind three zeros in the key): castor from Feira de Santana.
  expect((await upload(fixture('farmer-producer-note.xml'))).import).toMatchObject({ notes: 1, purchases: 1, written: true, problems: [] });
  expect(await purchases(KEYS.farmer)).toEqual([{ feedstock: 'CASTOR_BEAN', kg: '1500', cost: '4500', supplier_kind: 'FAMILY_FARMER', farmer, org: null, origin: FEIRA, on: '2026-03-05', item: 1, cst: '08', state: 'ACTIVE' }]);

  // The producer's own entry note with two items: 2 t of soybean and 10 sacks of sunflower (600 kg), from Porto Alegre.
  expect((await upload(fixture('entry-note-two-items.xml'))).import).toMatchObject({ purchases: 2 });
  expect(await purchases(KEYS.entry)).toEqual([
    { feedstock: 'SOYBEAN', kg: '2000', cost: '5000', supplier_kind: 'FAMILY_FARMER', farmer: farmer2, org: null, origin: PORTO_ALEGRE, on: '2026-03-06', item: 1, cst: '73', state: 'ACTIVE' },
    { feedstock: 'SUNFLOWER', kg: '600', cost: '1200', supplier_kind: 'FAMILY_FARMER', farmer: farmer2, org: null, origin: PORTO_ALEGRE, on: '2026-03-06', item: 2, cst: '73', state: 'ACTIVE' },
  ]);

  // A cooperative's note: its CNPJ is a registered organization.
  await upload(fixture('cooperative-note.xml'));
  expect(await purchases(KEYS.coop)).toMatchObject([{ feedstock: 'SOYBEAN', kg: '3000', cost: '7500', supplier_kind: 'COOPERATIVE', org: coop, origin: RECIFE }]);
  // Each lot keeps its supplier's CPF or CNPJ (the issuer of the note, as its key names it), for the EFD's C191/C195.
  expect(await api.db.dataSource.query(`SELECT invoice_key AS key, supplier_document AS doc FROM purchase WHERE invoice_key = ANY($1) ORDER BY invoice_key`, [[KEYS.farmer, KEYS.coop]]))
    .toEqual([{ key: KEYS.farmer, doc: KEYS.farmer.slice(9, 20) }, { key: KEYS.coop, doc: KEYS.coop.slice(6, 20) }].sort((a, b) => a.key.localeCompare(b.key)));

  // A sale of 10 m³ of B100 (NCM 3826.00.00); an export of 5.000 L (CFOP 7651) = 5 m³.
  await upload(fixture('sale.xml'));
  expect(await sales(KEYS.sale)).toEqual([{ on: '2026-03-20', m3: '10', revenue: '60000', market: 'DOMESTIC', state: 'ACTIVE' }]);
  await upload(fixture('export.xml'));
  expect(await sales(KEYS.export)).toEqual([{ on: '2026-03-21', m3: '5', revenue: '25000', market: 'EXPORT', state: 'ACTIVE' }]);

  // A foreign entry (CFOP 3102): an import of 20 m³ cleared on the DI's date.
  expect((await upload(fixture('foreign-entry.xml'))).import).toMatchObject({ imports: 1 });
  expect(await api.db.dataSource.query(`SELECT cleared_on::text AS on, volume_m3::text AS m3, declaration_number AS di FROM biodiesel_import WHERE invoice_key = $1`, [KEYS.foreign]))
    .toEqual([{ on: '2026-03-12', m3: '20', di: '26/1234567-8' }]);

  // The cooperative cancels its note (event 110111): its purchase is CANCELLED, kept.
  expect((await upload(fixture('cancellation-event.xml'))).import).toMatchObject({ cancellations: 1 });
  expect(await purchases(KEYS.coop)).toMatchObject([{ state: 'CANCELLED' }]);

  // A return note (finNFe 4) of 2 m³ of the sale, in April: a return of that sale dated 04-02.
  expect((await upload(fixture('return-note.xml'))).import).toMatchObject({ returns: 1 });
  expect(await api.db.dataSource.query(`SELECT r.returned_on::text AS on, r.quantity::text AS m3, r.value::text, s.invoice_key AS original FROM record_return r JOIN sale s ON s.id = r.sale_id WHERE r.invoice_key = $1`, [KEYS.return]))
    .toEqual([{ on: '2026-04-02', m3: '2', value: '12000', original: KEYS.sale }]);

  // The same note again: the sale's key is taken (CONFLICT DUPLICATE), told with its note and item; nothing written.
  const again = await upload(fixture('sale.xml'));
  expect([again.status, again.error?.problems]).toEqual([400, [{ file: 'upload.xml', key: KEYS.sale, item: 1, reason: `refused (CONFLICT): A sale with invoiceKey ${KEYS.sale} already exists`, messageKey: 'nfe.rule' }]]);
});

test('a note with two items of one feedstock: its returns are matched by item number (nItem)', async () => {
  // The entry note with its second item soybean too (10 SC = 600 kg, R$ 1.200), under a key of its own.
  const key = nfeKey(P, 997);
  const entry = Buffer.from(rekeyed('entry-note-two-items.xml', KEYS.entry, key).replace('<NCM>12060090</NCM>', '<NCM>12019000</NCM>'));
  expect((await upload(entry)).import).toMatchObject({ purchases: 2, written: true });
  const [first, second] = await api.db.dataSource.query(`SELECT id::text, invoice_item AS item, quantity_kg::text AS kg FROM purchase WHERE invoice_key = $1 ORDER BY invoice_item`, [key]);
  expect([first.item, first.kg, second.item, second.kg]).toEqual([1, '2000', 2, '600']);
  // A return note (finNFe 4) of 5 SC (300 kg, R$ 600) as its item 2: it takes back from item 2, not item 1.
  const note = (returnKey: string, nItem: number) => Buffer.from(rekeyed('return-note.xml', KEYS.return, returnKey).replace(`<refNFe>${KEYS.sale}</refNFe>`, `<refNFe>${key}</refNFe>`).replace('<det nItem="1">', `<det nItem="${nItem}">`)
    .replace(/<prod>.*<\/prod>/, '<prod><cProd>SOJ</cProd><cEAN>SEM GTIN</cEAN><xProd>Soja em grao</xProd><NCM>12019000</NCM><CFOP>5202</CFOP><uCom>SC</uCom><qCom>5.0000</qCom><vProd>600.00</vProd><uTrib>SC</uTrib><qTrib>5.0000</qTrib></prod>'));
  const back = nfeKey(P, 996, '2604');
  expect((await upload(note(back, 2))).import).toMatchObject({ returns: 1, written: true });
  expect(await api.db.dataSource.query(`SELECT purchase_id::text AS purchase, original_item AS item, quantity::text AS kg, value::text FROM record_return WHERE invoice_key = $1`, [back]))
    .toEqual([{ purchase: second.id, item: 2, kg: '300', value: '600' }]);
  // The same return note again would take the 300 kg back twice: refused, naming the return.
  const [{ id: returned }] = await api.db.dataSource.query('SELECT id::text FROM record_return WHERE invoice_key = $1', [back]);
  expect((await upload(note(back, 2))).error?.problems).toEqual([{ file: 'upload.xml', key: back, item: 2, reason: `this return note is already recorded (return ${returned})`, messageKey: 'nfe.returnRecorded' }]);
  expect(await api.count('SELECT count(*) FROM record_return WHERE invoice_key = $1', [back])).toBe(1);
  const back2 = nfeKey(P, 994, '2604');
  expect((await upload(Buffer.from(zipSync({ 'one.xml': note(back2, 2), 'two.xml': note(back2, 2) })), '', 'application/zip')).error?.problems)
    .toEqual([{ file: 'two.xml', key: back2, item: 2, reason: 'this item of the note is in the upload twice: it is recorded once', messageKey: 'nfe.itemTwice' }]);
  expect(await api.count('SELECT count(*) FROM record_return WHERE invoice_key = $1', [back2])).toBe(0);
  // Two uploads of one new return note at once: the second waits for the first, then sees its return.
  const back3 = nfeKey(P, 993, '2604');
  const first3 = api.db.dataSource.createQueryRunner();
  await first3.connect();
  try {
    await first3.startTransaction();
    await first3.query(`SELECT pg_advisory_xact_lock(${RETURN_NOTE_LOCK_KEY}) FROM (SELECT $1::text AS key) AS k`, [back3]);
    await first3.query(`INSERT INTO record_return (producer_id, purchase_id, returned_on, quantity, value, invoice_key, original_key, original_item)
                        VALUES ($1, $2, '2026-04-02', 1, 1, $3, $4, 2)`, [own, second.id, back3, key]);
    const racing = upload(note(back3, 2));
    const waiting = async () => Number((await api.db.dataSource.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event = 'advisory'`))[0].n);
    for (let i = 0; i < 200 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await waiting()).toBe(1);
    await first3.commitTransaction();
    expect((await racing).error?.problems?.map((p) => p.messageKey)).toEqual(['nfe.returnRecorded']);
    expect(await api.count('SELECT count(*) FROM record_return WHERE invoice_key = $1', [back3])).toBe(1);
  } finally {
    if (first3.isTransactionActive) await first3.rollbackTransaction();
    await first3.release();
  }
  // An item number that is neither of the note's soybean items: refused, naming both.
  const stray = await upload(note(nfeKey(P, 995, '2604'), 3));
  expect(stray.error?.problems).toEqual([{ file: 'upload.xml', key: nfeKey(P, 995, '2604'), item: 3,
    reason: `the referenced NF-e ${key} has several purchases of SOYBEAN (items 1, 2) and none is item 3, this item's number`, messageKey: 'nfe.returnWhichItem' }]);

  // recordReturns by key and feedstock: the item is required here (two soybean purchases), then matched.
  const RETURNS = `mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { purchaseId originalItem quantity } }`;
  const byKey = { originalKey: key, feedstock: 'SOYBEAN', returnedOn: '2026-04-03', quantity: '100', value: '250' };
  const count = await api.count('SELECT count(*) FROM record_return');
  expect((await api.gql(RETURNS, { i: [byKey] })).errors?.[0]).toMatchObject({
    message: `The NF-e ${key} has several purchases of SOYBEAN (items 1, 2): give originalItem`, extensions: { code: 'BAD_USER_INPUT', field: 'input[0].originalItem' },
  });
  expect((await api.gql(RETURNS, { i: [{ ...byKey, originalItem: 7 }] })).errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', field: 'input[0].originalKey' });
  // Named by id, the item must be the purchase's own.
  expect((await api.gql(RETURNS, { i: [{ originalKey: key, purchaseId: first.id, originalItem: 2, returnedOn: '2026-04-03', quantity: '1', value: '1' }] })).errors?.[0].extensions)
    .toMatchObject({ code: 'BAD_USER_INPUT', field: 'input[0].originalItem' });
  expect(await api.count('SELECT count(*) FROM record_return')).toBe(count);
  expect((await api.ok(RETURNS, { i: [{ ...byKey, originalItem: 1 }] })).recordReturns).toEqual([{ purchaseId: first.id, originalItem: 1, quantity: '100.000' }]);
  // Item 2 already lost 300 of its 600 kg: 301 more is too much for it, though item 1 could hold it.
  expect((await api.gql(RETURNS, { i: [{ ...byKey, originalItem: 2, quantity: '301' }] })).errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input[0].quantity' });
});

test('a lot typed with its NF-e item is that item: one already imported, or given twice in a batch, is CONFLICT DUPLICATE naming it', async () => {
  const [recorded] = await api.db.dataSource.query(`SELECT id::text FROM purchase WHERE invoice_key = $1 AND invoice_item = 1 AND state = 'ACTIVE'`, [KEYS.farmer]);
  const lot = (over: object) => ({ producerId: own, purchasedOn: '2026-03-05', feedstock: 'CASTOR_BEAN', quantityKg: '1500', cost: '4500', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer, originMunicipalityCode: FEIRA, ...over });
  const record = (i: object[]) => api.gql(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id invoiceItem } }`, { i }, { role: 'PRODUCER', producerId: own });
  const before = await api.count('SELECT count(*) FROM purchase');
  const again = await record([lot({ invoiceKey: KEYS.farmer, invoiceItem: 1 })]);
  expect(again.errors![0]).toMatchObject({ message: `item 1 of the NF-e ${KEYS.farmer} is already recorded, as purchase ${recorded.id}`, extensions: { code: 'CONFLICT', reason: 'DUPLICATE', field: 'input[0].invoiceItem' } });
  const key = nfeKey(P, 4402);
  const twice = await record([lot({ invoiceKey: key, invoiceItem: 2 }), lot({ invoiceKey: key, invoiceItem: 2 })]);
  expect(twice.errors![0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE', field: 'input[1].invoiceItem' });
  for (const [over, field] of [[{ invoiceItem: 1 }, 'input[0].invoiceItem'], [{ invoiceKey: key, invoiceItem: 991 }, 'input[0].invoiceItem'], [{ invoiceKey: key, invoiceItem: 0 }, 'input[0].invoiceItem']] as const) {
    expect((await record([lot(over)])).errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
  }
  expect(await api.count('SELECT count(*) FROM purchase')).toBe(before);
  // Another item of the note, and the same item once the recorded lot is cancelled, are new lots.
  expect((await record([lot({ invoiceKey: key, invoiceItem: 2 }), lot({ invoiceKey: key, invoiceItem: 3 })])).data!.recordPurchases.map((p: { invoiceItem: number }) => p.invoiceItem)).toEqual([2, 3]);
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { purchases { id } } }`, { k: key });
  expect((await record([lot({ invoiceKey: key, invoiceItem: 2 })])).errors).toBeUndefined();
});

test('a company\'s note: its CNPJ is a legal entity and its ICMS comes off the credit\'s base; both can be corrected', async () => {
  const company = newCnpj();
  const key = nfeKey(company, 3013);
  const ICMS = '<ICMS><ICMS00><orig>0</orig><CST>00</CST><modBC>3</modBC><vBC>7500.00</vBC><pICMS>12.00</pICMS><vICMS>900.00</vICMS></ICMS00></ICMS>';
  const xml = rekeyed('cooperative-note.xml', KEYS.coop, key).replaceAll('60701190000104', company)
    .replace('<NCM>12019000</NCM>', '<NCM>15071000</NCM>').replace('Soja em grao', 'Oleo de soja bruto').replaceAll('<CST>70</CST>', '<CST>01</CST>').replace('<imposto>', `<imposto>${ICMS}`);
  expect((await upload(Buffer.from(xml))).import).toMatchObject({ purchases: 1, written: true });
  const [row] = await api.db.dataSource.query(`SELECT id::text, feedstock, supplier_kind, credit_supplier, icms_value::text AS icms, version FROM purchase WHERE invoice_key = $1`, [key]);
  expect(row).toMatchObject({ feedstock: 'SOYBEAN_OIL', supplier_kind: 'THIRD_PARTY', credit_supplier: 'COMPANY', icms: '900' });
  // A note with no ICMS group (the cooperative's) records no ICMS: its credit would await it.
  expect((await api.db.dataSource.query(`SELECT icms_value FROM purchase WHERE invoice_key = $1`, [KEYS.coop]))[0].icms_value).toBeNull();
  const credit = async () => (await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 3) { credits { purchases { purchaseId status base pis cofins } } } }`, { p: own }))
    .taxPeriod.credits.purchases.find((c: { purchaseId: string }) => c.purchaseId === row.id);
  // (7.500,00 − 900,00) × 1,65% = 108,90; × 7,6% = 501,60.
  expect(await credit()).toEqual({ purchaseId: row.id, status: 'CREDIT', base: '6600.00', pis: '108.90', cofins: '501.60' });
  // The ICMS was recovered elsewhere: correctPurchase records none, and the base is the whole value.
  await api.ok(`mutation($id: ID!, $v: Int!) { correctPurchase(id: $id, expectedVersion: $v, input: { icmsValue: "0", pisCofinsCst: "02" }) { purchase { icmsValue pisCofinsCst } } }`, { id: row.id, v: row.version });
  expect(await credit()).toEqual({ purchaseId: row.id, status: 'CREDIT', base: '7500.00', pis: '123.75', cofins: '570.00' });
});

// Lei 10.637/2002 and Lei 10.833/2003, each art. 3º § 2º II: each contribution's credit follows the CST of its own group.
// Soy oil from a company, 10.000,00 with ICMS 0 (exempt group), PIS CST 01 and COFINS CST 06:
// PIS 10.000 × 1,65% = 165,00; Cofins none (zero rate) = 0,00. Both CSTs 01: 165,00 / 760,00 as before.
test('an item of PIS CST 01 and COFINS CST 06 credits PIS 165,00 and no Cofins; the same CST on both is unchanged', async () => {
  const company = newCnpj();
  const note = (n: number, cofins: string) => {
    const key = nfeKey(company, n);
    return { key, xml: Buffer.from(rekeyed('cooperative-note.xml', KEYS.coop, key).replaceAll('60701190000104', company)
      .replace('<NCM>12019000</NCM>', '<NCM>15071000</NCM>').replace('Soja em grao', 'Oleo de soja bruto').replace('<vProd>7500.00</vProd>', '<vProd>10000.00</vProd>')
      .replace('<PIS><PISOutr><CST>70</CST>', '<PIS><PISOutr><CST>01</CST>').replace('<COFINS><COFINSOutr><CST>70</CST>', `<COFINS><COFINSOutr><CST>${cofins}</CST>`)
      .replace('<imposto>', '<imposto><ICMS><ICMS40><orig>0</orig><CST>40</CST></ICMS40></ICMS>')) };
  };
  const [split, same] = [note(3021, '06'), note(3022, '01')];
  for (const n of [split, same]) expect((await upload(n.xml)).import).toMatchObject({ purchases: 1, written: true, problems: [] });
  const rows = await api.db.dataSource.query(`SELECT id::text, invoice_key AS key, pis_cofins_cst AS pis, cofins_cst AS cofins FROM purchase WHERE invoice_key = ANY($1)`, [[split.key, same.key]]);
  const of = (key: string) => rows.find((r: { key: string }) => r.key === key);
  expect([of(split.key).pis, of(split.key).cofins, of(same.key).pis, of(same.key).cofins]).toEqual(['01', '06', '01', null]);
  const credits = (await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 3) { credits { purchases { purchaseId status reason base pis cofins } } } }`, { p: own }))
    .taxPeriod.credits.purchases;
  const credit = (key: string) => credits.find((c: { purchaseId: string }) => c.purchaseId === of(key).id);
  expect(credit(split.key)).toEqual({ purchaseId: of(split.key).id, status: 'CREDIT', reason: 'COFINS_SUPPLIER_ZERO_RATE', base: '10000.00', pis: '165.00', cofins: '0.00' });
  expect(credit(same.key)).toEqual({ purchaseId: of(same.key).id, status: 'CREDIT', reason: null, base: '10000.00', pis: '165.00', cofins: '760.00' });
  for (const n of [split, same]) await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: n.key });
});

// A CST is a code of two digits (Guia Prático, tables 4.3.3–4.3.4): letters or a CST stated twice are refused on their
// item, never recorded as if the note stated none.
test('an item whose PIS/Cofins CST is no code of two digits is refused, nothing written', async () => {
  const company = newCnpj();
  const cases = [['<CST>ab</CST>', 3041], ['<CST>7x</CST>', 3042], ['<CST>73</CST><CST>50</CST>', 3043]] as const;
  for (const [cst, n] of cases) {
    const key = nfeKey(company, n);
    const xml = Buffer.from(rekeyed('cooperative-note.xml', KEYS.coop, key).replaceAll('60701190000104', company)
      .replace('<COFINS><COFINSOutr><CST>70</CST>', `<COFINS><COFINSOutr>${cst}`));
    const refused = await upload(xml);
    expect([refused.status, refused.error?.problems?.map((p) => p.messageKey)]).toEqual([400, ['nfe.unreadableCst']]);
    expect(await purchases(key)).toEqual([]);
  }
});

// The producer's own entry note (tpNF 0, a company as dest) states the buyer's entry CST (table 4.3.4 of the Guia):
// soy oil of 5.000,00 with ICMS 0. 50 → the right to credit: 5.000 × 1,65% = 82,50, × 7,6% = 380,00 (Lei 10.637/2002,
// art. 3º II); 73 → an acquisition at zero rate, no credit (art. 3º § 2º II); 70 → without the right to credit; 60 →
// a presumed credit, which no note computes; 01 → an exit code, refused. From a natural person no CST gives credit (§ 3º I).
test('the producer\'s own entry note: entry CST 50 credits, 70–75 none with the reason, 60–67 no basic credit, an exit CST refused', async () => {
  const company = newCnpj();
  const note = (n: number, cst: string, dest = `<CNPJ>${company}</CNPJ><xNome>Oleos SA</xNome>`) => {
    const key = nfeKey(P, n);
    return { key, xml: Buffer.from(rekeyed('entry-note-two-items.xml', KEYS.entry, key).replace('<CPF>11144477735</CPF><xNome>Joao Pereira</xNome>', dest)
      .replaceAll('<NCM>12019000</NCM>', '<NCM>15071000</NCM>').replaceAll('<NCM>12060090</NCM>', '<NCM>15071000</NCM>').replaceAll('<CST>73</CST>', `<CST>${cst}</CST>`)
      .replaceAll('<imposto>', '<imposto><ICMS><ICMS40><orig>0</orig><CST>40</CST></ICMS40></ICMS>')) };
  };
  const cases = [note(3031, '50'), note(3032, '73'), note(3033, '70'), note(3034, '60'), note(3035, '50', '<CPF>11144477735</CPF><xNome>Joao Pereira</xNome>')];
  for (const c of cases) expect((await upload(c.xml)).import).toMatchObject({ purchases: 2, written: true, problems: [] });
  const exit = note(3036, '01');
  const refused = await upload(exit.xml);
  expect([refused.status, refused.error?.problems?.map((p) => [p.item, p.messageKey])]).toEqual([400, [[1, 'nfe.exitCstOnEntry'], [2, 'nfe.exitCstOnEntry']]]);
  expect(refused.error?.problems?.[0].reason).toBe('PIS/Cofins CST 01 is an exit code (01–49), which the producer\'s own entry note cannot carry: it states the entry CST (50–56, 60–67, 70–75, 98, 99)');
  expect(await purchases(exit.key)).toEqual([]);
  const credits = (await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 3) { credits { purchases { purchaseId status reason pis cofins } } } }`, { p: own }))
    .taxPeriod.credits.purchases;
  const firstOf = async (key: string) => {
    const [row] = await api.db.dataSource.query(`SELECT id::text, pis_cofins_cst AS cst FROM purchase WHERE invoice_key = $1 AND invoice_item = 1`, [key]);
    const c = credits.find((x: { purchaseId: string }) => x.purchaseId === row.id);
    return [row.cst, c.status, c.reason, c.pis, c.cofins];
  };
  expect(await firstOf(cases[0].key)).toEqual(['50', 'CREDIT', null, '82.50', '380.00']);
  expect(await firstOf(cases[1].key)).toEqual(['73', 'NO_CREDIT', 'SUPPLIER_ZERO_RATE', null, null]);
  expect(await firstOf(cases[2].key)).toEqual(['70', 'NO_CREDIT', 'ACQUISITION_WITHOUT_CREDIT', null, null]);
  expect(await firstOf(cases[3].key)).toEqual(['60', 'NO_CREDIT', 'PRESUMED_CREDIT_NOT_FROM_NOTE', null, null]);
  expect(await firstOf(cases[4].key)).toEqual(['50', 'NO_CREDIT', 'NATURAL_PERSON_SUPPLIER', null, null]);
  for (const c of cases) await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: c.key });
});

test('a note of 2027 with the IBS/CBS group (NT 2025.002): the item\'s vCBS is recorded and is the purchase\'s CBS credit (LC 214/2025, art. 47)', async () => {
  const key = nfeKey('60701190000104', 3012, '2701');
  const IBSCBS = '<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>7500.00</vBC><gIBSUF><pIBSUF>0.1000</pIBSUF><vIBSUF>7.50</vIBSUF></gIBSUF>'
    + '<gIBSMun><pIBSMun>0.0000</pIBSMun><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>7.50</vIBS><gCBS><pCBS>8.8000</pCBS><vCBS>660.00</vCBS></gCBS></gIBSCBS></IBSCBS>';
  const note = (cbs: string) => Buffer.from(rekeyed('cooperative-note.xml', KEYS.coop, key).replaceAll('2026-03-07', '2027-01-12')
    .replace('</COFINS></imposto>', `</COFINS>${cbs}</imposto>`));
  // A vCBS no NF-e writes is the file's fault, named; nothing written.
  const bad = await upload(note(IBSCBS.replace('660.00', '660,00')));
  expect([bad.status, bad.error?.problems?.[0].reason]).toEqual([400, 'item 1: vCBS "660,00" is not a number as an NF-e writes it (digits, a point before the decimals; at most 15 digits before it and 10 after)']);
  expect((await upload(note(IBSCBS))).import).toMatchObject({ purchases: 1, written: true });
  const [row] = await api.db.dataSource.query(`SELECT id::text, cbs_value::text AS cbs FROM purchase WHERE invoice_key = $1`, [key]);
  expect(row.cbs).toBe('660');
  const month = await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2027, month: 1, asKnownOn: "2027-01-31") { credits { cbsPurchases { purchaseId status kind amount } } } }`, { p: own });
  expect(month.taxPeriod.credits.cbsPurchases).toEqual([{ purchaseId: row.id, status: 'CREDIT', kind: 'ACQUISITION', amount: '660.00' }]);
});

test('a family farmer\'s note of 2027 stating vCBS 0,00 gives the presumed credit of art. 168 (awaiting its percentage), not NO_CBS_ON_ACQUISITION', async () => {
  // The farmer's producer note (a natural person, CPF 529.982.247-25) of January 2027, with an IBS/CBS group of R$ 0,00.
  const first43 = `292701${KEYS.farmer.slice(6, 20)}55001000000102100799820`;
  const key = `${first43}${nfeKeyDigit(first43)}`;
  const IBSCBS = '<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>4500.00</vBC><gIBSUF><pIBSUF>0.0000</pIBSUF><vIBSUF>0.00</vIBSUF></gIBSUF>'
    + '<gIBSMun><pIBSMun>0.0000</pIBSMun><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>0.00</vIBS><gCBS><pCBS>0.0000</pCBS><vCBS>0.00</vCBS></gCBS></gIBSCBS></IBSCBS>';
  const xml = Buffer.from(rekeyed('farmer-producer-note.xml', KEYS.farmer, key).replaceAll('2026-03-05', '2027-01-05')
    .replace('</COFINS></imposto>', `</COFINS>${IBSCBS}</imposto>`));
  expect((await upload(xml)).import).toMatchObject({ purchases: 1, written: true });
  const [row] = await api.db.dataSource.query(`SELECT id::text, supplier_kind, cbs_value::text AS cbs FROM purchase WHERE invoice_key = $1`, [key]);
  expect([row.supplier_kind, row.cbs]).toEqual(['FAMILY_FARMER', '0']);
  const month = await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2027, month: 1, asKnownOn: "2027-01-31") { credits { cbsPurchases { purchaseId status kind reason base } } } }`, { p: own });
  expect(month.taxPeriod.credits.cbsPurchases.filter((c: { purchaseId: string }) => c.purchaseId === row.id))
    .toEqual([{ purchaseId: row.id, status: 'AWAITING_PARAMETER', kind: 'PRESUMED', reason: 'PRESUMED_RATE_NOT_PUBLISHED', base: '4500.00' }]);
});

test('malformed XML, an entity declaration, numbers no NF-e writes, nesting deeper than an NF-e and a ZIP bomb are refused, nothing written', async () => {
  const count = () => api.count('SELECT (SELECT count(*) FROM purchase) + (SELECT count(*) FROM sale)');
  const before = await count();
  const malformed = await upload(fixture('malformed.xml'));
  expect([malformed.status, malformed.error?.problems?.[0].reason]).toEqual([400, expect.stringMatching(/^malformed XML: /)]);
  const entity = await upload(fixture('entity.xml'));
  expect([entity.status, entity.error?.problems?.[0].reason]).toEqual([400, 'the XML declares a DOCTYPE or an entity, which an NF-e never does: refused unread']);
  // A quantity or a value an NF-e never writes (a comma, letters, an exponent, nothing): the file's fault, named.
  const sale = fixture('sale.xml').toString('utf8');
  for (const [tag, value] of [['qCom', '10,5'], ['qCom', 'abc'], ['vProd', ''], ['vProd', '1e3'], ['vProd', '-60000.00'], ['vProd', '1000000000000000.00'], ['qCom', '1.00000000001']]) {
    const bad = await upload(Buffer.from(sale.replace(new RegExp(`<${tag}>[^<]*</${tag}>`), `<${tag}>${value}</${tag}>`)));
    expect([bad.status, bad.error?.code, bad.error?.problems?.[0].reason]).toEqual([400, 'BAD_USER_INPUT', `item 1: ${tag} "${value}" is not a number as an NF-e writes it (digits, a point before the decimals; at most 15 digits before it and 10 after)`]);
  }
  // Well formed, but nested deeper than any NF-e: the parser's own bound, answered as the file's fault.
  const deep = await upload(Buffer.from(`${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`));
  expect([deep.status, deep.error?.code, deep.error?.problems?.[0].reason]).toEqual([400, 'BAD_USER_INPUT', 'elements nested more than 32 deep, which an NF-e never is: refused']);
  // 64 MiB of zeros behind a header that declares 1 KiB: inflation stops at the 2 MiB cap.
  const bomb = await upload(fixture('zip-bomb.zip'), '', 'application/zip');
  expect([bomb.status, bomb.error?.code, bomb.error?.message]).toEqual([400, 'BAD_USER_INPUT', 'bomb.xml is larger than 2097152 bytes, more than any NF-e: refused']);
  expect(await count()).toBe(before);
});

test('a tag the parser refuses to build (__proto__, constructor) is that file\'s problem, never a 500; the other notes of the ZIP are read', async () => {
  // fast-xml-parser will not make such a name a key of the tree: it reaches an object's prototype.
  for (const [xml, name] of [['<__proto__/>', '__proto__'], ['<nfeProc><constructor/></nfeProc>', 'constructor'], ['<nfeProc><NFe><prototype>1</prototype></NFe></nfeProc>', 'prototype']]) {
    const refused = await upload(Buffer.from(xml));
    expect([refused.status, refused.error?.code, refused.error?.problems]).toEqual([400, 'BAD_USER_INPUT', [{ file: 'upload.xml', key: null, item: null, messageKey: 'nfe.unreadable',
      reason: `the XML cannot be read: [SECURITY] Invalid name: "${name}" is a reserved JavaScript keyword that could cause prototype pollution` }]]);
  }
  const pt = await upload(Buffer.from('<__proto__/>'), '', 'application/xml', { role: 'PRODUCER', producerId: own }, own, 'pt-BR');
  expect(pt.error?.problems?.[0].reason).toMatch(/^o XML não pode ser lido: /);
  // Beside a sale in a ZIP: with partial=items the sale is written and the file reported.
  const key = nfeKey(P, 5900);
  const zip = zipSync({ 'venda.xml': Buffer.from(rekeyed('sale.xml', KEYS.sale, key)), 'evil.xml': Buffer.from('<nfeProc><constructor/></nfeProc>') });
  const partial = await upload(Buffer.from(zip), '&partial=items', 'application/zip');
  expect([partial.status, partial.import?.sales, (partial.import?.problems as Array<{ file: string; messageKey: string }>).map((p) => [p.file, p.messageKey])])
    .toEqual([200, 1, [['evil.xml', 'nfe.unreadable']]]);
  expect(await sales(key)).toEqual([{ on: '2026-03-20', m3: '10', revenue: '60000', market: 'DOMESTIC', state: 'ACTIVE' }]);
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
});

// docs/API.md, "Text lengths": the texts an NF-e import reads follow the rules of every input's.
test('a note whose text holds a control character or a direction override, or a name over 500, is that note\'s problem naming the field; nothing of it written', async () => {
  const company = newCnpj();
  const key = nfeKey(company, 5950);
  const note = (xml: string) => rekeyed('cooperative-note.xml', KEYS.coop, key).replaceAll('60701190000104', company).replace(/<xNome>Cooperativa Agricola<\/xNome>/, `<xNome>${xml}</xNome>`);
  const refused = async (xml: string, item: number | null, messageKey: string, reason: string) => {
    const answer = await upload(Buffer.from(xml));
    expect([answer.status, answer.error?.code, answer.error?.problems]).toEqual([400, 'BAD_USER_INPUT', [{ file: 'upload.xml', key, item, messageKey, reason }]]);
  };
  const CONTROL = 'line breaks, tabs, other control characters and direction overrides are refused';
  // The issuer's name (the supplier's name of the purchase), written as a character reference or as the character itself.
  await refused(note('Silva &#x202E;Filhos Ltda'), null, 'input.controlCharacter', `emit/xNome contains a control character (U+202E): ${CONTROL}`);
  await refused(note('Silva \u202EFilhos Ltda'), null, 'input.controlCharacter', `emit/xNome contains a control character (U+202E): ${CONTROL}`);
  await refused(note('Silva&#x2028;Filhos Ltda'), null, 'input.controlCharacter', `emit/xNome contains a control character (U+2028): ${CONTROL}`);
  await refused(note('Silva&#133;Filhos Ltda'), null, 'input.controlCharacter', `emit/xNome contains a control character (U+0085): ${CONTROL}`);
  await refused(note('Silva\tFilhos Ltda'), null, 'input.controlCharacter', `emit/xNome contains a control character (U+0009): ${CONTROL}`);
  await refused(note('Silva&#10;Filhos Ltda'), null, 'input.controlCharacter', `emit/xNome contains a control character (U+000A): ${CONTROL}`);
  await refused(note('S'.repeat(501)), null, 'input.tooLong', 'emit/xNome must be at most 500 characters long (it has 501)');
  // The item's description, the recipient's name and the issuer's municipality, each named.
  const plain = note('Silva Filhos Ltda');
  await refused(plain.replace('<xProd>Soja em grao</xProd>', '<xProd>Soja&#x202E;oarg</xProd>'), 1, 'input.controlCharacter', `prod/xProd contains a control character (U+202E): ${CONTROL}`);
  await refused(plain.replace('<xNome>Usina Propria SA</xNome>', '<xNome>Usina\u2066Propria</xNome>'), null, 'input.controlCharacter', `dest/xNome contains a control character (U+2066): ${CONTROL}`);
  await refused(plain.replace('<cMun>2611606</cMun>', '<cMun>2611606&#13;</cMun>'), null, 'input.controlCharacter', `emit/enderEmit/cMun contains a control character (U+000D): ${CONTROL}`);
  expect(await purchases(key)).toEqual([]);
  // The rest of a ZIP is read: with partial=items the other note is written.
  const other = nfeKey(company, 5951);
  const good = rekeyed('cooperative-note.xml', KEYS.coop, other).replaceAll('60701190000104', company);
  const partial = await upload(Buffer.from(zipSync({ 'bad.xml': Buffer.from(note('Silva &#x202E;Filhos')), 'good.xml': Buffer.from(good) })), '&partial=items', 'application/zip');
  expect([partial.status, partial.import?.purchases, (partial.import?.problems as Array<{ file: string; key: string; messageKey: string }>).map((p) => [p.file, p.key, p.messageKey])])
    .toEqual([200, 1, [['bad.xml', key, 'input.controlCharacter']]]);
  expect(await purchases(key)).toEqual([]);
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: other });
});

// XML 1.0, § 4.1 and § 4.6: a reference stands for its character; a CDATA section is its text as written.
test('a note\'s references are read (&amp;, &#xE3;…): the name is stored decoded; an entity XML does not define is the note\'s problem, a DOCTYPE still refused', async () => {
  const company = newCnpj();
  const stored = async (n: number, name: string) => {
    const key = nfeKey(company, n);
    const xml = rekeyed('cooperative-note.xml', KEYS.coop, key).replaceAll('60701190000104', company).replace('<xNome>Cooperativa Agricola</xNome>', `<xNome>${name}</xNome>`);
    const answer = await upload(Buffer.from(xml));
    if (!answer.import) return answer;
    const rows = await api.db.dataSource.query(`SELECT supplier_kind AS kind, supplier_name AS name FROM purchase WHERE invoice_key = $1`, [key]);
    await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
    return rows;
  };
  expect(await stored(5960, 'Silva &amp; Filhos Ltda')).toEqual([{ kind: 'THIRD_PARTY', name: 'Silva & Filhos Ltda' }]);
  expect(await stored(5961, 'Irm&#xE3;os &#65;lves &lt;Agro&gt; &quot;Sul&quot; d&apos;Oeste')).toEqual([{ kind: 'THIRD_PARTY', name: 'Irmãos Alves <Agro> "Sul" d\'Oeste' }]);
  // A CDATA section is taken as written: its & is a character, its &amp; five.
  expect(await stored(5962, '<![CDATA[Silva & Filhos &amp; Cia]]>')).toEqual([{ kind: 'THIRD_PARTY', name: 'Silva & Filhos &amp; Cia' }]);
  // An entity no DTD of the note declares (HTML's &nbsp; included), a character XML does not allow (NUL): refused, naming the field.
  for (const [name, reference] of [['Silva&nbsp;Filhos', '&nbsp;'], ['Silva &ent; Filhos', '&ent;'], ['Silva&#0;', '&#0;'], ['Silva &#xD800;', '&#xD800;']]) {
    const answer = await stored(5963, name);
    expect([answer.status, answer.error?.problems?.map((p: { key: string; messageKey: string; reason: string }) => [p.key, p.messageKey, p.reason])]).toEqual([400, [[nfeKey(company, 5963), 'nfe.badReference',
      `emit/xNome holds "${reference}", which is no reference XML reads (&lt; &gt; &amp; &apos; &quot;, or &#…; of a character XML allows): a bare & is written &amp;`]]]);
  }
  expect(await purchases(nfeKey(company, 5963))).toEqual([]);
  // A DOCTYPE, which could declare entities (internal or external), is refused unread as before.
  const doctype = await upload(Buffer.from(`<?xml version="1.0"?><!DOCTYPE nfeProc [<!ENTITY x SYSTEM "file:///etc/passwd">]><nfeProc><NFe><infNFe Id="NFe1"><emit><xNome>&x;</xNome></emit></infNFe></NFe></nfeProc>`));
  expect(doctype.error?.problems?.map((p) => p.messageKey)).toEqual(['nfe.doctype']);
});

test('who may import: an AUDITOR never, a PRODUCER for itself only, an unknown producer is NOT_FOUND', async () => {
  const sale = fixture('sale.xml');
  expect((await upload(sale, '', 'application/xml', { role: 'AUDITOR' })).status).toBe(403);
  const theirs = await upload(sale, '', 'application/xml', { role: 'PRODUCER', producerId: other });
  expect([theirs.status, theirs.error?.code]).toEqual([404, 'NOT_FOUND']);
  const unknown = await upload(sale, '', 'application/xml', { role: 'ADMIN' }, 'x1');
  expect([unknown.status, unknown.error?.code]).toEqual([404, 'NOT_FOUND']);
});

test('an NF-e item is one purchase: the same note again, or twice in a ZIP, is refused naming each item; partial=items writes the new ones', async () => {
  const note = (n: number) => { const key = nfeKey(P, n); return { key, xml: Buffer.from(rekeyed('entry-note-two-items.xml', KEYS.entry, key)) }; };
  const a = note(990);
  const b = note(989);
  expect((await upload(a.xml)).import).toMatchObject({ purchases: 2, written: true });
  const ids = (await api.db.dataSource.query('SELECT id::text AS id FROM purchase WHERE invoice_key = $1 ORDER BY invoice_item', [a.key])).map((r: { id: string }) => r.id);

  const again = await upload(a.xml);
  expect(again.status).toBe(400);
  expect(again.error?.problems).toEqual([1, 2].map((item, i) => ({ file: 'upload.xml', key: a.key, item, reason: `this item of the note is already recorded, as purchase ${ids[i]}`, messageKey: 'nfe.itemRecorded' })));
  expect(await purchases(a.key)).toHaveLength(2);

  const twice = await upload(Buffer.from(zipSync({ 'one.xml': b.xml, 'two.xml': b.xml })), '', 'application/zip');
  expect(twice.error?.problems).toEqual([1, 2].map((item) => ({ file: 'two.xml', key: b.key, item, reason: 'this item of the note is in the upload twice: it is recorded once', messageKey: 'nfe.itemTwice' })));
  expect(await purchases(b.key)).toEqual([]);

  const partial = await upload(Buffer.from(zipSync({ 'a.xml': a.xml, 'b.xml': b.xml })), '&partial=items', 'application/zip');
  expect([partial.status, partial.import?.purchases, (partial.import?.problems as Array<{ messageKey: string }>).map((p) => p.messageKey)]).toEqual([200, 2, ['nfe.itemRecorded', 'nfe.itemRecorded']]);
  expect(await purchases(b.key)).toHaveLength(2);

  // A cancelled note counts nowhere: it may be recorded again.
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: a.key });
  expect((await upload(a.xml)).import).toMatchObject({ purchases: 2, written: true });
  expect((await purchases(a.key)).map((p: { state: string }) => p.state).sort()).toEqual(['ACTIVE', 'ACTIVE', 'CANCELLED', 'CANCELLED']);
  for (const key of [a.key, b.key]) await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
});

test('one new note uploaded by two at once: the second waits for the first and is CONFLICT DUPLICATE, nothing of it written', async () => {
  const key = nfeKey(P, 988);
  const xml = Buffer.from(rekeyed('entry-note-two-items.xml', KEYS.entry, key));
  // The first upload's item 1, not yet committed when the second reads what is recorded.
  const first = api.db.dataSource.createQueryRunner();
  await first.connect();
  try {
    await first.startTransaction();
    await first.query(
      `INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, supplier_name, origin_municipality_code, invoice_key, invoice_item)
       VALUES ($1, '2026-03-06', '2026-03-06', 'SOYBEAN', 2000, 5000, 'THIRD_PARTY', 'Primeiro envio', $2, $3, 1)`, [own, PORTO_ALEGRE, key]);
    const second = upload(xml);
    const waiting = async () => Number((await api.db.dataSource.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO "purchase"%'`))[0].n);
    for (let i = 0; i < 200 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await waiting()).toBe(1);
    await first.commitTransaction();
    const answer = await second;
    expect([answer.status, answer.error?.code]).toEqual([409, 'CONFLICT']);
    expect((await purchases(key)).map((p: { item: number }) => p.item)).toEqual([1]);
  } finally {
    if (first.isTransactionActive) await first.rollbackTransaction();
    await first.release();
  }
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
});

test('the migration that makes an NF-e item one purchase names the items already recorded twice, and chooses none', async () => {
  const key = nfeKey(P, 987);
  const q = api.db.dataSource.createQueryRunner();
  await q.connect();
  try {
    await q.startTransaction();
    await q.query('DROP INDEX purchase_invoice_item');
    const [{ ids }] = await q.query(
      `WITH added AS (INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, supplier_name, origin_municipality_code, invoice_key, invoice_item)
         SELECT $1, '2026-03-06', '2026-03-06', 'SOYBEAN', 10, 20, 'THIRD_PARTY', 'Duas vezes', $2, $3, 1 FROM generate_series(1, 2) RETURNING id)
       SELECT string_agg(id::text, ', ' ORDER BY id) AS ids FROM added`, [own, PORTO_ALEGRE, key]);
    await expect(new PurchaseInvoiceItem1766460000000().up(q)).rejects.toThrow(`(producer, key, item: purchases): ${own}, ${key}, 1: ${ids}. Cancel each such note`);
  } finally {
    await q.rollbackTransaction();
    await q.release();
  }
  expect(await purchases(key)).toEqual([]);
});

/** The farmer's note (recipient the producer) with `items` copies of its item, numbered 1…; `ncm` replaces the item's. */
function noteOfItems(items: number, ncm = '12073000'): Buffer {
  const xml = fixture('farmer-producer-note.xml').toString('utf8');
  const det = /<det nItem="1">[\s\S]*?<\/det>/.exec(xml)![0].replace('<NCM>12073000</NCM>', `<NCM>${ncm}</NCM>`);
  return Buffer.from(xml.replace(/<det nItem="1">[\s\S]*?<\/det>/, Array.from({ length: items }, (_, i) => det.replace('nItem="1"', `nItem="${i + 1}"`)).join('')));
}

test('a hostile ZIP (many notes of more items than an NF-e has) is refused, its problems capped at 100 and counted, while other requests are answered', async () => {
  const count = () => api.count('SELECT (SELECT count(*) FROM purchase) + (SELECT count(*) FROM sale)');
  const before = await count();
  // Shaped like the attack (128 notes of 20,653 items each), smaller and under the upload's 10,000
  // items: 8 notes of 1,200 items (991 of each read); beside them a note of 991 items (one past the
  // layout's nItem 1–990) and one of 990 items that map to nothing (990 problems of its own).
  const entries: Record<string, Uint8Array> = {};
  for (let n = 1; n <= 8; n++) entries[`big-${n}.xml`] = noteOfItems(1_200);
  entries['n991.xml'] = noteOfItems(991);
  entries['n990.xml'] = noteOfItems(990, '27101921');
  const zip = Buffer.from(zipSync(entries));
  const base = api.url.replace(/\/graphql$/, '');

  let answered = false;
  const uploading = fetch(`${base}/import/nfe?producer=${own}`, {
    method: 'POST', headers: { 'content-type': 'application/zip', authorization: `Bearer ${await api.token({ role: 'PRODUCER', producerId: own })}` }, body: zip,
  }).then(async (res) => ({ status: res.status, text: await res.text() })).finally(() => { answered = true; });
  // Pings one after the other while the upload is read: the notes were parsed on the event loop,
  // each /healthz waiting for the whole ZIP (45 s in the attack); now they are answered meanwhile.
  let pings = 0;
  while (!answered) {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    if (!answered) pings++;
  }
  const { status, text } = await uploading;
  // Read on the event loop, a dozen got through (while the upload was received); off it, thousands.
  expect(pings).toBeGreaterThanOrEqual(100);

  expect(status).toBe(400);
  expect(text.length).toBeLessThan(64 * 1024);
  const error = (JSON.parse(text) as { error: { code: string; message: string; problemCount: number; problems: Array<{ file: string; item: number | null; messageKey: string }> } }).error;
  expect(error.code).toBe('BAD_USER_INPUT');
  // 9 files of too many items, refused unbuilt, and the 990 items of the last: 999, the first 100 shown.
  expect(error.problemCount).toBe(999);
  expect(error.message).toMatch(/^999 NF-e item\(s\) or file\(s\) cannot be imported/);
  expect(error.problems).toHaveLength(100);
  expect(error.problems.slice(0, 9).map((p) => [p.file, p.item, p.messageKey])).toEqual([...Object.keys(entries).slice(0, 9)].map((f) => [f, null, 'nfe.tooManyItems']));
  expect(error.problems.slice(9).map((p) => [p.file, p.item, p.messageKey])).toEqual(Array.from({ length: 91 }, (_, i) => ['n990.xml', i + 1, 'nfe.notFeedstock']));
  expect(await count()).toBe(before);

  // The attack's own number of such notes passes the upload's 10,000 items read at the 11th: refused whole there.
  const attack: Record<string, Uint8Array> = {};
  for (let n = 1; n <= 24; n++) attack[`big-${n}.xml`] = noteOfItems(1_200);
  const whole = await upload(Buffer.from(zipSync(attack)), '', 'application/zip');
  expect([whole.status, whole.error?.code, whole.error?.field, whole.error?.problems]).toEqual([400, 'BAD_USER_INPUT', 'file', undefined]);
  expect(await count()).toBe(before);

  // With partial=items the summary's problems are capped the same way.
  const partial = await upload(Buffer.from(zipSync({ 'n990.xml': noteOfItems(990, '27101921') })), '&partial=items', 'application/zip');
  expect([partial.status, partial.import?.problemCount, (partial.import?.problems as unknown[]).length, partial.import?.purchases]).toEqual([200, 990, 100, 0]);
});

/** The producer's entry note of November 2026 with `items` items of 2 t of soybean (R$ 5.000,00) bought from João, under a key of its own. */
function entryOfItems(n: number, items: number): { key: string; xml: Buffer } {
  const key = nfeKey(P, n, '2611');
  const xml = rekeyed('entry-note-two-items.xml', KEYS.entry, key).replaceAll('2026-03-06', '2026-11-06');
  const det = /<det nItem="1">[\s\S]*?<\/det>/.exec(xml)![0];
  return { key, xml: Buffer.from(xml.replace(/<det nItem="1">[\s\S]*<\/det>/, Array.from({ length: items }, (_, i) => det.replace('nItem="1"', `nItem="${i + 1}"`)).join(''))) };
}

test('an upload of more than 10,000 items in all is refused whole once read past them, nothing written; one of 10,000 is written', async () => {
  // 130 authorized notes of 990 items each (128,700 purchases, within the 5,000 files and 256 MiB)
  // ran 53 s and answered 500: their audit records were spread into push() and overflowed the stack.
  // Written whole, they took 157 s and 1.7 GB; the upload is now capped at 10,000 items read.
  const notes = Array.from({ length: 10 }, (_, i) => entryOfItems(7000 + i, 990));
  const keys = [...notes.map((n) => n.key), entryOfItems(7010, 1).key];
  const zip = (lastItems: number, after: Record<string, Uint8Array> = {}) => Buffer.from(zipSync({
    ...Object.fromEntries(notes.map((n, i) => [`${i + 1}.xml`, n.xml])), '11.xml': entryOfItems(7010, lastItems).xml, ...after,
  }));
  const written = () => api.db.dataSource.query(
    `SELECT count(*)::int AS n, sum(quantity_kg)::text AS kg, sum(cost)::text AS cost, count(DISTINCT invoice_key)::int AS notes FROM purchase WHERE invoice_key = ANY($1) AND state = 'ACTIVE'`, [keys]);

  // 10,001 items: refused, naming the cap. The files after the cap are not read: here one of 3 MiB,
  // which would make the answer "larger than 2097152 bytes" were it inflated.
  const over = await upload(zip(101, { 'z.xml': new Uint8Array(3 * 1024 * 1024) }), '', 'application/zip');
  expect([over.status, over.error?.code, over.error?.field, over.error?.message]).toEqual([400, 'BAD_USER_INPUT', 'file',
    'The upload holds more than 10000 items (det) in all, more than one import writes: send its notes in several uploads']);
  expect((await upload(zip(101), '', 'application/zip', { role: 'PRODUCER', producerId: own }, own, 'pt-BR')).error?.message)
    .toBe('O envio tem mais de 10000 itens (det) ao todo, mais do que uma importação grava: envie as notas em vários envios');
  expect(await written()).toEqual([{ n: 0, kg: null, cost: null, notes: 0 }]);

  // 10,000 items: each a purchase of 2.000 kg for R$ 5.000,00, audited one by one.
  const answer = await upload(zip(100), '', 'application/zip');
  expect([answer.status, answer.import?.purchases, answer.import?.notes, answer.import?.written]).toEqual([200, 10_000, 11, true]);
  expect(await written()).toEqual([{ n: 10_000, kg: '20000000', cost: '50000000', notes: 11 }]);
  expect(await api.count(`SELECT count(*) FROM audit_entry a JOIN purchase p ON p.id::text = a.entity_id WHERE a.entity = 'Purchase' AND p.invoice_key = ANY($1)`, [keys])).toBe(10_000);
});

test('a quantity within the bounds as written but not once converted to kg (T × 1000, SC × 60) is refused, naming file and item', async () => {
  const key = nfeKey(P, 987);
  // Item 1 in T (2.0000), item 2 in SC (10.0000) in the fixture.
  const note = (t: string, sc: string) => Buffer.from(rekeyed('entry-note-two-items.xml', KEYS.entry, key)
    .replace('<qCom>2.0000</qCom>', `<qCom>${t}</qCom>`).replace('<qCom>10.0000</qCom>', `<qCom>${sc}</qCom>`));
  // 999999999999999 t = 999999999999999000 kg (18 digits); 99999999999999.9999999999 sc × 60 = 5999999999999999.999999994 kg (16 digits):
  // beyond the 15 digits before the point every input keeps (docs/API.md, "Decimals").
  const wide = await upload(note('999999999999999', '99999999999999.9999999999'), '', 'application/xml');
  expect([wide.status, wide.error?.code]).toEqual([400, 'BAD_USER_INPUT']);
  expect(wide.error?.problems).toEqual([
    { file: 'upload.xml', key, item: 1, reason: 'qCom 999999999999999 T is 999999999999999000 kg, wider than a number is taken (at most 15 digits before the point and 10 after)', messageKey: 'nfe.quantityOutOfBounds' },
    { file: 'upload.xml', key, item: 2, reason: 'qCom 99999999999999.9999999999 SC is 5999999999999999.999999994 kg, wider than a number is taken (at most 15 digits before the point and 10 after)', messageKey: 'nfe.quantityOutOfBounds' },
  ]);
  expect(await purchases(key)).toEqual([]);
  // At the bound: 999999999999.999 t = 999999999999999 kg; 16666666666666.6666666666 sc × 60 = 999999999999999.999999996 kg.
  const edge = await upload(note('999999999999.999', '16666666666666.6666666666'), '', 'application/xml');
  expect(edge.import).toMatchObject({ purchases: 2, written: true });
  expect((await purchases(key)).map((p: { kg: string }) => p.kg)).toEqual(['999999999999999', '999999999999999.999999996']);
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
});

test('a cancellation event imported for one producer cancels only that producer\'s records, for an ADMIN as for the producer', async () => {
  // Another producer's sale (its key names its own CNPJ), and the event cancelling it.
  const theirs = nfeKey('11444777000161', 986);
  const [{ id }] = (await api.ok('mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }', { i: [{ producerId: other, soldOn: '2026-03-10', volumeM3: '10', revenue: '60000', invoiceKey: theirs }] })).recordSales;
  const event = Buffer.from(fixture('cancellation-event.xml').toString().replaceAll(KEYS.coop, theirs));
  const state = async () => (await api.db.dataSource.query('SELECT state FROM sale WHERE id = $1', [id]))[0].state;
  const asProducer = await upload(event);
  const asAdmin = await upload(event, '', 'application/xml', { role: 'ADMIN' }, own);
  for (const refused of [asProducer, asAdmin]) {
    expect([refused.status, refused.error?.code, refused.error?.problems?.map((p) => [p.key, p.messageKey, p.reason.startsWith('refused (NOT_FOUND)')])]).toEqual([400, 'BAD_USER_INPUT', [[theirs, 'nfe.rule', true]]]);
  }
  expect(await state()).toBe('ACTIVE');
  // Imported for its own producer, the event cancels it.
  expect((await upload(event, '', 'application/xml', { role: 'ADMIN' }, other)).import).toMatchObject({ cancellations: 1, written: true });
  expect(await state()).toBe('CANCELLED');
});

test('an item whose nItem is no item number (1 to 990) is that item\'s problem, named; with partial=items the other items are written', async () => {
  const key = nfeKey(P, 985);
  const note = (nItem: string) => Buffer.from(rekeyed('entry-note-two-items.xml', KEYS.entry, key).replace('<det nItem="2">', `<det nItem="${nItem}">`));
  for (const nItem of ['abc', '1.5', '3000000000', '991', '0']) {
    const refused = await upload(note(nItem));
    expect([refused.status, refused.error?.code, refused.error?.problems]).toEqual([400, 'BAD_USER_INPUT', [
      { file: 'upload.xml', key, item: null, reason: `item (det) 2: nItem "${nItem}" is not an item number (an integer from 1 to 990)`, messageKey: 'nfe.badItemNumber' },
    ]]);
  }
  expect(await purchases(key)).toEqual([]);
  const partial = await upload(note('abc'), '&partial=items');
  expect([partial.status, partial.import?.purchases, (partial.import?.problems as Array<{ messageKey: string }>).map((p) => p.messageKey)]).toEqual([200, 1, ['nfe.badItemNumber']]);
  expect((await purchases(key)).map((p: { item: number }) => p.item)).toEqual([1]);
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
});

test('an exit of biodiesel is a sale only under a sale CFOP: a transfer, other exit, deposit or bonus is its item\'s problem, naming the CFOP', async () => {
  // The sale (10 m³, R$ 60.000) under another CFOP each time. CFOP table (Ajuste SINIEF 07/2001):
  // 5152/6152 transfer between establishments, 5949/6949 other exit, 5905/6905 deposit, 5910/6910 bonus — no sale, no revenue.
  const note = (n: number, cfop: string) => {
    const key = nfeKey(P, n);
    return { key, xml: Buffer.from(rekeyed('sale.xml', KEYS.sale, key).replace('<CFOP>5651</CFOP>', `<CFOP>${cfop}</CFOP>`)) };
  };
  let n = 5100;
  for (const cfop of ['5152', '6152', '5949', '6949', '5905', '6905', '5910', '6910']) {
    const { key, xml } = note(n++, cfop);
    const refused = await upload(xml);
    expect([refused.status, refused.error?.problems?.map((p) => [p.key, p.item, p.messageKey, p.reason.includes(`CFOP ${cfop} is no sale`)])]).toEqual([400, [[key, 1, 'nfe.exitNotSale', true]]]);
    // Not silently skipped with partial=items either: reported, and nothing recorded.
    const partial = await upload(xml, '&partial=items');
    expect([partial.import?.sales, (partial.import?.problems as Array<{ messageKey: string }>).map((p) => p.messageKey)]).toEqual([0, ['nfe.exitNotSale']]);
    expect(await sales(key)).toEqual([]);
  }
  // Sales of own production and of goods bought, within the UF and to another, and the exports.
  for (const [cfop, market] of [['5101', 'DOMESTIC'], ['5102', 'DOMESTIC'], ['6101', 'DOMESTIC'], ['6102', 'DOMESTIC'], ['5401', 'DOMESTIC'], ['5405', 'DOMESTIC'],
    ['5651', 'DOMESTIC'], ['6652', 'DOMESTIC'], ['7101', 'EXPORT'], ['7102', 'EXPORT'], ['7651', 'EXPORT']]) {
    const { key, xml } = note(n++, cfop);
    expect((await upload(xml)).import).toMatchObject({ sales: 1, written: true });
    expect(await sales(key)).toEqual([{ on: '2026-03-20', m3: '10', revenue: '60000', market, state: 'ACTIVE' }]);
    await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
  }
});

test('a sale "com fim específico de exportação" (CFOP 5501/5502/6501/6502) is export revenue: no PIS/Cofins in its month', async () => {
  // Lei 10.637/2002, art. 5º III, and Lei 10.833/2003, art. 6º III: revenue of sales to a trading company with the
  // specific purpose of export bears no contribution. May 2026 holds only these sales: 4 × 10 m³, R$ 60.000 each.
  let n = 5200;
  for (const cfop of ['5501', '5502', '6501', '6502']) {
    const key = nfeKey(P, n++, '2605');
    const xml = Buffer.from(rekeyed('sale.xml', KEYS.sale, key).replaceAll('2026-03-20', '2026-05-20').replace('<CFOP>5651</CFOP>', `<CFOP>${cfop}</CFOP>`));
    expect((await upload(xml)).import).toMatchObject({ sales: 1, written: true });
    expect(await sales(key)).toEqual([{ on: '2026-05-20', m3: '10', revenue: '60000', market: 'EXPORT', state: 'ACTIVE' }]);
  }
  const month = (await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 5) { exportedVolumeM3 domesticVolumeM3 importedVolumeM3 pisDue cofinsDue } }`, { p: own })).taxPeriod;
  expect(month).toEqual({ exportedVolumeM3: '40.000', domesticVolumeM3: '0.000', importedVolumeM3: '0.000', pisDue: '0.00', cofinsDue: '0.00' });
});

test('an unconditional discount (vDesc) comes off a sale\'s revenue, a return\'s value and a purchase\'s cost', async () => {
  const desc = (xml: string, value: string) => Buffer.from(xml.replace('</qTrib></prod>', `</qTrib><vDesc>${value}</vDesc></prod>`));
  // Lei 10.637/2002 and Lei 10.833/2003, art. 1º § 3º V a: unconditional discounts are not revenue. 60.000 − 5.000 = 55.000.
  const saleKey = nfeKey(P, 5300);
  expect((await upload(desc(rekeyed('sale.xml', KEYS.sale, saleKey), '5000.00'))).import).toMatchObject({ sales: 1, written: true });
  expect(await sales(saleKey)).toEqual([{ on: '2026-03-20', m3: '10', revenue: '55000', market: 'DOMESTIC', state: 'ACTIVE' }]);
  // Its return (finNFe 4) of 2 m³, vProd 12.000 with vDesc 1.000: the revenue given back is 11.000.
  const backKey = nfeKey(P, 5301, '2604');
  const back = rekeyed('return-note.xml', KEYS.return, backKey).replace(`<refNFe>${KEYS.sale}</refNFe>`, `<refNFe>${saleKey}</refNFe>`);
  expect((await upload(desc(back, '1000.00'))).import).toMatchObject({ returns: 1, written: true });
  expect((await api.db.dataSource.query('SELECT value::text FROM record_return WHERE invoice_key = $1', [backKey]))[0].value).toBe('11000');
  // A company's soybean oil, vProd 10.000 with vDesc 1.000 and ICMS 12% of 9.000 = 1.080: cost 9.000; the credit's
  // base 9.000 − 1.080 = 7.920 (Lei 10.637/2002, art. 3º § 2º III): × 1,65% = 130,68; × 7,6% = 601,92.
  const company = newCnpj();
  const key = nfeKey(company, 5302);
  const ICMS = '<ICMS><ICMS00><orig>0</orig><CST>00</CST><modBC>3</modBC><vBC>9000.00</vBC><pICMS>12.00</pICMS><vICMS>1080.00</vICMS></ICMS00></ICMS>';
  const oil = rekeyed('cooperative-note.xml', KEYS.coop, key).replaceAll('60701190000104', company).replace('<NCM>12019000</NCM>', '<NCM>15071000</NCM>')
    .replace('<vProd>7500.00</vProd>', '<vProd>10000.00</vProd>').replaceAll('<CST>70</CST>', '<CST>01</CST>').replace('<imposto>', `<imposto>${ICMS}`);
  expect((await upload(desc(oil, '1000.00'))).import).toMatchObject({ purchases: 1, written: true });
  const [row] = await api.db.dataSource.query('SELECT id::text, cost::text FROM purchase WHERE invoice_key = $1', [key]);
  expect(row.cost).toBe('9000');
  const month = await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 3) { credits { purchases { purchaseId base pis cofins } } } }`, { p: own });
  expect(month.taxPeriod.credits.purchases.find((c: { purchaseId: string }) => c.purchaseId === row.id)).toEqual({ purchaseId: row.id, base: '7920.00', pis: '130.68', cofins: '601.92' });
  // A discount past the value is no NF-e's: the file's problem, nothing written.
  const over = await upload(desc(rekeyed('sale.xml', KEYS.sale, nfeKey(P, 5303)), '60000.01'));
  expect([over.status, over.error?.problems?.[0].messageKey]).toEqual([400, 'nfe.discountOverValue']);
  for (const k of [backKey, saleKey, key]) await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k });
});

test('a third party\'s entry note (tpNF 0) naming the producer as recipient is no purchase: that note\'s problem', async () => {
  // The cooperative's note turned into an entry (tpNF 0, CFOP 1102): the cooperative received the soybean.
  const key = nfeKey('60701190000104', 5400);
  const xml = Buffer.from(rekeyed('cooperative-note.xml', KEYS.coop, key).replace('<tpNF>1</tpNF>', '<tpNF>0</tpNF>').replace('<CFOP>5102</CFOP>', '<CFOP>1102</CFOP>'));
  const refused = await upload(xml);
  expect([refused.status, refused.error?.problems]).toEqual([400, [{ file: 'upload.xml', key, item: null, messageKey: 'nfe.thirdPartyEntry',
    reason: 'an entry note (tpNF 0) issued by 60701190000104, not by the producer: it records goods its issuer received, not a purchase of the producer' }]]);
  expect((await upload(xml, '&partial=items')).import).toMatchObject({ purchases: 0 });
  expect(await purchases(key)).toEqual([]);
});

test('a note of no legal effect is that note\'s problem: homologation (tpAmb 2), use denied or any cStat but 100/150, no protocol', async () => {
  const note = (n: number) => { const key = nfeKey(P, n); return { key, xml: rekeyed('sale.xml', KEYS.sale, key) }; };
  let n = 5500;
  const refused = async (xml: string, key: string, messageKey: string, reason: string) => {
    const answer = await upload(Buffer.from(xml));
    expect([answer.status, answer.error?.problems]).toEqual([400, [{ file: 'upload.xml', key, item: null, messageKey, reason }]]);
    expect(await sales(key)).toEqual([]);
  };
  // tpAmb 2: a test note of SEFAZ's homologation environment.
  let { key, xml } = note(n++);
  await refused(xml.replace('<tpAmb>1</tpAmb>', '<tpAmb>2</tpAmb>'), key, 'nfe.homologation', 'a note of the homologation (test) environment (tpAmb 2), of no legal effect: only tpAmb 1 is read');
  // cStat 302, use denied (and 110, 301, any status but an authorization).
  for (const cStat of ['302', '110', '301']) {
    ({ key, xml } = note(n++));
    await refused(xml.replace('<cStat>100</cStat>', `<cStat>${cStat}</cStat>`), key, 'nfe.notAuthorized', `the note is not authorized (protocol cStat ${cStat}; only 100 or 150 authorize its use): of no legal effect`);
  }
  // A bare NFe, the protocol stripped: whether SEFAZ authorized it is not known.
  ({ key, xml } = note(n++));
  const bare = xml.replace(/<\/?nfeProc[^>]*>/g, '').replace(/<protNFe[\s\S]*<\/protNFe>/, '');
  expect(bare).toMatch(/^<\?xml[^>]*>\s*<NFe /);
  await refused(bare, key, 'nfe.noProtocol', 'a note without its authorization protocol (send the nfeProc with protNFe, as SEFAZ authorized it): not read');
  // cStat 150, authorized out of time: a note like any other.
  ({ key, xml } = note(n));
  expect((await upload(Buffer.from(xml.replace('<cStat>100</cStat>', '<cStat>150</cStat>')))).import).toMatchObject({ sales: 1, written: true });
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
});

test('a cancellation event SEFAZ rejected (573) or did not answer cancels nothing: the file\'s problem; 155 cancels', async () => {
  const key = nfeKey(P, 5600);
  expect((await upload(Buffer.from(rekeyed('sale.xml', KEYS.sale, key)))).import).toMatchObject({ sales: 1, written: true });
  const event = rekeyed('cancellation-event.xml', KEYS.coop, key);
  for (const [xml, cStat] of [[event.replace('<cStat>135</cStat>', '<cStat>573</cStat>'), '573'], [event.replace(/<retEvento[\s\S]*<\/retEvento>/, ''), '—']]) {
    const refused = await upload(Buffer.from(xml));
    expect([refused.status, refused.error?.problems]).toEqual([400, [{ file: 'upload.xml', key, item: null, messageKey: 'nfe.eventNotRegistered',
      reason: `the cancellation event was not registered by SEFAZ (retEvento cStat ${cStat}; only 135 or 155 register it): it cancels nothing` }]]);
    expect(await sales(key)).toMatchObject([{ state: 'ACTIVE' }]);
  }
  expect((await upload(Buffer.from(event.replace('<cStat>135</cStat>', '<cStat>155</cStat>')))).import).toMatchObject({ cancellations: 1 });
  expect(await sales(key)).toMatchObject([{ state: 'CANCELLED' }]);
});

test('a key that does not match its note (Ajuste SINIEF 07/2005: cUF, AAMM, model, series, nNF, tpEmis, cNF, cDV) is that note\'s problem', async () => {
  const key = nfeKey(P, 5700);
  const xml = rekeyed('sale.xml', KEYS.sale, key);
  const refused = async (changed: string, fields: string) => {
    const answer = await upload(Buffer.from(changed));
    expect([answer.status, answer.error?.problems]).toEqual([400, [{ file: 'upload.xml', key, item: null, messageKey: 'nfe.keyMismatch', reason: `the access key does not match its note (key ≠ ide): ${fields}` }]]);
  };
  // Key month 2603, issued in April; key cUF 26, the note's 35; key tpEmis 1, the note's 6 (contingency).
  await refused(xml.replaceAll('2026-03-20', '2026-04-20'), 'AAMM 2603 ≠ 2604');
  await refused(xml.replace('<cUF>26</cUF>', '<cUF>35</cUF>'), 'cUF 26 ≠ 35');
  await refused(xml.replace('<tpEmis>1</tpEmis>', '<tpEmis>6</tpEmis>'), 'tpEmis 1 ≠ 6');
  await refused(xml.replace('<nNF>5700</nNF>', '<nNF>5701</nNF>').replace('<serie>1</serie>', '<serie>2</serie>'), 'serie 001 ≠ 002, nNF 000005700 ≠ 000005701');
  await refused(xml.replace(/<cNF>\d+<\/cNF>/, '<cNF>12345678</cNF>').replace(/<cDV>\d<\/cDV>/, `<cDV>${(Number(key[43]) + 1) % 10}</cDV>`),
    `cNF ${key.slice(35, 43)} ≠ 12345678, cDV ${key[43]} ≠ ${(Number(key[43]) + 1) % 10}`);
  expect(await sales(key)).toEqual([]);
  // Matching in every field: recorded.
  expect((await upload(Buffer.from(xml))).import).toMatchObject({ sales: 1, written: true });
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
});

test('the date of a note is dhEmi\'s calendar date in Brasília (America/Sao_Paulo), not the text of another offset', async () => {
  // 2026-04-01T01:30:00+00:00 is 31 March, 22:30 in Brasília (UTC−3): a sale of March. The key's AAMM is the issuer's, 2604.
  const key = nfeKey(P, 5800, '2604');
  const xml = rekeyed('sale.xml', KEYS.sale, key).replace(/<dhEmi>[^<]*<\/dhEmi>/, '<dhEmi>2026-04-01T01:30:00+00:00</dhEmi>');
  expect((await upload(Buffer.from(xml))).import).toMatchObject({ sales: 1, written: true });
  expect(await sales(key)).toMatchObject([{ on: '2026-03-31' }]);
  // 03:00 UTC is midnight in Brasília: 1 April. And an offset of Brasília's is taken as written.
  const at = async (n: number, dhEmi: string, on: string) => {
    const k = nfeKey(P, n, dhEmi.slice(2, 4) + dhEmi.slice(5, 7));
    expect((await upload(Buffer.from(rekeyed('sale.xml', KEYS.sale, k).replace(/<dhEmi>[^<]*<\/dhEmi>/, `<dhEmi>${dhEmi}</dhEmi>`)))).import).toMatchObject({ sales: 1 });
    expect(await sales(k)).toMatchObject([{ on }]);
    await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k });
  };
  await at(5801, '2026-04-01T03:00:00+00:00', '2026-04-01');
  await at(5802, '2026-04-01T02:59:59Z', '2026-03-31');
  await at(5803, '2026-03-31T23:59:59-03:00', '2026-03-31');
  await at(5804, '2026-04-01T00:30:00-02:00', '2026-03-31');
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: key });
  // No such instant: 30 February (a Date would roll it over to 2 March, another tax month), 25 o'clock, 24:00. Refused, nothing written.
  for (const [n, dhEmi] of [[5805, '2026-02-30T10:00:00-03:00'], [5806, '2026-02-10T25:00:00-03:00'], [5807, '2026-02-10T24:00:00-03:00']] as const) {
    const k = nfeKey(P, n, '2602');
    const refused = await upload(Buffer.from(rekeyed('sale.xml', KEYS.sale, k).replace(/<dhEmi>[^<]*<\/dhEmi>/, `<dhEmi>${dhEmi}</dhEmi>`)));
    expect(refused.status).toBe(400);
    expect(await sales(k)).toEqual([]);
  }
});

test('an upload sent gzip or br is inflated first (an XML, a ZIP); another Content-Encoding is 415, a body that does not inflate 400, nothing written', async () => {
  const send = async (body: Uint8Array, encoding: string, type = 'application/xml') => {
    const res = await fetch(`${api.url.replace(/\/graphql$/, '')}/import/nfe?producer=${own}`, {
      method: 'POST', headers: { 'content-type': type, 'content-encoding': encoding, authorization: `Bearer ${await api.token({ role: 'PRODUCER', producerId: own })}` }, body,
    });
    return { status: res.status, ...((await res.json()) as { import?: Record<string, unknown>; error?: { code: string } }) };
  };
  // Two sales of 10 m³ for R$ 60.000 each (sale.xml) under keys of their own.
  const [xmlKey, zipKey] = [nfeKey(P, 6100), nfeKey(P, 6101)];
  const xml = Buffer.from(rekeyed('sale.xml', KEYS.sale, xmlKey));
  expect((await send(zlib.gzipSync(xml), 'gzip')).import).toMatchObject({ sales: 1, written: true });
  const zip = zipSync({ 'venda.xml': Buffer.from(rekeyed('sale.xml', KEYS.sale, zipKey)) });
  expect((await send(zlib.brotliCompressSync(zip), 'br', 'application/zip')).import).toMatchObject({ sales: 1, written: true });
  for (const key of [xmlKey, zipKey]) expect(await sales(key)).toEqual([{ on: '2026-03-20', m3: '10', revenue: '60000', market: 'DOMESTIC', state: 'ACTIVE' }]);

  const others = [nfeKey(P, 6102), nfeKey(P, 6103)];
  const refused = [await send(Buffer.from(rekeyed('sale.xml', KEYS.sale, others[0])), 'compress'), await send(Buffer.from(rekeyed('sale.xml', KEYS.sale, others[1])), 'deflate')];
  expect(refused.map((r) => [r.status, r.error?.code])).toEqual([[415, 'UNSUPPORTED_MEDIA_TYPE'], [400, 'BAD_REQUEST']]);
  for (const key of others) expect(await sales(key)).toEqual([]);
});
