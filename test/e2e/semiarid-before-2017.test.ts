import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, FEIRA, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { purchases } from '../support/selo-year';

/**
 * The Semiárido before 2017 (Decreto 7.768/2012 from 28/06/2012; Res. Condel/Sudene nº 115/2017 in
 * force from 05/12/2017): the delimitation of Portaria MI nº 89/2005 is not in our sources, so the
 * months whose days fall before 2017-12-05 say so when they judge the priority region (art. 6º I, III).
 */
let api: TestApi;
let producer: string;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, FEIRA]);
  producer = await createProducer(api, 'Usina de 2015', RECIFE);
  await electSpecialRegime(api, producer, '2014-11-03'); // special regime from 2015
  await purchases(api, producer, ['2015-03-10', '2017-12-02', '2018-01-10'].map((on) => ({ on, cost: '2000', kind: 'THIRD_PARTY', origin: FEIRA, feedstock: 'CASTOR_BEAN' })));
}, 60_000);
afterAll(async () => { await api?.close(); });

const month = async (year: number, m: number) => (await api.ok(`query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: "2026-06-01") { warnings { code legalBasis message } } }`,
  { p: producer, y: year, m })).taxPeriod.warnings.filter((w: { code: string }) => w.code === 'SEMIARID_DELIMITATION_OPEN');

test('March 2015: the whole month is under the delimitation not in our sources, and the answer says so, citing it', async () => {
  const [w] = await month(2015, 3);
  expect(w.legalBasis).toContain('Portaria MI nº 89/2005');
  expect(w.message).toContain('2015-03-01');
  expect(w.message).toContain('2015-03-31');
});

test('December 2017: only its days before Res. Condel/Sudene 115/2017 took effect (1st to 4th); January 2018: none', async () => {
  const [w] = await month(2017, 12);
  expect(w.message).toContain('2017-12-01');
  expect(w.message).toContain('2017-12-04');
  expect(await month(2018, 1)).toEqual([]);
});

test('rate(question): a lot acquired on a day before 2017-12-05 says its Semiárido is judged by the membership imported; one of 2017-12-05 does not', async () => {
  const RATE = `query($q: RateQuestion!) { rate(question: $q) { category reasons { code legalBasis } } }`;
  const ask = async (on: string) => (await api.ok(RATE, { q: { feedstock: 'CASTOR_BEAN', originMunicipalityCode: FEIRA, familyFarming: false, sealRegular: false, on, asKnownOn: '2026-06-01' } })).rate.reasons
    .filter((r: { code: string }) => r.code === 'SEMIARID_DELIMITATION_OPEN');
  expect((await ask('2017-12-04')).map((r: { legalBasis: string }) => r.legalBasis)).toEqual(['Portaria MI nº 89/2005 (the Semiárido until Res. Condel/Sudene nº 115/2017 took effect on 05/12/2017)']);
  expect(await ask('2017-12-05')).toEqual([]);
});
