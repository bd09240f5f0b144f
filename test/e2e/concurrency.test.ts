import { cpf as cpfLib } from 'cpf-cnpj-validator';
import { Client } from 'pg';
import { Decimal } from '../../src/law/decimal';
import { PERIOD_LOCK_KEY } from '../../src/services/period-lock';
import { GraphQLResponse, startTestApi, TestApi } from '../support/api';
import { nfeKey } from '../support/fixtures';
import { Producer } from '../../src/domain';
import { createServices } from '../../src/services';
import { requestContext } from '../../src/request-context';
import { YEARS_AT_ONCE } from '../../src/services/seal-compliance/compliance.service';
import { FOLDS_AT_ONCE } from '../../src/services/credit.service';

/**
 * Races that must resolve to exactly one outcome: an acknowledged record is never lost, a batch
 * never counted twice, and a closed month's snapshot never misses a record that was accepted into it.
 */

let api: TestApi;
let producerId: string;
let farmerId: string;

beforeAll(async () => {
  api = await startTestApi();
  await api.ok(`mutation { upsertMunicipalities(input: [{ ibgeCode: "2611606", name: "Recife", semiarid: false }]) { ibgeCode } }`);
  producerId = (await api.ok(`mutation { createProducer(input: { cnpj: "11222333000181", legalName: "Usina Recife", plantMunicipalityCode: "2611606" }) { id } }`)).createProducer.id;
  farmerId = (await api.ok(`mutation($cpf: CPF!) { createFamilyFarmer(input: { cpf: $cpf, name: "Maria", municipalityCode: "2611606",
    registrations: [{ kind: CAF, number: "CAF-1", validFrom: "2024-01-01", validUntil: "2027-12-31" }] }) { id } }`, { cpf: cpfLib.generate() })).createFamilyFarmer.id;
  await api.ok(`mutation($p: ID!) { electRegime(input: { producerId: $p, regime: SPECIAL_PER_M3, electedOn: "2025-11-03" }) { effectiveYear } }`, { p: producerId });
  await api.ok(`mutation($p: ID!) { grantSeal(input: { producerId: $p, grantedOn: "2025-01-01", validUntil: "2027-12-31" }) { id } }`, { p: producerId });
});
afterAll(async () => { await api.close(); });

