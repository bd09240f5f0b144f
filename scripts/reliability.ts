// `npm run reliability [-- --short] [--json FILE] [--log FILE] [--only …]`: docs/RELIABILITY.md.
// Exits 1 when a verdict fails; `--short` runs in the suite.
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { cpf as cpfLib } from 'cpf-cnpj-validator';
import { Client } from 'pg';
import { nfeKey } from '../src/formats/nfe-key';
import { signToken } from '../src/graphql/auth/token';
import { Role } from '../src/law/types';
import fc from 'fast-check';
import { buildCase, caseSpec, FuzzTarget } from '../test/support/file-fuzz';

interface Embedded {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
  restart(): Promise<void>;
}
interface EmbeddedModule {
  startEmbeddedPostgres(o: { dataDir: string; persistent?: boolean; log?: (m: string) => void }): Promise<Embedded>;
}

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const SHORT = args.includes('--short');
const JSON_OUT = option('--json');
const LOG_OUT = option('--log');
/** `--short` leaves out files, which the suite fuzzes itself. */
const ONLY = new Set((option('--only') ?? (SHORT ? 'load,fault,freeze,law,upload,shutdown' : 'load,fault,freeze,law,upload,files,shutdown')).split(','));
const SECRET = 'reliability-secret-with-enough-length-0123456789';
const ROOT = path.resolve(__dirname, '..');

const PLAN = SHORT
  ? { writers: 8, readers: 4, loadSeconds: 8, faultBeforeSeconds: 3, faultDownSeconds: 3, faultAfterSeconds: 6, freezeSeconds: 8, lawRounds: 10, slowUploaders: 12, slowUploadSeconds: 10, shutdownAfterSeconds: 3 }
  : { writers: 48, readers: 16, loadSeconds: 60, faultBeforeSeconds: 8, faultDownSeconds: 8, faultAfterSeconds: 12, freezeSeconds: 10, lawRounds: 40, slowUploaders: 30, slowUploadSeconds: 30, shutdownAfterSeconds: 15 };
/** A hang shows as a failure; longer than the API's 30 s, so the API must answer first. */
const REQUEST_TIMEOUT_MS = 40_000;
/** The pool's connect timeout is 5 s. */
const DOWN_ANSWER_LIMIT_MS = 7_000;
const RECOVERY_LIMIT_MS = 10_000;
const REPLAY_EVERY = 10;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
}

interface Api {
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
  requestsCut(): number;
}

async function startApi(databaseUrl: string): Promise<Api> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, JWT_SECRET: SECRET, PORT: String(port), LOG_LEVEL: LOG_OUT ? 'info' : 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let requestsCut = 0;
  const log = LOG_OUT ? fs.createWriteStream(LOG_OUT, { flags: 'a' }) : undefined;
  child.stdout?.on('data', (d) => {
    log?.write(d);
    const cut = /"requestsCut":(\d+)/.exec(String(d));
    if (cut) requestsCut = Number(cut[1]);
  });
  child.stderr?.on('data', (d) => {
    stderr = (stderr + String(d)).slice(-4000);
    log?.write(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API exited during start-up: ${stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`API not ready within 60 s: ${stderr}`);
    await sleep(200);
  }
  return { port, child, exited, requestsCut: () => requestsCut };
}

interface Result {
  ok: boolean;
  status: number;
  code?: string;
  reason?: string;
  startedAt: number;
  endedAt: number;
  ms: number;
  data?: Record<string, any>;
}

async function gql(port: number, token: string, query: string, variables: Record<string, unknown> = {}): Promise<Result> {
  const startedAt = Date.now();
  const started = performance.now();
  const done = (r: Omit<Result, 'startedAt' | 'endedAt' | 'ms'>): Result => ({ ...r, startedAt, endedAt: Date.now(), ms: performance.now() - started });
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (e) {
    return done({ ok: false, status: 0, code: wireFailure(e) });
  }
  try {
    const body = (await res.json()) as { data?: Record<string, any>; errors?: Array<{ extensions?: { code?: string; reason?: string } }> };
    const first = body.errors?.[0]?.extensions;
    return done({ ok: !body.errors?.length && res.ok, status: res.status, code: first?.code, reason: first?.reason, data: body.data });
  } catch (e) {
    return done({ ok: false, status: res.status, code: (e as Error).name === 'TimeoutError' ? 'CLIENT_TIMEOUT' : 'BAD_RESPONSE' });
  }
}

/** A refused connection (nobody listening) is not the same as one cut while a request was on it. */
function wireFailure(e: unknown): string {
  if ((e as Error).name === 'TimeoutError') return 'CLIENT_TIMEOUT';
  const cause = (e as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED' ? 'CONNECTION_REFUSED' : 'CONNECTION_LOST';
}

function freshConnectionProbe(port: number): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false, timeout: 5_000 }, (res) => {
      res.resume();
      resolve(`HTTP_${res.statusCode}`);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve((e as { code?: string }).code ?? e.message));
  });
}

const must = (r: Result, what: string) => {
  if (!r.ok) throw new Error(`${what} failed: ${r.status} ${r.code}`);
  return r.data!;
};

interface Fixture {
  producers: string[];
  farmers: string[];
  admin: string;
}

