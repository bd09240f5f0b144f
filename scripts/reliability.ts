// `npm run reliability [-- --short] [--json FILE]`: load, database-fault and shutdown runs against
// the real API process and an embedded PostgreSQL of its own, on loopback only. Every loop is
// bounded in count and time and the run stops by itself. It prints its figures and exits 1 when
// any verdict fails. `--short` is the version the test suite runs.
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { cpf as cpfLib } from 'cpf-cnpj-validator';
import { Client } from 'pg';
import { signToken } from '../src/graphql/auth/token';
import { Role } from '../src/law/types';

interface Embedded {
  url: string;
  stop(): Promise<void>;
  restart(): Promise<void>;
}
interface EmbeddedModule {
  startEmbeddedPostgres(o: { dataDir: string; persistent?: boolean; log?: (m: string) => void }): Promise<Embedded>;
}

const args = process.argv.slice(2);
const SHORT = args.includes('--short');
const JSON_OUT = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const SECRET = 'reliability-secret-with-enough-length-0123456789';
const ROOT = path.resolve(__dirname, '..');

const PLAN = SHORT
  ? { writers: 8, readers: 4, loadSeconds: 8, faultSeconds: 3, shutdownAfterSeconds: 3 }
  : { writers: 48, readers: 16, loadSeconds: 60, faultSeconds: 8, shutdownAfterSeconds: 15 };
/** Per request: no client waits longer than this, so a hang shows as a failure, not a stuck run. */
const REQUEST_TIMEOUT_MS = 15_000;

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
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Api {
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
}

async function startApi(databaseUrl: string): Promise<Api> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, JWT_SECRET: SECRET, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => { stderr = (stderr + String(d)).slice(-4000); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API exited during start-up: ${stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error(`API not ready within 60 s: ${stderr}`);
    await sleep(200);
  }
  return { port, child, exited };
}

interface Result {
  ok: boolean;
  status: number;
  code?: string;
  ms: number;
  data?: Record<string, any>;
}

