import { startTestApi, TestApi } from '../support/api';
import { createProducer, grantSeal, newCpf, nfeKey, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * The CBS credits of a producer's purchases from 2027 over real PostgreSQL (LC 214/2025, arts. 47,
 * 168, 180 and 378), every figure worked by hand: the CBS of a month is its volume × the rate an
 * ADMIN publishes, less the month's credits and those carried, then the PIS/Cofins balances.
 */
let api: TestApi;
let farmer: string;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, {
    i: { cpf: newCpf(), name: 'Agricultora da CBS', municipalityCode: RECIFE, registrations: [{ kind: 'CAF', number: 'CAF-CBS', validFrom: '2024-01-01', validUntil: '2028-12-31' }] },
  })).createFamilyFarmer.id;
  const publish = (i: object) => api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i });
  await publish({
    parameter: 'fuel-tax-rate', scope: 'CBS', values: [{ name: 'perM3', value: '100' }], validFrom: '2027-01-01',
    publishedOn: '2026-12-20', legalBasis: 'Decreto hipotético nº 3/2026, art. 1º (CBS on biodiesel B100, per m³)',
  });
  await publish({
    parameter: 'cbs-presumed-credit', scope: null, values: [{ name: 'share', value: '0.05' }], validFrom: '2027-01-01',
    publishedOn: '2027-01-10', legalBasis: 'Decreto hipotético nº 4/2027, art. 2º (LC 214/2025, art. 168)',
  });
});
afterAll(async () => { await api.close(); });

const MONTH = `query($p: ID!, $y: Int!, $m: Int!, $k: Date) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: $k) {
  credits { cbsPurchases { purchaseId on status kind reason awaiting base rate amount legalBasis purchase { id cbsValue } } awaiting purchases { purchaseId reason } }
  net { cbsDue cbsCredits cbsCreditsDeducted cbsOffset cbsNetDue cbsCreditBalance }
} }`;
const month = async (p: string, y: number, m: number, k: string) => (await api.ok(MONTH, { p, y, m, k })).taxPeriod;
const lot = (producerId: string, on: string, over: object) => ({ producerId, purchasedOn: on, quantityKg: '1000', originMunicipalityCode: RECIFE, ...over });