async function seed(port: number): Promise<Fixture> {
  const admin = await signToken(SECRET, { sub: 'reliability-admin', role: Role.ADMIN });
  must(await gql(port, admin, `mutation { upsertMunicipalities(input: [
    { ibgeCode: "2611606", name: "Recife", semiarid: false },
    { ibgeCode: "4314902", name: "Porto Alegre", semiarid: false }]) { ibgeCode } }`), 'municipalities');
  const producers: string[] = [];
  CNPJ_OF.clear();
  for (const cnpj of ['11222333000181', '45997418000153', '19131243000197', '60746948000112']) {
    const d = must(await gql(port, admin, `mutation($c: CNPJ!) { createProducer(input: { cnpj: $c, legalName: "Usina ${cnpj}", plantMunicipalityCode: "2611606" }) { id } }`, { c: cnpj }), 'producer');
    producers.push(d.createProducer.id);
    CNPJ_OF.set(d.createProducer.id, cnpj);
    must(await gql(port, admin, `mutation($p: ID!) { electRegime(input: { producerId: $p, regime: SPECIAL_PER_M3, electedOn: "2025-11-03" }) { effectiveYear } }`, { p: d.createProducer.id }), 'regime');
    must(await gql(port, admin, `mutation($p: ID!) { grantSeal(input: { producerId: $p, grantedOn: "2025-01-01", validUntil: "2027-12-31" }) { id } }`, { p: d.createProducer.id }), 'seal');
  }
  const farmers: string[] = [];
  for (let i = 0; i < 6; i++) {
    const d = must(await gql(port, admin, `mutation($cpf: CPF!) { createFamilyFarmer(input: { cpf: $cpf, name: "Agricultor ${i}", municipalityCode: "2611606",
      registrations: [{ kind: CAF, number: "CAF-${i}", validFrom: "2024-01-01", validUntil: "2027-12-31" }] }) { id } }`, { cpf: cpfLib.generate() }), 'farmer');
    farmers.push(d.createFamilyFarmer.id);
  }
  return { producers, farmers, admin };
}

interface Ledger {
  purchases: Map<string, { cost: bigint; externalIds: string[] }>;
  sales: Map<string, { revenueCents: bigint; invoiceKeys: string[] }>;
  /** Were they stored anyway? (a commit cut off) */
  unacknowledged: { externalIds: string[]; invoiceKeys: string[] };
  replays: { sent: number; duplicate: number; other: Record<string, number> };
  results: Array<Result & { kind: 'write' | 'read' | 'replay' }>;
}

function newLedger(): Ledger {
  return { purchases: new Map(), sales: new Map(), unacknowledged: { externalIds: [], invoiceKeys: [] }, replays: { sent: 0, duplicate: 0, other: {} }, results: [] };
}

const label = (r: Result) => (r.ok ? 'OK' : r.reason ? `${r.code}/${r.reason}` : (r.code ?? `HTTP_${r.status}`));

