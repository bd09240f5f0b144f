import { cpf as cpfLib } from 'cpf-cnpj-validator';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, errorOf, loadMunicipalities, newCnpj, newCpf } from './records-a.fixtures';

let api: TestApi;
let producerId: string;

beforeAll(async () => {
  api = await startTestApi();
  await loadMunicipalities(api);
  producerId = await createProducer(api, 'Biodiesel Alfa S.A.');
});
afterAll(async () => { await api.close(); });

const FARMER_FIELDS = `id cpf name municipality { ibgeCode name state region semiarid priorityRegion } registrations { kind number validFrom validUntil }`;
const CREATE_FARMER = `mutation($input: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $input) { ${FARMER_FIELDS} } }`;
const ORG_FIELDS = `id cnpj name kind members familyFarmerMembers municipality { ibgeCode name } registrations { kind number validFrom validUntil }`;
const CREATE_ORG = `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { ${ORG_FIELDS} } }`;

/** Rows of every table a farmer or organization writes, and the audit log. */
const written = async () => ({
  farmers: await api.count('SELECT count(*) FROM family_farmer'),
  farmerRegistrations: await api.count('SELECT count(*) FROM family_farmer_registration'),
  organizations: await api.count('SELECT count(*) FROM family_farming_organization'),
  organizationRegistrations: await api.count('SELECT count(*) FROM organization_registration'),
  audit: await api.count('SELECT count(*) FROM audit_entry'),
});

const farmer = (overrides: Record<string, unknown> = {}) => ({
  cpf: newCpf(),
  name: 'Maria da Silva',
  municipalityCode: '2910800',
  registrations: [
    { kind: 'DAP', number: 'BA0123.456.789', validFrom: '2021-03-01', validUntil: '2023-02-28' },
    { kind: 'CAF', number: 'CAF-2910800-0001', validFrom: '2023-03-01', validUntil: '2026-02-28' },
  ],
  ...overrides,
});

const organization = (overrides: Record<string, unknown> = {}) => ({
  cnpj: newCnpj(),
  name: 'Cooperativa do Sertão',
  kind: 'COOPERATIVE',
  municipalityCode: '2611606',
  registrations: [{ kind: 'CAF', number: 'CAFJ-2611606-77', validFrom: '2024-01-01', validUntil: '2026-12-31' }],
  members: 120,
  familyFarmerMembers: 84,
  ...overrides,
});

