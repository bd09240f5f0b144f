import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, FEIRA, grantSeal, PORTO_ALEGRE, RECIFE, upsertMunicipalities, publishMemberMinimum } from '../support/fixtures';
import { contract, organization, purchases } from '../support/selo-year';
import { createTestDatabase } from '../support/database';

/**
 * An organization's members as a history of declarations (Decreto 10.527/2020, art. 4º VI): a
 * cooperative of 100 members, 70 of them family farmers (70% ≥ the seeded minimum 0,6), declares
 * on 2025-07-01 that 55 are (55% < 60%). Habilitation on a date uses the counts in force that day:
 * habilitated until 2025-06-30, not from 2025-07-01 — in Organization.habilitation,
 * Purchase.familyFarmingOrigin, the tax month, sealCompliance and Purchase.selo alike.
 */

let api: TestApi;
let producer: string;
let coop: string;
const ids: Record<string, string> = {};

const HISTORY = `query($id: ID!) { organization(id: $id) { members familyFarmerMembers membershipHistory { declaredOn members familyFarmerMembers }
  h1: habilitation(on: "2025-06-30") { habilitated findings { code } } h2: habilitation(on: "2025-07-01") { habilitated findings { code } }
  h3: habilitation(on: "2025-07-02") { habilitated } } }`;

beforeAll(async () => {
  api = await startTestApi();
  await publishMemberMinimum(api);
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE, FEIRA]);
  producer = await createProducer(api, 'Usina da Cooperativa', RECIFE);
  await electSpecialRegime(api, producer, '2024-11-04');
  await grantSeal(api, producer);
  coop = await organization(api, 'COOPERATIVE', 100, 70, [['CAF', '2024-01-01', '2027-12-31']]);
  const c = await contract(api, producer, { org: coop, validUntil: '2025-12-31' });
  [ids.june, ids.july] = await purchases(api, producer, [
    { on: '2025-06-30', cost: '1000', org: coop, contract: c, origin: PORTO_ALEGRE },
    { on: '2025-07-01', cost: '1000', org: coop, contract: c, origin: PORTO_ALEGRE },
  ]);
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, {
    i: ['2025-06-30', '2025-07-01'].map((soldOn) => ({ producerId: producer, soldOn, volumeM3: '1', revenue: '5000' })),
  });
}, 60_000);
afterAll(async () => { await api?.close(); });

