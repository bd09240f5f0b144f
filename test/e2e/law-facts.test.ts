import { publishMemberMinimum } from '../support/fixtures';
import { createProducer, newCnpj, newCpf } from './records-b.fixtures';
import { startTestApi, TestApi } from '../support/api';

/**
 * The facts the law needs, as fields (docs/LAW.md): Producer.sealStanding(on), Producer.regime(year),
 * FamilyFarmer.eligibleOn(date), FamilyFarmingOrganization.familyFarmerShare and habilitation(on),
 * Purchase.familyFarmingOrigin — over real PostgreSQL, records made through the API.
 */
let api: TestApi;
let producer: string;
let farmer: string;
let coop59: string;
let coop60: string;
let association: string;
const RECIFE = '2611606';
const PORTO_ALEGRE = '4314902';

async function organization(kind: string, familyFarmerMembers: number, validUntil = '2026-12-31') {
  const data = await api.ok(`mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`, {
    input: {
      cnpj: newCnpj(), name: `${kind} ${familyFarmerMembers}`, kind, municipalityCode: RECIFE, members: 100, familyFarmerMembers,
      registrations: [{ kind: 'CAF', number: `CAFJ-${familyFarmerMembers}-${kind}`, validFrom: '2024-01-01', validUntil }],
    },
  });
  return data.createOrganization.id as string;
}

beforeAll(async () => {
  api = await startTestApi();
  await publishMemberMinimum(api);
  await api.ok(`mutation($m: [MunicipalityInput!]!) { upsertMunicipalities(input: $m) { ibgeCode } }`, {
    m: [{ ibgeCode: RECIFE, name: 'Recife', semiarid: false }, { ibgeCode: PORTO_ALEGRE, name: 'Porto Alegre', semiarid: false }],
  });
  producer = await createProducer(api, 'Biodiesel Fatos S.A.');
  farmer = (await api.ok(`mutation($input: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $input) { id } }`, {
    input: { cpf: newCpf(), name: 'José dos Santos', municipalityCode: RECIFE, registrations: [{ kind: 'DAP', number: 'DAP-001', validFrom: '2022-03-15', validUntil: '2025-03-14' }] },
  })).createFamilyFarmer.id;
  coop59 = await organization('COOPERATIVE', 59);
  coop60 = await organization('COOPERATIVE', 60);
  association = await organization('ASSOCIATION', 90);
});
afterAll(async () => { await api.close(); });

describe('FamilyFarmer.eligibleOn (Decreto 10.527/2020, art. 2º IV)', () => {
  test('a DAP valid until 2025-03-14: eligible on that day, not on the next', async () => {
    const q = `query($id: ID!) { familyFarmer(id: $id) { last: eligibleOn(date: "2025-03-14") after: eligibleOn(date: "2025-03-15") e: eligibility(on: "2025-03-15") { eligible findings { code } } } }`;
    const f = (await api.ok(q, { id: farmer })).familyFarmer;
    expect(f).toEqual({ last: true, after: false, e: { eligible: false, findings: [{ code: 'REGISTRATION_NOT_VALID' }] } });
  });
});

describe('FamilyFarmingOrganization.familyFarmerShare and habilitation (art. 4º VI and VII)', () => {
  const q = `query($id: ID!) { organization(id: $id) { familyFarmerShare habilitation(on: "2025-06-30") { on habilitated findings { code } } } }`;
  test('59 of 100 members: share 0.59, not habilitated with the minimum 0,6', async () => {
    expect((await api.ok(q, { id: coop59 })).organization).toEqual({
      familyFarmerShare: '0.59', habilitation: { on: '2025-06-30', habilitated: false, findings: [{ code: 'MEMBER_SHARE_BELOW_MINIMUM' }] },
    });
  });
  test('60 of 100: share 0.6, habilitated', async () => {
    expect((await api.ok(q, { id: coop60 })).organization).toEqual({ familyFarmerShare: '0.6', habilitation: { on: '2025-06-30', habilitated: true, findings: [] } });
  });
  test('after the registration expires: REGISTRATION_NOT_VALID', async () => {
    const h = (await api.ok(`query($id: ID!) { organization(id: $id) { habilitation(on: "2027-01-01") { habilitated findings { code } } } }`, { id: coop60 })).organization.habilitation;
    expect(h).toEqual({ habilitated: false, findings: [{ code: 'REGISTRATION_NOT_VALID' }] });
  });
});

