import { startTestApi, TestApi } from '../support/api';

/**
 * docs/LAW.md over real PostgreSQL: the value in force on D as known on K is, among the versions
 * with publishedOn ≤ K covering D, the one PUBLISHED last — not the one recorded last; two
 * versions published the same day are ordered by recording (the later recorded wins). A
 * correction is a new version; nothing is overwritten. (Decreto 10.527/2020, art. 5º §1º: the
 * shipped GENERAL amounts R$ 26,41 / 121,59; the acts below are test acts.)
 */

let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api.close(); });

const PUBLISH = `mutation($i: PublishCoefficientRuleInput!) { publishCoefficientRule(input: $i) { id } }`;
const RULES = `query($on: Date!, $k: Date) { coefficientRules(on: $on, asKnownOn: $k) { id category pisPerM3 cofinsPerM3 publishedOn } }`;
const publish = async (pisPerM3: string, publishedOn: string) => (await api.ok(PUBLISH, { i: {
  category: 'GENERAL', coefficient: '0.8', pisPerM3, cofinsPerM3: '110.64', validFrom: '2025-09-01', validUntil: '2025-09-30', publishedOn,
  legalBasis: `Decreto 10.527/2020, art. 5º §1º, as amended (test act of ${publishedOn})`,
} })).publishCoefficientRule.id as string;
const general = async (asKnownOn: string) => (await api.ok(RULES, { on: '2025-09-15', k: asKnownOn })).coefficientRules.find((r: any) => r.category === 'GENERAL');

test('same-day publications: the later recorded wins; a version recorded later but published earlier does not', async () => {
  const first = await publish('24.03', '2025-08-20');
  const sameDay = await publish('24.04', '2025-08-20'); //   a same-day correction, recorded after
  const backdated = await publish('24.05', '2025-08-10'); // recorded last, published before both
  expect(await general('2025-08-09')).toMatchObject({ pisPerM3: '26.41', publishedOn: '2020-10-23' });
  expect(await general('2025-08-10')).toMatchObject({ id: backdated, pisPerM3: '24.05' });
  expect(await general('2025-08-19')).toMatchObject({ id: backdated, pisPerM3: '24.05' });
  expect(await general('2025-08-20')).toMatchObject({ id: sameDay, pisPerM3: '24.04' });
  expect(await general('2026-12-01')).toMatchObject({ id: sameDay, pisPerM3: '24.04' });
  // Nothing overwritten: the three versions and the shipped one are all stored.
  expect(await api.count(`SELECT count(*) FROM law_parameter_version WHERE parameter = 'coefficient-rule' AND scope = 'GENERAL' AND id = ANY($1::bigint[])`, [[first, sameDay, backdated]])).toBe(3);
  // Outside the versions' validity the shipped amounts stand.
  expect((await api.ok(RULES, { on: '2025-10-01', k: '2026-12-01' })).coefficientRules.find((r: any) => r.category === 'GENERAL').pisPerM3).toBe('26.41');
});
