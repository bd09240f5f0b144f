import { startTestApi, TestApi } from '../support/api';
import { createProducer, nfeKey, producerCnpj, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * A batch with bad items writes nothing and reports every bad item (up to 100), each with its code,
 * message, field and path (`["input", 1, "quantityKg"]`), in `extensions.problems`.
 */
let api: TestApi;
let producerId: string;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  producerId = await createProducer(api, 'Usina Lote');
});
afterAll(() => api.close());

const RECORD_PURCHASES = `mutation($input: [RecordPurchaseInput!]!) { recordPurchases(input: $input) { id } }`;
const purchase = (over: Record<string, unknown> = {}) => ({
  producerId, purchasedOn: '2026-03-02', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500.00',
  supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista Beta', originMunicipalityCode: RECIFE, ...over,
});

test('a batch with three bad items reports the three, with their paths, and writes nothing', async () => {
  const input = [
    purchase(),
    purchase({ quantityKg: '0' }), // checked without the database
    purchase({ originMunicipalityCode: '2927408' }), // a municipality not on record: checked in the database
    purchase(),
    purchase({ cost: null }), // a THIRD_PARTY purchase needs its cost
  ];
  const res = await api.gql(RECORD_PURCHASES, { input });
  expect(res.data).toBeNull();
  expect(res.errors).toHaveLength(1);
  const [error] = res.errors!;
  expect(error.extensions!.code).toBe('BAD_USER_INPUT');
  expect(error.extensions!.problemCount).toBe(3);
  expect(error.extensions!.problems).toEqual([
    { code: 'BAD_USER_INPUT', field: 'input[1].quantityKg', path: ['input', 1, 'quantityKg'], message: 'input[1].quantityKg must be greater than zero' },
    { code: 'BAD_USER_INPUT', field: 'input[2].originMunicipalityCode', path: ['input', 2, 'originMunicipalityCode'], message: 'Unknown municipality 2927408 (load it with upsertMunicipalities or the municipalities import)' },
    { code: 'BAD_USER_INPUT', field: 'input[4].cost', path: ['input', 4, 'cost'], message: 'A THIRD_PARTY purchase needs its acquisition cost' },
  ]);
  // The first problem is also the error's own field, as for a batch with one bad item.
  expect(error.extensions!.field).toBe('input[1].quantityKg');
  expect(error.message).toMatch(/^3 items of the batch are refused, nothing was written/);
  expect(await api.count('SELECT count(*) FROM purchase')).toBe(0);
});

test('the problems in Portuguese with Accept-Language: pt-BR', async () => {
  const res = await api.gql(RECORD_PURCHASES, { input: [purchase({ quantityKg: '0' }), purchase({ cost: '-1' })] }, undefined, { 'accept-language': 'pt-BR' });
  expect(res.errors![0].message).toMatch(/^2 itens do lote foram recusados, nada foi gravado/);
  expect(res.errors![0].extensions!.problems.map((p: any) => p.message)).toEqual(['input[0].quantityKg deve ser maior que zero', 'input[1].cost deve ser maior que zero']);
});

test('one bad item answers as before, with its problem listed', async () => {
  const res = await api.gql(RECORD_PURCHASES, { input: [purchase(), purchase({ externalId: '  ' })] });
  expect(res.errors![0]).toMatchObject({
    message: 'externalId must not be blank',
    extensions: { code: 'BAD_USER_INPUT', field: 'input[1].externalId', problemCount: 1, problems: [{ path: ['input', 1, 'externalId'] }] },
  });
});