test('createOrganization records the counts as an undated declaration; updateOrganization appends one of its day', async () => {
  const before = (await api.ok(HISTORY, { id: coop })).organization;
  expect(before.membershipHistory).toEqual([{ declaredOn: null, members: 100, familyFarmerMembers: 70 }]);
  const updated = await api.ok(`mutation($id: ID!) { updateOrganization(id: $id, input: { members: 100, familyFarmerMembers: 55, membersDeclaredOn: "2025-07-01" }) {
    id members familyFarmerMembers } }`, { id: coop });
  expect(updated.updateOrganization).toEqual({ id: coop, members: 100, familyFarmerMembers: 55 });
  const after = (await api.ok(HISTORY, { id: coop })).organization;
  expect(after).toEqual({
    members: 100, familyFarmerMembers: 55,
    membershipHistory: [{ declaredOn: null, members: 100, familyFarmerMembers: 70 }, { declaredOn: '2025-07-01', members: 100, familyFarmerMembers: 55 }],
    // The day before the declaration: 70%; the day of and after: 55% < 60% (art. 4º VI).
    h1: { habilitated: true, findings: [] }, h2: { habilitated: false, findings: [{ code: 'MEMBER_SHARE_BELOW_MINIMUM' }] }, h3: { habilitated: false },
  });
  expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'updateOrganization' AND entity_id = $1`, [coop])).toBe(1);
});

test('Purchase.familyFarmingOrigin, the tax month, sealCompliance and Purchase.selo use the counts declared for the purchase date', async () => {
  const origin = async (id: string) => (await api.ok(`query($id: ID!) { purchase(id: $id) { familyFarmingOrigin selo { counts findings { code } } } }`, { id })).purchase;
  expect(await origin(ids.june)).toEqual({ familyFarmingOrigin: true, selo: { counts: true, findings: [] } });
  expect(await origin(ids.july)).toEqual({ familyFarmingOrigin: false, selo: { counts: false, findings: [{ code: 'SUPPLIER_NOT_ELIGIBLE' }, { code: 'MEMBER_SHARE_BELOW_MINIMUM' }] } });

  const mix = async (month: number) => (await api.ok(`query($p: ID!, $m: Int!) { taxPeriod(producerId: $p, year: 2025, month: $m) { segments { mix { category } } } }`,
    { p: producer, m: month })).taxPeriod.segments.flatMap((s: { mix: Array<{ category: string }> }) => s.mix.map((m) => m.category));
  // Soybean from Porto Alegre (Sul): family farming (art. 6º II) with the cooperative habilitated, else GENERAL.
  expect([await mix(6), await mix(7)]).toEqual([['FAMILY_FARMING'], ['GENERAL']]);

  const excluded = (await api.ok(`query($p: ID!) { sealCompliance(producerId: $p, year: 2025) { excluded { id findings { code } } } }`, { p: producer })).sealCompliance.excluded;
  expect(excluded).toEqual([{ id: ids.july, findings: [{ code: 'SUPPLIER_NOT_ELIGIBLE' }, { code: 'MEMBER_SHARE_BELOW_MINIMUM' }] }]);
});

test('a declaration dated before the latest changes the days it covers only; the row keeps the latest counts', async () => {
  await api.ok(`mutation($id: ID!) { updateOrganization(id: $id, input: { members: 100, familyFarmerMembers: 50, membersDeclaredOn: "2025-06-30" }) { id } }`, { id: coop });
  const o = (await api.ok(HISTORY, { id: coop })).organization;
  expect([o.members, o.familyFarmerMembers, o.membershipHistory.map((d: { declaredOn: string | null }) => d.declaredOn)]).toEqual([100, 55, [null, '2025-06-30', '2025-07-01']]);
  expect([o.h1.habilitated, o.h2.habilitated]).toEqual([false, false]);
  const june = (await api.ok(`query($id: ID!) { organization(id: $id) { habilitation(on: "2025-06-29") { habilitated } } }`, { id: coop })).organization;
  expect(june.habilitation.habilitated).toBe(true);
});

test("sealPlan's hypothetical acquisition via the cooperative reads the counts declared for its date", async () => {
  const share = async (on: string) => (await api.ok(`query($p: ID!, $h: [HypotheticalSpendingInput!]) { sealPlan(producerId: $p, year: 2025, hypothetical: $h) {
    hypothetical { organizationShare } } }`, { p: producer, h: [{ kind: 'FAMILY_FARMING_ACQUISITION', amount: '100', on, municipalityCode: PORTO_ALEGRE, product: 'SOYBEAN', organizationId: coop }] }))
    .sealPlan.hypothetical[0].organizationShare;
  // 70 of 100 until the declaration of 2025-06-30 (50), then 55 from 2025-07-01.
  expect([await share('2025-06-29'), await share('2025-06-30'), await share('2025-07-01')]).toEqual(['0.7', '0.5', '0.55']);
});

test('updateOrganization refuses counts given alone, a date without counts, an unknown organization; name and seat overwrite', async () => {
  const code = async (input: string, id = coop) => (await api.gql(`mutation($id: ID!) { updateOrganization(id: $id, input: ${input}) { id } }`, { id })).errors?.[0]?.extensions;
  expect(await code('{ members: 90 }')).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.familyFarmerMembers' });
  expect(await code('{ members: 90, familyFarmerMembers: 91 }')).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.familyFarmerMembers' });
  expect(await code('{ membersDeclaredOn: "2025-01-01" }')).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.membersDeclaredOn' });
  expect(await code('{ name: "X" }', '999999')).toMatchObject({ code: 'NOT_FOUND' });
  const renamed = await api.ok(`mutation($id: ID!) { updateOrganization(id: $id, input: { name: "Cooperativa Nova", municipalityCode: "${RECIFE}" }) {
    name members municipality { ibgeCode } membershipHistory { declaredOn } } }`, { id: coop });
  expect(renamed.updateOrganization).toEqual({ name: 'Cooperativa Nova', members: 100, municipality: { ibgeCode: RECIFE }, membershipHistory: [{ declaredOn: null }, { declaredOn: '2025-06-30' }, { declaredOn: '2025-07-01' }] });
});

test('the migration turns the counts of each organization into an undated declaration; an organization inserted later gets one from its row', async () => {
  const db = await createTestDatabase(2);
  try {
    const last = async () => (await db.dataSource.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`))[0].name;
    while (await last() !== 'OrganizationMembership1765910000000') await db.dataSource.undoLastMigration({ transaction: 'each' });
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    const q = (sql: string) => db.dataSource.query(sql);
    await q(`INSERT INTO municipality (ibge_code, name, state, region) VALUES ('2910800', 'Feira de Santana', 'BA', 'NORTHEAST')`);
    await q(`INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members) VALUES ('04252011000110', 'Coop', 'COOPERATIVE', '2910800', 120, 90)`);
    await db.dataSource.runMigrations({ transaction: 'each' });
    await q(`INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members) VALUES ('60701190000104', 'Assoc', 'ASSOCIATION', '2910800', 40, 40)`);
    expect(await q(`SELECT o.cnpj, m.declared_on, m.members, m.family_farmer_members FROM organization_membership m JOIN family_farming_organization o ON o.id = m.organization_id ORDER BY o.id`)).toEqual([
      { cnpj: '04252011000110', declared_on: null, members: 120, family_farmer_members: 90 },
      { cnpj: '60701190000104', declared_on: null, members: 40, family_farmer_members: 40 },
    ]);
  } finally {
    await db.drop();
  }
});
