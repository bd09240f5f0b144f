import { startTestApi, TestApi } from '../support/api';
import { errorOf, RecordsWorld, setUpWorld } from './records-b.fixtures';

let api: TestApi;
let w: RecordsWorld;

beforeAll(async () => {
  api = await startTestApi();
  w = await setUpWorld(api);
});
afterAll(async () => { await api.close(); });

const CREATE = `mutation($input: CreateContractInput!) {
  createContract(input: $input) {
    id signedOn validFrom validUntil feedstock quantityKg pricePerKg technicalAssistance producer { id legalName }
    familyFarmer { id name } organization { id kind }
  }
}`;

const contracts = () => api.count('SELECT count(*) FROM contract');

function withFarmer(overrides: Record<string, unknown> = {}) {
  return {
    producerId: w.producerA, familyFarmerId: w.farmer, signedOn: '2025-01-15', validFrom: '2025-02-01', validUntil: '2025-12-31',
    feedstock: 'SOYBEAN', quantityKg: '50000.5', pricePerKg: '2.3456', technicalAssistance: true, ...overrides,
  };
}

describe('createContract', () => {
  test('with a family farmer: written and read back exactly', async () => {
    const before = await contracts();
    const { createContract: c } = await api.ok(CREATE, { input: withFarmer() });
    expect(c).toEqual({
      id: expect.any(String), signedOn: '2025-01-15', validFrom: '2025-02-01', validUntil: '2025-12-31', feedstock: 'SOYBEAN',
      quantityKg: '50000.500', pricePerKg: '2.3456', technicalAssistance: true, producer: { id: w.producerA, legalName: 'Biodiesel Alfa S.A.' },
      familyFarmer: { id: w.farmer, name: 'Maria da Silva' }, organization: null,
    });
    expect(await contracts()).toBe(before + 1);
    const [row] = await api.db.dataSource.query(`SELECT family_farmer_id::text, organization_id, quantity_kg::text, price_per_kg::text FROM contract WHERE id = $1`, [c.id]);
    expect(row).toEqual({ family_farmer_id: w.farmer, organization_id: null, quantity_kg: '50000.5', price_per_kg: '2.3456' });
    const read = await api.ok(`query($id: ID!) { contract(id: $id) { id pricePerKg validUntil } }`, { id: c.id }, { role: 'AUDITOR' });
    expect(read.contract).toEqual({ id: c.id, pricePerKg: '2.3456', validUntil: '2025-12-31' });
    expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'createContract' AND entity_id = $1`, [c.id])).toBe(1);
  });

  test('with an organization, by the PRODUCER itself', async () => {
    const input = withFarmer({ familyFarmerId: null, organizationId: w.cooperative, technicalAssistance: false, quantityKg: 1200, pricePerKg: '3' });
    const { createContract: c } = await api.ok(CREATE, { input }, { role: 'PRODUCER', producerId: w.producerA });
    expect(c).toMatchObject({ quantityKg: '1200.000', pricePerKg: '3.00', technicalAssistance: false, familyFarmer: null, organization: { id: w.cooperative, kind: 'COOPERATIVE' } });
    const [row] = await api.db.dataSource.query(`SELECT family_farmer_id, organization_id::text FROM contract WHERE id = $1`, [c.id]);
    expect(row).toEqual({ family_farmer_id: null, organization_id: w.cooperative });
  });

  type Case = [name: string, input: () => Record<string, unknown>, expected: { code: string; field?: string }];
  const cases: Case[] = [
    ['both counterparties', () => withFarmer({ organizationId: w.cooperative }), { code: 'BAD_USER_INPUT', field: 'input.organizationId' }],
    ['neither counterparty', () => withFarmer({ familyFarmerId: null }), { code: 'BAD_USER_INPUT', field: 'input.familyFarmerId' }],
    ['validUntil before validFrom', () => withFarmer({ validFrom: '2025-06-01', validUntil: '2025-05-31' }), { code: 'BAD_USER_INPUT', field: 'input.validUntil' }],
    ['zero quantity', () => withFarmer({ quantityKg: '0' }), { code: 'BAD_USER_INPUT', field: 'input.quantityKg' }],
    ['negative quantity', () => withFarmer({ quantityKg: '-1' }), { code: 'BAD_USER_INPUT', field: 'input.quantityKg' }],
    ['zero price', () => withFarmer({ pricePerKg: 0 }), { code: 'BAD_USER_INPUT', field: 'input.pricePerKg' }],
    ['negative price', () => withFarmer({ pricePerKg: '-2.5' }), { code: 'BAD_USER_INPUT', field: 'input.pricePerKg' }],
    ['an impossible date', () => withFarmer({ validUntil: '2025-02-30' }), { code: 'BAD_USER_INPUT' }],
    ['unknown family farmer', () => withFarmer({ familyFarmerId: '999999' }), { code: 'NOT_FOUND' }],
    ['unknown organization', () => withFarmer({ familyFarmerId: null, organizationId: '999999' }), { code: 'NOT_FOUND' }],
    ['unknown producer', () => withFarmer({ producerId: '999999' }), { code: 'NOT_FOUND' }],
  ];
  test.each(cases)('%s: rejected, nothing written', async (_name, input, expected) => {
    const before = await contracts();
    expect(errorOf(await api.gql(CREATE, { input: input() }))).toMatchObject(expected);
    expect(await contracts()).toBe(before);
  });

  test("a PRODUCER contracting for another producer: NOT_FOUND; an AUDITOR: FORBIDDEN; nothing written", async () => {
    const before = await contracts();
    expect(errorOf(await api.gql(CREATE, { input: withFarmer({ producerId: w.producerB }) }, { role: 'PRODUCER', producerId: w.producerA })))
      .toMatchObject({ code: 'NOT_FOUND', message: `Producer ${w.producerB} not found` });
    expect(errorOf(await api.gql(CREATE, { input: withFarmer() }, { role: 'AUDITOR' })).code).toBe('FORBIDDEN');
    expect(await contracts()).toBe(before);
  });
});

describe('contract(id) and Producer.contracts', () => {
  test("another producer's contract is NOT_FOUND for a PRODUCER, like a missing one", async () => {
    const { createContract: c } = await api.ok(CREATE, { input: withFarmer({ producerId: w.producerB }) });
    const q = `query($id: ID!) { contract(id: $id) { id producer { id } } }`;
    expect(errorOf(await api.gql(q, { id: c.id }, { role: 'PRODUCER', producerId: w.producerA }))).toMatchObject({ code: 'NOT_FOUND', message: `Contract ${c.id} not found` });
    expect(errorOf(await api.gql(q, { id: '888888' }, { role: 'PRODUCER', producerId: w.producerA }))).toMatchObject({ code: 'NOT_FOUND', message: 'Contract 888888 not found' });
    expect((await api.ok(q, { id: c.id }, { role: 'PRODUCER', producerId: w.producerB })).contract).toEqual({ id: c.id, producer: { id: w.producerB } });
  });

  test('Producer.contracts pages by id with totalCount', async () => {
    const producer = w.producerB;
    const existing = await api.count('SELECT count(*) FROM contract WHERE producer_id = $1', [producer]);
    for (let i = 0; i < 5; i++) await api.ok(CREATE, { input: withFarmer({ producerId: producer, quantityKg: String(100 + i) }) });
    const total = existing + 5;
    const q = `query($id: ID!, $after: String) { producer(id: $id) { contracts(first: 3, after: $after) {
      totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { id } } } } }`;
    const p1 = (await api.ok(q, { id: producer })).producer.contracts;
    expect(p1.totalCount).toBe(total);
    expect(p1.edges).toHaveLength(3);
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, endCursor: p1.edges[2].cursor });
    const p2 = (await api.ok(q, { id: producer, after: p1.pageInfo.endCursor })).producer.contracts;
    expect(p2.edges).toHaveLength(total - 3);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const ids = [...p1.edges, ...p2.edges].map((e: { node: { id: string } }) => e.node.id);
    const stored = (await api.db.dataSource.query('SELECT id::text FROM contract WHERE producer_id = $1 ORDER BY id', [producer])).map((r: { id: string }) => r.id);
    expect(ids).toEqual(stored);
    // Producer A's PRODUCER cannot see producer B at all.
    expect((await api.ok(`query($id: ID!) { producer(id: $id) { id } }`, { id: producer }, { role: 'PRODUCER', producerId: w.producerA })).producer).toBeNull();
  });
});
