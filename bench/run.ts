// `npm run bench [-- --quick] [--only a,b] [--seconds N] [--national [--national-scale F]]`: each
// case beside hand-written SQL in the same run, as only ratios mean anything on a shared machine.
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Client, Pool } from 'pg';
import pino from 'pino';
import { DataSource, Logger as TypeOrmLogger } from 'typeorm';
import { openDatabase } from '../src/database/data-source';
import { prepareDatabase } from '../src/database/prepare';
import { hs256, signToken } from '../src/graphql/auth/token';
import { decimalText, MONEY_SCALE, QUANTITY_SCALE } from '../src/graphql/scalars';
import { Decimal } from '../src/law/decimal';
import { Role } from '../src/law/types';
import { createApp } from '../src/server';
import { BenchData, BenchScale, buildBenchData, SCALES } from './data';
import { Shape, SHAPES } from './shapes';
import { semiaridDays } from '../src/services/facts/priority-region.sql';
import { membershipDays, membershipOnSql } from '../src/services/facts/organization-membership.sql';

const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const SCALE: BenchScale = QUICK ? SCALES.quick : SCALES.full;
const RUNS = QUICK ? 2 : 7;
export const CASES = ['taxPeriod', 'sealCompliance', 'nestedPage', 'shapes', 'typename', 'dashboard', 'import', 'coldStart'] as const;
type Case = (typeof CASES)[number];

export function casesToRun(argv: readonly string[]): ReadonlySet<Case> {
  const i = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (i < 0) return new Set(CASES);
  const list = argv[i].startsWith('--only=') ? argv[i].slice('--only='.length) : argv[i + 1] ?? '';
  const chosen = new Set<Case>();
  for (const word of list.split(',').map((w) => w.trim()).filter(Boolean)) {
    const found = CASES.find((c) => c.toLowerCase() === word.toLowerCase());
    if (!found) throw new Error(`bench: unknown case "${word}" in --only (cases: ${CASES.join(', ')})`);
    chosen.add(found);
  }
  if (chosen.size === 0) throw new Error(`bench: --only names no case (cases: ${CASES.join(', ')})`);
  return chosen;
}
const ONLY = casesToRun(args);
const SECONDS_AT = args.indexOf('--seconds');
const LOAD_SECONDS = SECONDS_AT >= 0 ? Number(args[SECONDS_AT + 1]) : undefined;
if (LOAD_SECONDS !== undefined && !(LOAD_SECONDS > 0)) throw new Error('bench: --seconds needs a number of seconds above 0');
const PARTIAL = ONLY.size < CASES.length;
const SECRET = 'bench-secret-with-enough-length-0123456789abcdef';
const ROOT = path.resolve(__dirname, '..');

interface Timing { median: number; min: number; max: number; runs: number[] }

function timing(runs: number[]): Timing {
  const sorted = [...runs].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1], runs };
}

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/**
 * Alternately, so that noise hits both alike; `warmups` runs of each side first, for a case short
 * enough that a cold path's compilation would weigh.
 */
export async function sideBySide(a: () => Promise<unknown>, b: () => Promise<unknown>, warmups = 1, runs = RUNS) {
  for (let i = 0; i < (QUICK ? 1 : warmups); i++) {
    await a();
    await b();
  }
  const ra: number[] = [];
  const rb: number[] = [];
  for (let i = 0; i < (QUICK ? RUNS : runs); i++) {
    ra.push(await timeIt(a));
    rb.push(await timeIt(b));
  }
  return { api: timing(ra), sql: timing(rb), ratio: timing(ra).median / timing(rb).median };
}

class Counter implements TypeOrmLogger {
  count = 0;
  texts: string[] = [];
  logQuery(query: string) {
    this.count++;
    if (this.texts.length < 20) this.texts.push(query.slice(0, 200));
  }
  reset() {
    this.count = 0;
    this.texts = [];
  }
  logQueryError() {}
  logQuerySlow() {}
  logSchemaBuild() {}
  logMigration() {}
  log() {}
}

export async function serverUrl(): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-bench-pg-'));
  fs.chmodSync(dataRoot, 0o755);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const embedded = require('../src/database/embedded.mjs') as { startEmbeddedPostgres(o: { dataDir: string; persistent?: boolean }): Promise<{ url: string; stop(): Promise<void> }> };
  const pg = await embedded.startEmbeddedPostgres({ dataDir: path.join(dataRoot, 'data'), persistent: false });
  return { url: pg.url, stop: async () => { await pg.stop(); fs.rmSync(dataRoot, { recursive: true, force: true }); } };
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const MONTH_SEMIARID = semiaridDays('sa', 'p.origin_municipality_code');
const FOMENTO_SEMIARID = semiaridDays('sa', 'f.municipality_code');

