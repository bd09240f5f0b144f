// `npm run bench -- --national [--national-scale 0.05] [--quick] [--keep-db]`: the national program (bench/
// national-data.ts) loaded year after year, then the ministry's programOverview of a year and one
// producer's taxPeriod and sealCompliance, each beside a hand-written SQL of the same answer in the
// same run, alternately. Prints the figures and the peak RSS of this process (the API's side); a
// full-scale run writes bench/national-results.json; `--keep-db` keeps its database (on DATABASE_URL) for EXPLAIN,
// and `--reuse-db NAME` runs the cases again on such a database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Pool, PoolClient } from 'pg';
import { openDatabase } from '../src/database/data-source';
import { prepareDatabase } from '../src/database/prepare';
import { membershipOnSql } from '../src/services/facts/organization-membership.sql';
import { buildNationalData, NATIONAL_YEARS, nationalScale } from './national-data';
import { SEAL_YEAR_SQL, serverUrl, sideBySide, startBenchApi, TAX_MONTH_SQL, withDatabase } from './run';

const ROOT = path.resolve(__dirname, '..');
/** The year the cases read: a full year, the last but one. */
const YEAR = 2025;

/** A statement of SEAL_YEAR_SQL with one text replaced, which must be there. */
function swap(sql: string, from: string | RegExp, to: string): string {
  const out = sql.replace(from, to);
  if (out === sql) throw new Error(`bench: the hand-written program SQL no longer finds ${String(from)}`);
  return out;
}

/**
 * The program's year by hand: the statements of a producer's Selo year (SEAL_YEAR_SQL) for every
 * producer at once, grouped by producer as well; the Selo grants and events of all producers; and
 * the counted items by state, the farmers by municipality and the organizations, over the year's
 * family-farming items less the excluded ones. $1 producers, $2 first day, $3 last day.
 */
const PROGRAM_YEAR_SQL = (() => {
  const any = (sql: string) => sql.replaceAll('producer_id = $1', 'producer_id = ANY($1::bigint[])');
  const [sales, purchases, fomento, contracts, organizations, excluded] = SEAL_YEAR_SQL.map(any);
  return [
    swap(swap(sales, 'SELECT sum(revenue)', 'SELECT producer_id, sum(revenue)'), /sold_on BETWEEN \$2 AND \$3/, 'sold_on BETWEEN $2 AND $3 GROUP BY 1'),
    swap(swap(purchases, 'SELECT p.purpose,', 'SELECT p.producer_id, p.purpose,'), 'GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13', 'GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14'),
    swap(swap(fomento, 'SELECT m.region,', 'SELECT f.producer_id, m.region,'), 'GROUP BY 1, 2', 'GROUP BY 1, 2, 3'),
    // The contracts in force in the year (a producer's other years' contracts decide nothing in it).
    swap(contracts, /FROM contract WHERE producer_id = ANY\(\$1::bigint\[\]\)/, 'FROM contract WHERE producer_id = ANY($1::bigint[]) AND valid_from <= $3 AND valid_until >= $2'),
    organizations,
    swap(excluded, 'SELECT p.id, p.cost', 'SELECT p.producer_id, p.id, p.cost'),
    `SELECT g.producer_id, g.id, g.granted_on, g.valid_until, e.kind, e.effective_on, e.valid_until AS event_until
       FROM seal_grant g LEFT JOIN seal_event e ON e.grant_id = g.id WHERE g.producer_id = ANY($1::bigint[])`,
  ];
})();

/** What a hand does with the excluded ids it found: the items by state (fomento whole), farmers, organizations. $4 the excluded purchases. */
const COUNTED = `SELECT p.cost, p.family_farmer_id, p.organization_id, p.origin_municipality_code FROM purchase p
   WHERE p.producer_id = ANY($1::bigint[]) AND p.purchased_on BETWEEN $2::date AND $3::date AND p.supplier_kind IN ('FAMILY_FARMER', 'COOPERATIVE', 'ASSOCIATION')
     AND NOT EXISTS (SELECT 1 FROM unnest($4::bigint[]) e(id) WHERE e.id = p.id)`;
const PROGRAM_COUNTED_SQL = [
  `SELECT m.state, sum(x.amount) AS actual, sum(x.n) AS n FROM (
     SELECT origin_municipality_code AS code, sum(cost) AS amount, count(*) AS n FROM (${COUNTED}) c GROUP BY 1
     UNION ALL
     SELECT municipality_code, sum(amount), count(*) FROM fomento_expense WHERE producer_id = ANY($1::bigint[]) AND spent_on BETWEEN $2::date AND $3::date GROUP BY 1
   ) x JOIN municipality m ON m.ibge_code = x.code GROUP BY 1 ORDER BY 1`,
  `SELECT ff.municipality_code, count(DISTINCT c.family_farmer_id) AS n FROM (${COUNTED}) c JOIN family_farmer ff ON ff.id = c.family_farmer_id GROUP BY 1`,
  `SELECT count(*) AS organizations, sum(d.family_farmer_members) AS members
     FROM (SELECT DISTINCT organization_id FROM (${COUNTED}) c WHERE organization_id IS NOT NULL) k
     LEFT JOIN LATERAL ${membershipOnSql('k.organization_id', '$3::date')} d ON true`,
];

