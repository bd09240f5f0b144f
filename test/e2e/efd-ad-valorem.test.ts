import { startTestApi, TestApi } from '../support/api';
import { efdProblems } from '../support/efd-layout';
import { createProducer, nfeKey, producerCnpj, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * The EFD-Contribuições of a month under the ad valorem regime (Lei 11.116/2005, art. 3º: 6,15% PIS/Pasep and 28,32%
 * Cofins on the gross revenue of the domestic sales; the producer elected no special regime), over real PostgreSQL:
 * CST 02 in C181/C185, M210/M610 of COD_CONT 02 with the value base and the rate in percent, and M200/M600 equal to the
 * closed month's taxPeriod pisDue/cofinsDue (docs/LAW.md, "EFD-Contribuições"). Every figure is worked by hand.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
});
afterAll(async () => { await api.close(); });

const MONTH = `query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m) { regime pisDue cofinsDue segments { from pisRate cofinsRate } } }`;
const SALES = `mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`;

async function file(id: string, year: number, month: number, query = ''): Promise<{ body: Buffer; dues: { regime: string; pisDue: string; cofinsDue: string }; only: (...regs: string[]) => string[] }> {
  await api.ok(`mutation($p: ID!, $y: Int!, $m: Int!) { closeTaxPeriod(producerId: $p, year: $y, month: $m) { status } }`, { p: id, y: year, m: month });
  const dues = (await api.ok(MONTH, { p: id, y: year, m: month })).taxPeriod;
  const res = await fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=${year}&month=${month}${query}`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  const only = (...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  // M200/M600 field 13 (VL_TOT_CONT_REC) is the closed month's due, as taxPeriod answers it.
  expect(dues.regime).toBe('AD_VALOREM');
  expect(only('M200')[0].split('|')[13]).toBe(dues.pisDue.replace('.', ','));
  expect(only('M600')[0].split('|')[13]).toBe(dues.cofinsDue.replace('.', ','));
  return { body, dues, only };
}

describe('the EFD-Contribuições of an ad valorem month (Lei 11.116/2005, art. 3º)', () => {
  test('September 2025: R$ 100.000,00 in Brazil and R$ 30.000,00 exported → 6.150,00 / 28.320,00; the export CST 08 in M400/M800', async () => {
    const id = await createProducer(api, 'Usina Sem Opcao', RECIFE);
    await api.ok(SALES, { i: [
      { producerId: id, soldOn: '2025-09-10', volumeM3: '20', revenue: '100000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' },
      { producerId: id, soldOn: '2025-09-15', volumeM3: '5', revenue: '30000', origin: 'OWN_PRODUCTION', market: 'EXPORT' },
    ] });
    const { dues, only } = await file(id, 2025, 9);
    expect([dues.pisDue, dues.cofinsDue]).toEqual(['6150.00', '28320.00']);
    expect(only('0110', 'C181', 'C185', 'M210', 'M400', 'M610', 'M800')).toEqual([
      '|0110|1|1|2||',
      '|C181|02|5101|100000,00|0,00|100000,00|6,1500|||6150,00||',
      '|C181|08|7101|30000,00|0,00|||||0,00||',
      '|C185|02|5101|100000,00|0,00|100000,00|28,3200|||28320,00||',
      '|C185|08|7101|30000,00|0,00|||||0,00||',
      '|M210|02|100000,00|100000,00|0,00|0,00|100000,00|6,1500|||6150,00|0,00|0,00|0,00|0,00|6150,00|',
      '|M400|08|30000,00|||',
      '|M610|02|100000,00|100000,00|0,00|0,00|100000,00|28,3200|||28320,00|0,00|0,00|0,00|0,00|28320,00|',
      '|M800|08|30000,00|||',
    ]);
  });

  test('October 2025: R$ 100.000,00 sold, R$ 10.000,00 of it returned in the month → base 90.000,00: 5.535,00 / 25.488,00', async () => {
    const id = await createProducer(api, 'Usina Devolucao', RECIFE);
    const key = nfeKey(await producerCnpj(api, id), 1, '2510');
    const [sale] = (await api.ok(SALES, { i: [{ producerId: id, soldOn: '2025-10-06', volumeM3: '20', revenue: '100000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC', invoiceKey: key }] })).recordSales;
    await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: key, saleId: sale.id, returnedOn: '2025-10-20', quantity: '2', value: '10000' }] });
    const { dues, only } = await file(id, 2025, 10);
    expect([dues.pisDue, dues.cofinsDue]).toEqual(['5535.00', '25488.00']);
    expect(only('C181', 'C185', 'M210', 'M220', 'M610', 'M620')).toEqual([
      '|C181|02|5101|90000,00|0,00|90000,00|6,1500|||5535,00||',
      '|C185|02|5101|90000,00|0,00|90000,00|28,3200|||25488,00||',
      '|M210|02|90000,00|90000,00|0,00|0,00|90000,00|6,1500|||5535,00|0,00|0,00|0,00|0,00|5535,00|',
      '|M610|02|90000,00|90000,00|0,00|0,00|90000,00|28,3200|||25488,00|0,00|0,00|0,00|0,00|25488,00|',
    ]);
  });

  test('May 2026, inside the zero window: the window reaches only the per-m³ amounts, R$ 100.000,00 still → 6.150,00 / 28.320,00', async () => {
    const id = await createProducer(api, 'Usina Janela', RECIFE);
    await api.ok(SALES, { i: [{ producerId: id, soldOn: '2026-05-12', volumeM3: '20', revenue: '100000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }] });
    const { dues, only } = await file(id, 2026, 5, '&incidence=cumulative');
    expect([dues.pisDue, dues.cofinsDue]).toEqual(['6150.00', '28320.00']);
    // Cumulative incidence asked: COD_CONT 52 (table 4.3.5), the dues in M200/M600 fields 09–12.
    expect(only('0110', 'C181', 'M210', 'M610')).toEqual([
      '|0110|2||2|9|',
      '|C181|02|5101|100000,00|0,00|100000,00|6,1500|||6150,00||',
      '|M210|52|100000,00|100000,00|0,00|0,00|100000,00|6,1500|||6150,00|0,00|0,00|0,00|0,00|6150,00|',
      '|M610|52|100000,00|100000,00|0,00|0,00|100000,00|28,3200|||28320,00|0,00|0,00|0,00|0,00|28320,00|',
    ]);
  });
});