/** $1 producer, $2–$3 the month, $4 the cooperative minimum share. */
export const TAX_MONTH_SQL = [
  `SELECT p.feedstock IN ('CASTOR_BEAN', 'PALM') AS castor_palm, ${MONTH_SEMIARID.priority('p.purchased_on')} AS priority_region, p.supplier_kind = 'OWN_PRODUCTION' AS own,
          CASE p.supplier_kind
            WHEN 'FAMILY_FARMER' THEN EXISTS (SELECT 1 FROM family_farmer_registration r WHERE r.family_farmer_id = p.family_farmer_id AND p.purchased_on BETWEEN r.valid_from AND r.valid_until)
            WHEN 'COOPERATIVE' THEN EXISTS (SELECT 1 FROM organization_registration r CROSS JOIN LATERAL ${membershipOnSql('r.organization_id', 'p.purchased_on')} o
                                            WHERE r.organization_id = p.organization_id AND p.purchased_on BETWEEN r.valid_from AND r.valid_until AND o.family_farmer_members >= o.members * $4::numeric)
            ELSE false END AS family_farming,
          sum(p.cost) AS cost, sum(p.quantity_kg) AS kg
     FROM purchase p ${MONTH_SEMIARID.join}
    WHERE p.producer_id = $1 AND p.consumed_on BETWEEN $2 AND $3 AND p.purpose = 'BIODIESEL_FEEDSTOCK'
    GROUP BY 1, 2, 3, 4`,
  `SELECT sum(cost) AS cost, sum(quantity_kg) AS kg FROM purchase
    WHERE producer_id = $1 AND purchased_on BETWEEN $2 AND $3 AND supplier_kind <> 'OWN_PRODUCTION' AND purpose = 'BIODIESEL_FEEDSTOCK' AND $4::numeric IS NOT NULL`,
  `SELECT sold_on, origin, market, sum(volume_m3) AS volume, sum(revenue) AS revenue FROM sale
    WHERE producer_id = $1 AND sold_on BETWEEN $2 AND $3 AND $4::numeric IS NOT NULL GROUP BY 1, 2, 3`,
  `SELECT g.id, g.granted_on, g.valid_until, e.kind, e.effective_on, e.valid_until AS event_until FROM seal_grant g LEFT JOIN seal_event e ON e.grant_id = g.id WHERE g.producer_id = $1`,
  `SELECT regime, elected_on, effective_year, starting_activity FROM regime_election WHERE producer_id = $1`,
  `SELECT id, declaration_number, cleared_on, volume_m3 FROM biodiesel_import
    WHERE producer_id = $1 AND cleared_on BETWEEN $2 AND $3 AND $4::numeric IS NOT NULL ORDER BY cleared_on, id`,
];

/** A Selo year as a careful hand would write it; $1 producer, $2–$3 the year. */
const REGISTRATIONS_CTE = `
  WITH fv AS (SELECT family_farmer_id AS id, range_agg(daterange(valid_from, valid_until, '[]')) AS valid,
                     range_agg(daterange(valid_from, valid_until, '[]')) FILTER (WHERE kind = 'DAP' AND valid_from > DATE '2022-10-31') AS late
                FROM family_farmer_registration GROUP BY 1),
       ov AS (SELECT organization_id AS id, range_agg(daterange(valid_from, valid_until, '[]')) AS valid,
                     range_agg(daterange(valid_from, valid_until, '[]')) FILTER (WHERE kind = 'DAP' AND valid_from > DATE '2022-10-31') AS late
                FROM organization_registration GROUP BY 1)`;
const YEAR_PURCHASES = `
    FROM purchase p JOIN municipality m ON m.ibge_code = p.origin_municipality_code LEFT JOIN contract c ON c.id = p.contract_id
    LEFT JOIN fv ON fv.id = p.family_farmer_id LEFT JOIN ov ON ov.id = p.organization_id ${MONTH_SEMIARID.join}
    ${membershipDays('o', 'p.organization_id', 'p.purchased_on')}
   WHERE p.producer_id = $1 AND p.purchased_on BETWEEN $2 AND $3 AND p.supplier_kind IN ('FAMILY_FARMER', 'COOPERATIVE', 'ASSOCIATION')`;
