import fc from 'fast-check';
import { QueryRunner } from 'typeorm';
import { addDays } from '../../src/law/dates';
import { inForce, Version } from '../../src/law/dated';
import { inForceSql } from '../../src/services/facts/in-force.sql';
import { createTestDatabase, TestDatabase } from '../support/database';
import { checkProperty } from '../support/property';
import { dayAround, days, rolledBack } from './facts-parity.support';

/**
 * The version in force on a date as known on a date: the SQL of src/services/facts/in-force.sql.ts
 * (the compiled `minimumPrices(on:)`) agrees with its pure twin `inForce` of src/law/dated.ts on
 * generated versions — overlapping validity, open ends, equal publication days — asked on the
 * days around every boundary, on real PostgreSQL. Each run's rows are rolled back.
 */
let db: TestDatabase;
let runner: QueryRunner;
beforeAll(async () => {
  db = await createTestDatabase(2);
  runner = db.dataSource.createQueryRunner();
  await runner.connect();
});
afterAll(async () => {
  await runner?.release();
  await db?.drop();
});

interface Row { per: string; validFrom: string; validUntil: string | null; publishedOn: string }

/** The id of the version in force per `per` by SQL, for each (on, asKnownOn) asked. */
async function bySql(q: (sql: string, params?: unknown[]) => Promise<any>, rows: readonly Row[], asked: ReadonlyArray<[string, string]>): Promise<Array<Record<string, string>>> {
  await q('CREATE TEMP TABLE version (id bigserial PRIMARY KEY, per text NOT NULL, valid_from date NOT NULL, valid_until date, published_on date NOT NULL) ON COMMIT DROP');
  for (const r of rows) await q('INSERT INTO version (per, valid_from, valid_until, published_on) VALUES ($1, $2, $3, $4)', [r.per, r.validFrom, r.validUntil, r.publishedOn]);
  const found: Array<Record<string, string>> = [];
  for (const [on, asKnownOn] of asked) {
    const chosen = inForceSql({ table: 'version', alias: 'v', key: 'id', per: 'per', validFrom: 'valid_from', validUntil: 'valid_until', publishedOn: 'published_on', on: '$1::date', asKnownOn: '$2::date' });
    const result: Array<{ per: string; id: string }> = await q(`SELECT c.per, c.id::text AS id FROM version c WHERE c.id IN (${chosen})`, [on, asKnownOn]);
    found.push(Object.fromEntries(result.map((r) => [r.per, r.id])));
  }
  return found;
}

/** The same by `inForce`: the versions of each `per`, in the order recorded (the ids). */
function byLaw(rows: readonly Row[], asked: ReadonlyArray<[string, string]>): Array<Record<string, string>> {
  const versions = rows.map((r, i): Version<string> & { per: string } => ({ id: String(i + 1), per: r.per, value: r.per, validFrom: r.validFrom, validUntil: r.validUntil, publishedOn: r.publishedOn, legalBasis: 'test', seq: i }));
  return asked.map(([on, asKnownOn]) => {
    const chosen: Record<string, string> = {};
    for (const per of [...new Set(rows.map((r) => r.per))]) {
      const v = inForce(versions.filter((x) => x.per === per), on, asKnownOn);
      if (v) chosen[per] = v.id!;
    }
    return chosen;
  });
}

const version = fc.record({
  per: fc.constantFrom('SOYBEAN', 'CASTOR_BEAN'),
  validFrom: dayAround,
  length: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
  // Often one of two days: versions published the same day, told apart by the order recorded.
  publishedOn: fc.oneof(dayAround, fc.constantFrom('2024-01-01', '2024-01-10')),
}).map((v): Row => ({ per: v.per, validFrom: v.validFrom, validUntil: v.length === null ? null : addDays(v.validFrom, v.length), publishedOn: v.publishedOn }));

async function agree(rows: readonly Row[], extra: readonly string[]): Promise<void> {
  const on = days(rows.flatMap((r) => [r.validFrom, r.validUntil]), extra);
  const known = days(rows.map((r) => r.publishedOn), extra);
  // Each day asked on, as known on each publication boundary (and far before and after).
  const asked = on.flatMap((d) => known.map((k): [string, string] => [d, k]));
  await rolledBack(runner, async (q) => {
    expect(await bySql(q, rows, asked)).toEqual(byLaw(rows, asked));
  });
}

test('inForceSql agrees with inForce on generated versions', async () => {
  await checkProperty(fc.asyncProperty(fc.array(version, { maxLength: 6 }), fc.array(dayAround, { maxLength: 2 }), agree), { numRuns: 40 });
});

test('the boundaries as examples: the last valid day, the publication day, equal publication days (the later recorded wins), an open end', async () => {
  const rows: Row[] = [
    { per: 'SOYBEAN', validFrom: '2024-01-01', validUntil: '2024-01-31', publishedOn: '2023-12-20' },
    { per: 'SOYBEAN', validFrom: '2024-01-15', validUntil: null, publishedOn: '2024-01-10' },
    { per: 'SOYBEAN', validFrom: '2024-01-15', validUntil: '2024-01-20', publishedOn: '2024-01-10' },
    { per: 'CASTOR_BEAN', validFrom: '2024-01-01', validUntil: '2024-01-01', publishedOn: '2024-01-01' },
  ];
  await agree(rows, []);
  const asked: Array<[string, string]> = [['2024-01-31', '2024-01-09'], ['2024-01-20', '2024-01-10'], ['2024-01-21', '2024-01-10'], ['2024-01-01', '2023-12-31'], ['2024-01-01', '2024-01-01']];
  await rolledBack(runner, async (q) => {
    expect(await bySql(q, rows, asked)).toEqual([{ SOYBEAN: '1' }, { SOYBEAN: '3' }, { SOYBEAN: '2' }, { SOYBEAN: '1' }, { SOYBEAN: '1', CASTOR_BEAN: '4' }]);
  });
});
