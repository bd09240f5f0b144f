import { startTestApi, TestApi } from '../support/api';
import { errorOf, insertContract, RecordsWorld, setUpWorld } from './records-b.fixtures';

let api: TestApi;
let w: RecordsWorld;
let contractA: string;
let contractB: string;

beforeAll(async () => {
  api = await startTestApi();
  w = await setUpWorld(api);
  contractA = await insertContract(api, w.producerA, w.farmer);
  contractB = await insertContract(api, w.producerB, w.farmer);
});
afterAll(async () => { await api.close(); });

const RECORD = `mutation($input: [RecordPurchaseInput!]!) {
  recordPurchases(input: $input) {
    id purchasedOn consumedOn feedstock quantityKg cost supplierKind supplierName purpose externalId
    producer { id } originMunicipality { ibgeCode priorityRegion } contract { id }
    familyFarmer { id name municipality { ibgeCode } } organization { id kind }
  }
}`;

const purchases = () => api.count('SELECT count(*) FROM purchase');

/** A valid third-party purchase of producer A; tests change one thing to make it wrong. */
function thirdParty(overrides: Record<string, unknown> = {}) {
  return {
    producerId: w.producerA, purchasedOn: '2025-03-10', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500.00',
    supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista Sul Ltda', originMunicipalityCode: w.portoAlegre, ...overrides,
  };
}

