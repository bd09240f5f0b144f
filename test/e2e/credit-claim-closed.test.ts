import { startTestApi, TestApi } from '../support/api';
import { createProducer, grantSeal, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * A credit claim and the closed months (Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 4º; Lei
 * 11.116/2005, art. 16). December 2025: methanol of R$ 10.000,00 (CST 01, no ICMS) credits 165,00 /
 * 760,00, all of group 300 (the month's only sale is an export), COD_CRED 301; with no debit it is
 * carried whole, refundable from 2026-01-01 (the quarter ended).
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
});
afterAll(async () => { await api.close(); });

const MONTH = `query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m) {
  status recomputedDiffers differences { field closed recomputed }
  net { pisRefundable cofinsRefundable }
  balances { tax originYear originMonth codCred original deducted claimed remaining }
} }`;
const CLAIM = `mutation($i: RecordCreditClaimInput!) { recordCreditClaim(input: $i) { id amount } }`;
const month = async (p: string, y: number, m: number) => (await api.ok(MONTH, { p, y, m })).taxPeriod;
const close = (p: string, y: number, m: number) => api.ok(`mutation($p: ID!, $y: Int!, $m: Int!) { closeTaxPeriod(producerId: $p, year: $y, month: $m) { status } }`, { p, y, m });
const balances = (t: any) => t.balances.map((b: any) => [b.tax, `${b.originYear}-${b.originMonth}`, b.codCred, b.claimed, b.remaining]);

async function efd1100(p: string, year: number, month: number): Promise<string[]> {
  const res = await fetch(api.url.replace('/graphql', `/export/efd?producer=${p}&year=${year}&month=${month}`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer()).toString('latin1').split('\r\n').filter((l) => /^\|(1100|1500)\|/.test(l));
}

async function producer(): Promise<string> {
  const id = await createProducer(api, 'Usina Saldo Fechado', RECIFE);
  await grantSeal(api, id);
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [{
    producerId: id, purchasedOn: '2025-12-04', quantityKg: '1000', originMunicipalityCode: RECIFE, feedstock: 'OTHER', cost: '10000', supplierKind: 'THIRD_PARTY',
    supplierName: 'Metanol SA', purpose: 'OTHER_PRODUCT', creditSupplier: 'COMPANY', creditProduct: 'INPUT', pisCofinsCst: '01', icmsValue: '0', supplierDocument: '60.746.948/0001-12',
  }] });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId: id, soldOn: '2025-12-20', volumeM3: '1', revenue: '6000', origin: 'OWN_PRODUCTION', market: 'EXPORT' }] });
  return id;
}

const refund = (producerId: string, filedOn: string) => ({ producerId, tax: 'COFINS', originYear: 2025, originMonth: 12, codCred: '301', kind: 'REFUND', filedOn, amount: '100.00' });

