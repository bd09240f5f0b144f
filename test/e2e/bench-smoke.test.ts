import { spawn } from 'node:child_process';
import path from 'node:path';
import { Decimal } from '../../src/law/decimal';
import { SCALES } from '../../bench/data';
import { CASES, casesToRun } from '../../bench/run';

/**
 * The benchmark in small (`bench/run.ts --quick`), as a smoke test of its correctness: it builds
 * its data, answers every case beside its hand-written SQL or server, and says the two agree. No
 * timing is asserted here (the machine is shared); the figures are in docs/PERFORMANCE.md.
 * The expected figures are worked out below from the rules by which bench/data.ts builds the data.
 */

const ROOT = path.resolve(__dirname, '../..');
const S = SCALES.quick;

function runQuickBench(): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'bench/run.ts', '--quick'], {
      cwd: ROOT, env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += String(d); });
    child.stderr.on('data', (d) => { err += String(d); });
    child.on('exit', (code) => {
      const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'));
      if (code !== 0 || !line) reject(new Error(`bench exited ${code}: ${err.length > 4000 ? `${err.slice(0, 2000)}\n…\n${err.slice(-2000)}` : err}`));
      else resolve(JSON.parse(line));
    });
  });
}

let r: Record<string, any>;
beforeAll(async () => {
  r = await runQuickBench();
}, 240_000);

test('the nested page costs one SQL statement and sends the same JSON as the hand-written server', () => {
  const n = r.nestedPage;
  expect(n.sqlStatementsPerRequest).toBe(1);
  // 20 producers asked for: the big one and the small ones; first 50 purchases of each.
  expect(n.producers).toBe(1 + S.smallProducers);
  expect(n.purchases).toBe(Math.min(50, S.purchasesInYear) + S.smallProducers * Math.min(50, S.purchasesPerSmallProducer));
  expect(n.sameJsonAsMinimal).toBe(true);
  for (const load of [n.api, n.minimal]) {
    expect(load.requests).toBeGreaterThan(0);
    expect(load.non2xx).toBe(0);
    expect(load.errors).toBe(0);
  }
});

test('every read shape: one SQL statement per root field and the same bytes as its hand-written server', () => {
  expect(r.shapes.length).toBeGreaterThanOrEqual(7);
  for (const shape of r.shapes) {
    expect({ name: shape.name, statements: shape.statements, sameJson: shape.sameJson }).toEqual({ name: shape.name, statements: shape.maxStatements, sameJson: true });
    expect(shape.bytes).toBeGreaterThan(100);
    for (const load of [shape.api, shape.minimal]) {
      expect(load.requests).toBeGreaterThan(0);
      expect(load.non2xx).toBe(0);
      expect(load.errors).toBe(0);
    }
  }
});

test('{ __typename } sends nothing to PostgreSQL', () => {
  expect(r.typename.body).toBe('{"data":{"__typename":"Query"}}\n');
  expect(r.typename.statements).toBe(0);
  expect(r.typename.api.non2xx).toBe(0);
});

test('the 20-producer taxPeriod dashboard answers every producer in at most 8 statements (the page\'s months computed together)', () => {
  expect(r.dashboard.producers).toBe(1 + S.smallProducers);
  // The page (1), its producers' rows (1), the law book's revision (1), the stored months (1), the
  // producers' context, raw material and sales (3), an earlier month's raw material when needed (1).
  expect(r.dashboard.statements).toBeGreaterThan(0);
  expect(r.dashboard.statements).toBeLessThanOrEqual(8);
});

test('the dashboard\'s year of credits answers every producer\'s twelve months in a bounded number of statements (one fold per producer)', () => {
  expect(r.dashboardCredits).toMatchObject({ producers: 1 + S.smallProducers, months: 12, answered: true });
  expect(r.dashboardCredits.statements).toBeLessThanOrEqual(30);
});