function tally(results: Result[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of results) if (!r.ok) counts[label(r)] = (counts[label(r)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort());
}

let sequence = 0;
const nextSeq = () => ++sequence;

const CNPJ_OF = new Map<string, string>();
const PURCHASES = `mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`;
const SALES = `mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`;

/** Every REPLAY_EVERY-th request re-sends the last batch: a duplicate. */
async function writer(port: number, token: string, producerId: string, farmers: string[], stop: () => boolean, ledger: Ledger, tag: string): Promise<void> {
  let lastBatch: unknown[] | undefined;
  let purchaseRequests = 0;
  while (!stop()) {
    const n = nextSeq();
    const month = String((n % 12) + 1).padStart(2, '0');
    const day = String((n % 27) + 1).padStart(2, '0');
    let r: Result;
    if (n % 3 === 0) {
      const invoiceKey = nfeKey(CNPJ_OF.get(producerId)!, n); // issued by the producer's CNPJ, unique per request
      r = await gql(port, token, SALES, { i: [{ producerId, soldOn: `2026-${month}-${day}`, volumeM3: '10.5', revenue: `${n}.25`, invoiceKey }] });
      if (r.ok) {
        const entry = ledger.sales.get(producerId) ?? { revenueCents: 0n, invoiceKeys: [] };
        entry.revenueCents += BigInt(n) * 100n + 25n;
        entry.invoiceKeys.push(invoiceKey);
        ledger.sales.set(producerId, entry);
      } else {
        ledger.unacknowledged.invoiceKeys.push(invoiceKey);
      }
      ledger.results.push({ ...r, kind: 'write' });
    } else if (++purchaseRequests % REPLAY_EVERY === 0 && lastBatch) {
      r = await gql(port, token, PURCHASES, { i: lastBatch });
      ledger.replays.sent++;
      if (r.code === 'CONFLICT' && r.reason === 'DUPLICATE') ledger.replays.duplicate++;
      else ledger.replays.other[label(r)] = (ledger.replays.other[label(r)] ?? 0) + 1;
      ledger.results.push({ ...r, kind: 'replay' });
    } else {
      const externalIds = [0, 1, 2].map((k) => `${tag}-${n}-${k}`);
      const batch = externalIds.map((externalId, k) => ({
        producerId, purchasedOn: `2026-${month}-${day}`, feedstock: 'SOYBEAN', quantityKg: '1000', cost: String(n + k),
        supplierKind: 'FAMILY_FARMER', familyFarmerId: farmers[(n + k) % farmers.length], originMunicipalityCode: '2611606', externalId,
      }));
      r = await gql(port, token, PURCHASES, { i: batch });
      if (r.ok) {
        const entry = ledger.purchases.get(producerId) ?? { cost: 0n, externalIds: [] };
        entry.cost += BigInt(3 * n + 3);
        entry.externalIds.push(...externalIds);
        ledger.purchases.set(producerId, entry);
        lastBatch = batch;
      } else {
        ledger.unacknowledged.externalIds.push(...externalIds);
      }
      ledger.results.push({ ...r, kind: 'write' });
    }
    if (!r.ok && r.status !== 200) await sleep(50); // back off while the service is unavailable
  }
}

async function reader(port: number, token: string, producerId: string, stop: () => boolean, ledger: Ledger): Promise<void> {
  let n = 0;
  while (!stop()) {
    n++;
    const r = n % 2
      ? await gql(port, token, `query($p: ID!, $m: Int!) { taxPeriod(producerId: $p, year: 2026, month: $m) { totalDue feedstockCost } }`, { p: producerId, m: (n % 12) + 1 })
      : await gql(port, token, `query($p: ID!) { sealCompliance(producerId: $p, year: 2026) { countedTotal } }`, { p: producerId });
    ledger.results.push({ ...r, kind: 'read' });
    if (!r.ok && r.status !== 200) await sleep(50);
  }
}

interface Verdict {
  acknowledgedPurchases: number;
  acknowledgedSales: number;
  /** A commit cut off by the fault: reported, not lost. */
  storedThoughNotAcknowledged: number;
  problems: string[];
}

async function verifyLedger(databaseUrl: string, ledger: Ledger, tag: string): Promise<Verdict> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const problems: string[] = [];
  let acknowledgedPurchases = 0;
  let acknowledgedSales = 0;
  let storedThoughNotAcknowledged: number;
  try {
    for (const [producerId, entry] of ledger.purchases) {
      acknowledgedPurchases += entry.externalIds.length;
      const { rows } = await db.query(
        `SELECT count(*)::int AS n, coalesce(sum(cost), 0)::text AS cost FROM purchase WHERE producer_id = $1 AND external_id = ANY($2)`,
        [producerId, entry.externalIds],
      );
      if (rows[0].n !== entry.externalIds.length) problems.push(`producer ${producerId}: ${entry.externalIds.length} purchases acknowledged, ${rows[0].n} stored`);
      if (rows[0].cost !== entry.cost.toString()) problems.push(`producer ${producerId}: purchase cost acknowledged ${entry.cost}, stored ${rows[0].cost}`);
    }
    for (const [producerId, entry] of ledger.sales) {
      acknowledgedSales += entry.invoiceKeys.length;
      const { rows } = await db.query(
        `SELECT count(*)::int AS n, (coalesce(sum(revenue), 0) * 100)::numeric(30,0)::text AS cents FROM sale WHERE producer_id = $1 AND invoice_key = ANY($2)`,
        [producerId, entry.invoiceKeys],
      );
      if (rows[0].n !== entry.invoiceKeys.length) problems.push(`producer ${producerId}: ${entry.invoiceKeys.length} sales acknowledged, ${rows[0].n} stored`);
      if (rows[0].cents !== entry.revenueCents.toString()) problems.push(`producer ${producerId}: revenue acknowledged ${entry.revenueCents} cents, stored ${rows[0].cents}`);
    }
    // The scenario's rows in the database are the acknowledged ones plus, at most, commits cut off.
    const { rows: [p] } = await db.query(`SELECT count(*)::int AS n FROM purchase WHERE external_id LIKE $1`, [`${tag}%`]);
    const { rows: [u] } = await db.query(`SELECT count(*)::int AS n FROM purchase WHERE external_id = ANY($1)`, [ledger.unacknowledged.externalIds]);
    const { rows: [s] } = await db.query(`SELECT count(*)::int AS n FROM sale WHERE invoice_key = ANY($1)`, [ledger.unacknowledged.invoiceKeys]);
    storedThoughNotAcknowledged = u.n + s.n;
    if (p.n !== acknowledgedPurchases + u.n) problems.push(`${p.n} purchases of the run stored, ${acknowledgedPurchases} acknowledged + ${u.n} cut off`);
    if (u.n % 3 !== 0) problems.push(`a batch of three purchases was stored in part (${u.n} unacknowledged rows)`);
    const dup = await db.query(`SELECT count(*)::int AS n FROM (SELECT producer_id, external_id FROM purchase WHERE external_id IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1) d`);
    if (dup.rows[0].n) problems.push(`${dup.rows[0].n} duplicated externalIds`);
  } finally {
    await db.end();
  }
  if (ledger.replays.duplicate + Object.values(ledger.replays.other).reduce((a, b) => a + b, 0) !== ledger.replays.sent) problems.push('replay count mismatch');
  return { acknowledgedPurchases, acknowledgedSales, storedThoughNotAcknowledged, problems };
}

async function firstAnswerAfter(port: number, token: string, since: number): Promise<number> {
  while (Date.now() - since < 30_000) {
    const r = await gql(port, token, `{ producers(first: 1) { totalCount } }`);
    if (r.ok) return Date.now();
    await sleep(100);
  }
  return 0;
}

async function runClients(port: number, fx: Fixture, seconds: number, ledger: Ledger, tag: string, during?: () => Promise<void>) {
  const stopAtMs = Date.now() + seconds * 1000;
  const stop = () => Date.now() >= stopAtMs;
  const tokens = await Promise.all(fx.producers.map((p) => signToken(SECRET, { sub: `producer-${p}`, role: Role.PRODUCER, producerId: p })));
  const clients: Promise<void>[] = [];
  for (let i = 0; i < PLAN.writers; i++) clients.push(writer(port, tokens[i % tokens.length], fx.producers[i % fx.producers.length], fx.farmers, stop, ledger, `${tag}${i}-`));
  for (let i = 0; i < PLAN.readers; i++) clients.push(reader(port, i % 2 ? fx.admin : tokens[i % tokens.length], fx.producers[i % fx.producers.length], stop, ledger));
  if (during) clients.push(during());
  await Promise.all(clients);
}

function figures(results: Array<Result & { kind: string }>, seconds: number) {
  const of = (kind: string) => results.filter((r) => r.kind === kind);
  const latency = (rs: Result[]) => ({ requests: rs.length, p50ms: percentile(rs.map((r) => r.ms), 50), p95ms: percentile(rs.map((r) => r.ms), 95), p99ms: percentile(rs.map((r) => r.ms), 99), maxMs: percentile(rs.map((r) => r.ms), 100) });
  return {
    requests: results.length,
    requestsPerSecond: Math.round(results.length / seconds),
    writes: latency(of('write')),
    reads: latency(of('read')),
    errors: tally(results),
  };
}

