import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { prepareDatabase } from '../../src/database/prepare';
import { SYSTEM_ACTOR } from '../../src/services/actor';
import { LawService } from '../../src/services/law.service';
import { Decimal } from '../../src/law/decimal';
import { createTestDatabase, TestDatabase } from '../support/database';

/**
 * Two replicas of the API on one database, each with its own pool and its own LawService (its own
 * cached law book), and a third connection publishing a version in a transaction left open. The
 * version that got the lower id commits after the one with the higher id: a replica that cached
 * the book in between must still see it once it is committed (docs/LAW.md: a month closed through
 * a stale replica would store other figures than the other replica computes).
 */
let db: TestDatabase;
let pools: DataSource[];
let replicaA: LawService;
let replicaB: LawService;
beforeAll(async () => {
  db = await createTestDatabase(2);
  await prepareDatabase(db.dataSource);
  pools = [createDataSource({ url: db.url, poolSize: 2 }), createDataSource({ url: db.url, poolSize: 2 })];
  await Promise.all(pools.map((p) => p.initialize()));
  [replicaA, replicaB] = pools.map((p) => new LawService(p));
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.destroy()));
  await db.drop();
});

const factor = async (replica: LawService, kind: 'FOMENTO' | 'OTHER_PRODUCT') => (await replica.lawBook()).weightingFactor(kind, '2031-06-01', '2031-06-01').value.toString();

test('a version whose lower id commits after a higher one is seen by the replica that cached the book in between', async () => {
  // Both replicas hold the book as it is now: factor 1 for both kinds in 2031.
  expect([await factor(replicaA, 'FOMENTO'), await factor(replicaB, 'FOMENTO'), await factor(replicaB, 'OTHER_PRODUCT')]).toEqual(['1', '1', '1']);

  // A publication in flight takes the lower id and does not commit yet.
  const slow = new Client({ connectionString: db.url });
  await slow.connect();
  try {
    await slow.query('BEGIN');
    const [{ id: lowerId }] = (await slow.query(
      `INSERT INTO law_parameter_version (key, parameter, scope, value, valid_from, published_on, legal_basis, shipped)
       VALUES ('published/slow', 'weighting-factor', 'FOMENTO', '{"factor": "3"}', '2031-01-01', '2030-12-01', 'Portaria (test) 1/2030, art. 1º', false) RETURNING id`,
    )).rows as Array<{ id: string }>;

    // Replica A publishes another version meanwhile (a higher id); replica B reads the book while
    // the first is still open.
    const quick = replicaA.publishLawParameter(SYSTEM_ACTOR, {
      parameter: 'weighting-factor', scope: 'OTHER_PRODUCT', values: [{ name: 'factor', value: new Decimal(2) }],
      validFrom: '2031-01-01', publishedOn: '2030-12-01', legalBasis: 'Portaria (test) 2/2030, art. 1º',
    });
    const quickSettled = quick.then(() => 'committed', () => 'failed');
    const first = await Promise.race([quickSettled, new Promise((r) => setTimeout(() => r('waiting'), 500))]);
    const seenInBetween = await factor(replicaB, 'FOMENTO');
    expect(seenInBetween).toBe('1');

    await slow.query('COMMIT');
    const published = await quick;
    expect(Number(published.id)).toBeGreaterThan(Number(lowerId));
    // Whether the quick publication committed first (ids in one order, commits in the other) or
    // queued behind the open one, both replicas now read both versions.
    expect(['committed', 'waiting']).toContain(first);
  } finally {
    await slow.end();
  }
  expect([await factor(replicaB, 'FOMENTO'), await factor(replicaB, 'OTHER_PRODUCT')]).toEqual(['3', '2']);
  expect([await factor(replicaA, 'FOMENTO'), await factor(replicaA, 'OTHER_PRODUCT')]).toEqual(['3', '2']);
});

test('the revision goes up once per transaction that adds versions, never for one that adds none', async () => {
  const revision = async () => Number((await db.dataSource.query('SELECT revision FROM law_revision'))[0].revision);
  const before = await revision();
  // Loading the shipped law again adds nothing (ON CONFLICT DO NOTHING): no new revision, no reload.
  await prepareDatabase(db.dataSource);
  expect(await revision()).toBe(before);
  await replicaA.publishLawParameter(SYSTEM_ACTOR, {
    parameter: 'weighting-factor', scope: 'FAMILY_FARMING_ACQUISITION', values: [{ name: 'factor', value: new Decimal('1.5') }],
    validFrom: '2032-01-01', publishedOn: '2031-12-01', legalBasis: 'Portaria (test) 3/2031, art. 1º',
  });
  expect(await revision()).toBe(before + 1);
  // A rolled-back publication leaves the revision as it was.
  await expect(db.dataSource.transaction(async (em) => {
    await em.query(`INSERT INTO law_parameter_version (key, parameter, scope, value, valid_from, published_on, legal_basis, shipped)
      VALUES ('published/rolled-back', 'weighting-factor', 'FOMENTO', '{"factor": "9"}', '2033-01-01', '2032-12-01', 'x', false)`);
    throw new Error('rolled back');
  })).rejects.toThrow('rolled back');
  expect(await revision()).toBe(before + 1);
  expect((await replicaB.lawBook()).weightingFactor('FOMENTO', '2033-06-01', '2033-06-01').value.toString()).toBe('3');
});
