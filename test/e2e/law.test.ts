import { prepareDatabase } from '../../src/database/prepare';
import { SHIPPED_LAW } from '../../src/law/shipped-law';
import { LawService, loadShippedLaw } from '../../src/services/law.service';
import { startTestApi, TestApi } from '../support/api';

let api: TestApi;

const RECIFE = '2611606'; //        Pernambuco, Northeast
const PORTO_ALEGRE = '4314902'; //  Rio Grande do Sul, South
const MONTES_CLAROS = '3143302'; // Minas Gerais, Southeast, in the Semiárido
const BELEM = '1501402'; //         Pará, North

beforeAll(async () => {
  api = await startTestApi();
  await api.ok(`mutation($input: [MunicipalityInput!]!) { upsertMunicipalities(input: $input) { ibgeCode } }`, {
    input: [
      { ibgeCode: RECIFE, name: 'Recife', semiarid: false },
      { ibgeCode: PORTO_ALEGRE, name: 'Porto Alegre', semiarid: false },
      { ibgeCode: MONTES_CLAROS, name: 'Montes Claros', semiarid: true },
      { ibgeCode: BELEM, name: 'Belém', semiarid: false },
    ],
  });
});
afterAll(async () => { await api.close(); });

const RULES = `query($on: Date!, $asKnownOn: Date) {
  coefficientRules(on: $on, asKnownOn: $asKnownOn) { id category coefficient pisPerM3 cofinsPerM3 validFrom validUntil publishedOn legalBasis note }
}`;
const RATE = `query($q: RateQuestion!) {
  rate(question: $q) { category coefficient pisPerM3 cofinsPerM3 legalBasis reasons { code message legalBasis } rule { id publishedOn } }
}`;
const PUBLISH = `mutation($input: PublishCoefficientRuleInput!) {
  publishCoefficientRule(input: $input) { id category coefficient pisPerM3 cofinsPerM3 validFrom validUntil publishedOn legalBasis }
}`;
const PUBLISH_PARAMETER = `mutation($input: PublishLawParameterInput!) {
  publishLawParameter(input: $input) { id parameter scope values { name value } validFrom validUntil publishedOn legalBasis note shipped }
}`;

type Rule = { id: string; category: string; coefficient: string; pisPerM3: string; cofinsPerM3: string; validFrom: string; validUntil: string | null; publishedOn: string; legalBasis: string; note: string | null };
const rules = async (on: string, asKnownOn?: string) => (await api.ok<{ coefficientRules: Rule[] }>(RULES, { on, asKnownOn })).coefficientRules;
const figures = (rs: Rule[]) => Object.fromEntries(rs.map((r) => [r.category, [r.coefficient, r.pisPerM3, r.cofinsPerM3]]));
const versions = () => api.count('SELECT count(*) FROM law_parameter_version');
const audits = () => api.count('SELECT count(*) FROM audit_entry');

