import net from 'node:net';
import { AddressInfo } from 'node:net';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { prepareDatabase } from '../../src/database/prepare';
import { hs256, signToken } from '../../src/graphql/auth/token';
import { Role } from '../../src/law/types';
import { createApp, RunningApp } from '../../src/server';
import { createTestDatabase, TestDatabase } from '../support/database';
import { TEST_SECRET } from '../support/api';

/**
 * A compiled read (src/graphql/compiled/) meeting an unavailable database answers what graphql-js
 * execution answers — DATABASE_UNAVAILABLE at the first root field, HTTP 503, byte for byte — and
 * asks the pool for a connection once: stepping aside to graphql-js would wait for a second one
 * (up to the pool's connect timeout more) before giving the same answer.
 *
 * Each API reaches PostgreSQL through a TCP relay of its own, which forwards, or takes connections
 * and drops them at once (the server gone), or takes them and never answers (a hung server).
 */

type Mode = 'forward' | 'drop' | 'hang';

class Relay {
  mode: Mode = 'forward';
  accepted = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      this.accepted++;
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => undefined);
      if (this.mode === 'drop') return void client.destroy();
      if (this.mode === 'hang') return;
      const upstream = net.connect(this.target);
      this.sockets.add(upstream);
      upstream.on('close', () => { this.sockets.delete(upstream); client.destroy(); });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  /** From now on `mode`; every open connection (the pool's idle clients) is cut. */
  switch(mode: Mode): void {
    this.mode = mode;
    for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.switch('drop');
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface Side { relay: Relay; dataSource: DataSource; app: RunningApp; url: string }

let db: TestDatabase;
let sides: { compiled: Side; executed: Side };

async function side(compiledReads: boolean): Promise<Side> {
  const real = new URL(db.url);
  const relay = new Relay({ host: real.hostname, port: Number(real.port || 5432) });
  const port = await relay.listen();
  const viaRelay = new URL(db.url);
  viaRelay.hostname = '127.0.0.1';
  viaRelay.port = String(port);
  const dataSource = createDataSource({ url: viaRelay.toString(), poolSize: 3 });
  await dataSource.initialize();
  const app = await createApp({ dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), compiledReads });
  await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  return { relay, dataSource, app, url: `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}/graphql` };
}

beforeAll(async () => {
  db = await createTestDatabase(2);
  await prepareDatabase(db.dataSource);
  await db.dataSource.query(`INSERT INTO municipality (ibge_code, name, state, region)
    VALUES ('2611606', 'Recife', 'PE', 'NORTHEAST') ON CONFLICT (ibge_code) DO NOTHING`);
  await db.dataSource.query(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code) VALUES ('11222333000181', 'Produtora', '2611606')`);
  sides = { compiled: await side(true), executed: await side(false) };
}, 60_000);

afterAll(async () => {
  for (const s of Object.values(sides ?? {})) {
    await s.app.stop();
    await s.relay.close();
    if (s.dataSource.isInitialized) await s.dataSource.destroy();
  }
  await db?.drop();
});

// One root field reading the database: with several, which one graphql-js reports depends on
// which resolver's connection request times out first.
const QUERY = 'query Page { __typename first: producers(first: 1) { totalCount edges { node { legalName } } } }';

async function post(s: Side, requestId: string): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const token = await signToken(TEST_SECRET, { sub: 'test-admin', role: Role.ADMIN });
  const res = await fetch(s.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': requestId },
    body: JSON.stringify({ query: QUERY }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
}

/** Both APIs, the relays in `mode`; the answers and the connections each API opened meanwhile. */
async function bothIn(mode: Mode, requestId: string) {
  sides.compiled.relay.switch(mode);
  sides.executed.relay.switch(mode);
  // The pools see their idle connections cut before the requests come (else one may be handed a
  // cut connection and open none: the count below would depend on that race).
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = { compiled: sides.compiled.relay.accepted, executed: sides.executed.relay.accepted };
  const [compiled, executed] = await Promise.all([post(sides.compiled, requestId), post(sides.executed, requestId)]);
  return {
    compiled, executed,
    connections: { compiled: sides.compiled.relay.accepted - before.compiled, executed: sides.executed.relay.accepted - before.executed },
  };
}

test('with the database reachable both answer the same data', async () => {
  const { compiled, executed } = await bothIn('forward', 'unavailable-test-0');
  expect(compiled.status).toBe(200);
  expect(JSON.parse(compiled.body).data).toEqual({ __typename: 'Query', first: { totalCount: 1, edges: [{ node: { legalName: 'Produtora' } }] } });
  expect(compiled.body).toBe(executed.body);
});

test('the database dropping every connection: DATABASE_UNAVAILABLE at the first root field, 503, the same body, one connection attempt', async () => {
  const { compiled, executed, connections } = await bothIn('drop', 'unavailable-test-1');
  expect(executed.status).toBe(503);
  const parsed = JSON.parse(executed.body);
  expect(parsed.data).toBeNull();
  expect(parsed.errors).toHaveLength(1);
  expect(parsed.errors[0]).toMatchObject({ path: ['first'], locations: [{ line: 1, column: 25 }], extensions: { code: 'DATABASE_UNAVAILABLE', requestId: 'unavailable-test-1' } });
  expect(compiled).toEqual(executed);
  expect(connections.compiled).toBe(1);
  expect(connections.executed).toBeGreaterThanOrEqual(1);
});

test('a hung database: DATABASE_UNAVAILABLE after one connect timeout, not two', async () => {
  const { compiled, executed, connections } = await bothIn('hang', 'unavailable-test-2');
  expect(compiled.status).toBe(503);
  expect(compiled.retryAfter).not.toBeNull();
  expect(compiled).toEqual(executed);
  expect(connections.compiled).toBe(1);
}, 30_000);

test('recovered: both answer data again', async () => {
  const { compiled, executed } = await bothIn('forward', 'unavailable-test-3');
  expect(compiled.status).toBe(200);
  expect(compiled.body).toBe(executed.body);
});

test('the connection of a compiled read cut while its statement runs: that request is answered, the process runs on and answers the next', async () => {
  const s = sides.compiled;
  s.relay.switch('forward');
  // The statement waits on a lock held here, so that the cut comes while it runs.
  const lock = db.dataSource.createQueryRunner();
  await lock.connect();
  await lock.startTransaction();
  await lock.query('LOCK TABLE producer IN ACCESS EXCLUSIVE MODE');
  try {
    const pending = post(s, 'unavailable-test-cut');
    for (let i = 0; i < 100; i++) {
      const [{ n }] = await db.dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%legal_name%'`);
      if (n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    s.relay.switch('forward');
    await lock.rollbackTransaction();
    const cut = await pending;
    expect([200, 503]).toContain(cut.status);
  } finally {
    if (lock.isTransactionActive) await lock.rollbackTransaction();
    await lock.release();
  }
  const next = await post(s, 'unavailable-test-after-cut');
  expect(next.status).toBe(200);
  expect(JSON.parse(next.body).data.first.totalCount).toBe(1);
});