export const SEAL_YEAR_SQL = [
  `SELECT sum(revenue), sum(volume_m3), sum(volume_m3) FILTER (WHERE market = 'EXPORT') FROM sale WHERE producer_id = $1 AND origin = 'OWN_PRODUCTION' AND sold_on BETWEEN $2 AND $3`,
  `${REGISTRATIONS_CTE}
  SELECT p.purpose, p.supplier_kind, p.organization_id, p.contract_id, m.region, ${MONTH_SEMIARID.on('p.purchased_on')} AS semiarid,
         coalesce(fv.valid, ov.valid) @> p.purchased_on AS registered, coalesce(coalesce(fv.late, ov.late) @> p.purchased_on, false) AS late_dap,
         c.signed_on <= p.purchased_on AS prior, p.purchased_on BETWEEN c.valid_from AND c.valid_until AS covers_date, c.feedstock = p.feedstock AS covers_feedstock,
         c.family_farmer_id IS NOT DISTINCT FROM p.family_farmer_id AND c.organization_id IS NOT DISTINCT FROM p.organization_id AS covers_counterparty,
         p.feedstock, sum(p.cost), count(*), min(p.purchased_on),
         -- The weighting factors of Portaria MDA nº 28/2024 (b 1,1; d 4; e 3; f 2), as the API weighs each counted group.
         sum(p.cost * CASE WHEN o.members > 0 AND o.family_farmer_members * 4 <= o.members * 3 THEN 1.1 ELSE 1 END
                    * CASE WHEN ${MONTH_SEMIARID.priority('p.purchased_on')} THEN 4
                           WHEN m.region IN ('CENTER_WEST', 'SOUTHEAST') THEN 3 ELSE 1 END
                    * CASE WHEN p.feedstock IN ('SOYBEAN', 'SOYBEAN_OIL', 'LIVE_ANIMALS') THEN 1 ELSE 2 END) AS weighted
  ${YEAR_PURCHASES}
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13`,
  `SELECT m.region, ${FOMENTO_SEMIARID.on('f.spent_on')} AS semiarid, sum(f.amount),
          sum(f.amount) FILTER (WHERE ${FOMENTO_SEMIARID.priority('f.spent_on')}) * 30 AS weighted
     FROM fomento_expense f JOIN municipality m ON m.ibge_code = f.municipality_code ${FOMENTO_SEMIARID.join}
    WHERE f.producer_id = $1 AND f.spent_on BETWEEN $2 AND $3 GROUP BY 1, 2`,
  `SELECT id, signed_on, valid_from, valid_until, feedstock, price_per_kg, technical_assistance, family_farmer_id, organization_id FROM contract WHERE producer_id = $1`,
  `SELECT o.id, o.kind, m.id, m.declared_on, m.members, m.family_farmer_members FROM family_farming_organization o JOIN organization_membership m ON m.organization_id = o.id
    WHERE o.id IN (SELECT DISTINCT organization_id FROM purchase WHERE producer_id = $1 AND purchased_on BETWEEN $2 AND $3 AND organization_id IS NOT NULL)`,
  `${REGISTRATIONS_CTE}
  SELECT p.id, p.cost
  ${YEAR_PURCHASES}
     AND NOT (coalesce(coalesce(fv.valid, ov.valid) @> p.purchased_on, false)
              AND (p.organization_id IS NULL OR o.family_farmer_members >= o.members * 0.6)
              AND (p.purpose = 'BIODIESEL_FEEDSTOCK' OR ${MONTH_SEMIARID.priority('p.purchased_on')})
              -- From 2024 the contract is judged per acquisition and technical assistance does not exclude (docs/LAW.md).
              AND coalesce(c.signed_on <= p.purchased_on AND p.purchased_on BETWEEN c.valid_from AND c.valid_until
                           AND c.feedstock = p.feedstock AND c.family_farmer_id IS NOT DISTINCT FROM p.family_farmer_id
                           AND c.organization_id IS NOT DISTINCT FROM p.organization_id, false))
   ORDER BY p.id`,
];

export const NESTED_PAGE_QUERY = `query NestedPage {
  producers(first: 20) { edges { node { id legalName
    purchases(first: 50) { edges { node { id consumedOn quantityKg cost familyFarmer { name } originMunicipality { name } } } }
  } } }
}`;

const NESTED_PAGE_SQL = `
  WITH pp AS (SELECT id, legal_name FROM producer ORDER BY id LIMIT 20)
  SELECT pp.id AS pid, pp.legal_name, x.id, x.consumed_on, x.quantity_kg, x.cost, f.name AS farmer, m.name AS origin
    FROM pp
    LEFT JOIN LATERAL (SELECT * FROM purchase p WHERE p.producer_id = pp.id ORDER BY p.consumed_on, p.id LIMIT 50) x ON true
    LEFT JOIN family_farmer f ON f.id = x.family_farmer_id
    LEFT JOIN municipality m ON m.ibge_code = x.origin_municipality_code
   ORDER BY pp.id, x.consumed_on, x.id`;

/** So that both servers send the same JSON. */
function scaled(numeric: string | null, scale: number): string | null {
  return numeric === null ? null : decimalText(new Decimal(numeric), scale);
}

