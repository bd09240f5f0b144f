import { startTestApi, TestApi } from '../support/api';
import { efdProblems } from '../support/efd-layout';
import { createProducer, grantSeal, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * The credits of a month in its EFD-Contribuições (Guia, M100/M105, M200, 1100/1500), over real
 * PostgreSQL. Every figure is worked by hand: 10 m³ sold in Brazil at GENERAL owe 10 × 26,41 =
 * 264,10 (PIS/Pasep) and 10 × 121,59 = 1.215,90 (Cofins); a credit is the base × 1,65% / 7,6%.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  // Whether B100 bought for resale gives the basic credit is an open choice (Lei 10.637/2002, art. 3º I b): published here as 1.
  await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'credit-choice', scope: 'B100_FOR_RESALE', values: [{ name: 'credit', value: '1' }], validFrom: '2026-01-01',
    publishedOn: '2025-12-20', legalBasis: 'Lei 10.637/2002, art. 3º I b (test reading)',
  } });
});
afterAll(async () => { await api.close(); });

async function producer() {
  const id = await createProducer(api, 'Usina de Biodiesel', RECIFE);
  await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2025-11-03' } });
  await grantSeal(api, id);
  return id;
}
const lot = (producerId: string, on: string, cost: string, creditProduct: string) => ({
  producerId, purchasedOn: on, quantityKg: '1000', originMunicipalityCode: RECIFE, feedstock: 'OTHER', cost, supplierKind: 'THIRD_PARTY', supplierName: 'Fornecedor SA',
  purpose: 'OTHER_PRODUCT', creditSupplier: 'COMPANY', creditProduct, pisCofinsCst: '01', icmsValue: '0', supplierDocument: '11.222.333/0001-81',
});
const sale = (producerId: string, soldOn: string, revenue: string, market: string) => ({ producerId, soldOn, volumeM3: '10', revenue, origin: 'OWN_PRODUCTION', market });
async function file(id: string, year: number, month: number, purchases: object[], sales: object[]): Promise<{ body: Buffer; only: (...regs: string[]) => string[] }> {
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: purchases });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: sales });
  await api.ok(`mutation($p: ID!, $y: Int!, $m: Int!) { closeTaxPeriod(producerId: $p, year: $y, month: $m) { status } }`, { p: id, y: year, m: month });
  const res = await fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=${year}&month=${month}`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  return { body, only: (...regs) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`))) };
}

