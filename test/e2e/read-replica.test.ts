import { ChildProcess, spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { createDataSource, openDatabase } from '../../src/database/data-source';
import { prepareDatabase } from '../../src/database/prepare';
import { hs256, signToken } from '../../src/graphql/auth/token';
import { Role } from '../../src/law/types';
import { createApp, RunningApp } from '../../src/server';
import { createServices } from '../../src/services';
import { Actor } from '../../src/services/actor';
import { importFile } from '../../src/import/importer';
import { FallbackReason, lsnValue, ReadReplica, ReadTarget } from '../../src/services/read-replica';
import { programRefreshOf } from '../../src/services/program-refresh';
import { TEST_SECRET } from '../support/api';
import { newCnpj, RECIFE } from '../support/fixtures';

// Analysts on a streaming read replica (docs/SCALING.md): a primary and a hot standby of it, both
// started here from the embedded binaries whatever DATABASE_URL says (test/support/replica-pair.mjs).
// AUDITOR reads are served by the standby; a client's own write is visible to its next read; a
// standby that lags past the bound or is stopped sends the reads to the primary, and the metrics say so.

jest.setTimeout(120_000);

let pair: ChildProcess;
let answers: AsyncIterator<string>;
let primary: DataSource;
let reader: DataSource;
let replica: ReadReplica;
let app: RunningApp;
let url: string;

const ADMIN_ANA = { sub: 'ana', role: Role.ADMIN };
const AUDITOR_ANA = { sub: 'ana', role: Role.AUDITOR };
const AUDITOR_BRUNO = { sub: 'bruno', role: Role.AUDITOR };
const actor = (c: { sub: string; role: Role }): Actor => ({ ...c, producerId: null, requestId: null });

async function nextLine(): Promise<string> {
  const { value, done } = await answers.next();
  if (done) throw new Error('the primary/standby pair exited');
  return value;
}

/** Ask the pair's process to stop or start the standby. */
async function standby(command: 'stop-standby' | 'start-standby'): Promise<void> {
  pair.stdin!.write(`${command}\n`);
  expect(await nextLine()).toBe('ok');
}

async function gql(query: string, variables: Record<string, unknown>, as: { sub: string; role: Role }) {
  const token = await signToken(TEST_SECRET, { sub: as.sub, role: as.role });
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as { data?: any; errors?: Array<{ extensions?: { code?: string } }> };
}

async function createProducer(name: string): Promise<string> {
  const res = await gql(`mutation($i: CreateProducerInput!) { createProducer(input: $i) { id } }`, { i: { cnpj: newCnpj(), legalName: name, plantMunicipalityCode: RECIFE } }, ADMIN_ANA);
  expect(res.errors).toBeUndefined();
  return res.data.createProducer.id;
}

async function producerName(id: string, as: { sub: string; role: Role }): Promise<string | null> {
  const res = await gql(`query($id: ID!) { producer(id: $id) { legalName } }`, { id }, as);
  if (res.errors?.[0]?.extensions?.code === 'NOT_FOUND') return null;
  expect(res.errors).toBeUndefined();
  return res.data.producer?.legalName ?? null;
}

/** A metric's value from GET /metrics. */
async function metric(name: string): Promise<number> {
  const text = await (await fetch(url.replace('/graphql', '/metrics'))).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in the metrics`);
  return Number(line.slice(name.length + 1));
}

/** Wait until the standby has replayed everything the primary has written so far. */
async function caughtUp(): Promise<void> {
  const [{ lsn }] = await primary.query('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  for (let i = 0; i < 500; i++) {
    const [{ replayed }] = await reader.query('SELECT pg_last_wal_replay_lsn()::text AS replayed');
    if (lsnValue(replayed) >= lsnValue(lsn)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the standby did not catch up');
}

beforeAll(async () => {
  pair = spawn(process.execPath, [path.join(__dirname, '../support/replica-pair.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  answers = readline.createInterface({ input: pair.stdout! })[Symbol.asyncIterator]();
  const urls = JSON.parse(await nextLine()) as { primary: string; standby: string };
  primary = await openDatabase({ url: urls.primary, poolSize: 5 });
  await prepareDatabase(primary);
  reader = createDataSource({ url: urls.standby, poolSize: 5, applicationName: 'selo-api-reader' });
  await reader.initialize();
  // Checked for every request: the tests see each change of the standby at once.
  replica = new ReadReplica(primary, reader, { maxLagMs: 60_000, ownWriteWaitMs: 300, checkIntervalMs: 0 });
  app = await createApp({ dataSource: primary, replica, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), compiledReads: false });
  await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}/graphql`;
  const res = await gql(`mutation($i: [MunicipalityInput!]!) { upsertMunicipalities(input: $i) { ibgeCode } }`, { i: [{ ibgeCode: RECIFE, name: 'Recife', semiarid: false }] }, ADMIN_ANA);
  expect(res.errors).toBeUndefined();
});

