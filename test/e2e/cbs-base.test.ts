import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, grantSeal, nfeKey, producerCnpj, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * The CBS base of a month from 2027 over real PostgreSQL (EC 132/2023, ADCT art. 126; LC 214/2025,
 * arts. 172–173), every figure worked by hand at a hypothetical published rate of R$ 100,00 per m³:
 * the CBS falls on operations from 2027, so a sale of 2026 (which bore PIS/Cofins) returned in 2027
 * never reduces it (docs/LAW.md, "Returns").
 */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'fuel-tax-rate', scope: 'CBS', values: [{ name: 'perM3', value: '100' }], validFrom: '2027-01-01',
    publishedOn: '2026-12-20', legalBasis: 'Decreto hipotético nº 5/2026, art. 1º (CBS on biodiesel B100, per m³)',
  } });
});
afterAll(async () => { await api.close(); });

const MONTH = `query($p: ID!, $y: Int!, $m: Int!, $k: Date) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: $k) {
  domesticVolumeM3 pisDue cofinsDue warnings { code message legalBasis }
  fuelTaxes { tax status ownProductionVolumeM3 importedVolumeM3 volumeM3 ratePerM3 due }
  net { cbsDue cbsNetDue }
} }`;
const month = async (p: string, y: number, m: number, k: string) => (await api.ok(MONTH, { p, y, m, k })).taxPeriod;
const SALES = `mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`;
const RETURNS = `mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`;

async function producer(name: string) {
  const id = await createProducer(api, name, RECIFE);
  await electSpecialRegime(api, id);
  await grantSeal(api, id, '2028-12-31');
  return { id, cnpj: await producerCnpj(api, id) };
}

test('January 2027: 10 m³ sold, 4 m³ imported, 4 m³ of a sale of 2026-12-31 returned: CBS base 14 m³, R$ 1.400,00', async () => {
  const { id, cnpj } = await producer('Usina da Virada');
  const key = nfeKey(cnpj, 1, '2612');
  const [december] = (await api.ok(SALES, { i: [
    { producerId: id, soldOn: '2026-12-31', volumeM3: '5', revenue: '30000', invoiceKey: key },
    { producerId: id, soldOn: '2027-01-08', volumeM3: '10', revenue: '60000' },
  ] })).recordSales;
  await api.ok(`mutation($i: [RecordImportInput!]!) { recordImports(input: $i) { id } }`, { i: [{ producerId: id, clearedOn: '2027-01-15', volumeM3: '4', declarationNumber: '27/0000009-1' }] });
  await api.ok(RETURNS, { i: [{ originalKey: key, saleId: december.id, returnedOn: '2027-01-10', quantity: '4', value: '24000' }] });
  const jan = await month(id, 2027, 1, '2027-01-31');
  // The sale of 2026-12-31 bore PIS/Cofins, never the CBS: (10 + 4) m³ × R$ 100,00 = 1.400,00 (not 10 m³, 1.000,00).
  expect(jan.fuelTaxes).toEqual([{ tax: 'CBS', status: 'COMPUTED', ownProductionVolumeM3: '10.000', importedVolumeM3: '4.000', volumeM3: '14.000', ratePerM3: '100.00', due: '1400.00' }]);
  expect(jan.net).toEqual({ cbsDue: '1400.00', cbsNetDue: '1400.00' });
  // The month's volume stays net of the return dated in it; the finding names the returned volume and its month.
  expect(jan.domesticVolumeM3).toBe('6.000');
  expect(jan.warnings).toEqual([{
    code: 'RETURN_OF_PIS_COFINS_SALE',
    message: expect.stringMatching(/^4 m³ of biodiesel sold on the domestic market in 2026-12, when PIS\/Pasep and Cofins were in force, came back in this month: .*not in our sources/),
    legalBasis: expect.stringContaining('EC 132/2023, ADCT art. 126'),
  }]);
  // December 2026 keeps its 5 m³ and its PIS/Cofins.
  expect((await month(id, 2026, 12, '2027-01-31')).domesticVolumeM3).toBe('5.000');
});