async function gql(port: number, token: string, query: string, variables: Record<string, unknown> = {}): Promise<Result> {
  const started = performance.now();
  try {
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = (await res.json()) as { data?: Record<string, any>; errors?: Array<{ extensions?: { code?: string } }> };
    const code = body.errors?.[0]?.extensions?.code;
    return { ok: !body.errors?.length && res.ok, status: res.status, code, ms: performance.now() - started, data: body.data };
  } catch (e) {
    const name = (e as Error).name === 'TimeoutError' ? 'CLIENT_TIMEOUT' : 'CONNECTION_REFUSED';
    return { ok: false, status: 0, code: name, ms: performance.now() - started };
  }
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
  for (const cnpj of ['11222333000181', '45997418000153', '19131243000197', '60746948000112']) {
    const d = must(await gql(port, admin, `mutation($c: CNPJ!) { createProducer(input: { cnpj: $c, legalName: "Usina ${cnpj}", plantMunicipalityCode: "2611606" }) { id } }`, { c: cnpj }), 'producer');
    producers.push(d.createProducer.id);
    must(await gql(port, admin, `mutation($p: ID!) { electRegime(input: { producerId: $p, regime: SPECIAL_PER_M3, electedOn: "2025-11-03" }) { effectiveYear } }`, { p: d.createProducer.id }), 'regime');
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
  purchases: Map<string, { producerId: string; cost: bigint; externalIds: string[] }>;
  sales: Map<string, { producerId: string; revenueCents: bigint; invoiceKeys: string[] }>;
  errors: Map<string, number>;
  latencies: number[];
  requests: number;
}

function newLedger(): Ledger {
  return { purchases: new Map(), sales: new Map(), errors: new Map(), latencies: [], requests: 0 };
}

let sequence = 0;
const nextSeq = () => ++sequence;

/**
 * One writer: batches of purchases and sales until `stopAt`; what the API acknowledged is kept
 * in the ledger. Months are spread over 2026 (open periods; the zero window included).
 */
async function writer(port: number, token: string, producerId: string, farmers: string[], stopAt: () => boolean, ledger: Ledger, tag: string): Promise<void> {
  while (!stopAt()) {
    const n = nextSeq();
    const month = String((n % 12) + 1).padStart(2, '0');
    const day = String((n % 27) + 1).padStart(2, '0');
    let r: Result;
    if (n % 3 === 0) {
      const invoiceKey = (10n ** 43n + BigInt(n)).toString(); // 44 digits, unique per request
      r = await gql(port, token, `mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, {
        i: [{ producerId, soldOn: `2026-${month}-${day}`, volumeM3: '10.5', revenue: `${n}.25`, invoiceKey }],
      });
      if (r.ok) {
        const entry = ledger.sales.get(producerId) ?? { producerId, revenueCents: 0n, invoiceKeys: [] };
        entry.revenueCents += BigInt(n) * 100n + 25n;
        entry.invoiceKeys.push(invoiceKey);
        ledger.sales.set(producerId, entry);
      }
    } else {
      const externalIds = [0, 1, 2].map((k) => `${tag}-${n}-${k}`);
      r = await gql(port, token, `mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, {
        i: externalIds.map((externalId, k) => ({
          producerId, purchasedOn: `2026-${month}-${day}`, feedstock: 'SOYBEAN', quantityKg: '1000', cost: String(n + k),
          supplierKind: 'FAMILY_FARMER', familyFarmerId: farmers[(n + k) % farmers.length], originMunicipalityCode: '2611606', externalId,
        })),
      });
      if (r.ok) {
        const entry = ledger.purchases.get(producerId) ?? { producerId, cost: 0n, externalIds: [] };
        entry.cost += BigInt(3 * n + 3);
        entry.externalIds.push(...externalIds);
        ledger.purchases.set(producerId, entry);
      }
    }
    ledger.requests++;
    ledger.latencies.push(r.ms);
    if (!r.ok) ledger.errors.set(r.code ?? String(r.status), (ledger.errors.get(r.code ?? String(r.status)) ?? 0) + 1);
    if (r.code === 'CONNECTION_REFUSED') await sleep(50);
  }
}

async function reader(port: number, token: string, producerId: string, stopAt: () => boolean, ledger: Ledger): Promise<void> {
  let n = 0;
  while (!stopAt()) {
    n++;
    const r = n % 2
      ? await gql(port, token, `query($p: ID!, $m: Int!) { taxPeriod(producerId: $p, year: 2026, month: $m) { totalDue } }`, { p: producerId, m: (n % 12) + 1 })
      : await gql(port, token, `query($p: ID!) { sealCompliance(producerId: $p, year: 2026) { countedTotal } }`, { p: producerId });
    ledger.requests++;
    ledger.latencies.push(r.ms);
    if (!r.ok) ledger.errors.set(r.code ?? String(r.status), (ledger.errors.get(r.code ?? String(r.status)) ?? 0) + 1);
    if (r.code === 'CONNECTION_REFUSED') await sleep(50);
  }
}

/** Everything the API acknowledged is in the database: per producer, the same ids and sums. */
async function verifyLedger(databaseUrl: string, ledger: Ledger): Promise<{ ok: boolean; acknowledgedPurchases: number; acknowledgedSales: number; problems: string[] }> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const problems: string[] = [];
  let acknowledgedPurchases = 0;
  let acknowledgedSales = 0;
  try {
    for (const entry of ledger.purchases.values()) {
      acknowledgedPurchases += entry.externalIds.length;
      const { rows } = await db.query(
        `SELECT count(*)::int AS n, coalesce(sum(cost), 0)::text AS cost FROM purchase WHERE producer_id = $1 AND external_id = ANY($2)`,
        [entry.producerId, entry.externalIds],
      );
      if (rows[0].n !== entry.externalIds.length) problems.push(`producer ${entry.producerId}: ${entry.externalIds.length} purchases acknowledged, ${rows[0].n} stored`);
      if (rows[0].cost !== entry.cost.toString()) problems.push(`producer ${entry.producerId}: purchase cost acknowledged ${entry.cost}, stored ${rows[0].cost}`);
    }
    for (const entry of ledger.sales.values()) {
      acknowledgedSales += entry.invoiceKeys.length;
      const { rows } = await db.query(
        `SELECT count(*)::int AS n, (coalesce(sum(revenue), 0) * 100)::numeric(30,0)::text AS cents FROM sale WHERE producer_id = $1 AND invoice_key = ANY($2)`,
        [entry.producerId, entry.invoiceKeys],
      );
      if (rows[0].n !== entry.invoiceKeys.length) problems.push(`producer ${entry.producerId}: ${entry.invoiceKeys.length} sales acknowledged, ${rows[0].n} stored`);
      if (rows[0].cents !== entry.revenueCents.toString()) problems.push(`producer ${entry.producerId}: revenue acknowledged ${entry.revenueCents} cents, stored ${rows[0].cents}`);
    }
    const dup = await db.query(`SELECT count(*)::int AS n FROM (SELECT producer_id, external_id FROM purchase WHERE external_id IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1) d`);
    if (dup.rows[0].n) problems.push(`${dup.rows[0].n} duplicated externalIds`);
  } finally {
    await db.end();
  }
  return { ok: problems.length === 0, acknowledgedPurchases, acknowledgedSales, problems };
}

