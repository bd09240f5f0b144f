import { Decimal } from '../../src/law/decimal';
import { LawBook } from '../../src/law/law-book';
import { minimumShareTimeline } from '../../src/services/facts/parameter-timeline';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, FEIRA, RECIFE, upsertMunicipalities, publishMemberMinimum } from '../support/fixtures';
import { organization, purchases } from '../support/selo-year';

/**
 * Whether a cooperative's lot came from family farming (Decreto 10.527/2020, art. 6º §2º; art. 4º
 * VI: a family-farmer member share at or above the minimum in force on the purchase date, a dated
 * parameter). The minimum is read as known on `asKnownOn`; where none is published the DAP/CAF
 * jurídica decides, with MEMBER_MINIMUM_NOT_PUBLISHED.
 */

let api: TestApi;
let producer: string;
let coop70: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  api = await startTestApi();
  await publishMemberMinimum(api);
  await upsertMunicipalities(api, [RECIFE, FEIRA]);
  producer = await createProducer(api, 'Usina Cooperada', RECIFE);
  await electSpecialRegime(api, producer, '2018-11-05');
  // 70 family farmers among 100 members, a CAF jurídica valid 2018–2027.
  coop70 = await organization(api, 'COOPERATIVE', 100, 70, [['CAF', '2018-01-01', '2027-12-31']]);
  [ids.y2025, ids.y2019] = await purchases(api, producer, [
    { on: '2025-03-10', cost: '3000', org: coop70 },
    { on: '2019-05-10', cost: '2000', org: coop70 },
  ]);
  // A minimum of 75% from 2025, published on 2026-06-01 (test act): as known before it, 60% (published above).
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

test('no minimum published for the purchase date (2019, before any): the DAP/CAF jurídica decides on every path, with MEMBER_MINIMUM_NOT_PUBLISHED', async () => {
  const h = (await api.ok(`query($id: ID!) { organization(id: $id) { habilitation(on: "2019-05-10") { habilitated findings { code } } } }`, { id: coop70 })).organization.habilitation;
  expect(h).toEqual({ habilitated: true, findings: [{ code: 'MEMBER_MINIMUM_NOT_PUBLISHED' }] });
  expect((await api.ok(ORIGIN, { id: ids.y2019 })).purchase).toEqual({ familyFarmingOrigin: true, familyFarmingFindings: [] });
  const month = await api.gql(`query($p: ID!) { taxPeriod(producerId: $p, year: 2019, month: 5) { segments { mix { category } } } }`, { p: producer });
  expect(month.errors).toBeUndefined();
});

test("the minimum share's timeline: a day with none published is a run of null", () => {
  const version = (share: string) => ({ value: new Decimal(share), validFrom: '2020-10-23', validUntil: null, publishedOn: '2020-10-23', legalBasis: 'test' });
  const versions = [{ validFrom: '2020-10-23', validUntil: '2024-12-31', publishedOn: '2020-10-23' }, { validFrom: '2026-01-01', validUntil: null, publishedOn: '2025-06-01' }];
  const book = {
    versions: () => versions,
    cooperativeMinFamilyFarmerShare: (on: string) => (on >= '2025-01-01' && on < '2026-01-01' ? undefined : version(on < '2025-01-01' ? '0.6' : '0.7')),
  } as unknown as LawBook;
  const gaps = minimumShareTimeline(book, '2026-12-01');
  expect([gaps.starts, gaps.values]).toEqual([['2020-10-23', '2025-01-01', '2026-01-01'], ['0.6', null, '0.7']]);
});