afterAll(async () => {
  await app?.stop();
  if (reader?.isInitialized) await reader.destroy();
  if (primary?.isInitialized) await primary.destroy();
  if (pair && pair.exitCode === null) {
    const exited = new Promise((resolve) => pair.once('exit', resolve));
    pair.stdin!.end();
    await exited;
  }
});

test('an AUDITOR\'s reads are served by the standby (pg_is_in_recovery() on its connection), an ADMIN\'s by the primary', async () => {
  const id = await createProducer('Usina Lida na Réplica');
  await caughtUp();
  const services = createServices(primary, replica);
  const auditorReads = await services.forReads(actor(AUDITOR_BRUNO));
  expect((await auditorReads.dataSource.query('SELECT pg_is_in_recovery() AS r'))[0].r).toBe(true);
  expect((await auditorReads.producers.get(actor(AUDITOR_BRUNO), id)).legalName).toBe('Usina Lida na Réplica');
  const adminReads = await services.forReads(actor(ADMIN_ANA));
  expect((await adminReads.dataSource.query('SELECT pg_is_in_recovery() AS r'))[0].r).toBe(false);
  // A PRODUCER reads from the primary too; an ADMIN reading the whole program may use the standby.
  expect(await replica.targetFor({ sub: 'p', role: Role.PRODUCER, producerId: id, requestId: null }, true)).toBe('primary');
  expect(await replica.targetFor(actor(ADMIN_ANA), true)).toBe('replica');

  const before = await metric('selo_db_read_requests_total{target="replica"}');
  expect(await producerName(id, AUDITOR_BRUNO)).toBe('Usina Lida na Réplica');
  expect(await metric('selo_db_read_requests_total{target="replica"}')).toBe(before + 1);
  expect(await metric('selo_db_replica_up')).toBe(1);

  // The year's Selo compliance (a REPEATABLE READ snapshot) and a tax month run on the standby as well.
  const year = await gql(`query($id: ID!) { sealCompliance(producerId: $id, year: 2025) { base countedTotal }
    producer(id: $id) { taxPeriod(year: 2025, month: 3) { cofinsDue } } }`, { id }, AUDITOR_BRUNO);
  expect(year.errors).toBeUndefined();
  expect(year.data.sealCompliance).toEqual({ base: '0.00', countedTotal: '0.00' });
  expect(year.data.producer.taxPeriod.cofinsDue).toMatch(/^0(\.0+)?$/);
  expect(await metric('selo_db_read_requests_total{target="replica"}')).toBe(before + 2);
});