describe('createFamilyFarmer', () => {
  test('written with its registrations, read back by every role, audited', async () => {
    const before = await written();
    const cpf = newCpf();
    const masked = cpfLib.format(cpf); // 000.000.000-00: the CPF scalar takes it masked and stores 11 digits
    const { createFamilyFarmer: f } = await api.ok(CREATE_FARMER, { input: farmer({ cpf: masked }) });
    const expected = {
      id: expect.any(String),
      cpf,
      name: 'Maria da Silva',
      municipality: { ibgeCode: '2910800', name: 'Feira de Santana', state: 'BA', region: 'NORTHEAST', semiarid: true, priorityRegion: true },
      registrations: [
        { kind: 'DAP', number: 'BA0123.456.789', validFrom: '2021-03-01', validUntil: '2023-02-28' },
        { kind: 'CAF', number: 'CAF-2910800-0001', validFrom: '2023-03-01', validUntil: '2026-02-28' },
      ],
    };
    expect(f).toEqual(expected);
    for (const role of ['ADMIN', 'AUDITOR'] as const) {
      expect((await api.ok(`query($id: ID!) { familyFarmer(id: $id) { ${FARMER_FIELDS} } }`, { id: f.id }, { role })).familyFarmer).toEqual(expected);
    }
    const asProducer = await api.ok(`query($id: ID!) { familyFarmer(id: $id) { ${FARMER_FIELDS} } }`, { id: f.id }, { role: 'PRODUCER', producerId });
    expect(asProducer.familyFarmer).toEqual(expected);
    const rows = await api.db.dataSource.query(`SELECT kind, number, valid_from::text, valid_until::text FROM family_farmer_registration WHERE family_farmer_id = $1 ORDER BY valid_from`, [f.id]);
    expect(rows).toEqual([
      { kind: 'DAP', number: 'BA0123.456.789', valid_from: '2021-03-01', valid_until: '2023-02-28' },
      { kind: 'CAF', number: 'CAF-2910800-0001', valid_from: '2023-03-01', valid_until: '2026-02-28' },
    ]);
    expect(await written()).toEqual({ ...before, farmers: before.farmers + 1, farmerRegistrations: before.farmerRegistrations + 2, audit: before.audit + 1 });
    const [audit] = await api.db.dataSource.query(`SELECT entity, entity_id, role, after->>'cpf' AS cpf FROM audit_entry WHERE operation = 'createFamilyFarmer' AND entity_id = $1`, [f.id]);
    expect(audit).toEqual({ entity: 'FamilyFarmer', entity_id: f.id, role: 'ADMIN', cpf });
  });

  test('a PRODUCER registers the farmers it buys from; with no registration at all', async () => {
    const { createFamilyFarmer: f } = await api.ok(CREATE_FARMER, { input: farmer({ registrations: [], name: '  João Souza ' }) }, { role: 'PRODUCER', producerId });
    expect(f).toMatchObject({ name: 'João Souza', registrations: [] });
  });

  test('a validUntil on the day of validFrom is a one-day registration', async () => {
    const { createFamilyFarmer: f } = await api.ok(CREATE_FARMER, {
      input: farmer({ registrations: [{ kind: 'CAF', number: 'X1', validFrom: '2025-05-05', validUntil: '2025-05-05' }] }),
    });
    expect(f.registrations).toEqual([{ kind: 'CAF', number: 'X1', validFrom: '2025-05-05', validUntil: '2025-05-05' }]);
  });

  test('the same CPF, bare or masked: CONFLICT/DUPLICATE on input.cpf, nothing written', async () => {
    const cpf = newCpf();
    await api.ok(CREATE_FARMER, { input: farmer({ cpf }) });
    const before = await written();
    expect(errorOf(await api.gql(CREATE_FARMER, { input: farmer({ cpf: cpfLib.format(cpf) }) }))).toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE', field: 'input.cpf' });
    expect(await written()).toEqual(before);
  });

  type Case = [name: string, input: () => Record<string, unknown>, expected: { code: string; field?: string }];
  const cases: Case[] = [
    ['unknown municipality', () => farmer({ municipalityCode: '2611699' }), { code: 'BAD_USER_INPUT', field: 'input.municipalityCode' }],
    ['a registration ending before it starts', () => farmer({
      registrations: [
        { kind: 'CAF', number: 'OK-1', validFrom: '2024-01-01', validUntil: '2026-12-31' },
        { kind: 'DAP', number: 'BAD-2', validFrom: '2022-06-01', validUntil: '2022-05-31' },
      ],
    }), { code: 'BAD_USER_INPUT', field: 'input.registrations[1].validUntil' }],
    ['a blank registration number', () => farmer({ registrations: [{ kind: 'CAF', number: '  ', validFrom: '2024-01-01', validUntil: '2024-12-31' }] }),
      { code: 'BAD_USER_INPUT', field: 'input.registrations[0].number' }],
    ['a registration kind that is neither DAP nor CAF', () => farmer({ registrations: [{ kind: 'NIS', number: '1', validFrom: '2024-01-01', validUntil: '2024-12-31' }] }),
      { code: 'BAD_USER_INPUT' }],
    ['an impossible date', () => farmer({ registrations: [{ kind: 'CAF', number: '1', validFrom: '2025-02-30', validUntil: '2025-12-31' }] }), { code: 'BAD_USER_INPUT' }],
    ['a blank name', () => farmer({ name: ' ' }), { code: 'BAD_USER_INPUT', field: 'input.name' }],
    ['a CPF with a wrong check digit', () => farmer({ cpf: '52998224720' }), { code: 'BAD_USER_INPUT' }],
    ['a CPF of repeated digits', () => farmer({ cpf: '11111111111' }), { code: 'BAD_USER_INPUT' }],
  ];
  test.each(cases)('%s: rejected, nothing written', async (_name, input, expected) => {
    const before = await written();
    expect(errorOf(await api.gql(CREATE_FARMER, { input: input() }))).toMatchObject(expected);
    expect(await written()).toEqual(before);
  });

  test('an AUDITOR writes nothing: FORBIDDEN', async () => {
    const before = await written();
    expect(errorOf(await api.gql(CREATE_FARMER, { input: farmer() }, { role: 'AUDITOR' })).code).toBe('FORBIDDEN');
    expect(await written()).toEqual(before);
  });

  test('an unknown farmer id is null', async () => {
    expect((await api.ok(`{ familyFarmer(id: "987654321") { id } }`)).familyFarmer).toBeNull();
  });
});