test('taxPeriod of the bench month: three segments and the domestic own-production volume of the hand-written SQL', () => {
  const t = r.taxPeriod;
  expect(t.purchasesInMonth).toBe(S.purchasesInTaxMonth);
  expect(t.salesInMonth).toBe(S.salesInTaxMonth);
  // The Selo is suspended from 2025-03-10 and reinstated on 2025-03-21: the standing changes twice
  // in March (art. 6º §2º), so the month has three segments (docs/LAW.md).
  expect(t.answer.segments).toBe(3);
  // Sale g (1..salesInTaxMonth) is in March with 30 + g % 10 m³; exported when g % 10 = 0 and
  // imported when g % 33 = 0: domestic own production is the rest.
  let domestic = 0;
  for (let g = 1; g <= S.salesInTaxMonth; g++) if (g % 10 !== 0 && g % 33 !== 0) domestic += 30 + (g % 10);
  expect(t.domesticVolumeM3).toEqual({ api: `${domestic}.000`, sql: String(domestic), same: true });
  expect(new Decimal(t.answer.totalDue).eq(new Decimal(t.answer.pisDue).plus(t.answer.cofinsDue))).toBe(true);
  expect(t.api.runs.length).toBe(t.sql.runs.length);
});

test('sealCompliance of the bench year excludes the purchases the hand-written SQL lists, and those are the ones the law excludes', () => {
  const c = r.sealCompliance;
  // Purchase g of the year: g % 20 = 14 is bought from an association whose family-farmer members
  // are 50 of 100, below the member minimum of 0.6 the bench publishes (art. 4º VI); g % 50 = 7 from
  // a family supplier is another product (art. 3º §2 I b), counted only from the priority region:
  // its origin is the municipality 1 + g % 12 of the list, outside Norte, Nordeste and Semiárido
  // for g % 12 in 5, 6, 7, 8, 10, 11. A family farmer's lot (g % 20 < 12) comes from farmer index
  // i = g % farmers, whose CAF expired in 2024 when i % 200 = 3 (art. 2º IV). A contract without
  // technical assistance (i % 300 = 5) no longer excludes its purchases in a weighted year (2025:
  // art. 3º §2 III is the producer's obligation, Portaria MDA nº 28/2024).
  let excluded = 0;
  for (let g = 1; g <= S.purchasesInYear; g++) {
    const kind = g % 20;
    const farmer = g % S.farmers;
    if (kind === 14) excluded++;
    else if (kind < 14 && g % 50 === 7 && [5, 6, 7, 8, 10, 11].includes(g % 12)) excluded++;
    else if (kind < 12 && farmer % 200 === 3) excluded++;
  }
  expect(c.excludedPurchases).toEqual({ api: excluded, sql: excluded, same: true });
  expect(new Decimal(c.answer.base).gt(0)).toBe(true);
  expect(typeof c.answer.compliant).toBe('boolean');
});

test('the import case stores every row it reads', () => {
  // The quick run runs every case: a missing or failed import is a failure, not a pass.
  expect(r.import).toEqual(expect.objectContaining({ rows: 20_000, stored: 20_000 }));
});

test('the compressed sizes: the nested page and GraphiQL\'s script are sent smaller in gzip and brotli', () => {
  const c = r.compression;
  const page = c.nestedPageBytes;
  expect([page.identity.encoding, page.gzip.encoding, page.br.encoding]).toEqual(['identity', 'gzip', 'br']);
  expect(page.gzip.bytes).toBeLessThan(page.identity.bytes / 4);
  expect(page.br.bytes).toBeLessThan(page.identity.bytes / 4);
  expect(c.graphiqlScriptBytes.gzip.bytes).toBeLessThan(c.graphiqlScriptBytes.identity.bytes / 2);
  expect(c.nestedPageLoad.gzip.non2xx + c.nestedPageLoad.br.non2xx).toBe(0);
  expect(c.nestedPageLoad.gzip.requestsPerSecond).toBeGreaterThan(0);
});

test('--only picks the cases named, any case of letters; without it every case runs; an unknown name is refused', () => {
  expect([...casesToRun(['--quick'])]).toEqual([...CASES]);
  expect([...casesToRun(['--quick', '--only', 'typename,Shapes'])].sort()).toEqual(['shapes', 'typename']);
  expect([...casesToRun(['--only=dashboard'])]).toEqual(['dashboard']);
  expect(() => casesToRun(['--only', 'typename,nope'])).toThrow('unknown case "nope"');
  expect(() => casesToRun(['--only'])).toThrow('names no case');
});