function minimalServer(pool: Pool): http.Server {
  return http.createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      const { rows } = await pool.query(NESTED_PAGE_SQL);
      const edges: any[] = [];
      let current: any;
      for (const r of rows) {
        if (!current || current.node.id !== r.pid) {
          current = { node: { id: r.pid, legalName: r.legal_name, purchases: { edges: [] as any[] } } };
          edges.push(current);
        }
        if (r.id) current.node.purchases.edges.push({ node: { id: r.id, consumedOn: r.consumed_on, quantityKg: scaled(r.quantity_kg, QUANTITY_SCALE), cost: scaled(r.cost, MONEY_SCALE), familyFarmer: r.farmer ? { name: r.farmer } : null, originMunicipality: { name: r.origin } } });
      }
      const body = JSON.stringify({ data: { producers: { edges } } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
}

/** A member minimum of 0,6 is published, as none is shipped (art. 4º VI). */
/** `publish`: the bench's member minimum, once per database (a second API on it leaves it as it is). */
export async function startBenchApi(ds: DataSource, { publish = true } = {}) {
  // Its excluded items are compared id by id with the hand-written SQL's, in one answer at any scale.
  const app = await createApp({ dataSource: ds, verifier: hs256(SECRET), logger: pino({ level: 'silent' }), maxListed: Number.MAX_SAFE_INTEGER });
  const port = await listen(app.httpServer);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${await signToken(SECRET, { sub: 'bench', role: Role.ADMIN })}` };
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data?: any; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors).slice(0, 1000));
    return body.data;
  };
  if (publish) await gql(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'cooperative-min-family-farmer-share', values: [{ name: 'share', value: '0.6' }], validFrom: '2020-10-23', publishedOn: '2020-10-23',
    legalBasis: 'Bench data: a member minimum as an ADMIN would publish it (Decreto 10.527/2020, art. 4º VI)',
  } });
  return { app, port, gql };
}

function wireBytes(port: number, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => { bytes += c.length; });
      res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function cannon(url: string, headers: Record<string, string>, body: string, seconds: number) {
  // On a busy machine a one-second run may finish none.
  const result = await autocannon({ url, method: 'POST', headers, body, connections: 32, ...(QUICK && !LOAD_SECONDS ? { amount: 64 } : { duration: seconds }) });
  return { requests: result.requests.total, seconds: result.duration, requestsPerSecond: result.requests.average, p50ms: result.latency.p50, p99ms: result.latency.p99, non2xx: result.non2xx, errors: result.errors, bytesPerRequest: Math.round(result.throughput.average / Math.max(1, result.requests.average)) };
}
type Load = Awaited<ReturnType<typeof cannon>>;

const ROUND_SECONDS = 2;

/** Alternate rounds, so a drifting machine slows both alike. */
async function alternately(api: { url: string; headers: Record<string, string> }, hand: { url: string; headers: Record<string, string> }, body: string, seconds: number): Promise<{ api: Load; hand: Load }> {
  const total = LOAD_SECONDS ?? seconds;
  const rounds = QUICK && !LOAD_SECONDS ? 1 : Math.max(1, Math.floor(total / ROUND_SECONDS));
  const apiRounds: Load[] = [];
  const handRounds: Load[] = [];
  for (let r = 0; r < rounds; r++) {
    apiRounds.push(await cannon(api.url, api.headers, body, total / rounds));
    handRounds.push(await cannon(hand.url, hand.headers, body, total / rounds));
  }
  return { api: merged(apiRounds), hand: merged(handRounds) };
}

function merged(rounds: Load[]): Load {
  const sum = (pick: (l: Load) => number) => rounds.reduce((n, l) => n + pick(l), 0);
  const p50s = rounds.map((l) => l.p50ms).sort((a, b) => a - b);
  const seconds = sum((l) => l.seconds);
  return {
    requests: sum((l) => l.requests), seconds, requestsPerSecond: seconds > 0 ? sum((l) => l.requests) / seconds : 0,
    p50ms: p50s[Math.floor(p50s.length / 2)], p99ms: Math.max(...rounds.map((l) => l.p99ms)),
    non2xx: sum((l) => l.non2xx), errors: sum((l) => l.errors), bytesPerRequest: rounds[rounds.length - 1].bytesPerRequest,
  };
}

function shapeServer(pool: Pool, shape: Shape, params: unknown[]): http.Server {
  return http.createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      const { rows } = await pool.query(shape.sql, params);
      const body = JSON.stringify({ data: rows[0].data });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
}

/** The load before may still be finishing. */
async function settle(counter: Counter): Promise<void> {
  const deadline = Date.now() + 20_000;
  let seen = -1;
  while (counter.count !== seen && Date.now() < deadline) {
    seen = counter.count;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<string> {
  return (await fetch(url, { method: 'POST', headers, body })).text();
}

async function shapeCase(shape: Shape, port: number, headers: Record<string, string>, pool: Pool, counter: Counter, data: BenchData, seconds: number) {
  const body = JSON.stringify({ query: shape.query, variables: shape.variables(data) });
  const apiUrl = `http://127.0.0.1:${port}/graphql`;
  await settle(counter);
  counter.reset();
  const apiBody = (await post(apiUrl, headers, body)).trimEnd();
  const statements = counter.count;
  const statementTexts = [...counter.texts];
  const minimal = shapeServer(pool, shape, shape.params(data));
  const minimalUrl = `http://127.0.0.1:${await listen(minimal)}/`;
  const minimalBody = await post(minimalUrl, { 'content-type': 'application/json' }, body);
  const { api, hand } = await alternately({ url: apiUrl, headers }, { url: minimalUrl, headers: { 'content-type': 'application/json' } }, body, seconds);
  minimal.close();
  const ratio = api.requestsPerSecond / hand.requestsPerSecond;
  const sameJson = apiBody === minimalBody;
  return {
    name: shape.name, statements, statementTexts, maxStatements: shape.maxStatements, sameJson, bytes: apiBody.length,
    ...(sameJson ? {} : { apiHead: apiBody.slice(0, 300), minimalHead: minimalBody.slice(0, 300) }),
    api, minimal: hand, ratio, target: `statements <= ${shape.maxStatements} and ratio >= 0.6`, pass: sameJson && statements <= shape.maxStatements && ratio >= 0.6,
  };
}

/** The API's fixed cost per request. */
async function typenameCase(port: number, headers: Record<string, string>, counter: Counter, seconds: number) {
  const body = JSON.stringify({ query: '{ __typename }' });
  const apiUrl = `http://127.0.0.1:${port}/graphql`;
  await settle(counter);
  counter.reset();
  const apiBody = await post(apiUrl, headers, body);
  const statements = counter.count;
  const statementTexts = [...counter.texts];
  const minimal = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(apiBody) });
      res.end(apiBody);
    });
  });
  const minimalUrl = `http://127.0.0.1:${await listen(minimal)}/`;
  const { api, hand } = await alternately({ url: apiUrl, headers }, { url: minimalUrl, headers: { 'content-type': 'application/json' } }, body, seconds);
  minimal.close();
  const ratio = api.requestsPerSecond / hand.requestsPerSecond;
  return { body: apiBody, statements, statementTexts, api, minimal: hand, ratio, msPerRequestApi: 1000 / api.requestsPerSecond * 32, target: 'statements = 0 (the ratio reported, not a target)', pass: statements === 0 };
}