test('a month of 2027: the CBS on the invoices, none on B100 for resale, the presumed credit from its publication, the excess carried and a return reversing', async () => {
  const id = await createProducer(api, 'Usina da CBS', RECIFE);
  await grantSeal(api, id, '2028-12-31');
  const key = nfeKey('11222333000181', 4401, '2701');
  const recorded = (await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    // Soy oil from a company: its invoice states CBS of R$ 8.800,00 on R$ 100.000,00.
    lot(id, '2027-01-05', { feedstock: 'SOYBEAN_OIL', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Esmagadora SA', creditSupplier: 'COMPANY', cbsValue: '8800.00', invoiceKey: key }),
    // Biodiesel bought for resale: no CBS credit whatever its invoice says (art. 180).
    lot(id, '2027-01-06', { feedstock: 'OTHER', purpose: 'OTHER_PRODUCT', cost: '6000', supplierKind: 'THIRD_PARTY', supplierName: 'Distribuidora SA', creditSupplier: 'COMPANY', creditProduct: 'B100_FOR_RESALE', cbsValue: '500' }),
    // Castor from a family farmer, no CBS on the note: the presumed credit (art. 168), 5% of R$ 20.000,00 once published.
    lot(id, '2027-01-07', { feedstock: 'CASTOR_BEAN', cost: '20000', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer }),
    // Methanol from a company with no CBS recorded: awaited.
    lot(id, '2027-01-08', { feedstock: 'OTHER', purpose: 'OTHER_PRODUCT', cost: '3000', supplierKind: 'THIRD_PARTY', supplierName: 'Metanol SA', creditSupplier: 'COMPANY', creditProduct: 'INPUT' }),
  ] })).recordPurchases.map((p: { id: string }) => p.id);
  const [oil, b100, castor, methanol] = recorded;
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [
    { producerId: id, soldOn: '2027-01-20', volumeM3: '50', revenue: '300000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' },
    { producerId: id, soldOn: '2027-02-20', volumeM3: '60', revenue: '360000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' },
  ] });

  // As known on 2026-12-21: the CBS rate is published, the presumed share not yet.
  const before = await month(id, 2027, 1, '2026-12-21');
  const row = (c: any) => [c.purchaseId, c.status, c.kind, c.reason, c.awaiting, c.amount];
  expect(before.credits.cbsPurchases.map(row)).toEqual([
    [oil, 'CREDIT', 'ACQUISITION', null, null, '8800.00'],
    [b100, 'NO_CREDIT', null, 'FUEL_FOR_RESALE', null, null],
    [castor, 'AWAITING_PARAMETER', 'PRESUMED', 'PRESUMED_RATE_NOT_PUBLISHED', 'cbs-presumed-credit', null],
    [methanol, 'AWAITING_FACT', null, 'CBS_NOT_RECORDED', 'cbsValue', null],
  ]);
  expect(before.credits.cbsPurchases[0].purchase).toEqual({ id: oil, cbsValue: '8800.00' });
  expect(before.credits.awaiting).toEqual(expect.arrayContaining([`CBS of purchase ${castor}: cbs-presumed-credit`, `CBS of purchase ${methanol}: cbsValue`]));
  // No PIS/Cofins credit from 2027: the CBS is the only one.
  expect(new Set(before.credits.purchases.map((p: any) => p.reason))).toEqual(new Set(['PIS_COFINS_EXTINCT']));
  // 50 m³ × R$ 100,00 = 5.000,00, all deducted from the 8.800,00 of credit; 3.800,00 carried.
  expect(before.net).toEqual({ cbsDue: '5000.00', cbsCredits: '8800.00', cbsCreditsDeducted: '5000.00', cbsOffset: '0.00', cbsNetDue: '0.00', cbsCreditBalance: '3800.00' });

  // As known once the share is published: 20.000,00 × 5% = 1.000,00 more.
  const after = await month(id, 2027, 1, '2027-01-10');
  expect(row(after.credits.cbsPurchases[2])).toEqual([castor, 'CREDIT', 'PRESUMED', null, null, '1000.00']);
  expect([after.credits.cbsPurchases[2].base, after.credits.cbsPurchases[2].rate]).toEqual(['20000.00', '0.05']);
  expect(after.net).toMatchObject({ cbsCredits: '9800.00', cbsCreditsDeducted: '5000.00', cbsCreditBalance: '4800.00' });

  // The methanol's invoice is found: correctPurchase records its CBS of R$ 240,00.
  await api.ok(`mutation($id: ID!, $i: CorrectPurchaseInput!) { correctPurchase(id: $id, expectedVersion: 1, input: $i) { purchase { cbsValue } } }`, { id: methanol, i: { cbsValue: '240' } });
  expect((await month(id, 2027, 1, '2027-01-10')).net).toMatchObject({ cbsCredits: '10040.00', cbsCreditBalance: '5040.00' });

  // February: 10% of the soy oil goes back (R$ 10.000,00): 880,00 of CBS credit reversed on the day of the return.
  await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: key, purchaseId: oil, returnedOn: '2027-02-03', quantity: '100', value: '10000' }] });
  const feb = await month(id, 2027, 2, '2027-01-10');
  expect(feb.credits.cbsPurchases.map((c: any) => [c.purchaseId, c.on, c.status, c.amount])).toEqual([[oil, '2027-02-03', 'CREDIT', '-880.00']]);
  // 60 × 100,00 = 6.000,00 less the 5.040,00 carried, less the 880,00 reversed: 1.840,00 payable.
  expect(feb.net).toEqual({ cbsDue: '6000.00', cbsCredits: '-880.00', cbsCreditsDeducted: '4160.00', cbsOffset: '0.00', cbsNetDue: '1840.00', cbsCreditBalance: '0.00' });

  // The month's statement shows the same figures and each purchase's CBS credit.
  const csv = await fetch(api.url.replace('/graphql', `/export/tax-period?producer=${id}&year=2027&month=1&format=csv&locale=en&asKnownOn=2027-01-10`), {
    headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` },
  });
  const text = Buffer.from(await csv.arrayBuffer()).toString('utf8');
  const section = (title: string) => text.split(/\r?\n\r?\n/).find((x) => x.startsWith(title))!.split(/\r?\n/);
  expect(section("The month's net")).toEqual(expect.arrayContaining([
    'CBS before offsets (R$),5000.00', '"CBS credits of the month (R$, LC 214/2025, arts. 47 and 168)",10040.00', '"CBS credits deducted, of the month and carried (R$)",5000.00',
    'CBS payable (R$),0.00', 'CBS credits carried (R$),5040.00',
  ]));
  expect(section('"CBS credit of each purchase').slice(2).map((r) => r.split(',').slice(0, 7))).toEqual([
    [oil, '2027-01-05', 'CREDIT', '', '100000.00', '', '8800.00'],
    [b100, '2027-01-06', 'NO_CREDIT', 'FUEL_FOR_RESALE', '', '', ''],
    [castor, '2027-01-07', 'CREDIT', '', '20000.00', '0.05', '1000.00'],
    [methanol, '2027-01-08', 'CREDIT', '', '3000.00', '', '240.00'],
  ]);
});

test('the CBS of an acquisition is never negative; December 2026 gives no CBS credit', async () => {
  const id = await createProducer(api, 'Usina de Dezembro', RECIFE);
  const bad = await api.gql(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    lot(id, '2027-01-05', { feedstock: 'SOYBEAN_OIL', cost: '1000', supplierKind: 'THIRD_PARTY', supplierName: 'Esmagadora SA', cbsValue: '-1' }),
  ] });
  expect(bad.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input[0].cbsValue' });
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    lot(id, '2026-12-30', { feedstock: 'SOYBEAN_OIL', cost: '1000', supplierKind: 'THIRD_PARTY', supplierName: 'Esmagadora SA', creditSupplier: 'COMPANY', cbsValue: '9' }),
  ] });
  const dec = await month(id, 2026, 12, '2026-12-21');
  expect(dec.credits.cbsPurchases).toEqual([]);
  expect(dec.net).toEqual({ cbsDue: null, cbsCredits: null, cbsCreditsDeducted: null, cbsOffset: null, cbsNetDue: null, cbsCreditBalance: null });
  // Nor does it carry into January.
  expect((await month(id, 2027, 1, '2026-12-21')).net).toMatchObject({ cbsCredits: '0.00', cbsCreditBalance: '0.00' });
});

test('a family farmer\'s lot recorded with cbsValue 0 (a non-contributor\'s note) gives the presumed credit of art. 168, as with none recorded', async () => {
  const id = await createProducer(api, 'Usina do Agricultor', RECIFE);
  const [zero, none] = (await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id cbsValue } }`, { i: [
    // Castor R$ 20.000,00 from a family farmer (natural person) on 2027-01-05, its note stating R$ 0,00 of CBS.
    lot(id, '2027-01-05', { feedstock: 'CASTOR_BEAN', cost: '20000', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer, cbsValue: '0' }),
    lot(id, '2027-01-06', { feedstock: 'CASTOR_BEAN', cost: '20000', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer }),
  ] })).recordPurchases;
  expect([zero.cbsValue, none.cbsValue]).toEqual(['0.00', null]);
  const row = (c: any) => [c.purchaseId, c.status, c.kind, c.reason, c.awaiting, c.base, c.amount];
  // Before the percentage is published (LC 214/2025, art. 168 with art. 164): awaited, the same for both.
  expect((await month(id, 2027, 1, '2027-01-09')).credits.cbsPurchases.map(row)).toEqual([
    [zero.id, 'AWAITING_PARAMETER', 'PRESUMED', 'PRESUMED_RATE_NOT_PUBLISHED', 'cbs-presumed-credit', '20000.00', null],
    [none.id, 'AWAITING_PARAMETER', 'PRESUMED', 'PRESUMED_RATE_NOT_PUBLISHED', 'cbs-presumed-credit', '20000.00', null],
  ]);
  // From its publication: 20.000,00 × 5% = 1.000,00 each.
  expect((await month(id, 2027, 1, '2027-01-10')).credits.cbsPurchases.map(row)).toEqual([
    [zero.id, 'CREDIT', 'PRESUMED', null, null, '20000.00', '1000.00'],
    [none.id, 'CREDIT', 'PRESUMED', null, null, '20000.00', '1000.00'],
  ]);
});