describe('coefficientRules (Decreto 10.527/2020, arts. 5º and 6º)', () => {
  test('exactly the four rules in force, with the published figures of arts. 5º §1º and 6º §1º', async () => {
    const rs = await rules('2025-06-01');
    expect(rs).toHaveLength(4);
    expect(new Set(rs.map((r) => r.id)).size).toBe(4);
    expect(figures(rs)).toEqual({
      GENERAL: ['0.7802', '26.41', '121.59'], //                   art. 5º §1º
      CASTOR_PALM_PRIORITY_REGION: ['0.8129', '22.48', '103.51'], // art. 6º §1º I (not 553,19 × 0,1871 = 103,5018)
      FAMILY_FARMING: ['0.9135', '10.39', '47.85'], //             art. 6º §1º II
      FAMILY_FARMING_PRIORITY_REGION: ['1', '0.00', '0.00'], //           art. 6º §1º III
    });
    expect(rs.every((r) => r.publishedOn === '2020-10-23' && r.validFrom === '2020-10-23' && r.validUntil === null)).toBe(true);
    expect(rs.find((r) => r.category === 'GENERAL')!.legalBasis).toBe('Decreto 10.527/2020, art. 5º, caput and §1º');
  });

  test('asKnownOn: June 2026 as known on 2026-05-20 is general (window then ended 05-31); as known today it is zero (art. 5º §2º as extended)', async () => {
    expect(figures(await rules('2026-06-15', '2026-05-20')).GENERAL).toEqual(['0.7802', '26.41', '121.59']);
    const now = await rules('2026-06-15');
    expect(Object.values(figures(now))).toEqual([['1', '0.00', '0.00'], ['1', '0.00', '0.00'], ['1', '0.00', '0.00'], ['1', '0.00', '0.00']]);
    expect(now[0]).toMatchObject({ validFrom: '2026-04-07', validUntil: '2026-07-31', publishedOn: '2026-05-31' });
    expect(now[0].note).toMatch(/not in our sources/);
  });

  test('the window\'s first and last days (art. 5º §§2º–4º)', async () => {
    expect(figures(await rules('2026-04-06')).GENERAL).toEqual(['0.7802', '26.41', '121.59']);
    expect(figures(await rules('2026-04-07')).FAMILY_FARMING).toEqual(['1', '0.00', '0.00']);
    expect(figures(await rules('2026-07-31')).CASTOR_PALM_PRIORITY_REGION).toEqual(['1', '0.00', '0.00']);
    expect(figures(await rules('2026-08-01')).CASTOR_PALM_PRIORITY_REGION).toEqual(['0.8129', '22.48', '103.51']);
  });

  test('from 2027 NO_RULE_IN_FORCE naming EC 132/2023; before Decreto 7.768/2012 (2012-06-28) too', async () => {
    const end = await api.gql(RULES, { on: '2027-01-01' });
    expect(end.errors?.[0].extensions?.code).toBe('NO_RULE_IN_FORCE');
    expect(end.errors?.[0].message).toContain('EC 132/2023');
    const before = await api.gql(RULES, { on: '2012-06-27' });
    expect(before.errors?.[0].extensions?.code).toBe('NO_RULE_IN_FORCE');
  });

  test('readable by every role (the law is public to the API\'s users; the access rules, README "Tokens")', async () => {
    expect((await api.ok(RULES, { on: '2025-06-01' }, { role: 'AUDITOR' })).coefficientRules).toHaveLength(4);
  });
});