export async function coldStart(): Promise<{ seconds: number | null; firstStartSeconds: number | null; errors?: string[] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'selo-bench-start-'));
  fs.chmodSync(dataDir, 0o755);
  const errors: string[] = [];
  const start = async () => {
    const probe = http.createServer();
    const port = await listen(probe);
    await new Promise((r) => probe.close(r));
    const t = performance.now();
    const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', SELO_DATA_DIR: path.join(dataDir, 'pg'), PORT: String(port), LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    child.stderr!.on('data', (d) => { stderr = (stderr + String(d)).slice(-1000); });
    let seconds: number | null = null;
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && child.exitCode === null) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) { seconds = (performance.now() - t) / 1000; break; }
      } catch { /* not yet */ }
      await new Promise((r) => setTimeout(r, 50));
    }
    const exited = new Promise((r) => child.on('exit', r));
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    if (seconds === null) errors.push(stderr.trim() || `exit code ${child.exitCode}`);
    return seconds;
  };
  try {
    const firstStartSeconds = await start();
    const seconds = await start();
    return errors.length ? { seconds, firstStartSeconds, errors } : { seconds, firstStartSeconds };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Its own process, so that its peak RSS is its own. */
async function importCase(databaseUrl: string, rows: number): Promise<Record<string, unknown> | null> {
  const script = path.join(ROOT, 'bench/import.ts');
  if (!fs.existsSync(script)) return null;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', script, '--rows', String(rows), '--json'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += String(d); });
    child.on('exit', () => {
      const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'));
      try { resolve(line ? JSON.parse(line) : { output: out.slice(-500) }); } catch { resolve({ output: out.slice(-500) }); }
    });
  });
}