test('a claim filed in a closed month is CONFLICT PERIOD_CLOSED on filedOn, and nothing is written: the month and its file stay as filed', async () => {
  const id = await producer();
  await close(id, 2025, 12);
  await close(id, 2026, 1);
  const january = await month(id, 2026, 1);
  expect([january.net.pisRefundable, january.net.cofinsRefundable]).toEqual(['165.00', '760.00']);
  const filed = await efd1100(id, 2026, 1);
  expect(filed).toEqual([
    '|1100|122025|01||301|165,00||165,00|0,00|0,00|0,00|165,00|0,00|0,00|0,00|0,00|0,00|165,00|',
    '|1500|122025|01||301|760,00||760,00|0,00|0,00|0,00|760,00|0,00|0,00|0,00|0,00|0,00|760,00|',
  ]);

  const refused = await api.gql(CLAIM, { i: refund(id, '2026-01-25') }, { role: 'PRODUCER', producerId: id });
  expect(refused.data).toBeNull();
  expect(refused.errors![0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input.filedOn' });
  expect(refused.errors![0].message).toContain('2026-01');
  expect(await api.count('SELECT count(*) FROM credit_claim WHERE producer_id = $1', [id])).toBe(0);
  // A claim in a closed July rewrote closed December's 1100 before: refused the same, whoever files it.
  await close(id, 2026, 7);
  const july = await api.gql(CLAIM, { i: refund(id, '2026-07-10') });
  expect(july.errors![0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input.filedOn' });
  expect(await api.count('SELECT count(*) FROM credit_claim WHERE producer_id = $1', [id])).toBe(0);

  const after = await month(id, 2026, 1);
  expect([after.net.cofinsRefundable, after.recomputedDiffers, after.differences]).toEqual(['760.00', false, []]);
  expect(await efd1100(id, 2026, 1)).toEqual(filed);
  // Filed in February, an open month, it is recorded: 760,00 − 100,00 = 660,00 remains.
  expect((await api.ok(CLAIM, { i: refund(id, '2026-02-03') }, { role: 'PRODUCER', producerId: id })).recordCreditClaim.amount).toBe('100.00');
  expect(balances(await month(id, 2026, 2))).toContainEqual(['COFINS', '2025-12', '301', '100.00', '660.00']);
});

test('a claim filed in an open month before a closed one: recorded, and the closed month keeps the balances and the 1500 it filed, naming each that moved', async () => {
  const id = await producer();
  await close(id, 2025, 12);
  await close(id, 2026, 2);
  const filed = await efd1100(id, 2026, 2);
  expect(filed).toEqual([
    '|1100|122025|01||301|165,00||165,00|0,00|0,00|0,00|165,00|0,00|0,00|0,00|0,00|0,00|165,00|',
    '|1500|122025|01||301|760,00||760,00|0,00|0,00|0,00|760,00|0,00|0,00|0,00|0,00|0,00|760,00|',
  ]);
  // January is open: the claim is recorded there, as a purchase in an open month is, whatever it changes after it.
  expect((await api.ok(CLAIM, { i: refund(id, '2026-01-25') }, { role: 'PRODUCER', producerId: id })).recordCreditClaim.amount).toBe('100.00');
  const january = await month(id, 2026, 1);
  expect([january.status, january.net.cofinsRefundable]).toEqual(['OPEN', '660.00']);
  expect(balances(january)).toContainEqual(['COFINS', '2025-12', '301', '100.00', '660.00']);

  // February shows what it filed, 760,00, and names every figure of its net and balances the claim would change: 760,00 − 100,00 = 660,00.
  const february = await month(id, 2026, 2);
  expect([february.status, february.net.pisRefundable, february.net.cofinsRefundable]).toEqual(['CLOSED', '165.00', '760.00']);
  expect(balances(february)).toEqual([['PIS', '2025-12', '301', '0.00', '165.00'], ['COFINS', '2025-12', '301', '0.00', '760.00']]);
  expect(february.recomputedDiffers).toBe(true);
  expect(february.differences).toEqual([
    { field: 'net.cofinsRefundable', closed: '760.00', recomputed: '660.00' },
    { field: 'balances.COFINS.2025-12.EXPORT.301.claimed', closed: '0.00', recomputed: '100.00' },
    { field: 'balances.COFINS.2025-12.EXPORT.301.remaining', closed: '760.00', recomputed: '660.00' },
  ]);
  expect(await efd1100(id, 2026, 2)).toEqual(filed);
  // March, open, carries the balance as recorded.
  expect((await month(id, 2026, 3)).net.cofinsRefundable).toBe('660.00');
  // Reopened and closed again, February files the claim: 100,00 asked for refund in an earlier month (field 10), 660,00 carried.
  await api.ok(`mutation($p: ID!) { reopenTaxPeriod(producerId: $p, year: 2026, month: 2, reason: "January's refund claim") { status } }`, { p: id });
  await close(id, 2026, 2);
  const again = await month(id, 2026, 2);
  expect([again.net.cofinsRefundable, again.recomputedDiffers, again.differences]).toEqual(['660.00', false, []]);
  expect((await efd1100(id, 2026, 2))[1]).toBe('|1500|122025|01||301|760,00||760,00|0,00|100,00|0,00|660,00|0,00|0,00|0,00|0,00|0,00|660,00|');
});