// Guia, 1100 field 13 (VL_CRED_DESC_EFD): their sum is M200 field 04 (VL_TOT_CRED_DESC_ANT, earlier periods' credits deducted);
// the period's own credit deducted is M200 field 03, and its 1100 line carries it in field 09 with field 13 at zero.
describe('1100/1500 of the month\'s own credit: its deduction in field 09, field 13 zero, Σ field 13 = M200/M600 field 04', () => {
  test('a resale month: B100 for resale R$ 50.000,00 → 825,00 / 3.800,00; 264,10 / 1.215,90 deducted, 560,90 / 2.584,10 carried', async () => {
    const id = await producer();
    const { body, only } = await file(id, 2026, 10, [lot(id, '2026-10-02', '50000', 'B100_FOR_RESALE')], [sale(id, '2026-10-10', '60000', 'DOMESTIC')]);
    expect(efdProblems(body)).toEqual([]);
    expect(only('M200', 'M600', '1100', '1500')).toEqual([
      '|M200|264,10|264,10|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|',
      '|M600|1215,90|1215,90|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|',
      '|1100|102026|01||101|825,00||825,00|264,10|0,00|0,00|560,90|0,00|0,00|0,00|0,00|0,00|560,90|',
      '|1500|102026|01||101|3800,00||3800,00|1215,90|0,00|0,00|2584,10|0,00|0,00|0,00|0,00|0,00|2584,10|',
    ]);
    // The layout check refuses the own line with the deduction in field 13, as the file was once written.
    const old = body.toString('latin1').replace('|1100|102026|01||101|825,00||825,00|264,10|0,00|0,00|560,90|0,00|', '|1100|102026|01||101|825,00||825,00|0,00|0,00|0,00|825,00|264,10|');
    expect(efdProblems(Buffer.from(old, 'latin1'))).toEqual([
      expect.stringMatching(/\(1100\): VL_CRED_DESC_EFD 264,10 on the period's own credit/),
      expect.stringMatching(/\(1100\): VL_CRED_DESC_PA_ANT 0,00 of the period's own credit, its M100 records deduct 264.10$/),
      'M200: VL_TOT_CRED_DESC_ANT 0.00, the 1100 records deduct 264.10 (field 13)',
    ]);
  });

  test('a revenue-ratio month: 60.000 taxed / 40.000 exported splits 1.650,00 into 990,00 (101) and 660,00 (301); 101 pays 264,10', async () => {
    const id = await producer();
    await api.ok(`mutation($i: ElectCreditApportionmentInput!) { electCreditApportionment(input: $i) { year } }`,
      { i: { producerId: id, year: 2026, method: 'REVENUE_RATIO', electedOn: '2026-01-02' } });
    const { body, only } = await file(id, 2026, 11, [lot(id, '2026-11-02', '100000', 'INPUT')],
      [sale(id, '2026-11-10', '60000', 'DOMESTIC'), sale(id, '2026-11-12', '40000', 'EXPORT')]);
    expect(efdProblems(body)).toEqual([]);
    // Lei 10.637/2002, art. 3º § 8º II: 60% of 100.000,00 = 60.000,00 → 990,00 / 4.560,00; 40% → 660,00 / 3.040,00. The debit takes
    // group 100 first: 990,00 − 264,10 = 725,90 and 4.560,00 − 1.215,90 = 3.344,10; 301 untouched.
    expect(only('M200', 'M600', '1100', '1500')).toEqual([
      '|M200|264,10|264,10|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|',
      '|M600|1215,90|1215,90|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|',
      '|1100|112026|01||101|990,00||990,00|264,10|0,00|0,00|725,90|0,00|0,00|0,00|0,00|0,00|725,90|',
      '|1100|112026|01||301|660,00||660,00|0,00|0,00|0,00|660,00|0,00|0,00|0,00|0,00|0,00|660,00|',
      '|1500|112026|01||101|4560,00||4560,00|1215,90|0,00|0,00|3344,10|0,00|0,00|0,00|0,00|0,00|3344,10|',
      '|1500|112026|01||301|3040,00||3040,00|0,00|0,00|0,00|3040,00|0,00|0,00|0,00|0,00|0,00|3040,00|',
    ]);
  });
});

// Table 4.3.7: NAT_BC_CRED 01 "aquisição de bens para revenda", 02 "aquisição de bens utilizados como insumo". B100 bought for
// resale is 0200 TIPO_ITEM 00 with CFOP 1102; methanol for the plant is an input, CFOP 1101. Both credit at 1,65% / 7,6% (101).
test('B100 bought for resale is NAT_BC_CRED 01, an input 02: one M100 of 150.000,00 with an M105 of each, as their C191 rows', async () => {
  const id = await producer();
  const { body, only } = await file(id, 2026, 9, [lot(id, '2026-09-02', '50000', 'B100_FOR_RESALE'), lot(id, '2026-09-03', '100000', 'INPUT')],
    [sale(id, '2026-09-10', '60000', 'DOMESTIC')]);
  expect(efdProblems(body)).toEqual([]);
  expect(only('C191', 'C195', 'M100', 'M105', 'M500', 'M505').map((l) => l.split('|').slice(1, 9).join('|'))).toEqual([
    'C191|11222333000181|50|1102|50000,00|0,00|50000,00|1,6500', 'C195|11222333000181|50|1102|50000,00|0,00|50000,00|7,6000',
    'C191|11222333000181|50|1101|100000,00|0,00|100000,00|1,6500', 'C195|11222333000181|50|1101|100000,00|0,00|100000,00|7,6000',
    'M100|101|0|150000,00|1,6500|||2475,00', 'M105|01|50|50000,00||50000,00|50000,00|', 'M105|02|50|100000,00||100000,00|100000,00|',
    'M500|101|0|150000,00|7,6000|||11400,00', 'M505|01|50|50000,00||50000,00|50000,00|', 'M505|02|50|100000,00||100000,00|100000,00|',
  ]);
  const purchases = (await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 9) { credits { purchases { natBcCred pis } } } }`, { p: id })).taxPeriod.credits.purchases;
  expect(purchases.map((x: { natBcCred: string; pis: string }) => [x.natBcCred, x.pis])).toEqual([['01', '825.00'], ['02', '1650.00']]);
  // The layout check holds M105 of each nature to its C191 rows: the resale base written as an input's is refused.
  const asInput = body.toString('latin1').replace('|M105|01|50|50000,00|', '|M105|02|50|50000,00|');
  expect(efdProblems(Buffer.from(asInput, 'latin1'))).toEqual([
    'M105 of NAT_BC_CRED, CST and rate 01|50|1.6500: 0.00, the C191 bases sum 50000.00 (under M100)',
    'M105 of NAT_BC_CRED, CST and rate 02|50|1.6500: 150000.00, the C191 bases sum 100000.00 (under M100)',
  ]);
});

// Lei 10.637/2002, art. 3º §§ 8º–9º: a month whose revenue spans groups apportions its common credits by the year's elected
// method; with none elected taxPeriod keeps them out of its lines (awaitingElection). 0110 IND_APRO_CRED only says 1 (direct
// allocation) or 2 (revenue ratio), so the file is refused, naming the election, rather than declaring a method and no credit.
test('an export month with credits and no apportionment elected: the file is refused, naming the election', async () => {
  const id = await producer();
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [lot(id, '2026-08-03', '100000', 'INPUT')] });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [sale(id, '2026-08-10', '60000', 'DOMESTIC'), sale(id, '2026-08-12', '40000', 'EXPORT')] });
  const close = () => api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 8) { status } }`, { p: id });
  await close();
  const credits = (await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 8) { credits { lines { codCred } awaitingElection } } }`, { p: id })).taxPeriod.credits;
  expect(credits).toEqual({ lines: [], awaitingElection: true });
  const efd = async () => fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=2026&month=8`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  const refused = await efd();
  expect(refused.status).toBe(400);
  const { error } = JSON.parse(await refused.text());
  expect([error.code, error.field]).toEqual(['BAD_USER_INPUT', 'month']);
  expect(error.message).toMatch(/none is elected for 2026 .*electCreditApportionment/);
});