const codes = (res: GraphQLResponse) => (res.errors ?? []).map((e) => `${e.extensions?.code}/${e.extensions?.reason ?? ''}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const PURCHASES = `mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`;
const SALES = `mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`;
const CLOSE = `mutation($p: ID!, $m: Int!) { closeTaxPeriod(producerId: $p, year: 2026, month: $m) { status feedstockCost domesticVolumeM3 } }`;
const READ = `query($p: ID!, $m: Int!) { taxPeriod(producerId: $p, year: 2026, month: $m) { status feedstockCost domesticVolumeM3 } }`;

const purchase = (day: string, cost: string, extra: { externalId?: string } & Record<string, unknown> = {}) => ({
  producerId, purchasedOn: day, feedstock: 'SOYBEAN', quantityKg: '1000', cost,
  supplierKind: 'FAMILY_FARMER', familyFarmerId: farmerId, originMunicipalityCode: '2611606', ...extra,
});
const sale = (day: string, volumeM3: string, extra: Record<string, unknown> = {}) => ({ producerId, soldOn: day, volumeM3, revenue: '1000', ...extra });

test('two updates with the same expectedVersion: exactly one wins, the other is CONFLICT/VERSION_MISMATCH', async () => {
  const { producer } = await api.ok(`query($id: ID!) { producer(id: $id) { version } }`, { id: producerId });
  for (let round = 0; round < 5; round++) {
    const version = producer.version + round;
    const update = (name: string) => api.gql(`mutation($id: ID!, $v: Int!, $n: String!) { updateProducer(id: $id, expectedVersion: $v, input: { legalName: $n }) { version legalName } }`, { id: producerId, v: version, n: name });
    const [a, b] = await Promise.all([update(`Usina A${round}`), update(`Usina B${round}`)]);
    const winners = [a, b].filter((r) => !r.errors);
    const losers = [a, b].filter((r) => r.errors);
    expect(winners).toHaveLength(1);
    expect(codes(losers[0])).toEqual(['CONFLICT/VERSION_MISMATCH']);
    expect(winners[0].data?.updateProducer.version).toBe(version + 1);
    const stored = await api.db.dataSource.query(`SELECT version, legal_name FROM producer WHERE id = $1`, [producerId]);
    expect(stored[0]).toEqual({ version: version + 1, legal_name: winners[0].data?.updateProducer.legalName });
  }
  // The loser's version is stale for good: retrying it as it was changes nothing.
  const stale = await api.gql(`mutation($id: ID!, $v: Int!) { updateProducer(id: $id, expectedVersion: $v, input: { legalName: "Late" }) { version } }`, { id: producerId, v: producer.version });
  expect(codes(stale)).toEqual(['CONFLICT/VERSION_MISMATCH']);
  expect(await api.count(`SELECT version FROM producer WHERE id = $1`, [producerId])).toBe(producer.version + 5);
});

test('the same externalId batch sent twice in parallel: one succeeds, one CONFLICT/DUPLICATE, no duplicate rows', async () => {
  for (let round = 0; round < 5; round++) {
    const input = [0, 1, 2].map((k) => purchase('2026-02-10', '2500.00', { externalId: `race-${round}-${k}` }));
    const send = () => api.gql(PURCHASES, { i: input }, { role: 'PRODUCER', producerId });
    const [a, b] = await Promise.all([send(), send()]);
    const winners = [a, b].filter((r) => !r.errors);
    expect(winners).toHaveLength(1);
    expect(winners[0].data?.recordPurchases).toHaveLength(3);
    expect(codes([a, b].find((r) => r.errors)!)).toEqual(['CONFLICT/DUPLICATE']);
    expect(await api.count(`SELECT count(*) FROM purchase WHERE external_id LIKE $1`, [`race-${round}-%`])).toBe(3);
  }
});

test('overlapping batches in parallel: the loser writes none of its items, not even those the winner did not have', async () => {
  for (let round = 0; round < 5; round++) {
    const a = [purchase('2026-02-11', '10', { externalId: `overlap-${round}-a` }), purchase('2026-02-11', '20', { externalId: `overlap-${round}-shared` })];
    const b = [purchase('2026-02-11', '40', { externalId: `overlap-${round}-shared` }), purchase('2026-02-11', '80', { externalId: `overlap-${round}-b` })];
    const [ra, rb] = await Promise.all([api.gql(PURCHASES, { i: a }), api.gql(PURCHASES, { i: b })]);
    expect([ra, rb].filter((r) => !r.errors)).toHaveLength(1);
    expect(codes(ra.errors ? ra : rb)).toEqual(['CONFLICT/DUPLICATE']);
    const stored: Array<{ external_id: string; cost: string }> = await api.db.dataSource.query(
      `SELECT external_id, cost::text AS cost FROM purchase WHERE external_id LIKE $1 ORDER BY external_id`, [`overlap-${round}-%`]);
    const expected = (ra.errors ? b : a).map((p) => ({ external_id: p.externalId ?? '', cost: p.cost })).sort((x, y) => (x.external_id < y.external_id ? -1 : 1));
    expect(stored.map((s) => ({ external_id: s.external_id, cost: new Decimal(s.cost).toString() }))).toEqual(expected);
  }
});

test('the same invoiceKey sent twice in parallel: one sale stored, the other CONFLICT/DUPLICATE', async () => {
  for (let round = 0; round < 5; round++) {
    const invoiceKey = nfeKey('11222333000181', round, '2602'); // issued by this producer (its CNPJ in positions 7 to 20)
    const send = () => api.gql(SALES, { i: [sale('2026-02-12', '5', { invoiceKey })] });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a, b].filter((r) => !r.errors)).toHaveLength(1);
    expect(codes(a.errors ? a : b)).toEqual(['CONFLICT/DUPLICATE']);
    expect(await api.count(`SELECT count(*) FROM sale WHERE invoice_key = $1`, [invoiceKey])).toBe(1);
  }
});

describe('closeTaxPeriod racing records into that month', () => {
  /** A connection of the test's own, outside the application's pool. */
  let holder: Client;
  beforeAll(async () => {
    holder = new Client({ connectionString: api.db.url });
    await holder.connect();
  });
  afterAll(async () => { await holder.end(); });

  /** Requests of this database waiting for a period lock. */
  const waiting = async () => Number((await holder.query(
    `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)).rows[0].n);
  const untilWaiting = async (n: number) => {
    for (let i = 0; i < 200 && (await waiting()) < n; i++) await sleep(10);
    expect(await waiting()).toBe(n);
  };

  /** Stored cost and domestic volume of the month, straight from the tables. */
  const storedMonth = async (month: number) => {
    const from = `2026-${String(month).padStart(2, '0')}-01`;
    const [row] = await api.db.dataSource.query(
      `SELECT (SELECT coalesce(sum(cost), 0)::text FROM purchase WHERE producer_id = $1 AND consumed_on >= $2::date AND consumed_on < $2::date + interval '1 month') AS cost,
              (SELECT coalesce(sum(volume_m3), 0)::text FROM sale WHERE producer_id = $1 AND sold_on >= $2::date AND sold_on < $2::date + interval '1 month') AS volume`,
      [producerId, from]);
    return { cost: new Decimal(row.cost), volume: new Decimal(row.volume) };
  };

  /** The month already has a third-party purchase of 1000 and a sale of 100 m³. */
  const openMonth = async (month: number) => {
    const day = `2026-${String(month).padStart(2, '0')}-15`;
    await api.ok(SALES, { i: [sale(day, '100')] });
    await api.ok(PURCHASES, { i: [purchase(day, '1000', { supplierKind: 'THIRD_PARTY', supplierName: 'Trading SA', familyFarmerId: undefined })] });
    return day;
  };

  /** The snapshot equals what is stored, and a later read of the closed month returns the same. */
  const expectSnapshotIsStored = async (month: number, closed: { feedstockCost: string; domesticVolumeM3: string }) => {
    const stored = await storedMonth(month);
    expect(new Decimal(closed.feedstockCost).eq(stored.cost)).toBe(true);
    expect(new Decimal(closed.domesticVolumeM3).eq(stored.volume)).toBe(true);
    const read = (await api.ok(READ, { p: producerId, m: month })).taxPeriod;
    expect(read.status).toBe('CLOSED');
    expect(new Decimal(read.feedstockCost).eq(stored.cost)).toBe(true);
    expect(new Decimal(read.domesticVolumeM3).eq(stored.volume)).toBe(true);
    // Afterwards the month refuses records, naming the field.
    const late = await api.gql(PURCHASES, { i: [purchase(`2026-${String(month).padStart(2, '0')}-20`, '1')] });
    expect(late.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input[0].purchasedOn' });
    expect((await storedMonth(month)).cost.eq(stored.cost)).toBe(true);
  };

  /** Hold the month's lock exclusively from the test's connection; `release` lets the queue through in order. */
  const holdMonth = async (month: number) => {
    await holder.query('BEGIN');
    await holder.query(`SELECT pg_advisory_xact_lock(${PERIOD_LOCK_KEY})`, [producerId, 2026, month]);
    return { release: () => holder.query('COMMIT') };
  };

  test('a purchase queued before the close is in the snapshot', async () => {
    const day = await openMonth(1);
    const hold = await holdMonth(1);
    const p = api.gql(PURCHASES, { i: [purchase(day, '3000')] });
    await untilWaiting(1);
    const c = api.gql(CLOSE, { p: producerId, m: 1 });
    await untilWaiting(2);
    await hold.release();
    const [pr, cr] = await Promise.all([p, c]);
    expect(pr.errors).toBeUndefined();
    expect(cr.errors).toBeUndefined();
    expect(cr.data?.closeTaxPeriod.status).toBe('CLOSED');
    // 1000 (third party) + 3000 (the racing purchase), and the 100 m³ sale.
    expect(cr.data?.closeTaxPeriod.feedstockCost).toBe('4000.00');
    await expectSnapshotIsStored(1, cr.data!.closeTaxPeriod);
  });

  test('a purchase and a sale queued after the close are rejected with PERIOD_CLOSED and write nothing', async () => {
    const day = await openMonth(11);
    const hold = await holdMonth(11);
    const c = api.gql(CLOSE, { p: producerId, m: 11 });
    await untilWaiting(1);
    const p = api.gql(PURCHASES, { i: [purchase(day, '3000')] });
    const s = api.gql(SALES, { i: [sale(day, '7')] });
    await untilWaiting(3);
    await hold.release();
    const [cr, pr, sr] = await Promise.all([c, p, s]);
    expect(cr.errors).toBeUndefined();
    expect(codes(pr)).toEqual(['CONFLICT/PERIOD_CLOSED']);
    expect(codes(sr)).toEqual(['CONFLICT/PERIOD_CLOSED']);
    expect(cr.data?.closeTaxPeriod.feedstockCost).toBe('1000.00');
    expect(new Decimal(cr.data?.closeTaxPeriod.domesticVolumeM3).eq(100)).toBe(true);
    await expectSnapshotIsStored(11, cr.data!.closeTaxPeriod);
  });

  test('a close holding the month while records wait on every other connection of the pool still closes', async () => {
    // The close needs no connection beyond its own while it holds the month: one more, with the
    // pool taken by records waiting for the month, waited for a connection none would free.
    const pool = (api.db.dataSource.options.extra as { max: number }).max;
    const day = await openMonth(12);
    const hold = await holdMonth(12);
    const c = api.gql(CLOSE, { p: producerId, m: 12 });
    await untilWaiting(1);
    const records = Array.from({ length: pool - 1 }, (_, k) => api.gql(PURCHASES, { i: [purchase(day, String(10 + k))] }));
    await untilWaiting(pool);
    await hold.release();
    const [cr, ...rr] = await Promise.all([c, ...records]);
    expect(cr.errors).toBeUndefined();
    expect(cr.data?.closeTaxPeriod.feedstockCost).toBe('1000.00');
    expect(rr.map(codes)).toEqual(rr.map(() => ['CONFLICT/PERIOD_CLOSED']));
    await expectSnapshotIsStored(12, cr.data!.closeTaxPeriod);
  });

  test('two closes of the same month in parallel: one closes it, the other is CONFLICT/PERIOD_CLOSED; one audit entry', async () => {
    await openMonth(9);
    const [a, b] = await Promise.all([api.gql(CLOSE, { p: producerId, m: 9 }), api.gql(CLOSE, { p: producerId, m: 9 })]);
    expect([a, b].filter((r) => !r.errors)).toHaveLength(1);
    expect(codes(a.errors ? a : b)).toEqual(['CONFLICT/PERIOD_CLOSED']);
    expect(await api.count(`SELECT count(*) FROM tax_period WHERE producer_id = $1 AND year = 2026 AND month = 9`, [producerId])).toBe(1);
    expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'closeTaxPeriod' AND producer_id = $1 AND after->>'month' = '9'`, [producerId])).toBe(1);
  });

  test('reopening racing a purchase: the purchase is accepted only into the reopened (OPEN) month, or rejected', async () => {
    const day = `2026-10-15`;
    await openMonth(10);
    await api.ok(CLOSE, { p: producerId, m: 10 });
    const [r, p] = await Promise.all([
      api.gql(`mutation($p: ID!) { reopenTaxPeriod(producerId: $p, year: 2026, month: 10, reason: "Nota fiscal complementar") { status } }`, { p: producerId }),
      api.gql(PURCHASES, { i: [purchase(day, '3000')] }),
    ]);
    expect(r.data?.reopenTaxPeriod.status).toBe('OPEN');
    const stored = await storedMonth(10);
    if (p.errors) {
      expect(codes(p)).toEqual(['CONFLICT/PERIOD_CLOSED']);
      expect(stored.cost.eq(1000)).toBe(true);
    } else {
      expect(stored.cost.eq(4000)).toBe(true);
    }
    // Open again, the month is computed live from what is stored.
    const read = (await api.ok(READ, { p: producerId, m: 10 })).taxPeriod;
    expect(read.status).toBe('OPEN');
    expect(new Decimal(read.feedstockCost).eq(stored.cost)).toBe(true);
  });

  test('free races: each accepted record is in the snapshot, each other one rejected with PERIOD_CLOSED', async () => {
    const outcomes = { accepted: 0, rejected: 0 };
    for (let month = 3; month <= 8; month++) {
      const day = await openMonth(month);
      // Costs 2^k × 100 and volumes 2^k: the stored sums say exactly which ones got in.
      const purchases = [0, 1, 2, 3, 4, 5].map((k) => api.gql(PURCHASES, { i: [purchase(day, String(100 * 2 ** k))] }));
      const sales = [0, 1].map((k) => api.gql(SALES, { i: [sale(day, String(2 ** k))] }));
      await sleep((month - 3) * 4); // the close lands at a different point of the burst each month
      const cr = await api.gql(CLOSE, { p: producerId, m: month });
      const pr = await Promise.all(purchases);
      const sr = await Promise.all(sales);
      expect(cr.errors).toBeUndefined();
      let cost = new Decimal(1000);
      let volume = new Decimal(100);
      pr.forEach((r, k) => {
        if (r.errors) expect(codes(r)).toEqual(['CONFLICT/PERIOD_CLOSED']);
        else cost = cost.plus(100 * 2 ** k);
      });
      sr.forEach((r, k) => {
        if (r.errors) expect(codes(r)).toEqual(['CONFLICT/PERIOD_CLOSED']);
        else volume = volume.plus(2 ** k);
      });
      for (const r of [...pr, ...sr]) outcomes[r.errors ? 'rejected' : 'accepted']++;
      const closed = cr.data!.closeTaxPeriod;
      expect(new Decimal(closed.feedstockCost).eq(cost)).toBe(true);
      expect(new Decimal(closed.domesticVolumeM3).eq(volume)).toBe(true);
      await expectSnapshotIsStored(month, closed);
    }
    expect(outcomes.accepted + outcomes.rejected).toBe(6 * 8);
    process.stdout.write(`free races: ${outcomes.accepted} records accepted into the snapshot, ${outcomes.rejected} rejected as PERIOD_CLOSED\n`);
  });
});

describe('heavy computations asked at once', () => {
  test('Selo years asked by the aliases of one request: two computed at a time, every one answered', async () => {
    // Through the API: thirty aliases of the producer's own year, each as known on another day.
    const days = Array.from({ length: 30 }, (_, i) => `2026-0${1 + Math.floor(i / 28)}-${String((i % 28) + 1).padStart(2, '0')}`);
    const res = await api.gql(`query($p: ID!) { ${days.map((d, i) => `y${i}: sealCompliance(producerId: $p, year: 2026, asKnownOn: "${d}") { asKnownOn status }`).join(' ')} }`,
      { p: producerId }, { role: 'PRODUCER', producerId });
    expect(res.errors).toBeUndefined();
    expect(days.map((_, i) => res.data?.[`y${i}`].asKnownOn)).toEqual(days);

    // In the services: how many years are being computed at once while ten are asked together.
    const services = createServices(api.db.dataSource);
    const years = (services.sealCompliance as unknown as { years: { evaluate: (...a: unknown[]) => Promise<unknown> } }).years;
    const evaluate = years.evaluate.bind(years);
    let running = 0;
    let most = 0;
    years.evaluate = async (...args: unknown[]) => {
      most = Math.max(most, ++running);
      try {
        await sleep(30);
        return await evaluate(...args);
      } finally {
        running--;
      }
    };
    const producer = await api.db.dataSource.getRepository(Producer).findOneByOrFail({ id: producerId });
    const reports = await Promise.all(days.slice(0, 10).map((d) => services.sealCompliance.compute(producer, 2026, d)));
    expect(reports.map((r) => r.asKnownOn)).toEqual(days.slice(0, 10));
    expect(most).toBe(YEARS_AT_ONCE);
  });

  test('a page of many years whose request is answered (its timeout) while the first is computed stops there', async () => {
    const services = createServices(api.db.dataSource);
    const years = (services.sealCompliance as unknown as { years: { evaluate: (...a: unknown[]) => Promise<unknown> } }).years;
    const evaluate = years.evaluate.bind(years);
    const controller = new AbortController();
    const begun: number[] = [];
    years.evaluate = (...args: unknown[]) => {
      begun.push((args[2] as { year: number }).year);
      // The request is answered while its first year is computed.
      controller.abort();
      return evaluate(...args);
    };
    const producer = await api.db.dataSource.getRepository(Producer).findOneByOrFail({ id: producerId });
    const asked = [2021, 2022, 2023, 2024, 2025, 2026].map((year) => ({ producer, year, asKnownOn: '2026-06-01' }));
    await expect(requestContext.run({ requestId: 'answered', ended: controller.signal }, () => services.sealCompliance.ofPage(asked))).rejects.toThrow();
    expect(begun).toEqual([2021]);
  });

  test('credit folds asked by the aliases of one request: two computed at a time, every one answered', async () => {
    // Through the API: thirty aliases of the producer's own balances, each as known on another day.
    const days = Array.from({ length: 30 }, (_, i) => `2026-0${1 + Math.floor(i / 28)}-${String((i % 28) + 1).padStart(2, '0')}`);
    const res = await api.gql(`query($p: ID!) { ${days.map((d, i) => `b${i}: creditBalances(producerId: $p, on: "2026-03-15", asKnownOn: "${d}") { tax }`).join(' ')} }`,
      { p: producerId }, { role: 'PRODUCER', producerId });
    expect(res.errors).toBeUndefined();
    expect(days.map((_, i) => Array.isArray(res.data?.[`b${i}`]))).toEqual(days.map(() => true));

    // In the services: how many folds run at once while ten are asked together.
    const services = createServices(api.db.dataSource);
    const credits = services.credits as unknown as { readFacts: (...a: unknown[]) => Promise<unknown> };
    const fold = credits.readFacts.bind(credits);
    let running = 0;
    let most = 0;
    credits.readFacts = async (...args: unknown[]) => {
      most = Math.max(most, ++running);
      try {
        await sleep(30);
        return await fold(...args);
      } finally {
        running--;
      }
    };
    const producer = await api.db.dataSource.getRepository(Producer).findOneByOrFail({ id: producerId });
    const views = await Promise.all(days.slice(0, 10).map((d) => services.credits.ofMonth(producer, 2026, 3, d)));
    expect(views.map((v) => v.month)).toEqual(days.slice(0, 10).map(() => 3));
    expect(most).toBe(FOLDS_AT_ONCE);
  });

  test('credit folds waiting their turn whose request is answered meanwhile are not begun', async () => {
    const services = createServices(api.db.dataSource);
    const credits = services.credits as unknown as { readFacts: (...a: unknown[]) => Promise<unknown> };
    const fold = credits.readFacts.bind(credits);
    const controller = new AbortController();
    let begun = 0;
    credits.readFacts = async (...args: unknown[]) => {
      begun++;
      // The request is answered while its first folds are computed.
      controller.abort();
      await sleep(30);
      return fold(...args);
    };
    const producer = await api.db.dataSource.getRepository(Producer).findOneByOrFail({ id: producerId });
    const asked = requestContext.run({ requestId: 'answered', ended: controller.signal },
      () => Promise.allSettled([1, 2, 3, 4, 5, 6].map((m) => services.credits.ofMonth(producer, 2026, m, '2026-06-01'))));
    const outcomes = await asked;
    expect(begun).toBeLessThanOrEqual(FOLDS_AT_ONCE);
    expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThanOrEqual(6 - FOLDS_AT_ONCE);
  });

  test('a year whose request is answered while its first statements run stops before its groups', async () => {
    const services = createServices(api.db.dataSource);
    const contracts = services.contractConformity;
    const controller = new AbortController();
    const minimumPriceRuns = contracts.minimumPriceRuns.bind(contracts);
    // Read first of the year's statements: the request is answered meanwhile.
    contracts.minimumPriceRuns = (...args) => {
      controller.abort();
      return minimumPriceRuns(...args);
    };
    // Read after the year's groups.
    const conformities = jest.spyOn(contracts, 'conformities');
    const producer = await api.db.dataSource.getRepository(Producer).findOneByOrFail({ id: producerId });
    await expect(requestContext.run({ requestId: 'answered', ended: controller.signal }, () => services.sealCompliance.compute(producer, 2025, '2026-06-01'))).rejects.toThrow();
    expect(controller.signal.aborted).toBe(true);
    expect(conformities).not.toHaveBeenCalled();
  });
});