test('conflicts and missing records are problems too; at most 100 are listed, all are counted', async () => {
  const key = nfeKey(await producerCnpj(api, producerId), 1);
  const sales = Array.from({ length: 150 }, (_, i) => ({ producerId, soldOn: '2026-03-10', volumeM3: i % 2 ? '0' : '10', revenue: '60000.00', invoiceKey: i === 0 || i === 2 ? key : null }));
  const res = await api.gql(`mutation($input: [RecordSaleInput!]!) { recordSales(input: $input) { id } }`, { input: sales });
  const { problems, problemCount, code } = res.errors![0].extensions!;
  // 75 zero volumes (the odd items), and item 2's invoice key repeats item 0's.
  expect(problemCount).toBe(76);
  expect(code).toBe('BAD_USER_INPUT');
  expect(problems).toHaveLength(76);
  expect(problems.slice(0, 3)).toEqual([
    expect.objectContaining({ code: 'BAD_USER_INPUT', path: ['input', 1, 'volumeM3'] }),
    expect.objectContaining({ code: 'CONFLICT', reason: 'DUPLICATE', path: ['input', 2, 'invoiceKey'] }),
    expect.objectContaining({ code: 'BAD_USER_INPUT', path: ['input', 3, 'volumeM3'] }),
  ]);
  const many = Array.from({ length: 130 }, (_, i) => purchase({ familyFarmerId: String(900000 + i), supplierKind: 'FAMILY_FARMER', supplierName: null }));
  const farmers = await api.gql(RECORD_PURCHASES, { input: many });
  expect(farmers.errors![0].extensions!.code).toBe('NOT_FOUND');
  expect(farmers.errors![0].extensions!.problemCount).toBe(130);
  expect(farmers.errors![0].extensions!.problems).toHaveLength(100);
  expect(farmers.errors![0].extensions!.problems[99]).toEqual({ code: 'NOT_FOUND', field: 'input[99].familyFarmerId', path: ['input', 99, 'familyFarmerId'], message: 'FamilyFarmer 900099 (input[99].familyFarmerId) not found' });
  expect(await api.count('SELECT count(*) FROM sale') + await api.count('SELECT count(*) FROM purchase')).toBe(0);
});

describe('a producer id that names no producer', () => {
  const BATCHES: Array<[string, string, (producerId: string) => Record<string, unknown>, string]> = [
    ['recordSales', 'RecordSaleInput', (id) => ({ producerId: id, soldOn: '2026-10-05', volumeM3: '1', revenue: '100' }), 'sale'],
    ['recordPurchases', 'RecordPurchaseInput', (id) => purchase({ producerId: id }), 'purchase'],
    ['recordImports', 'RecordImportInput', (id) => ({ producerId: id, clearedOn: '2026-10-05', volumeM3: '1', declarationNumber: `26/${id.replace(/\W/g, '')}-1` }), 'biodiesel_import'],
    ['recordFomento', 'RecordFomentoInput', (id) => ({ producerId: id, spentOn: '2026-10-05', kind: 'DONATION', amount: '1', municipalityCode: RECIFE }), 'fomento_expense'],
  ];

  // Each batch pairs a good item with one whose producerId is not an id the API hands out: the
  // bad one is NOT_FOUND at its own path, the good one is not reported, and nothing is written.
  test.each(BATCHES)('%s: NOT_FOUND at input[i].producerId, the whole batch refused', async (name, type, item, table) => {
    for (const [bad, at] of [['abc', 0], [`${producerId}.0`, 1], [' 1', 0], ['1e3', 1], ['-1', 0]] as Array<[string, number]>) {
      const input = at === 0 ? [item(bad), item(producerId)] : [item(producerId), item(bad)];
      const res = await api.gql(`mutation($input: [${type}!]!) { ${name}(input: $input) { id } }`, { input });
      expect(res.data).toBeNull();
      expect(res.errors).toHaveLength(1);
      expect(res.errors![0].extensions).toMatchObject({
        code: 'NOT_FOUND', field: `input[${at}].producerId`, problemCount: 1,
        problems: [{ code: 'NOT_FOUND', field: `input[${at}].producerId`, path: ['input', at, 'producerId'] }],
      });
      // A batch of that one bad item alone answers the same.
      const alone = await api.gql(`mutation($input: [${type}!]!) { ${name}(input: $input) { id } }`, { input: [item(bad)] });
      expect(alone.errors![0].extensions).toMatchObject({ code: 'NOT_FOUND', field: 'input[0].producerId' });
    }
    expect(await api.count(`SELECT count(*) FROM ${table}`)).toBe(0);
  });
});