describe('createOrganization', () => {
  test('a cooperative with its DAP/CAF jurídica, read back, audited', async () => {
    const before = await written();
    const input = organization();
    const { createOrganization: o } = await api.ok(CREATE_ORG, { input }, { role: 'PRODUCER', producerId });
    const expected = {
      id: expect.any(String), cnpj: input.cnpj, name: 'Cooperativa do Sertão', kind: 'COOPERATIVE', members: 120, familyFarmerMembers: 84,
      municipality: { ibgeCode: '2611606', name: 'Recife' },
      registrations: [{ kind: 'CAF', number: 'CAFJ-2611606-77', validFrom: '2024-01-01', validUntil: '2026-12-31' }],
    };
    expect(o).toEqual(expected);
    expect((await api.ok(`query($id: ID!) { organization(id: $id) { ${ORG_FIELDS} } }`, { id: o.id }, { role: 'AUDITOR' })).organization).toEqual(expected);
    const [row] = await api.db.dataSource.query(`SELECT cnpj, kind, members, family_farmer_members FROM family_farming_organization WHERE id = $1`, [o.id]);
    expect(row).toEqual({ cnpj: input.cnpj, kind: 'COOPERATIVE', members: 120, family_farmer_members: 84 });
    expect(await written()).toEqual({ ...before, organizations: before.organizations + 1, organizationRegistrations: before.organizationRegistrations + 1, audit: before.audit + 1 });
  });

  test('an association with no family-farmer member, and one whose members are all family farmers', async () => {
    const a = await api.ok(CREATE_ORG, { input: organization({ kind: 'ASSOCIATION', familyFarmerMembers: 0, registrations: [] }) });
    expect(a.createOrganization).toMatchObject({ kind: 'ASSOCIATION', members: 120, familyFarmerMembers: 0, registrations: [] });
    const b = await api.ok(CREATE_ORG, { input: organization({ members: 7, familyFarmerMembers: 7 }) });
    expect(b.createOrganization).toMatchObject({ members: 7, familyFarmerMembers: 7 });
  });

  test('the same CNPJ: CONFLICT/DUPLICATE on input.cnpj, nothing written', async () => {
    const cnpj = newCnpj();
    await api.ok(CREATE_ORG, { input: organization({ cnpj }) });
    const before = await written();
    const masked = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
    expect(errorOf(await api.gql(CREATE_ORG, { input: organization({ cnpj: masked }) }))).toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE', field: 'input.cnpj' });
    expect(await written()).toEqual(before);
  });

  type Case = [name: string, input: () => Record<string, unknown>, expected: { code: string; field?: string }];
  const cases: Case[] = [
    ['no members', () => organization({ members: 0, familyFarmerMembers: 0 }), { code: 'BAD_USER_INPUT', field: 'input.members' }],
    ['negative members', () => organization({ members: -5, familyFarmerMembers: 0 }), { code: 'BAD_USER_INPUT', field: 'input.members' }],
    ['negative family-farmer members', () => organization({ familyFarmerMembers: -1 }), { code: 'BAD_USER_INPUT', field: 'input.familyFarmerMembers' }],
    ['more family-farmer members than members', () => organization({ members: 10, familyFarmerMembers: 11 }), { code: 'BAD_USER_INPUT', field: 'input.familyFarmerMembers' }],
    ['unknown municipality', () => organization({ municipalityCode: '9999999' }), { code: 'BAD_USER_INPUT', field: 'input.municipalityCode' }],
    ['a registration ending before it starts', () => organization({ registrations: [{ kind: 'DAP', number: 'J1', validFrom: '2020-01-02', validUntil: '2020-01-01' }] }),
      { code: 'BAD_USER_INPUT', field: 'input.registrations[0].validUntil' }],
    ['a kind that is not an organization kind', () => organization({ kind: 'UNION' }), { code: 'BAD_USER_INPUT' }],
    ['a CNPJ with a wrong check digit', () => organization({ cnpj: '11222333000180' }), { code: 'BAD_USER_INPUT' }],
  ];
  test.each(cases)('%s: rejected, nothing written', async (_name, input, expected) => {
    const before = await written();
    expect(errorOf(await api.gql(CREATE_ORG, { input: input() }))).toMatchObject(expected);
    expect(await written()).toEqual(before);
  });

  test('an AUDITOR writes nothing: FORBIDDEN', async () => {
    const before = await written();
    expect(errorOf(await api.gql(CREATE_ORG, { input: organization() }, { role: 'AUDITOR' })).code).toBe('FORBIDDEN');
    expect(await written()).toEqual(before);
  });
});