describe('Purchase.familyFarmingOrigin (art. 6º §2º; Lei 11.116/2005, art. 5º §3º)', () => {
  test('farmer with a valid DAP, on the day it expires and the day after; cooperatives at 60% and 59%; an association; a third party', async () => {
    const lot = (over: Record<string, unknown>) => ({ producerId: producer, feedstock: 'SOYBEAN', quantityKg: '1000', cost: '2500', originMunicipalityCode: RECIFE, ...over });
    const input = [
      lot({ purchasedOn: '2025-03-14', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer }),
      lot({ purchasedOn: '2025-03-15', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer }),
      lot({ purchasedOn: '2025-04-01', supplierKind: 'COOPERATIVE', organizationId: coop60 }),
      lot({ purchasedOn: '2025-04-01', supplierKind: 'COOPERATIVE', organizationId: coop59 }),
      lot({ purchasedOn: '2025-04-01', supplierKind: 'ASSOCIATION', organizationId: association }),
      lot({ purchasedOn: '2025-04-01', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista Ltda' }),
    ];
    const out = (await api.ok(`mutation($input: [RecordPurchaseInput!]!) { recordPurchases(input: $input) { familyFarmingOrigin familyFarmingFindings { code } } }`, { input })).recordPurchases;
    expect(out.map((p: { familyFarmingOrigin: boolean; familyFarmingFindings: Array<{ code: string }> }) => [p.familyFarmingOrigin, p.familyFarmingFindings.map((f) => f.code)])).toEqual([
      [true, []],
      [false, ['SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID']],
      [true, []],
      [false, ['SUPPLIER_NOT_ELIGIBLE', 'MEMBER_SHARE_BELOW_MINIMUM']],
      [false, ['ASSOCIATION_NOT_COOPERATIVE']], // Interpretation: associations count for the Selo, not for II/III
      [false, ['NOT_FROM_FAMILY_FARMING']],
    ]);
  });
});

describe('Producer.sealStanding (art. 6º §2º; docs/LAW.md)', () => {
  test('the days around grant, renewal, suspension, reinstatement and cancellation', async () => {
    const grant = (await api.ok(`mutation($input: GrantSealInput!) { grantSeal(input: $input) { id } }`, { input: { producerId: producer, grantedOn: '2024-01-10', validUntil: '2025-01-09', act: 'Portaria MDA 1/2024' } })).grantSeal.id;
    const event = (kind: string, effectiveOn: string, extra: Record<string, unknown> = {}) =>
      api.ok(`mutation($input: SealEventInput!) { recordSealEvent(input: $input) { id } }`, { input: { grantId: grant, kind, effectiveOn, ...extra } });
    await event('RENEWED', '2025-01-05', { validUntil: '2027-01-09' });
    await event('SUSPENDED', '2025-06-01', { reason: 'audit' });
    await event('REINSTATED', '2025-07-01');
    await event('CANCELLED', '2026-03-01', { reason: 'fraud' });
    const days = ['2024-01-09', '2024-01-10', '2025-01-10', '2025-05-31', '2025-06-01', '2025-06-30', '2025-07-01', '2026-02-28', '2026-03-01'];
    const q = `query($id: ID!) { producer(id: $id) { ${days.map((d, i) => `d${i}: sealStanding(on: "${d}") { on regular grant { id } reason { code } }`).join(' ')} } }`;
    const p = (await api.ok(q, { id: producer })).producer;
    const got = days.map((_, i) => [p[`d${i}`].on, p[`d${i}`].regular, p[`d${i}`].reason.code, p[`d${i}`].grant?.id ?? null]);
    expect(got).toEqual([
      ['2024-01-09', false, 'NO_SEAL_GRANT', null],
      ['2024-01-10', true, 'SEAL_REGULAR', grant],
      ['2025-01-10', true, 'SEAL_REGULAR', grant], // renewed on 2025-01-05
      ['2025-05-31', true, 'SEAL_REGULAR', grant],
      ['2025-06-01', false, 'SEAL_SUSPENDED', grant],
      ['2025-06-30', false, 'SEAL_SUSPENDED', grant],
      ['2025-07-01', true, 'SEAL_REGULAR', grant],
      ['2026-02-28', true, 'SEAL_REGULAR', grant],
      ['2026-03-01', false, 'SEAL_CANCELLED', grant],
    ]);
  });

  /**
   * Art. 4º V (validity) and I (suspension); docs/LAW.md "Selo standing": a grant from 2025-01-01
   * to 2025-06-30, suspended from 2025-03-01 and never reinstated. Once the validity ends no grant
   * covers the day: expired, not suspended — in the standing and in programOverview, which reads
   * it on 31 December.
   */
  test('a suspended grant whose validity ended is SEAL_EXPIRED, and EXPIRED in programOverview', async () => {
    const other = await createProducer(api, 'Biodiesel Suspensa Ltda');
    const grant = (await api.ok(`mutation($input: GrantSealInput!) { grantSeal(input: $input) { id } }`, { input: { producerId: other, grantedOn: '2025-01-01', validUntil: '2025-06-30', act: 'Portaria MDA 2/2025' } })).grantSeal.id;
    await api.ok(`mutation($input: SealEventInput!) { recordSealEvent(input: $input) { id } }`, { input: { grantId: grant, kind: 'SUSPENDED', effectiveOn: '2025-03-01' } });
    const q = `query($id: ID!) { producer(id: $id) { a: sealStanding(on: "2025-06-30") { reason { code } } b: sealStanding(on: "2025-07-01") { reason { code } } c: sealStanding(on: "2025-12-31") { regular grant { id } reason { code } } } }`;
    expect((await api.ok(q, { id: other })).producer).toEqual({
      a: { reason: { code: 'SEAL_SUSPENDED' } }, b: { reason: { code: 'SEAL_EXPIRED' } }, c: { regular: false, grant: { id: grant }, reason: { code: 'SEAL_EXPIRED' } },
    });
    const o = (await api.ok(`{ programOverview(year: 2025) { producers { producer { id } standing } } }`, {}, { role: 'AUDITOR' })).programOverview;
    expect(o.producers.find((r: { producer: { id: string } }) => r.producer.id === other)).toEqual({ producer: { id: other }, standing: 'EXPIRED' });
  });
});

describe('Producer.regime (Lei 11.116/2005, art. 4º §§1º, 5º)', () => {
  test('no election: AD_VALOREM; an election for 2025 renews automatically for 2026', async () => {
    const other = await createProducer(api, 'Biodiesel Regime Ltda', PORTO_ALEGRE);
    const q = `query($id: ID!) { producer(id: $id) { y2024: regime(year: 2024) y2025: regime(year: 2025) y2026: regime(year: 2026) } }`;
    expect((await api.ok(q, { id: other })).producer).toEqual({ y2024: 'AD_VALOREM', y2025: 'AD_VALOREM', y2026: 'AD_VALOREM' });
    await api.ok(`mutation($input: ElectRegimeInput!) { electRegime(input: $input) { effectiveYear } }`, { input: { producerId: other, regime: 'SPECIAL_PER_M3', electedOn: '2024-11-29' } });
    expect((await api.ok(q, { id: other })).producer).toEqual({ y2024: 'AD_VALOREM', y2025: 'SPECIAL_PER_M3', y2026: 'SPECIAL_PER_M3' });
  });

  test('a year outside 2000 to 9999 is BAD_USER_INPUT naming year and its bounds, as taxPeriod and sealCompliance', async () => {
    const other = await createProducer(api, 'Biodiesel Anos Ltda', PORTO_ALEGRE);
    const q = `query($id: ID!, $y: Int!) { producer(id: $id) { regime(year: $y) } }`;
    const TAX = `query($id: ID!, $y: Int!) { taxPeriod(producerId: $id, year: $y, month: 1) { totalDue } }`;
    const SELO = `query($id: ID!, $y: Int!) { sealCompliance(producerId: $id, year: $y) { status } }`;
    for (const y of [0, -2147483648, 2147483647, 1999, 10000]) {
      for (const query of [q, TAX, SELO]) {
        const res = await api.gql(query, { id: other, y });
        expect([y, res.errors?.[0].message, res.errors?.[0].extensions]).toEqual([y, 'year must be a calendar year from 2000 to 9999', expect.objectContaining({ code: 'BAD_USER_INPUT', field: 'year' })]);
      }
      const pt = await api.gql(q, { id: other, y }, undefined, { 'accept-language': 'pt-BR' });
      expect(pt.errors?.[0].message).toBe('year deve ser um ano do calendário de 2000 a 9999');
    }
    // The bounds themselves are years: no election, AD_VALOREM (art. 3º).
    for (const y of [2000, 9999]) expect((await api.ok(q, { id: other, y })).producer).toEqual({ regime: 'AD_VALOREM' });
  });
});