const OVERVIEW_QUERY = `query($y: Int!) { programOverview(year: $y) {
  producerCount byStanding { standing producers } byCompliance { compliance producers }
  spending { salesRevenue base actualTotal weightedTotal priorityRegionShare }
  byKind { kind actual weighted count } byRegion { region actual weighted count } byState { state actual count } byFeedstock { feedstock actual weighted count }
  families { familyFarmers organizations organizationFamilyFarmerMembers byState { state familyFarmers } }
  standingChanges { before after }
} }`;

function option(argv: readonly string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return argv[i].startsWith(`${name}=`) ? argv[i].slice(name.length + 1) : argv[i + 1];
}

async function run(client: PoolClient, statements: readonly string[], params: unknown[]) {
  const answers: Array<Array<Record<string, any>>> = [];
  for (const s of statements) answers.push((await client.query(s, params.slice(0, Math.max(0, ...[...s.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))))).rows);
  return answers;
}

export async function nationalMain(argv: readonly string[]): Promise<void> {
  const quick = argv.includes('--quick');
  // --reuse-db NAME: the cases again on a database an earlier --keep-db run left (no load), kept again.
  const reuse = option(argv, '--reuse-db');
  const keep = argv.includes('--keep-db') || reuse !== undefined;
  const factorText = option(argv, '--national-scale');
  const scale = nationalScale(factorText === undefined ? 1 : Number(factorText));
  const server = await serverUrl();
  const name = reuse ?? `selo_bench_national_${process.pid}`;
  if (!reuse) {
    const admin = new Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
  }
  const url = withDatabase(server.url, name);
  const ds = await openDatabase({ url, poolSize: 20 });
  const pool = new Pool({ connectionString: url, max: 4, options: '-c jit=off' });
  pool.on('error', (e) => process.stderr.write(`bench: idle database client failed: ${e.message}\n`));
  const [load1] = os.loadavg();
  const results: Record<string, any> = {
    date: new Date().toISOString(), national: true, quick, scale,
    machine: `${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
    loadAverageAtStart: Number(load1.toFixed(2)),
  };
  let client: PoolClient | undefined;
  try {
    await prepareDatabase(ds);
    let data: { producerIds: string[] };
    if (reuse) {
      data = { producerIds: (await ds.query('SELECT id::text AS id FROM producer ORDER BY id')).map((r: { id: string }) => r.id) };
    } else {
      process.stdout.write(`national program at scale ${scale.factor}: loading ${NATIONAL_YEARS.first}–${NATIONAL_YEARS.last}\n`);
      const built = await buildNationalData(ds, scale, (line) => process.stdout.write(`${line}\n`));
      data = built;
      results.load = { rows: built.rows, seconds: Number(built.loadSeconds.toFixed(1)), rowsPerSecond: Math.round(built.rows / built.loadSeconds), counts: built.counts, rebuilt: built.rebuilt, target: '>= 50,000 rows/s' };
      process.stdout.write(`loaded ${built.rows} rows in ${built.loadSeconds.toFixed(1)} s (${results.load.rowsPerSecond} rows/s): ${JSON.stringify(built.counts)}\n`);
    }

    const { app, gql } = await startBenchApi(ds);
    client = await pool.connect();
    const c = client;
    const from = `${YEAR}-01-01`;
    const to = `${YEAR}-12-31`;
    const programByHand = async () => {
      const year = await run(c, PROGRAM_YEAR_SQL, [data.producerIds, from, to]);
      const excluded = year[5].map((r) => r.id);
      return [...year, ...(await run(c, PROGRAM_COUNTED_SQL, [data.producerIds, from, to, excluded]))];
    };

    // 1. programOverview of a year, beside the same answer by hand: first computed in full (no
    // producer's year kept yet), then as asked again, then after one producer's records changed.
    const timed = async (f: () => Promise<unknown>) => { const t = performance.now(); await f(); return performance.now() - t; };
    // Nothing stored by an earlier run on a database reused: computed in full, every producer.
    await c.query('TRUNCATE program_year_part');
    const coldMs = await timed(() => gql(OVERVIEW_QUERY, { y: YEAR }));
    // Stored after the answer: the new process below starts once they are.
    await app.settled();
    // A new process (a restart, another instance) reads the producers' years the first stored.
    const other = await startBenchApi(ds, { publish: false });
    const readBackMs = await timed(() => other.gql(OVERVIEW_QUERY, { y: YEAR }));
    await other.app.stop();
    const overviewCase = await sideBySide(() => gql(OVERVIEW_QUERY, { y: YEAR }), programByHand);
    const written: number[] = [];
    for (let i = 0; i < 3; i++) {
      await c.query(`UPDATE fomento_expense SET amount = amount WHERE id = (SELECT min(id) FROM fomento_expense WHERE producer_id = $1)`, [data.producerIds[i % data.producerIds.length]]);
      written.push(await timed(() => gql(OVERVIEW_QUERY, { y: YEAR })));
    }
    // A shared record written (a municipality's name, unchanged): every producer's year is stale, and
    // the process, warm by now, computes the program in full: the steady state of a full computation.
    const shared: number[] = [];
    for (let i = 0; i < 3; i++) {
      await c.query(`UPDATE municipality SET name = name WHERE ibge_code = (SELECT min(ibge_code) FROM municipality)`);
      shared.push(await timed(() => gql(OVERVIEW_QUERY, { y: YEAR })));
    }
    const sharedMs = [...shared].sort((a, b) => a - b)[1];
    const overview = (await gql(OVERVIEW_QUERY, { y: YEAR })).programOverview;
    const hand = await programByHand();
    // The items the producers' results exclude, read apart from the timed query (the list is long).
    const producersExcluded = (await gql(`query($y: Int!) { programOverview(year: $y) { producers { sealCompliance { excluded { id source amount } } } } }`, { y: YEAR }))
      .programOverview.producers.flatMap((p: { sealCompliance: { excluded: Array<{ id: string; source: string; amount: string }> } }) => p.sealCompliance.excluded);
    const excludedBy = (source: string) => producersExcluded.filter((e: { source: string }) => e.source === source);
    const farmersByHand = hand[8].reduce((n, r) => n + Number(r.n), 0);
    results.programOverview = {
      ...overviewCase, year: YEAR, producers: overview.producerCount,
      // Computed in full, the same target: no kept year may stand in for it.
      firstInFull: { ms: Number(coldMs.toFixed(1)), ratioToHand: Number((coldMs / overviewCase.sql.median).toFixed(2)), pass: coldMs / overviewCase.sql.median <= 1.5 && coldMs < 3000 },
      afterOneProducerWrote: { ms: written.map((x) => Number(x.toFixed(1))), pass: written.every((x) => x < 3000) },
      afterSharedWrite: {
        ms: shared.map((x) => Number(x.toFixed(1))), median: Number(sharedMs.toFixed(1)), ratioToHand: Number((sharedMs / overviewCase.sql.median).toFixed(2)),
        pass: sharedMs / overviewCase.sql.median <= 1.5 && sharedMs < 3000,
      },
      readBack: { ms: Number(readBackMs.toFixed(1)), pass: readBackMs < 3000 },
      answer: { byStanding: overview.byStanding, byCompliance: overview.byCompliance, spending: overview.spending, families: { familyFarmers: overview.families.familyFarmers, organizations: overview.families.organizations } },
      agree: {
        familyFarmers: { api: overview.families.familyFarmers, sql: farmersByHand, same: overview.families.familyFarmers === farmersByHand },
        excludedPurchases: { api: excludedBy('PURCHASE').length, sql: hand[5].length, same: excludedBy('PURCHASE').map((e: { id: string }) => e.id).sort().join() === hand[5].map((r) => String(r.id)).sort().join() },
        excludedOther: producersExcluded.filter((e: { source: string }) => e.source !== 'PURCHASE').length,
      },
      target: 'ratio <= 1.5 and < 3 s', pass: overviewCase.ratio <= 1.5 && overviewCase.api.median < 3000,
    };

    // 2. One producer's tax month and Selo year, beside the hand-written SQL of the 1M benchmark.
    const producer = data.producerIds[0];
    const taxQuery = `query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m) { totalDue pisDue cofinsDue domesticVolumeM3 segments { from to pisDue cofinsDue mix { category share } } imports { pisDue cofinsDue } } }`;
    // A month of ~1,200 purchases answers in milliseconds: measured as a running server answers it,
    // its path compiled by V8 (after one run only, its median was about twice as long).
    const taxRun = () => gql(taxQuery, { p: producer, y: YEAR, m: 3 });
    const taxByHand = () => run(c, TAX_MONTH_SQL, [producer, `${YEAR}-03-01`, `${YEAR}-03-31`, '0.6']);
    const taxFirst = await sideBySide(taxRun, taxByHand);
    const taxCase = await sideBySide(taxRun, taxByHand, 100);
    results.taxPeriod = { ...taxCase, afterOneRun: { api: taxFirst.api.median, sql: taxFirst.sql.median, ratio: taxFirst.ratio }, producer, month: `${YEAR}-03`, target: 'ratio as at the 1M data (1.14×) or better', pass: taxCase.ratio <= 1.14 };
    const sealQuery = `query($p: ID!, $y: Int!) { sealCompliance(producerId: $p, year: $y) { base countedTotal achievedShare compliant excluded { id source amount } } }`;
    const sealCase = await sideBySide(() => gql(sealQuery, { p: producer, y: YEAR }), () => run(c, SEAL_YEAR_SQL, [producer, from, to]));
    const seal = (await gql(sealQuery, { p: producer, y: YEAR })).sealCompliance;
    const sqlExcluded = (await run(c, SEAL_YEAR_SQL, [producer, from, to]))[5].map((r) => String(r.id));
    const apiExcluded = seal.excluded.filter((e: { source: string }) => e.source === 'PURCHASE').map((e: { id: string }) => e.id);
    results.sealCompliance = {
      ...sealCase, producer, year: YEAR,
      excludedPurchases: { api: apiExcluded.length, sql: sqlExcluded.length, same: apiExcluded.join() === sqlExcluded.join() },
      target: 'ratio as at the 1M data (1.14×) or better', pass: sealCase.ratio <= 1.14,
    };
    await app.stop();
  } finally {
    client?.release();
    await pool.end();
    await ds.destroy();
    if (keep) {
      process.stdout.write(`kept database ${name} for EXPLAIN (drop it when done)\n`);
    } else {
      const c = new Client({ connectionString: server.url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      await server.stop?.();
    }
  }
  // maxRSS is in kilobytes: the benchmark's process, the API and its side of the load.
  results.peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  results.loadAverageAtEnd = Number(os.loadavg()[0].toFixed(2));
  printNational(results);
  if (!quick && scale.factor === 1) fs.writeFileSync(path.join(ROOT, 'bench/national-results.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

function printNational(r: Record<string, any>) {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const verdict = (ok: boolean) => (r.quick ? 'n/a (quick)' : ok ? 'yes' : 'NO');
  const lines = [
    `Selo API national benchmark ${r.date} on ${r.machine}, scale ${r.scale.factor}${r.quick ? ' (quick)' : ''}, load average ${r.loadAverageAtStart} → ${r.loadAverageAtEnd}`,
    '',
    '| case | API median (min–max) | hand-written median (min–max) | ratio | target | pass |',
    '|---|---|---|---|---|---|',
  ];
  for (const key of ['programOverview', 'taxPeriod', 'sealCompliance']) {
    const c = r[key];
    if (c) lines.push(`| ${key}${key === 'programOverview' ? ' asked again' : ''} | ${ms(c.api.median)} (${ms(c.api.min)}–${ms(c.api.max)}) | ${ms(c.sql.median)} (${ms(c.sql.min)}–${ms(c.sql.max)}) | ${c.ratio < 0.01 ? c.ratio.toFixed(4) : c.ratio.toFixed(2)}× | ${c.target} | ${verdict(c.pass)} |`);
  }
  const t = r.taxPeriod?.afterOneRun;
  if (t) lines.push(`| taxPeriod after one run (the path not yet compiled) | ${ms(t.api)} | ${ms(t.sql)} | ${t.ratio.toFixed(2)}× | | |`);
  const o = r.programOverview;
  if (o?.firstInFull) {
    lines.push(`| programOverview computed in full, the process's first request | ${ms(o.firstInFull.ms)} | ${ms(o.sql.median)} | ${o.firstInFull.ratioToHand.toFixed(2)}× | ratio <= 1.5 and < 3 s | ${verdict(o.firstInFull.pass)} |`);
    const s = o.afterSharedWrite;
    if (s) lines.push(`| programOverview computed in full after a shared record changed (median of ${s.ms.map(ms).join(', ')}) | ${ms(s.median)} | ${ms(o.sql.median)} | ${s.ratioToHand.toFixed(2)}× | ratio <= 1.5 and < 3 s | ${verdict(s.pass)} |`);
    lines.push(`| programOverview after one producer's records changed | ${o.afterOneProducerWrote.ms.map(ms).join(', ')} | | | < 3 s | ${verdict(o.afterOneProducerWrote.pass)} |`);
    if (o.readBack) lines.push(`| programOverview in a new process, the years stored | ${ms(o.readBack.ms)} | | | < 3 s | ${verdict(o.readBack.pass)} |`);
  }
  const l = r.load;
  if (l) lines.push(`| load ${NATIONAL_YEARS.first}–${NATIONAL_YEARS.last} | ${l.rows} rows in ${l.seconds} s: ${l.rowsPerSecond} rows/s | | | ${l.target} | ${verdict(l.rowsPerSecond >= 50_000)} |`);
  lines.push(`| peak RSS of the benchmark's process | ${r.peakRssMb} MB | | | | |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
