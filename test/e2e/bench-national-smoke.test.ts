import { spawn } from 'node:child_process';
import path from 'node:path';
import { nationalScale } from '../../bench/national-data';

/**
 * The national benchmark at its smallest (`bench/run.ts --national --national-scale 0.001
 * --quick`, a few seconds), for correctness only: the ten years load, and programOverview, taxPeriod
 * and sealCompliance agree with their hand-written SQL. No timing is asserted; the figures are in
 * docs/PERFORMANCE.md. The expected counts follow from the rules by which bench/national-data.ts
 * builds the data.
 */

const ROOT = path.resolve(__dirname, '../..');
const FACTOR = 0.001;
const S = nationalScale(FACTOR);

function runNationalBench(): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'bench/run.ts', '--national', '--national-scale', String(FACTOR), '--quick'], {
      cwd: ROOT, env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += String(d); });
    child.stderr.on('data', (d) => { err += String(d); });
    child.on('exit', (code) => {
      const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'));
      if (code !== 0 || !line) reject(new Error(`bench exited ${code}: ${err.slice(-3000)}`));
      else resolve(JSON.parse(line));
    });
  });
}

let r: Record<string, any>;
beforeAll(async () => {
  r = await runNationalBench();
}, 120_000);

test('ten years load: every producer\'s purchases, sales, fomento and imports of each year, and the contracts of each year', () => {
  const years = 10;
  expect(r.load.counts).toEqual(expect.objectContaining({
    purchase: 60 * S.purchasesPerProducerYear * years,
    sale: 60 * S.salesPerProducerYear * years,
    fomento_expense: 60 * S.fomentoPerProducerYear * years,
    biodiesel_import: 60 * S.importsPerProducerYear * years,
    // A contract per farmer and one per organization and producer, each year.
    contract: (S.farmers + S.organizations * 60) * years,
    regime_election: 60 * years,
    // Five producers in six hold a grant (index % 6 <> 5); of them, index % 10 = 3 is suspended and
    // reinstated once (3, 13, 33, 43), index % 15 = 7 cancelled (7, 22, 37, 52).
    seal_grant: 50,
    seal_event: 4 * 2 + 4,
  }));
  expect(r.load.rows).toBeGreaterThan(r.load.counts.purchase);
  // The big tables' indexes and foreign keys, taken off for the load, are all back as the schema defines them (the run checks their definitions).
  expect(r.load.rebuilt).toBeGreaterThanOrEqual(10);
});

test('programOverview of 2025: the standings the data was built with, and the same farmers and excluded purchases as the hand-written SQL', () => {
  const o = r.programOverview;
  expect(o.producers).toBe(60);
  // The cancellations of 2022 stand on 31 December 2025; the suspensions (May 2020) were lifted a
  // month later; the ten producers without a grant stand as NONE.
  const standing = Object.fromEntries(o.answer.byStanding.map((s: { standing: string; producers: number }) => [s.standing, s.producers]));
  expect(standing).toEqual({ REGULAR: 46, SUSPENDED: 0, CANCELLED: 4, EXPIRED: 0, NONE: 10 });
  expect(o.agree.familyFarmers.same).toBe(true);
  expect(o.agree.familyFarmers.api).toBeGreaterThan(0);
  expect(o.agree.excludedPurchases.same).toBe(true);
  expect(o.agree.excludedPurchases.api).toBeGreaterThan(0);
  expect(o.api.runs.length).toBe(o.sql.runs.length);
});

test('the refresh keeps every year holding records ready: its look computes them, each overview then answers, and again after a shared record changed', () => {
  const k = r.programOverview.keptReady;
  expect(k.refreshComputed).toBe(true);
  const years = k.years.map((y: { year: number }) => y.year);
  // The data's years that a wording of the decree governs: consecutive, up to the last loaded.
  expect(years).toEqual(Array.from({ length: years.length }, (_, i) => 2026 - years.length + 1 + i));
  expect(years).toEqual(expect.arrayContaining([2024, 2025, 2026]));
  expect(years.length).toBeLessThanOrEqual(10);
  expect(k.refreshAfterSharedWriteMs).toBeGreaterThan(0);
});

test('one producer\'s sealCompliance excludes the purchases the hand-written SQL lists; its taxPeriod runs beside its SQL', () => {
  expect(r.sealCompliance.excludedPurchases.same).toBe(true);
  expect(r.sealCompliance.excludedPurchases.api).toBeGreaterThan(0);
  expect(r.taxPeriod.api.runs.length).toBeGreaterThan(0);
  expect(r.peakRssMb).toBeGreaterThan(0);
});

test('the same producer in a copy of the database holding its records alone: the same month and year, timed as the reference', () => {
  // Nothing of another producer enters a producer's figures: deleting every other one changes none.
  expect(r.taxPeriod.inTurn.totalDue).toBe(r.taxPeriod.totalDue);
  expect(Number(r.taxPeriod.totalDue)).toBeGreaterThan(0);
  expect(r.taxPeriod.inTurn.sameAnswer).toBe(true);
  expect(r.sealCompliance.inTurn.countedTotal).toBe(r.sealCompliance.countedTotal);
  expect(r.sealCompliance.inTurn.sameAnswer).toBe(true);
  for (const side of [r.taxPeriod.inTurn.withProgram, r.taxPeriod.inTurn.alone, r.sealCompliance.inTurn.alone]) {
    expect(side.ratio).toBeCloseTo(side.api / side.sql, 1);
  }
});