describe('familyFarmers connection', () => {
  const PAGE = `query($first: Int, $after: String) {
    familyFarmers(first: $first, after: $after) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { id name municipality { ibgeCode } registrations { number } } }
    }
  }`;

  test('45 farmers in pages of 20: 20, 20, 5, in id order, each once, with cursors and totalCount', async () => {
    await api.db.dataSource.query('DELETE FROM family_farmer_registration');
    await api.db.dataSource.query('DELETE FROM family_farmer');
    const ids: string[] = [];
    for (let i = 1; i <= 45; i++) {
      const { createFamilyFarmer: f } = await api.ok(CREATE_FARMER, {
        input: farmer({ name: `Agricultor ${i}`, registrations: [{ kind: 'CAF', number: `CAF-${i}`, validFrom: '2024-01-01', validUntil: '2026-12-31' }] }),
      });
      ids.push(f.id);
    }
    const seen: string[] = [];
    let after: string | null = null;
    const sizes: number[] = [];
    for (let page = 0; page < 3; page++) {
      const data: Record<string, any> = await api.ok(PAGE, { first: 20, after }, { role: 'AUDITOR' });
      const c = data.familyFarmers;
      expect(c.totalCount).toBe(45);
      sizes.push(c.edges.length);
      expect(c.pageInfo.hasNextPage).toBe(page < 2);
      expect(c.pageInfo.hasPreviousPage).toBe(page > 0);
      expect(c.pageInfo.startCursor).toBe(c.edges[0].cursor);
      expect(c.pageInfo.endCursor).toBe(c.edges[c.edges.length - 1].cursor);
      for (const e of c.edges) {
        seen.push(e.node.id);
        const i = ids.indexOf(e.node.id) + 1;
        expect(e.node).toEqual({ id: ids[i - 1], name: `Agricultor ${i}`, municipality: { ibgeCode: '2910800' }, registrations: [{ number: `CAF-${i}` }] });
      }
      after = c.pageInfo.endCursor;
    }
    expect(sizes).toEqual([20, 20, 5]);
    expect(seen).toEqual(ids);
    // Default page size is 20.
    const { familyFarmers: d } = await api.ok(PAGE, {});
    expect(d.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(ids.slice(0, 20));
    // After the last cursor: an empty last page.
    const { familyFarmers: end } = await api.ok(PAGE, { first: 20, after });
    expect(end).toMatchObject({ totalCount: 45, edges: [], pageInfo: { hasNextPage: false, startCursor: null, endCursor: null } });
  });

  test('first beyond 100, below 0, or a cursor not from this API: BAD_USER_INPUT', async () => {
    expect(errorOf(await api.gql(PAGE, { first: 101 }))).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
    expect(errorOf(await api.gql(PAGE, { first: -1 }))).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
    // first: 0: no edges; the 45 farmers all follow.
    expect((await api.ok(PAGE, { first: 0 })).familyFarmers).toMatchObject({ totalCount: 45, edges: [], pageInfo: { hasNextPage: true, startCursor: null, endCursor: null } });
    expect(errorOf(await api.gql(PAGE, { first: 10, after: 'not-a-cursor' }))).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    expect((await api.ok(PAGE, { first: 100 })).familyFarmers.edges.length).toBe(45);
  });

  test('nested municipality and registrations cost the same number of SQL statements for 2 farmers and 40', async () => {
    const statementsFor = async (first: number) => {
      api.statements.reset();
      const { familyFarmers: c } = await api.ok(PAGE, { first });
      expect(c.edges.length).toBe(first);
      return api.statements.count;
    };
    const few = await statementsFor(2);
    const many = await statementsFor(40);
    expect(many).toBe(few);
    // count, page, municipalities, registrations
    expect(few).toBeLessThanOrEqual(4);
  });
});