describe('rate(question)', () => {
  const q = (over: Record<string, unknown>) => ({ on: '2025-06-10', feedstock: 'SOYBEAN', originMunicipalityCode: RECIFE, familyFarming: true, sealRegular: true, ...over });
  const rate = async (over: Record<string, unknown>) => (await api.ok(RATE, { q: q(over) })).rate;

  test('art. 6º III: family farming in the Northeast with the Selo → 0,00', async () => {
    expect(await rate({})).toMatchObject({ category: 'FAMILY_FARMING_PRIORITY_REGION', coefficient: '1', pisPerM3: '0.00', cofinsPerM3: '0.00', reasons: [] });
  });

  test('art. 6º III, "no Semiárido": a Semiárido municipality of Minas Gerais counts as priority region', async () => {
    expect((await rate({ originMunicipalityCode: MONTES_CLAROS })).category).toBe('FAMILY_FARMING_PRIORITY_REGION');
  });

  test('art. 6º II: family farming in the South → 10,39 / 47,85, reason OUTSIDE_PRIORITY_REGION', async () => {
    const r = await rate({ originMunicipalityCode: PORTO_ALEGRE });
    expect(r).toMatchObject({ category: 'FAMILY_FARMING', pisPerM3: '10.39', cofinsPerM3: '47.85' });
    expect(r.reasons.map((f: { code: string }) => f.code)).toEqual(['OUTSIDE_PRIORITY_REGION']);
    expect(r.legalBasis).toBe('Decreto 10.527/2020, art. 6º, II, §1º, II and §2º');
  });

  test('art. 6º §2º: without the Selo, castor bean from family farming in the North falls back to I → 22,48 / 103,51', async () => {
    const r = await rate({ feedstock: 'CASTOR_BEAN', originMunicipalityCode: BELEM, sealRegular: false });
    expect(r).toMatchObject({ category: 'CASTOR_PALM_PRIORITY_REGION', pisPerM3: '22.48', cofinsPerM3: '103.51' });
    expect(r.reasons.map((f: { code: string }) => f.code)).toEqual(['SEAL_NOT_REGULAR']);
  });

  test('art. 6º §2º: without the Selo, soybean from family farming falls back to GENERAL → 26,41 / 121,59', async () => {
    const r = await rate({ sealRegular: false });
    expect(r).toMatchObject({ category: 'GENERAL', pisPerM3: '26.41', cofinsPerM3: '121.59' });
    expect(r.reasons.map((f: { code: string }) => f.code)).toEqual(['SEAL_NOT_REGULAR', 'NOT_CASTOR_OR_PALM']);
  });

  test('art. 6º §5º: imported biodiesel → GENERAL', async () => {
    const r = await rate({ imported: true });
    expect(r).toMatchObject({ category: 'GENERAL', pisPerM3: '26.41' });
    expect(r.reasons.map((f: { code: string }) => f.code)).toEqual(['IMPORTED_BIODIESEL']);
  });

  test('in the zero window the amounts are 0 and the legal basis names art. 5º §§2º–4º; as known before the extension, June is general', async () => {
    const r = await rate({ on: '2026-06-10', originMunicipalityCode: PORTO_ALEGRE, familyFarming: false });
    expect(r).toMatchObject({ category: 'GENERAL', coefficient: '1', pisPerM3: '0.00', cofinsPerM3: '0.00' });
    expect(r.legalBasis).toContain('art. 5º §§2º–4º');
    const before = await rate({ on: '2026-06-10', originMunicipalityCode: PORTO_ALEGRE, familyFarming: false, asKnownOn: '2026-05-20' });
    expect(before).toMatchObject({ pisPerM3: '26.41', cofinsPerM3: '121.59' });
  });

  test('an unknown origin municipality → BAD_USER_INPUT on question.originMunicipalityCode', async () => {
    const res = await api.gql(RATE, { q: q({ originMunicipalityCode: '2999999' }) });
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'question.originMunicipalityCode' });
  });

  test('2027 → NO_RULE_IN_FORCE', async () => {
    expect((await api.gql(RATE, { q: q({ on: '2027-02-01' }) })).errors?.[0].extensions?.code).toBe('NO_RULE_IN_FORCE');
  });
});

