import { startTestApi, TestApi } from '../support/api';
import { nfeKey, producerCnpj } from '../support/fixtures';
import { errorOf, RecordsWorld, setUpWorld } from './records-b.fixtures';

let api: TestApi;
let w: RecordsWorld;
let cnpjA: string;
let cnpjB: string;

beforeAll(async () => {
  api = await startTestApi();
  w = await setUpWorld(api);
  [cnpjA, cnpjB] = [await producerCnpj(api, w.producerA), await producerCnpj(api, w.producerB)];
});
afterAll(async () => { await api.close(); });

const RECORD_SALES = `mutation($input: [RecordSaleInput!]!) {
  recordSales(input: $input) { id soldOn volumeM3 revenue origin market invoiceKey producer { id } }
}`;
const RECORD_FOMENTO = `mutation($input: [RecordFomentoInput!]!) {
  recordFomento(input: $input) { id spentOn kind amount description producer { id } municipality { ibgeCode priorityRegion } organization { id kind } }
}`;

const sales = () => api.count('SELECT count(*) FROM sale');
const fomento = () => api.count('SELECT count(*) FROM fomento_expense');
/** Keys issued by producer A (its CNPJ in positions 7 to 20), and by B. */
const key = (n: number) => nfeKey(cnpjA, n);
const keyB = (n: number) => nfeKey(cnpjB, n);

function sale(overrides: Record<string, unknown> = {}) {
  return { producerId: w.producerA, soldOn: '2025-04-15', volumeM3: '45.5', revenue: '250000.75', ...overrides };
}

function expense(overrides: Record<string, unknown> = {}) {
  return { producerId: w.producerA, spentOn: '2025-05-10', kind: 'TECHNICAL_ASSISTANCE', amount: '15000.10', municipalityCode: w.recife, ...overrides };
}