async function runClients(port: number, fx: Fixture, seconds: number, ledger: Ledger, tag: string, during?: () => Promise<void>) {
  const stopAtMs = Date.now() + seconds * 1000;
  const stopAt = () => Date.now() >= stopAtMs;
  const tokens = await Promise.all(fx.producers.map((p) => signToken(SECRET, { sub: `producer-${p}`, role: Role.PRODUCER, producerId: p })));
  const clients: Promise<void>[] = [];
  for (let i = 0; i < PLAN.writers; i++) clients.push(writer(port, tokens[i % tokens.length], fx.producers[i % fx.producers.length], fx.farmers, stopAt, ledger, `${tag}${i}`));
  for (let i = 0; i < PLAN.readers; i++) clients.push(reader(port, i % 2 ? fx.admin : tokens[i % tokens.length], fx.producers[i % fx.producers.length], stopAt, ledger));
  if (during) clients.push(during());
  await Promise.all(clients);
}

function errorsObject(ledger: Ledger) {
  return Object.fromEntries([...ledger.errors.entries()].sort());
}

async function main() {
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-reliability-'));
  fs.chmodSync(dataRoot, 0o755);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const embedded: EmbeddedModule = require('../src/database/embedded.mjs');
  const pg = await embedded.startEmbeddedPostgres({ dataDir: path.join(dataRoot, 'pg'), persistent: true });
  const report: Record<string, any> = { plan: PLAN, machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`, date: new Date().toISOString().slice(0, 10) };
  let api: Api | undefined;
  try {
    api = await startApi(pg.url);
    const fx = await seed(api.port);

    // 1. Load: writers and readers together; only expected conflicts may fail.
    const load = newLedger();
    const started = Date.now();
    await runClients(api.port, fx, PLAN.loadSeconds, load, 'load');
    const loadVerdict = await verifyLedger(pg.url, load);
    report.load = {
      seconds: (Date.now() - started) / 1000, requests: load.requests, requestsPerSecond: Math.round(load.requests / PLAN.loadSeconds),
      p50ms: Math.round(percentile(load.latencies, 50)), p99ms: Math.round(percentile(load.latencies, 99)), errors: errorsObject(load), ...loadVerdict,
      pass: loadVerdict.ok && [...load.errors.keys()].every((c) => c === 'CONFLICT'),
    };

    // 2. Database fault: PostgreSQL stopped mid-load and started again.
    const fault = newLedger();
    const readyz: Array<{ at: number; status: number }> = [];
    const downErrors: number[] = [];
    let stoppedAt = 0;
    let restartedAt = 0;
    let recoveredAt = 0;
    const faultStart = Date.now();
    await runClients(api.port, fx, PLAN.faultSeconds * 3 + 4, fault, 'fault', async () => {
      await sleep(PLAN.faultSeconds * 1000);
      stoppedAt = Date.now();
      await pg.stop();
      const until = Date.now() + PLAN.faultSeconds * 1000;
      while (Date.now() < until) {
        const t = performance.now();
        const r = await gql(api!.port, fx.admin, `{ producers(first: 1) { totalCount } }`);
        if (!r.ok) downErrors.push(performance.now() - t);
        try {
          const res = await fetch(`http://127.0.0.1:${api!.port}/readyz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
          readyz.push({ at: Date.now() - stoppedAt, status: res.status });
        } catch {
          readyz.push({ at: Date.now() - stoppedAt, status: 0 });
        }
        await sleep(250);
      }
      await pg.restart();
      restartedAt = Date.now();
      while (Date.now() - restartedAt < 30_000) {
        const r = await gql(api!.port, fx.admin, `{ producers(first: 1) { totalCount } }`);
        if (r.ok) { recoveredAt = Date.now(); break; }
        await sleep(100);
      }
    });
    const faultVerdict = await verifyLedger(pg.url, fault);
    const faultCodes = Object.keys(errorsObject(fault));
    report.databaseFault = {
      seconds: (Date.now() - faultStart) / 1000, downSeconds: (restartedAt - stoppedAt) / 1000,
      apiStayedUp: api.child.exitCode === null,
      readyzWhileDown: [...new Set(readyz.map((r) => r.status))],
      errorAnswerWhileDownP99ms: Math.round(percentile(downErrors, 99)),
      recoverySecondsAfterRestart: recoveredAt ? (recoveredAt - restartedAt) / 1000 : null,
      errors: errorsObject(fault), ...faultVerdict,
    };
    report.databaseFault.pass = faultVerdict.ok && report.databaseFault.apiStayedUp
      && readyz.some((r) => r.status === 503) && recoveredAt > 0 && (recoveredAt - restartedAt) < 10_000
      && report.databaseFault.errorAnswerWhileDownP99ms < 7_000
      && !faultCodes.includes('CLIENT_TIMEOUT') && !faultCodes.includes('INTERNAL_SERVER_ERROR');

    // 3. Shutdown: SIGTERM mid-load; in-flight requests complete, new ones are refused, exit 0.
    const shutdown = newLedger();
    let exitCode: number | null = null;
    let afterSignal: Result | undefined;
    await runClients(api.port, fx, PLAN.shutdownAfterSeconds + 3, shutdown, 'stop', async () => {
      await sleep(PLAN.shutdownAfterSeconds * 1000);
      api!.child.kill('SIGTERM');
      exitCode = await Promise.race([api!.exited, sleep(30_000).then(() => -1)]);
      afterSignal = await gql(api!.port, fx.admin, `{ producers(first: 1) { totalCount } }`);
    });
    const shutdownVerdict = await verifyLedger(pg.url, shutdown);
    const shutdownCodes = Object.keys(errorsObject(shutdown));
    report.shutdown = {
      exitCode, newRequestAfterExit: afterSignal?.code, errors: errorsObject(shutdown), ...shutdownVerdict,
      pass: shutdownVerdict.ok && exitCode === 0 && afterSignal?.code === 'CONNECTION_REFUSED'
        && shutdownCodes.every((c) => c === 'CONNECTION_REFUSED' || c === 'CONFLICT'),
    };
    api = undefined;
  } finally {
    if (api && api.child.exitCode === null) api.child.kill('SIGKILL');
    await pg.stop().catch(() => undefined);
    fs.rmSync(dataRoot, { recursive: true, force: true });
  }
  const pass = report.load.pass && report.databaseFault.pass && report.shutdown.pass;
  report.pass = pass;
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(report, null, 2));
  process.exit(pass ? 0 : 1);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(2);
});
