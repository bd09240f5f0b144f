import { Decimal } from '../../src/law/decimal';
import { NoRuleInForceError } from '../../src/law/errors';
import { LawBook } from '../../src/law/law-book';
import { minimumShareTimeline } from '../../src/services/facts/parameter-timeline';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, FEIRA, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { organization, purchases } from '../support/selo-year';

/**
 * Whether a cooperative's lot came from family farming (Decreto 10.527/2020, art. 6º §2º; art. 4º
 * VI: a family-farmer member share at or above the minimum in force on the purchase date, a dated
 * parameter). The minimum is read as known on `asKnownOn`, and where none is in force every path
 * says so with NO_RULE_IN_FORCE — never a silent "not habilitated".
 */

let api: TestApi;
let producer: string;
let coop70: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, FEIRA]);
  producer = await createProducer(api, 'Usina Cooperada', RECIFE);
  await electSpecialRegime(api, producer, '2018-11-05');
  // 70 family farmers among 100 members, a CAF jurídica valid 2018–2027.
  coop70 = await organization(api, 'COOPERATIVE', 100, 70, [['CAF', '2018-01-01', '2027-12-31']]);
  [ids.y2025, ids.y2019] = await purchases(api, producer, [
    { on: '2025-03-10', cost: '3000', org: coop70 },
    { on: '2019-05-10', cost: '2000', org: coop70 },
  ]);
  // A minimum of 75% from 2025, published on 2026-06-01 (test act): as known before it, 60% (seeded).
  await api.ok(`mutation { publishLawParameter(input: { parameter: "cooperative-min-family-farmer-share", values: [{ name: "share", value: "0.75" }],
    validFrom: "2025-01-01", publishedOn: "2026-06-01", legalBasis: "Portaria de teste, art. 1º" }) { id } }`);
}, 60_000);
afterAll(async () => { await api?.close(); });

const ORIGIN = `query($id: ID!, $k: Date) { purchase(id: $id) { familyFarmingOrigin(asKnownOn: $k) familyFarmingFindings(asKnownOn: $k) { code } } }`;

test('Purchase.familyFarmingOrigin and familyFarmingFindings read the minimum share as known on asKnownOn, like Organization.habilitation', async () => {
  expect((await api.ok(ORIGIN, { id: ids.y2025, k: '2026-05-31' })).purchase).toEqual({ familyFarmingOrigin: true, familyFarmingFindings: [] });
  expect((await api.ok(ORIGIN, { id: ids.y2025, k: '2026-06-01' })).purchase).toEqual({
    familyFarmingOrigin: false, familyFarmingFindings: [{ code: 'SUPPLIER_NOT_ELIGIBLE' }, { code: 'MEMBER_SHARE_BELOW_MINIMUM' }],
  });
  // Omitted: today, after the 75% was published.
  expect((await api.ok(ORIGIN, { id: ids.y2025 })).purchase.familyFarmingOrigin).toBe(false);
  const habilitation = async (k: string) => (await api.ok(`query($id: ID!, $k: Date) { organization(id: $id) { habilitation(on: "2025-03-10", asKnownOn: $k) { habilitated } } }`,
    { id: coop70, k })).organization.habilitation.habilitated;
  expect([await habilitation('2026-05-31'), await habilitation('2026-06-01')]).toEqual([true, false]);
});

test('no minimum share in force on the purchase date (before 2020-10-23): NO_RULE_IN_FORCE on every path, not "not habilitated"', async () => {
  const codes = (res: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => (res.errors ?? []).map((e) => e.extensions?.code);
  expect(codes(await api.gql(`query($id: ID!) { organization(id: $id) { habilitation(on: "2019-05-10") { habilitated } } }`, { id: coop70 }))).toEqual(['NO_RULE_IN_FORCE']);
  expect(codes(await api.gql(`query($id: ID!) { purchase(id: $id) { familyFarmingOrigin } }`, { id: ids.y2019 }))).toEqual(['NO_RULE_IN_FORCE']);
  expect(codes(await api.gql(`query($id: ID!) { purchase(id: $id) { familyFarmingFindings { code } } }`, { id: ids.y2019 }))).toEqual(['NO_RULE_IN_FORCE']);
  expect(codes(await api.gql(`query($p: ID!) { taxPeriod(producerId: $p, year: 2019, month: 5) { pisDue } }`, { p: producer }))).toEqual(['NO_RULE_IN_FORCE']);
});

test("the minimum share's timeline: a day with none in force is a gap; any other error of the law book is thrown, not taken for a gap", () => {
  const version = (share: string) => ({ value: new Decimal(share), validFrom: '2020-10-23', validUntil: null, publishedOn: '2020-10-23', legalBasis: 'test' });
  const versions = [{ validFrom: '2020-10-23', validUntil: '2024-12-31', publishedOn: '2020-10-23' }, { validFrom: '2026-01-01', validUntil: null, publishedOn: '2025-06-01' }];
  const book = (fail: (on: string) => Error | null) => ({
    versions: () => versions,
    cooperativeMinFamilyFarmerShare: (on: string) => {
      const error = fail(on);
      if (error) throw error;
      return version(on < '2025-01-01' ? '0.6' : '0.7');
    },
  }) as unknown as LawBook;
  const gaps = minimumShareTimeline(book((on) => (on >= '2025-01-01' && on < '2026-01-01' ? new NoRuleInForceError({ key: 'law.noVersionInForce' } as never) : null)), '2026-12-01');
  expect([gaps.starts, gaps.values]).toEqual([['2020-10-23', '2025-01-01', '2026-01-01'], ['0.6', null, '0.7']]);
  expect(() => minimumShareTimeline(book((on) => (on === '2026-01-01' ? new TypeError('not a law book') : null)), '2026-12-01')).toThrow('not a law book');
});