describe('recordPurchases: success', () => {
  test('a batch of every supplier kind is written and read back exactly', async () => {
    const input = [
      { producerId: w.producerA, purchasedOn: '2025-03-01', consumedOn: '2025-04-02', feedstock: 'SOYBEAN', quantityKg: '12500.125', cost: '1234.56',
        supplierKind: 'FAMILY_FARMER', familyFarmerId: w.farmer, originMunicipalityCode: w.recife, contractId: contractA, externalId: 'NF-1' },
      { producerId: w.producerA, purchasedOn: '2025-03-02', feedstock: 'CASTOR_BEAN', quantityKg: 800, cost: '0.01',
        supplierKind: 'COOPERATIVE', organizationId: w.cooperative, originMunicipalityCode: '2910800', purpose: 'OTHER_PRODUCT' },
      { producerId: w.producerA, purchasedOn: '2025-03-03', feedstock: 'PALM', quantityKg: '1', cost: '99999999999.99',
        supplierKind: 'ASSOCIATION', organizationId: w.association, originMunicipalityCode: w.recife },
      thirdParty({ purchasedOn: '2025-03-04' }),
      { producerId: w.producerA, purchasedOn: '2025-03-05', feedstock: 'BEEF_TALLOW', quantityKg: '300.5',
        supplierKind: 'OWN_PRODUCTION', originMunicipalityCode: w.portoAlegre },
    ];
    const before = await purchases();
    const data = await api.ok(RECORD, { input });
    const out = data.recordPurchases;
    expect(out).toHaveLength(5);
    expect(out[0]).toMatchObject({
      purchasedOn: '2025-03-01', consumedOn: '2025-04-02', feedstock: 'SOYBEAN', quantityKg: '12500.125', cost: '1234.56',
      supplierKind: 'FAMILY_FARMER', supplierName: null, purpose: 'BIODIESEL_FEEDSTOCK', externalId: 'NF-1',
      producer: { id: w.producerA }, originMunicipality: { ibgeCode: w.recife, priorityRegion: true }, contract: { id: contractA },
      familyFarmer: { id: w.farmer, name: 'Maria da Silva', municipality: { ibgeCode: w.recife } }, organization: null,
    });
    // consumedOn defaults to purchasedOn (art. 6º §3º); an integer Decimal comes back as a string.
    expect(out[1]).toMatchObject({ consumedOn: '2025-03-02', quantityKg: '800.000', cost: '0.01', purpose: 'OTHER_PRODUCT', contract: null, familyFarmer: null, organization: { id: w.cooperative, kind: 'COOPERATIVE' } });
    expect(out[2]).toMatchObject({ cost: '99999999999.99', supplierKind: 'ASSOCIATION', organization: { id: w.association, kind: 'ASSOCIATION' } });
    expect(out[3]).toMatchObject({ supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista Sul Ltda', cost: '2500.00', externalId: null, familyFarmer: null, organization: null });
    // Own production carries no cost (valued per art. 6º §4º).
    expect(out[4]).toMatchObject({ supplierKind: 'OWN_PRODUCTION', cost: null, quantityKg: '300.500' });
    expect(await purchases()).toBe(before + 5);

    // Read back by id, and straight from the table.
    const read = await api.ok(`query($id: ID!) { purchase(id: $id) { id quantityKg cost consumedOn supplierKind producer { legalName } } }`, { id: out[0].id });
    expect(read.purchase).toEqual({ id: out[0].id, quantityKg: '12500.125', cost: '1234.56', consumedOn: '2025-04-02', supplierKind: 'FAMILY_FARMER', producer: { legalName: 'Biodiesel Alfa S.A.' } });
    const [row] = await api.db.dataSource.query(`SELECT quantity_kg::text, cost::text, family_farmer_id::text, organization_id, consumed_on FROM purchase WHERE id = $1`, [out[0].id]);
    expect(row).toEqual({ quantity_kg: '12500.125', cost: '1234.56', family_farmer_id: w.farmer, organization_id: null, consumed_on: '2025-04-02' });
    const [org] = await api.db.dataSource.query(`SELECT organization_id::text FROM purchase WHERE id = $1`, [out[1].id]);
    expect(org.organization_id).toBe(w.cooperative);

    // Every record gets its audit entry, in the same transaction.
    expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'recordPurchases' AND entity_id = ANY($1)`, [out.map((p: { id: string }) => p.id)])).toBe(5);
  });

  test('a PRODUCER records its own purchases', async () => {
    const data = await api.ok(RECORD, { input: [thirdParty({ purchasedOn: '2025-05-01' })] }, { role: 'PRODUCER', producerId: w.producerA });
    expect(data.recordPurchases[0]).toMatchObject({ producer: { id: w.producerA }, purchasedOn: '2025-05-01' });
  });

  test('the same externalId may be used by two producers (unique per producer)', async () => {
    const data = await api.ok(RECORD, {
      input: [thirdParty({ externalId: 'SHARED-1' }), thirdParty({ producerId: w.producerB, externalId: 'SHARED-1' })],
    });
    expect(data.recordPurchases.map((p: { producer: { id: string } }) => p.producer.id)).toEqual([w.producerA, w.producerB]);
  });

  test('an empty batch writes nothing and returns nothing', async () => {
    const before = await purchases();
    expect((await api.ok(RECORD, { input: [] })).recordPurchases).toEqual([]);
    expect(await purchases()).toBe(before);
  });

  test('3,000 purchases in one batch: one statement per referenced kind and multi-row INSERTs, not a statement per row', async () => {
    const input = Array.from({ length: 3000 }, (_, i) =>
      i % 2 === 0
        ? { producerId: w.producerB, purchasedOn: '2025-06-01', feedstock: 'SOYBEAN', quantityKg: String(i + 1), cost: `${i + 1}.25`,
            supplierKind: 'FAMILY_FARMER', familyFarmerId: w.farmer, originMunicipalityCode: w.recife, contractId: contractB, externalId: `BULK-${i}` }
        : { producerId: w.producerB, purchasedOn: '2025-06-02', feedstock: 'PALM', quantityKg: String(i + 1), cost: '10',
            supplierKind: 'COOPERATIVE', organizationId: w.cooperative, originMunicipalityCode: '2910800', externalId: `BULK-${i}` });
    const before = await purchases();
    api.statements.reset();
    const data = await api.ok(`mutation($input: [RecordPurchaseInput!]!) { recordPurchases(input: $input) { id } }`, { input });
    const statements = api.statements.count;
    expect(data.recordPurchases).toHaveLength(3000);
    expect(await purchases()).toBe(before + 3000);
    // BEGIN, producers, municipalities, farmers, organizations, contracts, externalIds, the month's period lock and
    // its check, 3 purchase INSERTs of 1,000, audit, COMMIT.
    expect(statements).toBe(14);
    const [sum] = await api.db.dataSource.query(`SELECT sum(quantity_kg)::text AS kg FROM purchase WHERE external_id LIKE 'BULK-%'`);
    expect(sum.kg).toBe(String((3000 * 3001) / 2));
  });

  test('one bad item at the end of a batch of 2,000 rejects all of it', async () => {
    const input = Array.from({ length: 2000 }, (_, i) => thirdParty({ externalId: `ALL-OR-NOTHING-${i}` }));
    input[1999] = thirdParty({ quantityKg: '0' });
    const before = await purchases();
    const res = await api.gql(RECORD, { input });
    expect(errorOf(res)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input[1999].quantityKg' });
    expect(await purchases()).toBe(before);
  });
});

describe('recordPurchases: bad input writes nothing', () => {
  type Case = [name: string, bad: () => Record<string, unknown>, expected: { code: string; field?: string; reason?: string }];
  const cases: Case[] = [
    ['unknown origin municipality', () => thirdParty({ originMunicipalityCode: '2611607' }), { code: 'BAD_USER_INPUT', field: 'input[1].originMunicipalityCode' }],
    ['zero quantity', () => thirdParty({ quantityKg: '0' }), { code: 'BAD_USER_INPUT', field: 'input[1].quantityKg' }],
    ['negative quantity', () => thirdParty({ quantityKg: '-10.5' }), { code: 'BAD_USER_INPUT', field: 'input[1].quantityKg' }],
    ['zero cost', () => thirdParty({ cost: '0.00' }), { code: 'BAD_USER_INPUT', field: 'input[1].cost' }],
    ['negative cost', () => thirdParty({ cost: -3 }), { code: 'BAD_USER_INPUT', field: 'input[1].cost' }],
    ['consumedOn before purchasedOn', () => thirdParty({ purchasedOn: '2025-03-10', consumedOn: '2025-03-09' }), { code: 'BAD_USER_INPUT', field: 'input[1].consumedOn' }],
    ['OWN_PRODUCTION with a cost', () => thirdParty({ supplierKind: 'OWN_PRODUCTION', supplierName: null, cost: '10' }), { code: 'BAD_USER_INPUT', field: 'input[1].cost' }],
    ['THIRD_PARTY without a cost', () => thirdParty({ cost: null }), { code: 'BAD_USER_INPUT', field: 'input[1].cost' }],
    ['FAMILY_FARMER without a cost', () => thirdParty({ supplierKind: 'FAMILY_FARMER', supplierName: null, familyFarmerId: w.farmer, cost: undefined }), { code: 'BAD_USER_INPUT', field: 'input[1].cost' }],
    ['FAMILY_FARMER without familyFarmerId', () => thirdParty({ supplierKind: 'FAMILY_FARMER', supplierName: null }), { code: 'BAD_USER_INPUT', field: 'input[1].familyFarmerId' }],
    ['FAMILY_FARMER with an organizationId too', () => thirdParty({ supplierKind: 'FAMILY_FARMER', familyFarmerId: w.farmer, organizationId: w.cooperative }), { code: 'BAD_USER_INPUT', field: 'input[1].organizationId' }],
    ['COOPERATIVE without organizationId', () => thirdParty({ supplierKind: 'COOPERATIVE' }), { code: 'BAD_USER_INPUT', field: 'input[1].organizationId' }],
    ['COOPERATIVE with a familyFarmerId too', () => thirdParty({ supplierKind: 'COOPERATIVE', organizationId: w.cooperative, familyFarmerId: w.farmer }), { code: 'BAD_USER_INPUT', field: 'input[1].familyFarmerId' }],
    ['COOPERATIVE naming an association', () => thirdParty({ supplierKind: 'COOPERATIVE', organizationId: w.association }), { code: 'BAD_USER_INPUT', field: 'input[1].supplierKind' }],
    ['ASSOCIATION naming a cooperative', () => thirdParty({ supplierKind: 'ASSOCIATION', organizationId: w.cooperative }), { code: 'BAD_USER_INPUT', field: 'input[1].supplierKind' }],
    ['THIRD_PARTY without supplierName', () => thirdParty({ supplierName: '  ' }), { code: 'BAD_USER_INPUT', field: 'input[1].supplierName' }],
    ['THIRD_PARTY with a familyFarmerId', () => thirdParty({ familyFarmerId: w.farmer }), { code: 'BAD_USER_INPUT', field: 'input[1].familyFarmerId' }],
    ['OWN_PRODUCTION with a supplierName', () => thirdParty({ supplierKind: 'OWN_PRODUCTION', cost: null }), { code: 'BAD_USER_INPUT', field: 'input[1].supplierName' }],
    ['OWN_PRODUCTION with an organizationId', () => thirdParty({ supplierKind: 'OWN_PRODUCTION', cost: null, supplierName: null, organizationId: w.cooperative }), { code: 'BAD_USER_INPUT', field: 'input[1].organizationId' }],
    ['a binary float for a Decimal', () => thirdParty({ quantityKg: 10.5 }), { code: 'BAD_USER_INPUT' }],
    ['unknown family farmer', () => thirdParty({ supplierKind: 'FAMILY_FARMER', supplierName: null, familyFarmerId: '999999' }), { code: 'NOT_FOUND' }],
    ['unknown organization', () => thirdParty({ supplierKind: 'COOPERATIVE', organizationId: '999999' }), { code: 'NOT_FOUND' }],
    ['unknown producer', () => thirdParty({ producerId: '999999' }), { code: 'NOT_FOUND' }],
    ['unknown contract', () => thirdParty({ contractId: '999999' }), { code: 'NOT_FOUND' }],
    ["another producer's contract", () => thirdParty({ contractId: contractB }), { code: 'NOT_FOUND' }],
    ['a contract id that is no id', () => thirdParty({ contractId: 'abc' }), { code: 'NOT_FOUND' }],
  ];

  test.each(cases)('%s', async (_name, bad, expected) => {
    const before = await purchases();
    const res = await api.gql(RECORD, { input: [thirdParty({ purchasedOn: '2025-03-20' }), bad()] });
    expect(errorOf(res)).toMatchObject(expected);
    expect(await purchases()).toBe(before);
  });

  test('externalId twice in one batch: CONFLICT DUPLICATE on the second', async () => {
    const before = await purchases();
    const res = await api.gql(RECORD, { input: [thirdParty({ externalId: 'DUP-B' }), thirdParty({ externalId: 'DUP-B' })] });
    expect(errorOf(res)).toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE', field: 'input[1].externalId' });
    expect(await purchases()).toBe(before);
  });

  test('externalId already recorded for the producer: CONFLICT DUPLICATE', async () => {
    await api.ok(RECORD, { input: [thirdParty({ externalId: 'TAKEN-1' })] });
    const before = await purchases();
    const res = await api.gql(RECORD, { input: [thirdParty({ externalId: 'FRESH-1' }), thirdParty({ externalId: 'TAKEN-1' })] });
    expect(errorOf(res)).toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE', field: 'input[1].externalId' });
    expect(await purchases()).toBe(before);
    expect(await api.count(`SELECT count(*) FROM purchase WHERE external_id = 'FRESH-1'`)).toBe(0);
  });
});

describe('recordPurchases and purchase(id): access', () => {
  test("a PRODUCER naming another producer gets NOT_FOUND (as for a missing one), and nothing is written", async () => {
    const before = await purchases();
    const res = await api.gql(RECORD, { input: [thirdParty(), thirdParty({ producerId: w.producerB })] }, { role: 'PRODUCER', producerId: w.producerA });
    expect(errorOf(res).code).toBe('NOT_FOUND');
    const missing = await api.gql(RECORD, { input: [thirdParty({ producerId: '999999' })] }, { role: 'PRODUCER', producerId: w.producerA });
    // Same code, same wording: a PRODUCER cannot tell another producer from a missing one.
    expect(errorOf(res).message).toBe(`Producer ${w.producerB} not found`);
    expect(errorOf(missing)).toMatchObject({ code: 'NOT_FOUND', message: 'Producer 999999 not found' });
    expect(await purchases()).toBe(before);
  });

  test('an AUDITOR may not record: FORBIDDEN, nothing written', async () => {
    const before = await purchases();
    const res = await api.gql(RECORD, { input: [thirdParty()] }, { role: 'AUDITOR' });
    expect(errorOf(res).code).toBe('FORBIDDEN');
    expect(await purchases()).toBe(before);
  });

  test("purchase(id): another producer's purchase is NOT_FOUND for a PRODUCER, visible to ADMIN and AUDITOR", async () => {
    const { recordPurchases: [p] } = await api.ok(RECORD, { input: [thirdParty({ producerId: w.producerB })] });
    const q = `query($id: ID!) { purchase(id: $id) { id producer { id } } }`;
    expect(errorOf(await api.gql(q, { id: p.id }, { role: 'PRODUCER', producerId: w.producerA })).code).toBe('NOT_FOUND');
    expect((await api.ok(q, { id: p.id }, { role: 'PRODUCER', producerId: w.producerB })).purchase).toEqual({ id: p.id, producer: { id: w.producerB } });
    expect((await api.ok(q, { id: p.id }, { role: 'AUDITOR' })).purchase.id).toBe(p.id);
    expect(errorOf(await api.gql(q, { id: '987654321' })).code).toBe('NOT_FOUND');
  });

  test("Purchase.contract resolves the producer's own contract for its PRODUCER", async () => {
    const { recordPurchases: [p] } = await api.ok(RECORD, { input: [thirdParty({ contractId: contractA })] });
    const data = await api.ok(`query($id: ID!) { purchase(id: $id) { contract { id producer { id } } } }`, { id: p.id }, { role: 'PRODUCER', producerId: w.producerA });
    expect(data.purchase.contract).toEqual({ id: contractA, producer: { id: w.producerA } });
  });
});