describe('recordSales', () => {
  test('a batch is written and read back exactly; origin and market default to OWN_PRODUCTION and DOMESTIC', async () => {
    const before = await sales();
    const { recordSales: out } = await api.ok(RECORD_SALES, {
      input: [
        sale({ invoiceKey: key(1) }),
        sale({ soldOn: '2025-04-16', volumeM3: 30, revenue: '120000', origin: 'IMPORTED', market: 'EXPORT' }),
      ],
    });
    expect(out).toEqual([
      { id: expect.any(String), soldOn: '2025-04-15', volumeM3: '45.500', revenue: '250000.75', origin: 'OWN_PRODUCTION', market: 'DOMESTIC', invoiceKey: key(1), producer: { id: w.producerA } },
      { id: expect.any(String), soldOn: '2025-04-16', volumeM3: '30.000', revenue: '120000.00', origin: 'IMPORTED', market: 'EXPORT', invoiceKey: null, producer: { id: w.producerA } },
    ]);
    expect(await sales()).toBe(before + 2);
    const [row] = await api.db.dataSource.query(`SELECT volume_m3::text, revenue::text, invoice_key FROM sale WHERE id = $1`, [out[0].id]);
    expect(row).toEqual({ volume_m3: '45.5', revenue: '250000.75', invoice_key: key(1) });
    expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'recordSales'`)).toBe(2);
  });

  test('a PRODUCER records its own sales', async () => {
    const { recordSales: [s] } = await api.ok(RECORD_SALES, { input: [sale({ producerId: w.producerB })] }, { role: 'PRODUCER', producerId: w.producerB });
    expect(s.producer.id).toBe(w.producerB);
  });

  test('2,500 sales in one batch go in multi-row INSERTs', async () => {
    const before = await sales();
    api.statements.reset();
    const input = Array.from({ length: 2500 }, (_, i) => sale({ producerId: w.producerB, invoiceKey: keyB(100000 + i), revenue: String(i + 1) }));
    expect((await api.ok(`mutation($input: [RecordSaleInput!]!) { recordSales(input: $input) { id } }`, { input })).recordSales).toHaveLength(2500);
    // BEGIN, producers, invoice keys, the month's period lock and its check, 3 INSERTs of up to 1,000, audit, COMMIT.
    expect(api.statements.count).toBe(10);
    expect(await sales()).toBe(before + 2500);
  });

  type Case = [name: string, bad: () => Record<string, unknown>, expected: { code: string; field?: string; reason?: string }];
  const cases: Case[] = [
    ['zero volume', () => sale({ volumeM3: '0' }), { code: 'BAD_USER_INPUT', field: 'input[1].volumeM3' }],
    ['negative volume', () => sale({ volumeM3: '-1.5' }), { code: 'BAD_USER_INPUT', field: 'input[1].volumeM3' }],
    ['zero revenue', () => sale({ revenue: 0 }), { code: 'BAD_USER_INPUT', field: 'input[1].revenue' }],
    ['negative revenue', () => sale({ revenue: '-0.01' }), { code: 'BAD_USER_INPUT', field: 'input[1].revenue' }],
    ['invoiceKey of 43 digits', () => sale({ invoiceKey: '1'.repeat(43) }), { code: 'BAD_USER_INPUT', field: 'input[1].invoiceKey' }],
    ['invoiceKey with a letter', () => sale({ invoiceKey: `${'1'.repeat(43)}A` }), { code: 'BAD_USER_INPUT', field: 'input[1].invoiceKey' }],
    ['invoiceKey of 45 digits', () => sale({ invoiceKey: '1'.repeat(45) }), { code: 'BAD_USER_INPUT', field: 'input[1].invoiceKey' }],
    ['unknown producer', () => sale({ producerId: '999999' }), { code: 'NOT_FOUND' }],
  ];
  test.each(cases)('%s: rejected, nothing written', async (_name, bad, expected) => {
    const before = await sales();
    expect(errorOf(await api.gql(RECORD_SALES, { input: [sale(), bad()] }))).toMatchObject(expected);
    expect(await sales()).toBe(before);
  });

  test('invoiceKey twice in one batch, or already recorded: CONFLICT DUPLICATE naming the item', async () => {
    const before = await sales();
    expect(errorOf(await api.gql(RECORD_SALES, { input: [sale({ invoiceKey: key(7) }), sale(), sale({ invoiceKey: key(7) })] })))
      .toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE', field: 'input[2].invoiceKey' });
    // key(1) was recorded by producer A: sent again by A, a DUPLICATE.
    expect(errorOf(await api.gql(RECORD_SALES, { input: [sale({ invoiceKey: key(8) }), sale({ invoiceKey: key(1) })] })))
      .toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE', field: 'input[1].invoiceKey' });
    // Sent by B, it is not B's key to record (A is its issuer): refused as any key of another issuer, saying nothing of A's sale.
    expect(errorOf(await api.gql(RECORD_SALES, { input: [sale({ producerId: w.producerB, invoiceKey: keyB(8) }), sale({ producerId: w.producerB, invoiceKey: key(1) })] })))
      .toMatchObject({ code: 'BAD_USER_INPUT', field: 'input[1].invoiceKey' });
    expect(await sales()).toBe(before);
  });

  test('a PRODUCER naming another producer: NOT_FOUND; an AUDITOR: FORBIDDEN; nothing written', async () => {
    const before = await sales();
    expect(errorOf(await api.gql(RECORD_SALES, { input: [sale(), sale({ producerId: w.producerB })] }, { role: 'PRODUCER', producerId: w.producerA })).code).toBe('NOT_FOUND');
    expect(errorOf(await api.gql(RECORD_SALES, { input: [sale()] }, { role: 'AUDITOR' })).code).toBe('FORBIDDEN');
    expect(await sales()).toBe(before);
  });
});

describe('recordFomento', () => {
  test('a batch is written and read back exactly, with municipality and organization', async () => {
    const before = await fomento();
    const { recordFomento: out } = await api.ok(RECORD_FOMENTO, {
      input: [
        expense({ organizationId: w.cooperative, description: '  Curso de manejo do solo ' }),
        expense({ kind: 'DONATION', amount: 700, municipalityCode: w.portoAlegre, spentOn: '2025-06-01' }),
      ],
    });
    expect(out).toEqual([
      { id: expect.any(String), spentOn: '2025-05-10', kind: 'TECHNICAL_ASSISTANCE', amount: '15000.10', description: 'Curso de manejo do solo', producer: { id: w.producerA }, municipality: { ibgeCode: w.recife, priorityRegion: true }, organization: { id: w.cooperative, kind: 'COOPERATIVE' } },
      { id: expect.any(String), spentOn: '2025-06-01', kind: 'DONATION', amount: '700.00', description: null, producer: { id: w.producerA }, municipality: { ibgeCode: w.portoAlegre, priorityRegion: false }, organization: null },
    ]);
    expect(await fomento()).toBe(before + 2);
    const [row] = await api.db.dataSource.query(`SELECT amount::text, organization_id::text, municipality_code FROM fomento_expense WHERE id = $1`, [out[0].id]);
    expect(row).toEqual({ amount: '15000.1', organization_id: w.cooperative, municipality_code: w.recife });
  });

  type Case = [name: string, bad: () => Record<string, unknown>, expected: { code: string; field?: string }];
  const cases: Case[] = [
    ['zero amount', () => expense({ amount: '0' }), { code: 'BAD_USER_INPUT', field: 'input[1].amount' }],
    ['negative amount', () => expense({ amount: '-100' }), { code: 'BAD_USER_INPUT', field: 'input[1].amount' }],
    ['unknown municipality', () => expense({ municipalityCode: '2611607' }), { code: 'BAD_USER_INPUT', field: 'input[1].municipalityCode' }],
    ['unknown organization', () => expense({ organizationId: '999999' }), { code: 'NOT_FOUND' }],
    ['unknown producer', () => expense({ producerId: '999999' }), { code: 'NOT_FOUND' }],
  ];
  test.each(cases)('%s: rejected, nothing written', async (_name, bad, expected) => {
    const before = await fomento();
    expect(errorOf(await api.gql(RECORD_FOMENTO, { input: [expense(), bad()] }))).toMatchObject(expected);
    expect(await fomento()).toBe(before);
  });

  test('a PRODUCER records its own and not another producer\'s; an AUDITOR nothing', async () => {
    const own = await api.ok(RECORD_FOMENTO, { input: [expense({ producerId: w.producerB })] }, { role: 'PRODUCER', producerId: w.producerB });
    expect(own.recordFomento[0].producer.id).toBe(w.producerB);
    const before = await fomento();
    expect(errorOf(await api.gql(RECORD_FOMENTO, { input: [expense()] }, { role: 'PRODUCER', producerId: w.producerB })).code).toBe('NOT_FOUND');
    expect(errorOf(await api.gql(RECORD_FOMENTO, { input: [expense()] }, { role: 'AUDITOR' })).code).toBe('FORBIDDEN');
    expect(await fomento()).toBe(before);
  });
});
