import { startTestApi, TestApi } from '../support/api';

let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api.close(); });

test('a municipality upserted over HTTP is read back with the facts of its IBGE code', async () => {
  const data = await api.ok(`mutation { upsertMunicipalities(input: [{ ibgeCode: "2611606", name: "Recife", semiarid: false }]) { ibgeCode state region priorityRegion } }`);
  expect(data.upsertMunicipalities).toEqual([{ ibgeCode: '2611606', state: 'PE', region: 'NORTHEAST', priorityRegion: true }]);
  const read = await api.ok(`{ municipality(ibgeCode: "2611606") { name } }`, {}, { role: 'AUDITOR' });
  expect(read.municipality).toEqual({ name: 'Recife' });
});

test('no token: UNAUTHENTICATED, and nothing is written', async () => {
  const res = await api.gql(`mutation { upsertMunicipalities(input: [{ ibgeCode: "4314902", name: "Porto Alegre", semiarid: false }]) { ibgeCode } }`, {}, null);
  expect(res.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  expect(await api.count(`SELECT count(*) FROM municipality WHERE ibge_code = '4314902'`)).toBe(0);
});