async function main() {
  // The national program is a benchmark of its own (bench/national.ts).
  if (args.includes('--national')) return (await import('./national')).nationalMain(args);
  const server = await serverUrl();
  const name = `selo_bench_${process.pid}`;
  const admin = new Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(server.url, name);
  const counter = new Counter();
  const ds = await openDatabase({ url, poolSize: 20, logger: counter });
  const results: Record<string, any> = { date: new Date().toISOString(), quick: QUICK, ...(PARTIAL ? { only: [...ONLY] } : {}), machine: `${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`, scale: SCALE };
  // The API's database settings (jit off).
  const pool = new Pool({ connectionString: url, max: 20, options: '-c jit=off' });
  // Without a listener pg's pool would throw a dropped idle client and end the run.
  pool.on('error', (e) => process.stderr.write(`bench: idle database client failed: ${e.message}\n`));
  let releaseSql: (() => void) | undefined;
  try {
    await prepareDatabase(ds);
    const t = performance.now();
    const data = await buildBenchData(ds, SCALE);
    results.dataSeconds = Math.round(performance.now() - t) / 1000;
    process.stdout.write(`data built in ${results.dataSeconds} s: ${JSON.stringify(data.counts)}\n`);

    const { app, port, gql } = await startBenchApi(ds);
    const token = await signToken(SECRET, { sub: 'bench', role: Role.ADMIN });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const sqlClient = await pool.connect();
    releaseSql = () => sqlClient.release();
    const runSql = async (statements: string[], params: unknown[]) => {
      const answers: Array<Array<Record<string, unknown>>> = [];
      for (const s of statements) answers.push((await sqlClient.query(s, params.slice(0, Math.max(0, ...[...s.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))))).rows);
      return answers;
    };

    // 1. taxPeriod of the big month.
    if (ONLY.has('taxPeriod')) {
      const month = { p: data.bigProducerId, y: data.taxYear, m: data.taxMonth };
      const taxQuery = `query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m) { totalDue pisDue cofinsDue domesticVolumeM3 segments { from to pisDue cofinsDue mix { category share } } imports { pisDue cofinsDue } } }`;
      const from = `${data.taxYear}-${String(data.taxMonth).padStart(2, '0')}-01`;
      const to = new Date(Date.UTC(data.taxYear, data.taxMonth, 0)).toISOString().slice(0, 10);
      const taxCase = await sideBySide(() => gql(taxQuery, month), () => runSql(TAX_MONTH_SQL, [data.bigProducerId, from, to, '0.6']));
      const tax = (await gql(taxQuery, month)).taxPeriod;
      const taxSales = (await runSql(TAX_MONTH_SQL, [data.bigProducerId, from, to, '0.6']))[2];
      const sqlDomestic = taxSales.filter((r) => r.market === 'DOMESTIC' && r.origin === 'OWN_PRODUCTION').reduce((sum, r) => sum.plus(String(r.volume)), new Decimal(0));
      results.taxPeriod = {
        ...taxCase, purchasesInMonth: data.counts.purchasesInTaxMonth, salesInMonth: data.counts.salesInTaxMonth,
        answer: { totalDue: tax.totalDue, pisDue: tax.pisDue, cofinsDue: tax.cofinsDue, segments: tax.segments.length },
        domesticVolumeM3: { api: tax.domesticVolumeM3, sql: sqlDomestic.toFixed(), same: new Decimal(tax.domesticVolumeM3).eq(sqlDomestic) },
        target: 'ratio <= 1.5', pass: taxCase.ratio <= 1.5,
      };
    }

    // 2. sealCompliance of the big year.
    if (ONLY.has('sealCompliance')) {
      const sealQuery = `query($p: ID!, $y: Int!) { sealCompliance(producerId: $p, year: $y) { base countedTotal achievedShare compliant excluded { id source amount } } }`;
      const sealParams = [data.bigProducerId, `${data.taxYear}-01-01`, `${data.taxYear}-12-31`];
      const sealCase = await sideBySide(() => gql(sealQuery, { p: data.bigProducerId, y: data.taxYear }), () => runSql(SEAL_YEAR_SQL, sealParams));
      // The two must speak of the same rows: the purchases the API excludes are those the hand-written SQL lists.
      const seal = (await gql(sealQuery, { p: data.bigProducerId, y: data.taxYear })).sealCompliance;
      const sqlExcluded = (await runSql(SEAL_YEAR_SQL, sealParams))[5].map((r) => String(r.id));
      const apiExcluded = seal.excluded.filter((e: { source: string }) => e.source === 'PURCHASE').map((e: { id: string }) => e.id);
      const sameExcluded = apiExcluded.length === sqlExcluded.length && apiExcluded.every((id: string, i: number) => id === sqlExcluded[i]);
      results.sealCompliance = {
        ...sealCase, purchasesInYear: data.counts.purchasesInYear, answer: { base: seal.base, countedTotal: seal.countedTotal, achievedShare: seal.achievedShare, compliant: seal.compliant },
        excludedPurchases: { api: apiExcluded.length, sql: sqlExcluded.length, same: sameExcluded }, target: 'ratio <= 1.5', pass: sealCase.ratio <= 1.5,
      };
    }
    releaseSql();
    releaseSql = undefined;

    // 3. The nested page: SQL statements per request, then throughput beside the minimal server.
    if (ONLY.has('nestedPage')) {
      await settle(counter);
      counter.reset();
      const page = await gql(NESTED_PAGE_QUERY);
      const statements = counter.count;
      const body = JSON.stringify({ query: NESTED_PAGE_QUERY });
      const minimal = minimalServer(pool);
      const minimalPort = await listen(minimal);
      const minimalPage = ((await (await fetch(`http://127.0.0.1:${minimalPort}/`, { method: 'POST', body })).json()) as { data: unknown }).data;
      const sameJson = JSON.stringify(minimalPage) === JSON.stringify(page);
      const seconds = QUICK ? 1 : 20;
      const { api: apiLoad, hand: minimalLoad } = await alternately({ url: `http://127.0.0.1:${port}/graphql`, headers }, { url: `http://127.0.0.1:${minimalPort}/`, headers: { 'content-type': 'application/json' } }, body, seconds);
      minimal.close();
      // 3b. Compressed, and GraphiQL's script.
      const wire = (encoding: string) => wireBytes(port, 'POST', '/graphql', { ...headers, 'accept-encoding': encoding }, body);
      const script = (encoding: string) => wireBytes(port, 'GET', '/graphiql-assets/graphiql.min.js', { 'accept-encoding': encoding });
      results.compression = {
        nestedPageBytes: { identity: await wire('identity'), gzip: await wire('gzip'), br: await wire('br') },
        graphiqlScriptBytes: { identity: await script('identity'), gzip: await script('gzip'), br: await script('br') },
        nestedPageLoad: {
          gzip: await cannon(`http://127.0.0.1:${port}/graphql`, { ...headers, 'accept-encoding': 'gzip' }, body, LOAD_SECONDS ?? seconds),
          br: await cannon(`http://127.0.0.1:${port}/graphql`, { ...headers, 'accept-encoding': 'br' }, body, LOAD_SECONDS ?? seconds),
        },
      };
      const ratio = apiLoad.requestsPerSecond / minimalLoad.requestsPerSecond;
      results.nestedPage = {
        sqlStatementsPerRequest: statements, producers: page.producers.edges.length,
        purchases: page.producers.edges.reduce((n: number, e: any) => n + e.node.purchases.edges.length, 0),
        sameJsonAsMinimal: sameJson, api: apiLoad, minimal: minimalLoad, ratio, target: 'statements <= 6 and ratio >= 0.6', pass: statements <= 6 && ratio >= 0.6,
      };
    }

    // 4. The other read shapes; then the fixed cost of a request.
    const shapeSeconds = QUICK ? 1 : 10;
    if (ONLY.has('shapes')) {
      results.shapes = [];
      for (const shape of SHAPES) results.shapes.push(await shapeCase(shape, port, headers, pool, counter, data, shapeSeconds));
    }
    if (ONLY.has('typename')) results.typename = await typenameCase(port, headers, counter, shapeSeconds);

    // 5. The dashboard: 20 producers' month (computed fields) against one producer's month.
    if (ONLY.has('dashboard')) {
      const dashboardQuery = `{ producers(first: 20) { edges { node { id taxPeriod(year: ${data.taxYear}, month: ${data.taxMonth}) { totalDue pisDue cofinsDue } } } } }`;
      const oneQuery = `query($p: ID!) { taxPeriod(producerId: $p, year: ${data.taxYear}, month: ${data.taxMonth}) { totalDue pisDue cofinsDue } }`;
      await settle(counter);
      counter.reset();
      const dashboard = await gql(dashboardQuery);
      const dashboardStatements = counter.count;
      const dashboardStatementTexts = [...counter.texts];
      const dashboardCase = await sideBySide(() => gql(dashboardQuery), () => gql(oneQuery, { p: data.bigProducerId }));
      results.dashboard = {
        ...dashboardCase, statements: dashboardStatements, statementTexts: dashboardStatementTexts, producers: dashboard.producers.edges.length,
        target: 'statements <= 8 and ratio <= 2', pass: dashboardStatements <= 8 && dashboardCase.ratio <= 2,
      };
      // The year's credits of the same page: each producer's twelve months of net, one fold per producer
      // (src/services/credit.service.ts), its months read in ranged statements; timed once warm, the big producer's
      // fold being the year's every purchase.
      const months = Array.from({ length: 12 }, (_, i) => i + 1);
      const creditsQuery = `{ producers(first: 20) { edges { node { id ${months.map((m) => `m${m}: taxPeriod(year: ${data.taxYear}, month: ${m}) { net { pisDue cofinsDue } }`).join(' ')} } } } }`;
      await gql(creditsQuery);
      await settle(counter);
      counter.reset();
      const creditsStarted = performance.now();
      const credits = await gql(creditsQuery);
      const creditsMs = performance.now() - creditsStarted;
      results.dashboardCredits = {
        ms: creditsMs, statements: counter.count, producers: credits.producers.edges.length, months: months.length,
        answered: credits.producers.edges.every((e: { node: Record<string, { net: unknown } | null> }) => months.every((m) => e.node[`m${m}`]?.net)),
        target: 'statements <= 30', pass: counter.count <= 30,
      };
    }
    await app.stop();

    // 6. Bulk import, in its own process.
    const imported = ONLY.has('import') ? await importCase(url, QUICK ? 20_000 : 1_000_000) : null;
    if (imported) results.import = { ...imported, target: '>= 50,000 rows/s, peak RSS < 300 MB' };

    // 7. Cold start on an initialised embedded database.
    if (!QUICK && ONLY.has('coldStart')) results.coldStart = { ...(await coldStart()), target: '< 5 s' };
  } finally {
    releaseSql?.();
    await pool.end();
    await ds.destroy();
    const c = new Client({ connectionString: server.url });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
    await server.stop?.();
  }
  printTable(results);
  // A partial run leaves results.json as it was.
  if (!QUICK && !PARTIAL) fs.writeFileSync(path.join(ROOT, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
  else process.stdout.write(`${JSON.stringify(results)}\n`);
}

function printTable(r: Record<string, any>) {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  // Small data says nothing about the targets.
  const verdict = (ok: boolean) => (r.quick ? 'n/a (quick)' : ok ? 'yes' : 'NO');
  const lines = [
    `Selo API benchmark ${r.date} on ${r.machine}${r.quick ? ' (quick)' : ''}`,
    '',
    '| case | API median (min–max) | hand-written median (min–max) | ratio | target | pass |',
    '|---|---|---|---|---|---|',
  ];
  for (const key of ['taxPeriod', 'sealCompliance']) {
    const c = r[key];
    if (!c) continue;
    lines.push(`| ${key} | ${ms(c.api.median)} (${ms(c.api.min)}–${ms(c.api.max)}) | ${ms(c.sql.median)} (${ms(c.sql.min)}–${ms(c.sql.max)}) | ${c.ratio.toFixed(2)}× | ${c.target} | ${verdict(c.pass)} |`);
  }
  const n = r.nestedPage;
  if (n) {
    lines.push(`| nested page: ${n.sqlStatementsPerRequest} SQL statements | ${n.api.requestsPerSecond.toFixed(1)} req/s, p50 ${n.api.p50ms} ms, p99 ${n.api.p99ms} ms | ${n.minimal.requestsPerSecond.toFixed(1)} req/s, p50 ${n.minimal.p50ms} ms, p99 ${n.minimal.p99ms} ms | ${n.ratio.toFixed(2)}× | ${n.target} | ${verdict(n.pass)} |`);
  }
  for (const c of r.shapes ?? []) {
    lines.push(`| ${c.name}: ${c.statements} SQL statement(s)${c.sameJson ? '' : ', JSON DIFFERS'} | ${c.api.requestsPerSecond.toFixed(1)} req/s, p50 ${c.api.p50ms} ms, p99 ${c.api.p99ms} ms | ${c.minimal.requestsPerSecond.toFixed(1)} req/s, p50 ${c.minimal.p50ms} ms, p99 ${c.minimal.p99ms} ms | ${c.ratio.toFixed(2)}× | ${c.target} | ${verdict(c.pass)} |`);
  }
  const t = r.typename;
  if (t) lines.push(`| { __typename }: ${t.statements} SQL statements | ${t.api.requestsPerSecond.toFixed(1)} req/s, p50 ${t.api.p50ms} ms, p99 ${t.api.p99ms} ms | ${t.minimal.requestsPerSecond.toFixed(1)} req/s (node:http, same bytes) | ${t.ratio.toFixed(2)}× | ${t.target} | ${verdict(t.pass)} |`);
  const d = r.dashboard;
  if (d) lines.push(`| dashboard: 20 producers' taxPeriod, ${d.statements} SQL statements | ${ms(d.api.median)} (${ms(d.api.min)}–${ms(d.api.max)}) | one producer's ${ms(d.sql.median)} (${ms(d.sql.min)}–${ms(d.sql.max)}) | ${d.ratio.toFixed(2)}× | ${d.target} | ${verdict(d.pass)} |`);
  const dc = r.dashboardCredits;
  if (dc) lines.push(`| dashboard's credits: 20 producers × 12 months of net, ${dc.statements} SQL statements | ${ms(dc.ms)} | | | ${dc.target} | ${verdict(dc.pass)} |`);
  const c = r.compression;
  if (c) {
    const kb = (b: { bytes: number; encoding: string }) => `${(b.bytes / 1024).toFixed(1)} KB ${b.encoding}`;
    lines.push(`| nested page compressed | ${kb(c.nestedPageBytes.identity)}, ${kb(c.nestedPageBytes.gzip)}, ${kb(c.nestedPageBytes.br)}; gzip ${c.nestedPageLoad.gzip.requestsPerSecond.toFixed(1)} req/s (p50 ${c.nestedPageLoad.gzip.p50ms} ms), br ${c.nestedPageLoad.br.requestsPerSecond.toFixed(1)} req/s (p50 ${c.nestedPageLoad.br.p50ms} ms) | | | | |`);
    lines.push(`| GraphiQL script | ${kb(c.graphiqlScriptBytes.identity)}, ${kb(c.graphiqlScriptBytes.gzip)}, ${kb(c.graphiqlScriptBytes.br)} | | | | |`);
  }
  if (r.import) lines.push(`| import | ${JSON.stringify(r.import)} | | | ${r.import.target} | |`);
  if (r.coldStart) lines.push(`| cold start to /readyz | ${r.coldStart.seconds?.toFixed(2)} s (first start ${r.coldStart.firstStartSeconds?.toFixed(2)} s) | | | ${r.coldStart.target} | ${r.coldStart.seconds !== null && r.coldStart.seconds < 5 ? 'yes' : 'NO'} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