/** 1. Load: writers and readers together; nothing fails but the replayed batches, refused as duplicates. */
async function loadScenario(pg: Embedded, api: Api, fx: Fixture) {
  const ledger = newLedger();
  const started = Date.now();
  await runClients(api.port, fx, PLAN.loadSeconds, ledger, 'load');
  const seconds = (Date.now() - started) / 1000;
  const verdict = await verifyLedger(pg.url, ledger, 'load');
  const unexpected = ledger.results.filter((r) => !r.ok && r.kind !== 'replay');
  return {
    seconds, clients: { writers: PLAN.writers, readers: PLAN.readers }, ...figures(ledger.results, seconds), replays: ledger.replays, ...verdict,
    pass: verdict.problems.length === 0 && unexpected.length === 0 && ledger.replays.sent > 0 && ledger.replays.duplicate === ledger.replays.sent
      && verdict.storedThoughNotAcknowledged === 0,
  };
}

/** 2. Database fault: PostgreSQL stopped mid-load and started again; the API stays up and recovers by itself. */
async function faultScenario(pg: Embedded, api: Api, fx: Fixture) {
  const ledger = newLedger();
  const readyz: Array<{ at: number; status: number; ms: number }> = [];
  const probes: Result[] = [];
  let stoppedAt = 0;
  let restartedAt = 0;
  let recoveredAt = 0;
  const started = Date.now();
  const readyzNow = async () => {
    const t = performance.now();
    try {
      const res = await fetch(`http://127.0.0.1:${api.port}/readyz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      return { at: Date.now(), status: res.status, ms: performance.now() - t };
    } catch {
      return { at: Date.now(), status: 0, ms: performance.now() - t };
    }
  };
  let readyAfter: { status: number } | undefined;
  const total = PLAN.faultBeforeSeconds + PLAN.faultDownSeconds + PLAN.faultAfterSeconds;
  await runClients(api.port, fx, total, ledger, 'fault', async () => {
    await sleep(PLAN.faultBeforeSeconds * 1000);
    stoppedAt = Date.now();
    await pg.stop();
    const until = Date.now() + PLAN.faultDownSeconds * 1000;
    while (Date.now() < until) {
      probes.push(await gql(api.port, fx.admin, `{ producers(first: 1) { totalCount } }`));
      readyz.push(await readyzNow());
      await sleep(250);
    }
    await pg.restart();
    restartedAt = Date.now();
    recoveredAt = await firstAnswerAfter(api.port, fx.admin, restartedAt);
    readyAfter = await readyzNow();
  });
  const seconds = (Date.now() - started) / 1000;
  const verdict = await verifyLedger(pg.url, ledger, 'fault');
  // Answers to requests sent while the database was down (stop finished → restart begun).
  const down = [...ledger.results, ...probes].filter((r) => r.startedAt >= stoppedAt && r.startedAt < restartedAt - 1000);
  const unavailable = ledger.results.filter((r) => r.code === 'DATABASE_UNAVAILABLE');
  // Once recovered (plus a second for requests already queued), nothing may fail but the replays.
  const afterRecovery = ledger.results.filter((r) => recoveredAt && r.startedAt > recoveredAt + 1000 && r.kind !== 'replay');
  const allowed = new Set(['DATABASE_UNAVAILABLE', 'CONFLICT/DUPLICATE']);
  const result = {
    seconds, ...figures(ledger.results, seconds), replays: ledger.replays,
    downSeconds: (restartedAt - stoppedAt) / 1000,
    apiStayedUp: api.child.exitCode === null,
    answersWhileDown: { requests: down.length, unanswered: down.filter((r) => r.status === 0).length, p99ms: percentile(down.map((r) => r.ms), 99), maxMs: percentile(down.map((r) => r.ms), 100), codes: tally(down) },
    databaseUnavailableHttpStatus: [...new Set(unavailable.map((r) => r.status))],
    readyzWhileDown: { statuses: [...new Set(readyz.map((r) => r.status))], maxMs: percentile(readyz.map((r) => r.ms), 100) },
    readyzAfterRecovery: readyAfter?.status,
    recoverySecondsAfterRestart: recoveredAt ? (recoveredAt - restartedAt) / 1000 : null,
    errorsAfterRecovery: tally(afterRecovery),
    ...verdict,
  };
  // The suite asserts `correct` only; time is judged here.
  const correct = verdict.problems.length === 0 && result.apiStayedUp
    && Object.keys(result.errors).every((c) => allowed.has(c))
    && unavailable.length > 0 && result.databaseUnavailableHttpStatus.every((s) => s === 503)
    && down.length > 0 && result.answersWhileDown.unanswered === 0
    && result.readyzWhileDown.statuses.length === 1 && result.readyzWhileDown.statuses[0] === 503
    && result.readyzAfterRecovery === 200
    && recoveredAt > 0
    && afterRecovery.length > 0 && afterRecovery.every((r) => r.ok);
  const withinTime = result.answersWhileDown.maxMs < DOWN_ANSWER_LIMIT_MS && result.readyzWhileDown.maxMs < DOWN_ANSWER_LIMIT_MS
    && recoveredAt - restartedAt < RECOVERY_LIMIT_MS;
  return { ...result, correct, withinTime, pass: correct && withinTime };
}

function clusterPids(dataDir: string): number[] {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
    try {
      // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after the last ')'.
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
    } catch {
      return false;
    }
  }).map(Number);
  return [postmaster, ...children];
}

/** 3. Frozen database (SIGSTOP, then SIGCONT): none hangs past the request timeout. */
async function freezeScenario(pg: Embedded, api: Api, fx: Fixture) {
  if (!fs.existsSync('/proc/self/stat')) return { skipped: 'finding the cluster\'s processes needs /proc (Linux)', pass: true };
  const ledger = newLedger();
  let frozenAt = 0;
  let thawedAt = 0;
  let recoveredAt = 0;
  let readyz: { status: number; ms: number } | undefined;
  const probes: Array<Promise<Result>> = [];
  const started = Date.now();
  const before = 3;
  await runClients(api.port, fx, before + PLAN.freezeSeconds + 8, ledger, 'freeze', async () => {
    await sleep(before * 1000);
    const pids = clusterPids(pg.dataDir);
    frozenAt = Date.now();
    // Should this run die while the cluster is frozen, its processes are let go on the way out.
    const thaw = () => pids.forEach((pid) => { try { process.kill(pid, 'SIGCONT'); } catch { /* gone */ } });
    process.once('exit', thaw);
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    try {
      // More requests than the pool has connections: the frozen server never gives new ones.
      const waves = (async () => {
        for (let w = 0; w < PLAN.freezeSeconds - 6 && Date.now() < frozenAt + (PLAN.freezeSeconds - 6) * 1000; w++) {
          for (let i = 0; i < 24; i++) probes.push(gql(api.port, fx.admin, `{ producers(first: 1) { totalCount } }`));
          await sleep(1000);
        }
      })();
      await sleep(1000);
      const t = performance.now();
      const res = await fetch(`http://127.0.0.1:${api.port}/readyz`, { signal: AbortSignal.timeout(DOWN_ANSWER_LIMIT_MS) }).catch(() => undefined);
      readyz = { status: res?.status ?? 0, ms: Math.round(performance.now() - t) };
      await waves;
      await sleep(Math.max(0, frozenAt + PLAN.freezeSeconds * 1000 - Date.now()));
    } finally {
      thaw();
      process.removeListener('exit', thaw);
      thawedAt = Date.now();
    }
    recoveredAt = await firstAnswerAfter(api.port, fx.admin, thawedAt);
  });
  const seconds = (Date.now() - started) / 1000;
  const verdict = await verifyLedger(pg.url, ledger, 'freeze');
  const during = [...ledger.results, ...(await Promise.all(probes))].filter((r) => r.startedAt >= frozenAt && r.startedAt < thawedAt);
  const afterRecovery = ledger.results.filter((r) => recoveredAt && r.startedAt > recoveredAt + 1000 && r.kind !== 'replay');
  const allowed = new Set(['DATABASE_UNAVAILABLE', 'CONFLICT/DUPLICATE']);
  const result = {
    seconds, ...figures(ledger.results, seconds), replays: ledger.replays,
    frozenSeconds: (thawedAt - frozenAt) / 1000,
    apiStayedUp: api.child.exitCode === null,
    sentWhileFrozen: {
      requests: during.length, unanswered: during.filter((r) => r.status === 0).length,
      databaseUnavailable: during.filter((r) => r.code === 'DATABASE_UNAVAILABLE').length,
      p50ms: percentile(during.map((r) => r.ms), 50), maxMs: percentile(during.map((r) => r.ms), 100), codes: tally(during),
    },
    readyzWhileFrozen: readyz,
    recoverySecondsAfterThaw: recoveredAt ? (recoveredAt - thawedAt) / 1000 : null,
    errorsAfterRecovery: tally(afterRecovery),
    ...verdict,
  };
  const correct = verdict.problems.length === 0 && result.apiStayedUp
    && Object.keys(result.errors).every((c) => allowed.has(c))
    && during.length > 0 && result.sentWhileFrozen.unanswered === 0 && result.sentWhileFrozen.databaseUnavailable > 0
    && readyz?.status === 503
    && recoveredAt > 0
    && afterRecovery.length > 0 && afterRecovery.every((r) => r.ok);
  // Nobody waits much longer than the freeze itself: the pool's connect timeout or the thaw answers.
  const withinTime = result.sentWhileFrozen.maxMs < PLAN.freezeSeconds * 1000 + 3_000
    && readyz !== undefined && readyz.ms < DOWN_ANSWER_LIMIT_MS && recoveredAt - thawedAt < RECOVERY_LIMIT_MS;
  return { ...result, correct, withinTime, pass: correct && withinTime };
}