// LC 214/2025, art. 378 III–IV with Lei 10.637/2002, art. 3º § 4º: a claim filed in January 2027 uses the balance carried into
// January, before January's CBS is offset. November 2026: methanol R$ 100.000,00 (CST 01) and an export → 1.650,00 / 7.600,00
// under COD_CRED 301, both refunded whole on 05/01/2027; January sells 10 m³: CBS 10 × 100,00 = 1.000,00, nothing left to offset.
test('a 2026 balance claimed whole in January 2027 is gone before January\'s CBS is offset: 1.000,00 payable, no error', async () => {
  const id = await createProducer(api, 'Usina do Pedido', RECIFE);
  await grantSeal(api, id, '2028-12-31');
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [lot(id, '2026-11-05', {
    feedstock: 'OTHER', purpose: 'OTHER_PRODUCT', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Metanol SA', creditSupplier: 'COMPANY', creditProduct: 'INPUT',
    pisCofinsCst: '01', icmsValue: '0',
  })] });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId: id, soldOn: '2026-11-20', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'EXPORT' }] });
  const CLAIM = `mutation($i: RecordCreditClaimInput!) { recordCreditClaim(input: $i) { amount } }`;
  for (const [tax, amount] of [['PIS', '1650.00'], ['COFINS', '7600.00']]) {
    await api.ok(CLAIM, { i: { producerId: id, tax, originYear: 2026, originMonth: 11, codCred: '301', kind: 'REFUND', filedOn: '2027-01-05', amount } });
  }
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId: id, soldOn: '2027-01-15', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }] });
  const jan = await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2027, month: 1, asKnownOn: "2027-01-20") { credits { warnings }
    net { cbsDue cbsOffset cbsNetDue } balances { tax claimed offsetAgainstCbs remaining } } }`, { p: id });
  expect(jan.taxPeriod.net).toEqual({ cbsDue: '1000.00', cbsOffset: '0.00', cbsNetDue: '1000.00' });
  expect(jan.taxPeriod.balances).toEqual([
    { tax: 'PIS', claimed: '1650.00', offsetAgainstCbs: '0.00', remaining: '0.00' }, { tax: 'COFINS', claimed: '7600.00', offsetAgainstCbs: '0.00', remaining: '0.00' },
  ]);
  expect(jan.taxPeriod.credits.warnings).toEqual([]);
  const feb = await month(id, 2027, 2, '2027-02-10');
  expect(feb.net.cbsOffset).toBe('0.00');
  const more = await api.gql(CLAIM, { i: { producerId: id, tax: 'PIS', originYear: 2026, originMonth: 11, codCred: '301', kind: 'REFUND', filedOn: '2027-02-05', amount: '1' } });
  expect(more.errors![0].extensions).toMatchObject({ code: 'CONFLICT', claimReason: 'EXCEEDS_BALANCE' });
});

// docs/LAW.md "Returns" (a return reverses the credit its purchase gave, in the month of the return) with Lei 10.637/2002 and
// Lei 10.833/2003, art. 3º: methanol bought on 10/12/2026 for R$ 100.000,00 (CST 01), no sales → 1.650,00 / 7.600,00 carried;
// the whole lot returned on 10/01/2027 reverses them under December's rules: 0,00 / 0,00 left, and no CBS is awaited for it.
test('a 2026 purchase returned in January 2027 reverses its PIS/Cofins credit: the balances fall to 0,00, no CBS awaited', async () => {
  const id = await createProducer(api, 'Usina da Devolução', RECIFE);
  await grantSeal(api, id, '2028-12-31');
  const key = nfeKey('11222333000181', 4501, '2612');
  const [purchaseId] = (await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [lot(id, '2026-12-10', {
    feedstock: 'OTHER', purpose: 'OTHER_PRODUCT', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Metanol SA', creditSupplier: 'COMPANY', creditProduct: 'INPUT',
    pisCofinsCst: '01', icmsValue: '0', invoiceKey: key,
  })] })).recordPurchases.map((p: { id: string }) => p.id);
  await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: key, purchaseId, returnedOn: '2027-01-10', quantity: '1000', value: '100000' }] });
  const Q = `query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: "2027-01-20") {
    credits { lines { codCred pis cofins } purchases { purchaseId status reason pis cofins } cbsPurchases { purchaseId } awaiting }
    net { pisDue cofinsDue cbsNetDue } balances { tax originYear originMonth original reversed remaining } } }`;
  const dec = (await api.ok(Q, { p: id, y: 2026, m: 12 })).taxPeriod;
  expect(dec.balances.map((b: any) => [b.tax, b.remaining])).toEqual([['PIS', '1650.00'], ['COFINS', '7600.00']]);
  const jan = (await api.ok(Q, { p: id, y: 2027, m: 1 })).taxPeriod;
  expect(jan.credits.purchases).toEqual([{ purchaseId, status: 'CREDIT', reason: null, pis: '-1650.00', cofins: '-7600.00' }]);
  expect(jan.credits.cbsPurchases).toEqual([]);
  expect(jan.credits.awaiting).toEqual([]);
  expect(jan.balances).toEqual([
    { tax: 'PIS', originYear: 2026, originMonth: 12, original: '1650.00', reversed: '1650.00', remaining: '0.00' },
    { tax: 'COFINS', originYear: 2026, originMonth: 12, original: '7600.00', reversed: '7600.00', remaining: '0.00' },
  ]);
  expect(jan.net).toEqual({ pisDue: '0.00', cofinsDue: '0.00', cbsNetDue: '0.00' });
});