test('February 2027: 5 m³ sold on 2026-12-30 returned whole on 2027-02-03, nothing else: CBS 0,00, never −500,00', async () => {
  const { id, cnpj } = await producer('Usina da Devolução Inteira');
  const key = nfeKey(cnpj, 2, '2612');
  const [sale] = (await api.ok(SALES, { i: [{ producerId: id, soldOn: '2026-12-30', volumeM3: '5', revenue: '30000', invoiceKey: key }] })).recordSales;
  await api.ok(RETURNS, { i: [{ originalKey: key, saleId: sale.id, returnedOn: '2027-02-03', quantity: '5', value: '30000' }] });
  const feb = await month(id, 2027, 2, '2027-02-28');
  expect(feb.fuelTaxes).toEqual([{ tax: 'CBS', status: 'COMPUTED', ownProductionVolumeM3: '0.000', importedVolumeM3: '0.000', volumeM3: '0.000', ratePerM3: '100.00', due: '0.00' }]);
  expect(feb.net).toEqual({ cbsDue: '0.00', cbsNetDue: '0.00' });
  expect(feb.warnings.map((w: { code: string; message: string }) => [w.code, w.message.slice(0, 60)])).toEqual([
    ['RETURN_OF_PIS_COFINS_SALE', '5 m³ of biodiesel sold on the domestic market in 2026-12, wh'],
  ]);
});

test('January 2027 as known on 2024-06-01: the CBS is due (EC 132/2023) but not determinable, null with CBS_NOT_REGULATED, never 0,00; as known today unchanged', async () => {
  const { id } = await producer('Usina de 2024');
  await api.ok(SALES, { i: [{ producerId: id, soldOn: '2027-01-08', volumeM3: '10', revenue: '60000' }] });
  const then = await month(id, 2027, 1, '2024-06-01');
  expect([then.pisDue, then.cofinsDue]).toEqual(['0.00', '0.00']);
  expect(then.fuelTaxes).toEqual([{ tax: 'CBS', status: 'RATE_NOT_PUBLISHED', ownProductionVolumeM3: '10.000', importedVolumeM3: '0.000', volumeM3: '10.000', ratePerM3: null, due: null }]);
  expect(then.net).toEqual({ cbsDue: null, cbsNetDue: null });
  expect(then.warnings).toEqual([{
    code: 'CBS_NOT_REGULATED', legalBasis: 'EC 132/2023, ADCT art. 126, I–II',
    message: expect.stringContaining('as known on 2024-06-01 no law setting the CBS on biodiesel, its base and rate, is published: the CBS is due and cannot be determined (it is not zero)'),
  }]);
  // As known today (2026-12-06, before the rate's publication on 2026-12-20): LC 214/2025's levy, the rate awaited.
  const today = await month(id, 2027, 1, '2026-12-06');
  expect(today.fuelTaxes).toEqual([{ tax: 'CBS', status: 'RATE_NOT_PUBLISHED', ownProductionVolumeM3: '10.000', importedVolumeM3: '0.000', volumeM3: '10.000', ratePerM3: null, due: null }]);
  expect(today.warnings.map((w: { code: string }) => w.code)).toEqual(['RATE_NOT_PUBLISHED']);
  // Once published: 10 m³ × R$ 100,00 = 1.000,00.
  expect((await month(id, 2027, 1, '2026-12-20')).net).toEqual({ cbsDue: '1000.00', cbsNetDue: '1000.00' });
});

test('a 2027 month with no sales and no imports: 0 m³ × any rate = 0,00, before the rate is published as after', async () => {
  const { id } = await producer('Usina Parada');
  for (const known of ['2026-12-06', '2026-12-20']) {
    const march = await month(id, 2027, 3, known);
    expect(march.fuelTaxes.map((t: { status: string; volumeM3: string; due: string }) => [t.status, t.volumeM3, t.due])).toEqual([['COMPUTED', '0.000', '0.00']]);
    expect(march.net).toEqual({ cbsDue: '0.00', cbsNetDue: '0.00' });
    expect(march.warnings).toEqual([]);
  }
});