const SIMPLE = `{ producers(first: 1) { totalCount } }`;

/** What any other client sees during an attack. */
async function prober(port: number, token: string, stop: () => boolean, into: Result[]): Promise<void> {
  while (!stop()) {
    into.push(await gql(port, token, SIMPLE));
    await sleep(50);
  }
}

const probeFigures = (rs: Result[]) => ({ requests: rs.length, failed: rs.filter((r) => !r.ok).length, p50ms: percentile(rs.map((r) => r.ms), 50), p95ms: percentile(rs.map((r) => r.ms), 95), maxMs: percentile(rs.map((r) => r.ms), 100) });

const CATEGORIES = ['GENERAL', 'CASTOR_PALM_PRIORITY_REGION', 'FAMILY_FARMING', 'FAMILY_FARMING_PRIORITY_REGION'];
const RULES = `query { coefficientRules(on: "2026-03-01", asKnownOn: "2099-12-31") { category coefficient } }`;
const PUBLISH_RULE = `mutation($i: PublishCoefficientRuleInput!) { publishCoefficientRule(input: $i) { id } }`;

/** 5. Racing law versions from two replicas (in 2090); docs/SCALING.md. */
async function lawRaceScenario(pg: Embedded, api: Api, fx: Fixture) {
  const replica = await startApi(pg.url);
  const ports = [api.port, replica.port];
  const probes: Result[] = [];
  const publications: Result[] = [];
  const stale: string[] = [];
  const expected = new Map<string, string>();
  const acknowledged: string[] = [];
  let done = false;
  const started = Date.now();
  try {
    const warm = ports.map(async (port) => { while (!done) await gql(port, fx.admin, RULES); });
    const probing = prober(api.port, fx.admin, () => done, probes);
    for (let round = 0; round < PLAN.lawRounds; round++) {
      const publishedOn = new Date(Date.UTC(2090, 0, 1 + round)).toISOString().slice(0, 10);
      const sent = ports.map((port, k) => {
        const category = CATEGORIES[(2 * round + k) % CATEGORIES.length];
        // As the API writes a Decimal: no trailing zeros (0.5012, 0.502).
        const coefficient = String((5000 + round * 10 + k) / 10000);
        const legalBasis = `Decreto (reliability) ${round}/${k}, art. 1º`;
        return gql(port, fx.admin, PUBLISH_RULE, { i: { category, coefficient, pisPerM3: '1.5', cofinsPerM3: '7.25', validFrom: '2026-01-01', validUntil: '2026-12-31', publishedOn, legalBasis } })
          .then((r) => ({ r, category, coefficient, legalBasis }));
      });
      for (const { r, category, coefficient, legalBasis } of await Promise.all(sent)) {
        publications.push(r);
        if (r.ok) {
          expected.set(category, coefficient);
          acknowledged.push(legalBasis);
        }
      }
      for (const [k, port] of ports.entries()) {
        const answer = await gql(port, fx.admin, RULES);
        const rules = new Map((answer.data?.coefficientRules ?? []).map((c: { category: string; coefficient: string }) => [c.category, c.coefficient]));
        for (const [category, coefficient] of expected) {
          if (rules.get(category) !== coefficient) stale.push(`round ${round}, replica ${k}: ${category} ${rules.get(category)} instead of ${coefficient}`);
        }
      }
    }
    done = true;
    await Promise.all([...warm, probing]);
  } finally {
    done = true;
    replica.child.kill('SIGTERM');
    await Promise.race([replica.exited, sleep(30_000)]);
    if (replica.child.exitCode === null) replica.child.kill('SIGKILL');
  }
  const db = new Client({ connectionString: pg.url });
  await db.connect();
  const { rows: [stored] } = await db.query(`SELECT count(*)::int AS n FROM law_parameter_version WHERE legal_basis = ANY($1)`, [acknowledged]).finally(() => db.end());
  const result = {
    seconds: (Date.now() - started) / 1000, rounds: PLAN.lawRounds,
    acknowledgedPublications: acknowledged.length, lost: acknowledged.length - stored.n, staleAnswers: stale.length, stale: stale.slice(0, 5),
    http500: [...publications, ...probes].filter((r) => r.status === 500).length,
    publicationErrors: tally(publications), simpleQuery: probeFigures(probes),
  };
  const pass = result.acknowledgedPublications === 2 * PLAN.lawRounds && result.lost === 0 && result.staleAnswers === 0 && result.http500 === 0 && result.simpleQuery.failed === 0;
  return { ...result, pass };
}

