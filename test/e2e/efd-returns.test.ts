import { startTestApi, TestApi } from '../support/api';
import { efdProblems } from '../support/efd-layout';
import { createProducer, nfeKey, producerCnpj, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * Returns of sales the month's own sales do not cover, in the EFD-Contribuições, over real PostgreSQL. Such a return stays
 * in the month's due (taxPeriod) and out of the C-level base; its credit (Lei 10.637/2002 and Lei 10.833/2003, art. 3º VIII)
 * is not written yet. Where it takes the month's contribution below zero — at an M210/M610 or in M200/M600, which the Guia
 * holds at zero or more — the file is refused (400 BAD_USER_INPUT on `month`, naming the return), never a 500 or a file the
 * layout check refuses (docs/LAW.md, "A return of a sale leaves the C-level base"). Special regime at GENERAL: 26,41 / 121,59
 * per m³; ad valorem 6,15% / 28,32%.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
});
afterAll(async () => { await api.close(); });

const SALES = `mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`;
const RETURNS = `mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`;
const CLOSE = `mutation($p: ID!, $y: Int!, $m: Int!) { closeTaxPeriod(producerId: $p, year: $y, month: $m) { status } }`;
const DUES = `query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m) { pisDue cofinsDue } }`;

async function producer(name: string, special: boolean): Promise<{ id: string; cnpj: string }> {
  const id = await createProducer(api, name, RECIFE);
  if (special) await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2025-11-03' } });
  return { id, cnpj: await producerCnpj(api, id) };
}
async function sell(id: string, key: string | null, soldOn: string, volumeM3: string, revenue: string, market = 'DOMESTIC'): Promise<string> {
  return (await api.ok(SALES, { i: [{ producerId: id, soldOn, volumeM3, revenue, origin: 'OWN_PRODUCTION', market, invoiceKey: key }] })).recordSales[0].id;
}
async function giveBack(saleId: string, key: string, returnedOn: string, quantity: string, value: string): Promise<string> {
  return (await api.ok(RETURNS, { i: [{ originalKey: key, saleId, returnedOn, quantity, value }] })).recordReturns[0].id;
}
async function efd(id: string, year: number, month: number) {
  await api.ok(CLOSE, { p: id, y: year, m: month });
  const dues = (await api.ok(DUES, { p: id, y: year, m: month })).taxPeriod;
  const res = await fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=${year}&month=${month}`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  return { dues, res };
}
async function refused(res: Response): Promise<{ code: string; field: string; message: string }> {
  expect(res.status).toBe(400);
  return (JSON.parse(await res.text())).error;
}

describe('a return of a sale the month does not cover, beyond the month\'s contribution: the file is refused, naming it', () => {
  test('special regime: August\'s 10 m³ sold, 2 m³ returned in an October of nothing else → −52,82 / −243,18, 400 on month', async () => {
    const { id, cnpj } = await producer('Usina Outubro', true);
    const key = nfeKey(cnpj, 1, '2608');
    const sale = await sell(id, key, '2026-08-10', '10', '60000');
    await api.ok(CLOSE, { p: id, y: 2026, m: 8 });
    const back = await giveBack(sale, key, '2026-10-14', '2', '12000');
    const { dues, res } = await efd(id, 2026, 10);
    // 2 × 26,41 = 52,82 and 2 × 121,59 = 243,18, below zero: taxPeriod shows them as they are.
    expect(dues).toEqual({ pisDue: '-52.82', cofinsDue: '-243.18' });
    const error = await refused(res);
    expect([error.code, error.field]).toEqual(['BAD_USER_INPUT', 'month']);
    expect(error.message).toContain(`${back} (2026-10-14, 2.000 m³, R$ 12000.00; ${sale}, 2026-08-10)`);
    expect(error.message).toMatch(/PIS\/Pasep -52\.82, Cofins -243\.18/);
    expect(error.message).toMatch(/art\. 3º VIII/);
  });

  test('special regime: November sells 1 m³ and takes back 3 m³ of August → (1 − 3) × 26,41 = −52,82: refused, no file with a negative M200', async () => {
    const { id, cnpj } = await producer('Usina Novembro', true);
    const key = nfeKey(cnpj, 1, '2608');
    const sale = await sell(id, key, '2026-08-10', '10', '60000');
    await api.ok(CLOSE, { p: id, y: 2026, m: 8 });
    await sell(id, null, '2026-11-05', '1', '6000');
    const back = await giveBack(sale, key, '2026-11-20', '3', '18000');
    const { dues, res } = await efd(id, 2026, 11);
    expect(dues).toEqual({ pisDue: '-52.82', cofinsDue: '-243.18' });
    const error = await refused(res);
    expect(error.field).toBe('month');
    expect(error.message).toContain(`${back} (2026-11-20, 3.000 m³`);
  });

  test('ad valorem: a May with only a return of R$ 10.000,00 of March → −615,00 / −2.832,00, refused', async () => {
    const { id, cnpj } = await producer('Usina Maio', false);
    const key = nfeKey(cnpj, 1, '2603');
    const sale = await sell(id, key, '2026-03-10', '20', '100000');
    await api.ok(CLOSE, { p: id, y: 2026, m: 3 });
    const back = await giveBack(sale, key, '2026-05-12', '2', '10000');
    const { dues, res } = await efd(id, 2026, 5);
    expect(dues).toEqual({ pisDue: '-615.00', cofinsDue: '-2832.00' });
    expect((await refused(res)).message).toContain(`${back} (2026-05-12, 2.000 m³, R$ 10000.00`);
  });

  test('ad valorem: a September of exports and a return of a domestic sale → the exports do not cover it, refused', async () => {
    const { id, cnpj } = await producer('Usina Setembro', false);
    const key = nfeKey(cnpj, 1, '2607');
    const sale = await sell(id, key, '2026-07-10', '20', '100000');
    await api.ok(CLOSE, { p: id, y: 2026, m: 7 });
    await sell(id, null, '2026-09-03', '5', '30000', 'EXPORT');
    await giveBack(sale, key, '2026-09-15', '2', '10000');
    const { dues, res } = await efd(id, 2026, 9);
    expect(dues).toEqual({ pisDue: '-615.00', cofinsDue: '-2832.00' });
    expect((await refused(res)).field).toBe('month');
  });
});

test('a return the month does not cover but its contribution does: the file is written and passes the layout check', async () => {
  // Ad valorem: September sells R$ 100.000,00 of own production; July's imported sale of R$ 10.000,00 comes back. C181 keeps
  // 100.000,00 (6.150,00 / 28.320,00); the dues 90.000 × 6,15% = 5.535,00 and × 28,32% = 25.488,00, the return the reduction.
  const { id, cnpj } = await producer('Usina Coberta', false);
  const key = nfeKey(cnpj, 1, '2607');
  const imported = (await api.ok(SALES, { i: [{ producerId: id, soldOn: '2026-07-10', volumeM3: '2', revenue: '10000', origin: 'IMPORTED', market: 'DOMESTIC', invoiceKey: key }] })).recordSales[0].id;
  await api.ok(CLOSE, { p: id, y: 2026, m: 7 });
  await sell(id, null, '2026-09-03', '20', '100000');
  await giveBack(imported, key, '2026-09-15', '2', '10000');
  const { dues, res } = await efd(id, 2026, 9);
  expect(dues).toEqual({ pisDue: '5535.00', cofinsDue: '25488.00' });
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  const only = (...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  expect(only('M200', 'M600').map((l) => l.split('|')[13])).toEqual(['5535,00', '25488,00']);
  expect(only('M220', 'M620').map((l) => l.split('|').slice(2, 5))).toEqual([['0', '615,00', '03'], ['0', '2832,00', '03']]);
});

test('special regime: November sells 10 m³, August\'s imported 2 m³ come back → the M220/M620 is the return\'s, not "Arredondamento"', async () => {
  // C181 10 × 26,41 = 264,10 and 10 × 121,59 = 1.215,90; the dues (10 − 2) × 26,41 = 211,28 and 8 × 121,59 = 972,72: the return's
  // 52,82 / 243,18 are one reduction each, no rounding left.
  const { id, cnpj } = await producer('Usina Importada', true);
  const key = nfeKey(cnpj, 1, '2608');
  const imported = (await api.ok(SALES, { i: [{ producerId: id, soldOn: '2026-08-10', volumeM3: '2', revenue: '12000', origin: 'IMPORTED', market: 'DOMESTIC', invoiceKey: key }] })).recordSales[0].id;
  await api.ok(CLOSE, { p: id, y: 2026, m: 8 });
  await sell(id, null, '2026-11-05', '10', '60000');
  await giveBack(imported, key, '2026-11-20', '2', '12000');
  const { dues, res } = await efd(id, 2026, 11);
  expect(dues).toEqual({ pisDue: '211.28', cofinsDue: '972.72' });
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  const only = (...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  expect(only('M210', 'M610').map((l) => l.split('|').slice(11, 17).join('|'))).toEqual(['264,10|0,00|52,82|0,00|0,00|211,28', '1215,90|0,00|243,18|0,00|0,00|972,72']);
  expect(only('M220', 'M620').map((l) => l.split('|').slice(2, 5).concat(l.split('|')[6].split(' (')[0]))).toEqual([
    ['0', '52,82', '03', 'Devolucao de venda nao coberta pelas vendas do mes'], ['0', '243,18', '03', 'Devolucao de venda nao coberta pelas vendas do mes'],
  ]);
});
