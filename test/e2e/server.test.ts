import DataLoader from 'dataloader';
import { Role } from '../../src/law/types';
import { contextWithLazyLoaders } from '../../src/server';
import { createServices } from '../../src/services';
import type { Actor } from '../../src/services/actor';
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

test('the context\'s loaders are made on first use, once per request, and survive Apollo\'s copy of the context', async () => {
  const services = createServices(api.db.dataSource);
  const actor: Actor = { sub: 'lazy', role: Role.ADMIN, producerId: null, requestId: null };
  const context = contextWithLazyLoaders({ actor, requestId: 'r1', services, today: '2026-05-20', listed: { left: 5, max: 5 } });
  // Apollo copies the context's own properties onto an object of the same prototype.
  const copy = Object.assign(Object.create(Object.getPrototypeOf(context)), context) as typeof context;
  expect(Object.keys(copy).sort()).toEqual(['actor', 'listed', 'requestId', 'services', 'today']);
  // What the response may still list is one count, whichever copy a resolver is given.
  expect(copy.listed).toBe(context.listed);
  expect(copy.today).toBe('2026-05-20');
  expect(copy.loaders.producer).toBeInstanceOf(DataLoader);
  expect(copy.loaders).toBe(context.loaders);
  // Another request has loaders of its own (no cache shared between callers).
  expect(contextWithLazyLoaders({ actor, requestId: 'r2', services }).loaders).not.toBe(context.loaders);
  expect(await copy.loaders.municipality.load('2611606')).toMatchObject({ name: 'Recife' });
});
