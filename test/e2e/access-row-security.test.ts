import { Role } from '../../src/law/types';
import { Actor } from '../../src/services/actor';
import { mutate } from '../../src/services/transaction';
import { startTestApi, TestApi } from '../support/api';
import { ownAndOtherProducers } from '../support/fixtures';

/**
 * The second wall: even a use case that forgot every check cannot, inside a PRODUCER's mutation,
 * read or write another producer's rows — PostgreSQL's row-level security refuses them.
 */

let api: TestApi;
let own: string;
let other: string;
let producerActor: Actor;

beforeAll(async () => {
  api = await startTestApi();
  ({ own, other } = await ownAndOtherProducers(api));
  const sale = (id: string, revenue: string) => `{ producerId: "${id}", soldOn: "2025-03-20", volumeM3: "10", revenue: "${revenue}" }`;
  await api.ok(`mutation { recordSales(input: [${sale(other, '88888.88')}]) { id } }`);
  await api.ok(`mutation { recordSales(input: [${sale(own, '5000')}]) { id } }`);
  producerActor = { sub: 'careless-use-case', role: Role.PRODUCER, producerId: own, requestId: 'rls-test' };
});
afterAll(async () => { await api.close(); });

const INSERT_SALE = `INSERT INTO sale (producer_id, sold_on, volume_m3, revenue, origin, market) VALUES ($1, '2025-03-21', 1, 1, 'OWN_PRODUCTION', 'DOMESTIC')`;

test('inside a PRODUCER mutation, another producer\'s rows are invisible, its own are there', async () => {
  const seen = await mutate(api.db.dataSource, producerActor, async (em) => {
    const sales: Array<{ producer_id: string; revenue: string }> = await em.query('SELECT producer_id::text, revenue::text FROM sale ORDER BY id');
    const producers: Array<{ legal_name: string }> = await em.query('SELECT legal_name FROM producer ORDER BY id');
    const municipalities: Array<{ name: string }> = await em.query('SELECT name FROM municipality');
    return { result: { sales, producers, municipalities }, audit: [] };
  });
  expect(seen.sales).toEqual([{ producer_id: own, revenue: '5000' }]);
  expect(seen.producers).toEqual([{ legal_name: 'Usina Própria' }]);
  expect(seen.municipalities).toEqual([{ name: 'Recife' }]); // shared data stays readable
});

test('inserting, updating or deleting another producer\'s rows is refused by the database, and nothing is written', async () => {
  const salesBefore = await api.count('SELECT count(*) FROM sale');
  await expect(mutate(api.db.dataSource, producerActor, async (em) => {
    await em.query(INSERT_SALE, [own]); // its own: accepted ...
    await em.query(INSERT_SALE, [other]); // ... another's: refused, and the whole transaction with it
    return { result: null, audit: [] };
  })).rejects.toThrow(/row-level security/);
  expect(await api.count('SELECT count(*) FROM sale')).toBe(salesBefore);

  const updated = await mutate(api.db.dataSource, producerActor, async (em) => {
    const [, n] = await em.query(`UPDATE producer SET legal_name = 'Taken' WHERE id = $1`, [other]);
    const [, d] = await em.query('DELETE FROM sale WHERE producer_id = $1', [other]);
    return { result: { n, d }, audit: [] };
  });
  expect(updated).toEqual({ n: 0, d: 0 });
  expect(await api.count(`SELECT count(*) FROM producer WHERE legal_name = 'Taken'`)).toBe(0);
  expect(await api.count('SELECT count(*) FROM sale WHERE producer_id = $1', [other])).toBe(1);
});

test('an audit entry naming another producer is refused; one of a shared record is accepted', async () => {
  await expect(mutate(api.db.dataSource, producerActor, async () => ({
    result: null, audit: [{ operation: 'forged', entity: 'Sale', entityId: '1', producerId: other, after: {} }],
  }))).rejects.toThrow(/row-level security/);
  await mutate(api.db.dataSource, producerActor, async () => ({
    result: null, audit: [{ operation: 'createFamilyFarmer', entity: 'FamilyFarmer', entityId: '1', producerId: null, after: {} }],
  }));
  expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'forged'`)).toBe(0);
  expect(await api.count(`SELECT count(*) FROM audit_entry WHERE actor = 'careless-use-case'`)).toBe(1);
});

test('the audit log inside a PRODUCER mutation: its own entries only — not the shared ones it may write, not another\'s — and none changed or deleted', async () => {
  const all: Array<{ id: string; producer: string | null }> = await api.db.dataSource.query('SELECT id::text AS id, producer_id::text AS producer FROM audit_entry ORDER BY id');
  expect(all.some((r) => r.producer === null) && all.some((r) => r.producer === other) && all.some((r) => r.producer === own)).toBe(true);
  const seen = await mutate(api.db.dataSource, producerActor, async (em) => {
    const rows: Array<{ id: string }> = await em.query('SELECT id::text AS id FROM audit_entry ORDER BY id');
    const [, updated] = await em.query(`UPDATE audit_entry SET operation = 'rewritten'`);
    const [, deleted] = await em.query('DELETE FROM audit_entry');
    return { result: { ids: rows.map((r) => r.id), updated, deleted }, audit: [] };
  });
  expect(seen).toEqual({ ids: all.filter((r) => r.producer === own).map((r) => r.id), updated: 0, deleted: 0 });
  expect(await api.count('SELECT count(*) FROM audit_entry')).toBe(all.length);
  expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'rewritten'`)).toBe(0);
});

test('the role and the producer setting last only for the transaction; ADMIN mutations are not restricted', async () => {
  const admin: Actor = { sub: 'admin', role: Role.ADMIN, producerId: null, requestId: null };
  const counts = await mutate(api.db.dataSource, admin, async (em) => {
    const [{ n }] = await em.query('SELECT count(*)::int AS n FROM sale');
    const [{ role }] = await em.query('SELECT current_user AS role');
    return { result: { n, role }, audit: [] };
  });
  expect(counts.n).toBe(await api.count('SELECT count(*) FROM sale'));
  expect(counts.role).not.toBe('selo_producer');
  // after PRODUCER transactions on the same pool, plain reads see everything again
  for (let i = 0; i < 10; i++) await mutate(api.db.dataSource, producerActor, async () => ({ result: null, audit: [] }));
  const rows = await Promise.all(Array.from({ length: 10 }, () => api.db.dataSource.query(`SELECT current_user AS role, current_setting('selo.producer_id', true) AS p, (SELECT count(*)::int FROM sale) AS n`)));
  for (const [r] of rows) expect([r.role === 'selo_producer', r.p || null, r.n]).toEqual([false, null, counts.n]);
});

test('through the API: a PRODUCER\'s mutations work under the second wall', async () => {
  const data = await api.ok(`mutation { recordSales(input: [{ producerId: "${own}", soldOn: "2025-03-22", volumeM3: "2", revenue: "700" }]) { id producer { legalName } } }`, {}, { role: 'PRODUCER', producerId: own });
  expect(data.recordSales[0].producer).toEqual({ legalName: 'Usina Própria' });
  const res = await api.gql(`mutation { recordSales(input: [{ producerId: "${other}", soldOn: "2025-03-22", volumeM3: "2", revenue: "700" }]) { id } }`, {}, { role: 'PRODUCER', producerId: own });
  expect(res.errors?.[0]).toMatchObject({ message: `Producer ${other} not found`, extensions: { code: 'NOT_FOUND' } });
});