test('an AUDITOR\'s export and an ADMIN\'s program view read from the standby, the view on two connections', async () => {
  const id = await createProducer('Usina Exportada da Réplica');
  await caughtUp();
  const replicaReads = await metric('selo_db_read_requests_total{target="replica"}');
  const token = await signToken(TEST_SECRET, { sub: 'bruno', role: Role.AUDITOR });
  const res = await fetch(url.replace('/graphql', `/export/seal-compliance?producer=${id}&year=2025`), { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('Usina Exportada da Réplica');
  expect(await metric('selo_db_read_requests_total{target="replica"}')).toBe(replicaReads + 1);
  // Enough producers for the view to compute them on two standby connections sharing one snapshot.
  for (let i = 0; i < 7; i++) await createProducer(`Usina do Programa ${i}`);
  await caughtUp();
  const program = await gql(`query { programOverview(year: 2025) { producerCount } }`, {}, { sub: 'carlos', role: Role.ADMIN });
  expect(program.errors).toBeUndefined();
  expect(program.data.programOverview.producerCount).toBeGreaterThanOrEqual(8);
  expect(await metric('selo_db_read_requests_total{target="replica"}')).toBe(replicaReads + 2);
});

test('the program view\'s background refresh computes on the standby and stores on the primary', async () => {
  await createProducer('Usina Renovada na Réplica');
  await caughtUp();
  const day = '2026-11-25';
  const refresh = programRefreshOf(createServices(primary, replica), primary, { everyMs: 0, today: () => day });
  const replicaReads = await metric('selo_db_read_requests_total{target="replica"}');
  expect(await refresh.tick()).toBe(true);
  // One read of the whole program per year computed, each on the standby.
  const years = [...new Set([2026, 2025, ...(await primary.query('SELECT year FROM program_year_asked')).map((r: { year: number }) => r.year)])];
  expect(await metric('selo_db_read_requests_total{target="replica"}')).toBe(replicaReads + years.length);
  const [{ n }] = await primary.query('SELECT count(*)::int AS n FROM program_year_part WHERE year = 2026 AND as_known_on = $1', [day]);
  expect(n).toBe((await primary.query('SELECT count(*)::int AS n FROM producer'))[0].n);
});

test('writes go to the primary even through the services built over the standby', async () => {
  const onStandby = await createServices(primary, replica).forReads(actor(AUDITOR_BRUNO));
  expect(onStandby.dataSource).toBe(reader);
  const created = await onStandby.producers.create(actor(ADMIN_ANA), { cnpj: newCnpj(), legalName: 'Usina Escrita', plantMunicipalityCode: RECIFE } as never);
  expect((await primary.query('SELECT legal_name FROM producer WHERE id = $1', [created.id]))[0].legal_name).toBe('Usina Escrita');
});

test('read-your-writes: a client\'s read after its own write sees it; another client may read the standby meanwhile', async () => {
  await caughtUp();
  // The standby stops replaying: what is written now is on the primary only.
  await reader.query('SELECT pg_wal_replay_pause()');
  try {
    const ownWrites = await metric('selo_db_replica_fallbacks_total{reason="own_write"}');
    const id = await createProducer('Usina Recém-Escrita');
    // Ana wrote it (ADMIN token) and reads it as an AUDITOR, the same subject: from the primary.
    expect(await producerName(id, AUDITOR_ANA)).toBe('Usina Recém-Escrita');
    expect(await metric('selo_db_replica_fallbacks_total{reason="own_write"}')).toBe(ownWrites + 1);
    // Bruno has written nothing: the standby (within the lag bound) serves him, without the new row yet.
    const replicaReads = await metric('selo_db_read_requests_total{target="replica"}');
    expect(await producerName(id, AUDITOR_BRUNO)).toBeNull();
    expect(await metric('selo_db_read_requests_total{target="replica"}')).toBe(replicaReads + 1);

    // Replay resumes: Ana's next read waits for the standby to replay her write, and is served by it.
    await reader.query('SELECT pg_wal_replay_resume()');
    const served = await metric('selo_db_read_requests_total{target="replica"}');
    expect(await producerName(id, AUDITOR_ANA)).toBe('Usina Recém-Escrita');
    expect(await metric('selo_db_read_requests_total{target="replica"}')).toBe(served + 1);
    expect(await metric('selo_db_replica_fallbacks_total{reason="own_write"}')).toBe(ownWrites + 1);
  } finally {
    await reader.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
  }
});

test('read-your-writes after an import: the importer\'s next read is not served a standby without its rows', async () => {
  await caughtUp();
  await reader.query('SELECT pg_wal_replay_pause()');
  try {
    const carla = { sub: 'carla', role: Role.ADMIN };
    const before = await replica.targetFor(actor({ sub: 'carla', role: Role.AUDITOR }));
    expect(before).toBe('replica');
    const csv = `cpf;name;municipalityCode\n52998224725;Ana Importada;${RECIFE}\n`;
    const summary = await importFile(primary, actor(carla), { kind: 'farmers', input: Readable.from([Buffer.from(csv)]) });
    expect(summary.rows).toBe(1);
    // Replay is paused: the standby cannot have her rows, so her reads go to the primary.
    expect(await replica.targetFor(actor({ sub: 'carla', role: Role.AUDITOR }))).toBe('primary');
    expect(await replica.targetFor(actor(AUDITOR_BRUNO))).toBe('replica');
  } finally {
    await reader.query('SELECT pg_wal_replay_resume()');
  }
});

test('a standby lagging past the bound sends the reads to the primary', async () => {
  await caughtUp();
  const lagging = new ReadReplica(primary, reader, { maxLagMs: 20, checkIntervalMs: 0 });
  const seen: Array<ReadTarget | FallbackReason> = [];
  lagging.observe({ read: (t) => seen.push(t), fallback: (r) => seen.push(r) });
  await reader.query('SELECT pg_wal_replay_pause()');
  try {
    await createProducer('Usina Não Replicada');
    await lagging.targetFor(actor(AUDITOR_BRUNO));
    await new Promise((r) => setTimeout(r, 100));
    seen.length = 0;
    expect(await lagging.targetFor(actor(AUDITOR_BRUNO))).toBe('primary');
    expect(seen).toEqual(['lag', 'primary']);
    expect(lagging.lagSeconds()).toBeGreaterThan(0.02);
  } finally {
    await reader.query('SELECT pg_wal_replay_resume()');
  }
  await caughtUp();
  expect(await lagging.targetFor(actor(AUDITOR_BRUNO))).toBe('replica');
  expect(lagging.lagSeconds()).toBe(0);
});

test('a stopped standby: the reads fall back to the primary and the metrics say so; back when it returns', async () => {
  const id = await createProducer('Usina Sem Réplica');
  await caughtUp();
  await standby('stop-standby');
  const unavailable = await metric('selo_db_replica_fallbacks_total{reason="unavailable"}');
  const primaryReads = await metric('selo_db_read_requests_total{target="primary"}');
  expect(await producerName(id, AUDITOR_BRUNO)).toBe('Usina Sem Réplica');
  expect(await metric('selo_db_replica_fallbacks_total{reason="unavailable"}')).toBe(unavailable + 1);
  expect(await metric('selo_db_read_requests_total{target="primary"}')).toBe(primaryReads + 1);
  expect(await metric('selo_db_replica_up')).toBe(0);
  expect(Number.isNaN(await metric('selo_db_replica_lag_seconds'))).toBe(true);

  await standby('start-standby');
  // The pool's connections to the stopped server are dropped; the next check connects anew.
  let target: ReadTarget = 'primary';
  for (let i = 0; i < 50 && target === 'primary'; i++) {
    target = await replica.targetFor(actor(AUDITOR_BRUNO));
    if (target === 'primary') await new Promise((r) => setTimeout(r, 100));
  }
  expect(target).toBe('replica');
  expect(await producerName(id, AUDITOR_BRUNO)).toBe('Usina Sem Réplica');
});