function slowUpload(port: number, token: string, producerId: string, tag: string, stop: () => boolean): Promise<{ status: number; code: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (status: number, code: string) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      req.destroy();
      resolve({ status, code });
    };
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/import/purchases?producer=${producerId}`, agent: false,
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += String(d); });
      res.on('end', () => {
        let code = '';
        try { code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? ''; } catch { /* an empty body */ }
        finish(res.statusCode ?? 0, code);
      });
    });
    req.on('error', () => finish(0, 'CONNECTION_LOST'));
    req.write('purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode,externalId\n');
    let n = 0;
    // `finish` runs only from events and this timer's own ticks, after this line.
    const timer = setInterval(() => {
      if (stop()) return finish(0, 'STOPPED_BY_CLIENT');
      req.write(`2026-03-01,SOYBEAN,10,25,THIRD_PARTY,Lenta,2611606,${tag}-${n++}\n`);
    }, 1000);
  });
}

/** 6. Slow uploads: cut off or refused (never 500), other clients served as before. */
async function slowUploadScenario(pg: Embedded, api: Api, fx: Fixture) {
  const ledger = newLedger();
  const probes: Result[] = [];
  const uploads: Array<{ status: number; code: string }> = [];
  const started = Date.now();
  const stopAt = started + PLAN.slowUploadSeconds * 1000;
  const stop = () => Date.now() >= stopAt;
  const tokens = await Promise.all(fx.producers.map((p) => signToken(SECRET, { sub: `uploader-${p}`, role: Role.PRODUCER, producerId: p })));
  await runClients(api.port, fx, PLAN.slowUploadSeconds, ledger, 'slow', async () => {
    const attackers = Array.from({ length: PLAN.slowUploaders }, async (_, i) => {
      for (let k = 0; !stop(); k++) {
        const answer = await slowUpload(api.port, tokens[i % tokens.length], fx.producers[i % fx.producers.length], `slowupload-${i}-${k}`, stop);
        uploads.push(answer);
        if (answer.status === 429 || answer.status === 503) await sleep(500);
      }
    });
    await Promise.all([...attackers, prober(api.port, fx.admin, stop, probes)]);
  });
  const seconds = (Date.now() - started) / 1000;
  const verdict = await verifyLedger(pg.url, ledger, 'slow');
  const db = new Client({ connectionString: pg.url });
  await db.connect();
  const { rows: [written] } = await db.query(`SELECT count(*)::int AS n FROM purchase WHERE external_id LIKE 'slowupload-%'`).finally(() => db.end());
  const answered = uploads.filter((u) => u.code !== 'STOPPED_BY_CLIENT');
  const statuses: Record<string, number> = {};
  for (const u of answered) statuses[`${u.status}${u.code ? ` ${u.code}` : ''}`] = (statuses[`${u.status}${u.code ? ` ${u.code}` : ''}`] ?? 0) + 1;
  const unexpected = ledger.results.filter((r) => !r.ok && r.kind !== 'replay');
  const result = {
    seconds, slowUploaders: PLAN.slowUploaders, ...figures(ledger.results, seconds), replays: ledger.replays,
    uploads: { answered: answered.length, statuses: Object.fromEntries(Object.entries(statuses).sort()), rowsWritten: written.n },
    http500: [...ledger.results, ...probes].filter((r) => r.status === 500).length + answered.filter((u) => u.status === 500).length,
    simpleQuery: probeFigures(probes),
    lost: verdict.problems.length, ...verdict,
  };
  const pass = verdict.problems.length === 0 && unexpected.length === 0 && result.http500 === 0 && result.simpleQuery.failed === 0
    && answered.length > 0 && answered.every((u) => [408, 429, 503].includes(u.status) || u.code === 'CONNECTION_LOST') && written.n === 0;
  return { ...result, pass };
}

function rssOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

const FILES_SEED = 2812;

/** 7. The suite's file fuzzer against the process: nothing left behind, no slot leaked. */
async function filesScenario(pg: Embedded, api: Api, fx: Fixture) {
  const runs = SHORT ? 60 : 1_000;
  const target: FuzzTarget = { producerId: fx.producers[0], bombBytes: 140 << 20, bombRows: 1_100_000, lineBytes: 1 << 20 };
  const producerToken = await signToken(SECRET, { sub: 'files-producer', role: Role.PRODUCER, producerId: fx.producers[0] });
  const adminToken = await signToken(SECRET, { sub: 'files-admin', role: Role.ADMIN });
  const db = new Client({ connectionString: pg.url });
  await db.connect();
  const counts = async () => (await db.query(`SELECT (SELECT count(*) FROM sale) || '/' || (SELECT count(*) FROM purchase) || '/' || (SELECT count(*) FROM family_farmer)
    || '/' || (SELECT count(*) FROM municipality) || '/' || (SELECT count(*) FROM semiarid_membership) || '/' || (SELECT count(*) FROM audit_entry) AS n`)).rows[0].n as string;
  const held = async () => (await db.query(`SELECT -- client backends only: autovacuum's workers come and go with their own locks
      (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
         AND (state LIKE 'idle in transaction%' OR state = 'active' OR query LIKE 'COPY import_stage%')) AS busy,
      (SELECT count(*)::int FROM pg_locks WHERE pid IN (SELECT pid FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend')) AS locks`)).rows[0] as { busy: number; locks: number };
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const failures: string[] = [];
  let answered = 0;
  let peakRss = 0;
  const atStart = rssOf(api.child.pid!);
  const started = Date.now();
  try {
    for (const spec of fc.sample(caseSpec, { seed: FILES_SEED, numRuns: runs })) {
      const c = await buildCase(spec, target);
      const before = await counts();
      const t0 = Date.now();
      let status = 0;
      let code: unknown;
      try {
        const res = await fetch(`http://127.0.0.1:${api.port}${c.path}`, {
          method: 'POST', headers: { 'content-type': c.contentType, authorization: `Bearer ${c.producer ? producerToken : adminToken}` }, body: c.body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS + 30_000),
        });
        status = res.status;
        const body = (await res.json()) as { import?: unknown; error?: { code?: unknown } };
        code = body.error?.code;
      } catch (e) {
        code = e instanceof Error ? e.name : 'FAILED';
      }
      times.push(Date.now() - t0);
      statuses[`${status}${typeof code === 'string' ? ` ${code}` : ''}`] = (statuses[`${status}${typeof code === 'string' ? ` ${code}` : ''}`] ?? 0) + 1;
      const what = `${c.kind} ${c.form} ${c.mutation} (case ${answered + failures.length + 1})`;
      const ok = (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 429 && typeof code === 'string');
      if (!ok) failures.push(`${what}: ${status} ${String(code)}`);
      else answered++;
      if (api.child.exitCode !== null) {
        failures.push(`${what}: the process exited`);
        break;
      }
      peakRss = Math.max(peakRss, rssOf(api.child.pid!).rss);
      const left = await held();
      if (left.busy || left.locks) failures.push(`${what}: ${JSON.stringify(left)} held`);
      if (status >= 400 && (await counts()) !== before) failures.push(`${what}: refused but wrote`);
    }
    // Six callers at once (the server's six slots): all served only if no slot leaked.
    const together = await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => {
      const token = await signToken(SECRET, { sub: `files-final-${n}`, role: Role.PRODUCER, producerId: fx.producers[0] });
      const res = await fetch(`http://127.0.0.1:${api.port}/import/sales`, { method: 'POST', headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` }, body: `soldOn,volumeM3,revenue\n2026-05-0${n},1,100\n` });
      return res.status;
    }));
    const leakedSlots = together.filter((s) => s === 429 || s === 503).length;
    const peak = api.child.exitCode === null ? rssOf(api.child.pid!) : { rss: 0, peak: 0 };
    const result = {
      seconds: (Date.now() - started) / 1000, seed: FILES_SEED, cases: runs, answered, statuses: Object.fromEntries(Object.entries(statuses).sort()),
      p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: percentile(times, 100),
      rssBeforeMb: atStart.rss, peakRssBeforeMb: atStart.peak, peakRssMb: Math.max(peak.peak, peakRss), rssAfterMb: peak.rss, leakedSlots, crashes: api.child.exitCode === null ? 0 : 1, failures: failures.slice(0, 20),
    };
    return { ...result, pass: failures.length === 0 && answered === runs && leakedSlots === 0 && result.crashes === 0 && together.every((s) => s === 200) };
  } finally {
    await db.end();
  }
}

/** The ways a request is refused once SIGTERM arrived. */
const REFUSED = new Set(['CONNECTION_REFUSED', 'CONNECTION_LOST', 'SHUTTING_DOWN', 'ECONNREFUSED', 'ECONNRESET', 'HTTP_503']);

/** 4. Shutdown: SIGTERM mid-load; requests in flight are answered, new connections refused, exit 0. */
async function shutdownScenario(pg: Embedded, api: Api, fx: Fixture) {
  const ledger = newLedger();
  let exitCode: number | null = null;
  let signalledAt = 0;
  let exitedAt = 0;
  let probeWhileDraining: { outcome: string; processAlive: boolean } | undefined;
  let afterExit: Result | undefined;
  await runClients(api.port, fx, PLAN.shutdownAfterSeconds + 3, ledger, 'stop', async () => {
    await sleep(PLAN.shutdownAfterSeconds * 1000);
    signalledAt = Date.now();
    api.child.kill('SIGTERM');
    await sleep(200);
    const outcome = await freshConnectionProbe(api.port);
    probeWhileDraining = { outcome, processAlive: api.child.exitCode === null };
    exitCode = await Promise.race([api.exited, sleep(30_000).then(() => -1)]);
    exitedAt = Date.now();
    afterExit = await gql(api.port, fx.admin, `{ producers(first: 1) { totalCount } }`);
  });
  const verdict = await verifyLedger(pg.url, ledger, 'stop');
  // In flight: sent at least 10 ms before the signal (so on the server's side of the wire) and not answered by then.
  const inFlight = ledger.results.filter((r) => r.startedAt <= signalledAt - 10 && r.endedAt >= signalledAt);
  const before = ledger.results.filter((r) => r.startedAt < signalledAt - 10);
  const after = ledger.results.filter((r) => r.startedAt >= signalledAt);
  // A request unread when the drain closes an idle keep-alive connection is lost on the wire
  // (HTTP/1.1 cannot tell); the server counts what it read and cut.
  const requestsCut = api.requestsCut();
  const neverRead = (r: Result) => r.code === 'CONNECTION_LOST';
  const result = {
    exitCode, secondsToExit: (exitedAt - signalledAt) / 1000,
    inFlightAtSignal: {
      requests: inFlight.length, answered: inFlight.filter((r) => r.status > 0).length, codes: tally(inFlight),
      lostOnTheWire: inFlight.filter(neverRead).length, cutByTheServer: requestsCut,
    },
    beforeSignal: { requests: before.length, errors: tally(before) },
    afterSignal: { requests: after.length, answered: after.filter((r) => r.status > 0).length, codes: tally(after) },
    newConnectionWhileDraining: probeWhileDraining, newRequestAfterExit: afterExit?.code,
    replays: ledger.replays, ...verdict,
  };
  const pass = verdict.problems.length === 0 && exitCode === 0
    && inFlight.some((r) => r.ok) && inFlight.every((r) => r.ok || neverRead(r) || (r.code === 'CONFLICT' && r.reason === 'DUPLICATE'))
    && before.every((r) => r.ok || neverRead(r) || (r.code === 'CONFLICT' && r.reason === 'DUPLICATE'))
    && after.every((r) => r.ok || REFUSED.has(r.code ?? '') || (r.code === 'CONFLICT' && r.reason === 'DUPLICATE'))
    // A request the server took but could not answer any more must not have been run.
    && verdict.storedThoughNotAcknowledged === 0
    && REFUSED.has(probeWhileDraining?.outcome ?? '')
    && afterExit?.code === 'CONNECTION_REFUSED';
  return { ...result, pass };
}

async function main() {
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-reliability-'));
  fs.chmodSync(dataRoot, 0o755);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const embedded: EmbeddedModule = require('../src/database/embedded.mjs');
  const pg = await embedded.startEmbeddedPostgres({ dataDir: path.join(dataRoot, 'pg'), persistent: true });
  const report: Record<string, any> = {
    plan: { short: SHORT, ...PLAN },
    machine: `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`,
    startedAt: new Date().toISOString(),
  };
  let api: Api | undefined;
  try {
    api = await startApi(pg.url);
    const fx = await seed(api.port);
    if (ONLY.has('load')) report.load = await loadScenario(pg, api, fx);
    if (ONLY.has('fault')) report.databaseFault = await faultScenario(pg, api, fx);
    if (ONLY.has('freeze')) report.frozenDatabase = await freezeScenario(pg, api, fx);
    if (ONLY.has('law')) report.lawRace = await lawRaceScenario(pg, api, fx);
    if (ONLY.has('upload')) report.slowUploads = await slowUploadScenario(pg, api, fx);
    if (ONLY.has('files')) report.hostileFiles = await filesScenario(pg, api, fx);
    if (ONLY.has('shutdown')) {
      report.shutdown = await shutdownScenario(pg, api, fx);
      api = undefined;
    }
  } finally {
    if (api && api.child.exitCode === null) {
      api.child.kill('SIGTERM');
      await Promise.race([api.exited, sleep(30_000)]);
      if (api.child.exitCode === null) api.child.kill('SIGKILL');
    }
    await pg.stop().catch(() => undefined);
    fs.rmSync(dataRoot, { recursive: true, force: true });
  }
  const ran = ['load', 'databaseFault', 'frozenDatabase', 'lawRace', 'slowUploads', 'hostileFiles', 'shutdown'].filter((k) => report[k]);
  report.pass = ran.every((k) => report[k].pass === true);
  report.correct = ran.every((k) => (report[k].correct ?? report[k].pass) === true);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(report, null, 2));
  process.exit(report.pass ? 0 : 1);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(2);
});