describe('publishCoefficientRule (ADMIN): adds a version, never overwrites', () => {
  const input = {
    category: 'GENERAL', coefficient: '0.8', pisPerM3: '24.03', cofinsPerM3: '110.64',
    validFrom: '2025-03-01', validUntil: '2025-03-31', publishedOn: '2025-02-15', legalBasis: 'Decreto hipotético 99.999/2025, art. 1º',
  };

  test('non-ADMIN roles are FORBIDDEN and nothing is written', async () => {
    const [v0, a0] = [await versions(), await audits()];
    for (const as of [{ role: 'AUDITOR' as const }, { role: 'PRODUCER' as const, producerId: '1' }]) {
      const res = await api.gql(PUBLISH, { input }, as);
      expect(res.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      const other = await api.gql(PUBLISH_PARAMETER, { input: { parameter: 'cooperative-min-family-farmer-share', values: [{ name: 'share', value: '0.7' }], validFrom: '2026-01-01', publishedOn: '2026-01-01', legalBasis: 'x' } }, as);
      expect(other.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    expect([await versions(), await audits()]).toEqual([v0, a0]);
  });

  test.each([
    [{ coefficient: '1.5' }, 'input.coefficient'],
    [{ pisPerM3: '-1' }, 'input.pisPerM3'],
    [{ legalBasis: '  ' }, 'input.legalBasis'],
    [{ validUntil: '2025-02-01' }, 'input.validUntil'],
  ])('bad input %j → BAD_USER_INPUT on %s, nothing written', async (over, field) => {
    const v0 = await versions();
    const res = await api.gql(PUBLISH, { input: { ...input, ...over } });
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(await versions()).toBe(v0);
  });

  test('an ADMIN publication is one new row, audited, in force as known from its publication date; the shipped version stays', async () => {
    const [v0, a0] = [await versions(), await audits()];
    const published = (await api.ok(PUBLISH, { input })).publishCoefficientRule;
    expect(published).toMatchObject({ category: 'GENERAL', coefficient: '0.8', pisPerM3: '24.03', cofinsPerM3: '110.64', validUntil: '2025-03-31', publishedOn: '2025-02-15' });
    expect([await versions(), await audits()]).toEqual([v0 + 1, a0 + 1]);
    expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'publishCoefficientRule' AND entity_id = $1`, [published.id])).toBe(1);

    const known = await rules('2025-03-10', '2025-02-15');
    expect(known.find((r) => r.category === 'GENERAL')).toMatchObject({ id: published.id, pisPerM3: '24.03' });
    expect(figures(known).FAMILY_FARMING).toEqual(['0.9135', '10.39', '47.85']);
    expect(figures(await rules('2025-03-10', '2025-02-14')).GENERAL).toEqual(['0.7802', '26.41', '121.59']);
    expect(figures(await rules('2025-04-01', '2025-02-15')).GENERAL).toEqual(['0.7802', '26.41', '121.59']);
    // the shipped row is untouched
    expect(await api.count(`SELECT count(*) FROM law_parameter_version WHERE shipped AND parameter = 'coefficient-rule' AND scope = 'GENERAL' AND value->>'pisPerM3' = '26.41' AND valid_from = '2020-10-23'`)).toBe(1);
    // and rate() uses the new version at once
    const r = (await api.ok(RATE, { q: { on: '2025-03-10', feedstock: 'SOYBEAN', originMunicipalityCode: PORTO_ALEGRE, familyFarming: false, sealRegular: true, asKnownOn: '2025-03-01' } })).rate;
    expect(r).toMatchObject({ category: 'GENERAL', pisPerM3: '24.03', rule: { id: published.id } });
  });
});

describe('publishLawParameter (ADMIN): Selo parameters and other figures', () => {
  const base = { parameter: 'cooperative-min-family-farmer-share', values: [{ name: 'share', value: '0.7' }], validFrom: '2026-01-01', publishedOn: '2026-02-01', legalBasis: 'Portaria MDA hipotética 1/2026, art. 2º', note: 'Confirms the value marked for confirmation' };

  test.each([
    [{ parameter: 'nope' }, 'input.parameter'],
    [{ scope: 'SOUTH' }, 'input.scope'],
    [{ parameter: 'minimum-spending-share', scope: 'MARS' }, 'input.scope'],
    [{ values: [{ name: 'share', value: '60' }] }, 'input.values[0].value'],
    [{ values: [{ name: 'shares', value: '0.6' }] }, 'input.values[0].name'],
    [{ values: [] }, 'input.values'],
    [{ validFrom: '2026-03-01', validUntil: '2026-02-01' }, 'input.validUntil'],
  ])('bad input %j → BAD_USER_INPUT on %s, nothing written', async (over, field) => {
    const v0 = await versions();
    const res = await api.gql(PUBLISH_PARAMETER, { input: { ...base, ...over } });
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(await versions()).toBe(v0);
  });

  test('a confirmed value is a new version; the listing shows shipped and published versions', async () => {
    const v = (await api.ok(PUBLISH_PARAMETER, { input: base })).publishLawParameter;
    expect(v).toMatchObject({ parameter: 'cooperative-min-family-farmer-share', scope: null, values: [{ name: 'share', value: '0.7' }], shipped: false, note: base.note });
    const listed = (await api.ok(`{ lawParameterVersions(parameter: "cooperative-min-family-farmer-share") { id shipped values { value } } }`)).lawParameterVersions;
    expect(listed.map((x: { shipped: boolean; values: Array<{ value: string }> }) => [x.shipped, x.values[0].value])).toEqual([[false, '0.7']]); // none shipped (art. 4º VI: no source publishes it)
  });

  test('the minimum spending share of a region can be published with its scope', async () => {
    const v = (await api.ok(PUBLISH_PARAMETER, { input: { ...base, parameter: 'minimum-spending-share', scope: 'SOUTH', values: [{ name: 'share', value: '0.35' }] } })).publishLawParameter;
    expect(v).toMatchObject({ scope: 'SOUTH', values: [{ name: 'share', value: '0.35' }] });
  });
});

describe('start-up loading of the shipped law (docs/LAW.md)', () => {
  test('every shipped version is stored once; a restart loads nothing twice and keeps ADMIN publications', async () => {
    const shipped = () => api.count('SELECT count(*) FROM law_parameter_version WHERE shipped');
    expect(await shipped()).toBe(SHIPPED_LAW.length);
    const admin = await api.count('SELECT count(*) FROM law_parameter_version WHERE NOT shipped');
    expect(admin).toBeGreaterThan(0); // the publications of the tests above
    const before = await api.db.dataSource.query('SELECT id, key, value, published_on FROM law_parameter_version ORDER BY id');
    await prepareDatabase(api.db.dataSource);
    await prepareDatabase(api.db.dataSource);
    expect(await loadShippedLaw(api.db.dataSource)).toBe(0);
    expect(await api.db.dataSource.query('SELECT id, key, value, published_on FROM law_parameter_version ORDER BY id')).toEqual(before);
    expect(await shipped()).toBe(SHIPPED_LAW.length);
    // the ADMIN's rule still answers after the restart
    expect(figures(await rules('2025-03-10', '2025-02-15')).GENERAL).toEqual(['0.8', '24.03', '110.64']);
  });
});

describe('versions are never updated or deleted (docs/LAW.md)', () => {
  test('the database refuses UPDATE, DELETE and TRUNCATE of law_parameter_version', async () => {
    const ds = api.db.dataSource;
    await expect(ds.query(`UPDATE law_parameter_version SET value = '{"share":"0.5"}' WHERE parameter = 'cooperative-min-family-farmer-share'`)).rejects.toThrow(/append-only/);
    await expect(ds.query(`DELETE FROM law_parameter_version WHERE shipped`)).rejects.toThrow(/append-only/);
    await expect(ds.query(`TRUNCATE law_parameter_version`)).rejects.toThrow(/append-only/);
    expect(await api.count(`SELECT count(*) FROM law_parameter_version WHERE shipped`)).toBe(SHIPPED_LAW.length);
  });
});

test('another instance of the service sees a publication at once (its cached law book is re-read when a version is added)', async () => {
  const other = new LawService(api.db.dataSource);
  const before = (await other.lawBook()).cooperativeMinFamilyFarmerShare('2030-01-01', '2030-01-01')?.value.toString();
  await api.ok(PUBLISH_PARAMETER, { input: { parameter: 'cooperative-min-family-farmer-share', values: [{ name: 'share', value: '0.65' }], validFrom: '2030-01-01', publishedOn: '2029-12-01', legalBasis: 'Portaria MDA hipotética 2/2029, art. 1º' } });
  expect(before).not.toBe('0.65');
  expect((await other.lawBook()).cooperativeMinFamilyFarmerShare('2030-01-01', '2030-01-01')?.value.toString()).toBe('0.65');
});

test('before 2020-10-23 the shipped figures of Decreto 7.768/2012 (secondary source) answer, each naming the revoked decree; before 2012-06-28 nothing', async () => {
  const rs = await rules('2015-01-01');
  expect(figures(rs)).toEqual({
    GENERAL: ['0.7802', '26.41', '121.59'], CASTOR_PALM_PRIORITY_REGION: ['0.8129', '22.48', '103.51'],
    FAMILY_FARMING: ['0.9135', '10.39', '47.85'], FAMILY_FARMING_PRIORITY_REGION: ['1', '0.00', '0.00'],
  });
  expect(rs.every((r) => r.legalBasis.startsWith('Decreto 7.768/2012 (revoked by Decreto 10.527/2020, art. 9º III)'))).toBe(true);
  expect(rs.every((r) => r.validFrom === '2012-06-28' && r.validUntil === '2020-10-22')).toBe(true);
  // and from 2020-10-23 the shipped versions of Decreto 10.527/2020 answer
  expect((await rules('2020-10-23')).every((r) => r.publishedOn === '2020-10-23')).toBe(true);
  expect((await api.gql(RULES, { on: '2012-06-27' })).errors?.[0].extensions?.code).toBe('NO_RULE_IN_FORCE');
});
