import fc from 'fast-check';
import { EntityManager } from 'typeorm';
import { MARKED_BY_PRODUCER } from '../../src/database/migrations/1766450000000-record-mark';
import { MARKED_BY_GRANT, MARKED_BY_SUPPLIER, MARKED_SHARED_NOW, NOT_MARKED_NOW } from '../../src/database/migrations/1766520000000-record-mark-supplier';
import { Role } from '../../src/law/types';
import { createServices } from '../../src/services';
import { Actor } from '../../src/services/actor';
import { ProgramOverviewService, ProgramYear } from '../../src/services/program-overview.service';
import { AddressInfo } from 'node:net';
import pino from 'pino';
import { ConfigurationError, loadConfig } from '../../src/config';
import { hs256 } from '../../src/graphql/auth/token';
import { addDays, today } from '../../src/law/dates';
import { createApp } from '../../src/server';
import { codeFingerprint, DEALT_WITH, noteAsked, partText, snapshotWithin, storeParts, yearsAsked } from '../../src/services/program-parts';
import { ProgramRefresh } from '../../src/services/program-refresh';
import { requestContext, stopIfAnswered } from '../../src/request-context';
import { SealComplianceService } from '../../src/services/seal-compliance/compliance.service';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, FEIRA, grantSeal, nfeKey, PORTO_ALEGRE, producerCnpj, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { checkProperty, PROPERTY_SEED } from '../support/property';
import { contract, farmer, organization, purchases, setUpSeloYear } from '../support/selo-year';

/**
 * A producer's year the overview computed is reused while no record it reads has changed: the
 * marks the triggers add in the writing transaction tell. Each answer is compared with one
 * computed afresh by services that keep nothing.
 */
let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api.close(); });

const AUDITOR: Actor = { sub: 'test-auditor', role: Role.AUDITOR, producerId: null, requestId: null };
const KNOWN_ON = '2026-11-30';
const OVERVIEW = `query { programOverview(year: 2025, asKnownOn: "${KNOWN_ON}") {
  spending { familyFarmingAcquisitions actualTotal } byState { state actual count } families { familyFarmers byState { state familyFarmers } }
  producers { producer { id } sealCompliance { actualTotal excluded { id } } } } }`;

const marks = async () => new Map<string, number>((await api.db.dataSource.query('SELECT producer_id::text AS id, sum(weight)::int AS mark FROM record_mark GROUP BY 1') as Array<{ id: string; mark: number }>)
  .map((m) => [m.id, m.mark]));

/** The figures of a year as the tests compare them. */
function figures(y: ProgramYear) {
  return {
    totals: y.totals.actualTotal.toFixed(2), acquisitions: y.totals.familyFarmingAcquisitions.toFixed(2),
    byState: y.byState.map((s) => [s.state, s.actual.toFixed(2), s.count]), families: y.families,
    producers: y.producers.map((p) => [p.producer.id, p.report.actualTotal.toFixed(2), p.report.excluded.map((e) => e.id).sort()]),
  };
}

/** The year by services that keep nothing (a new process's). */
async function afresh(): Promise<ProgramYear> {
  return afreshOn(KNOWN_ON);
}

let afreshCode = 0;
/** Computed in full: code of its own, so that no year stored by another reads back; its own stores awaited. */
async function afreshOn(day: string): Promise<ProgramYear> {
  const services = createServices(api.db.dataSource);
  const overview = new ProgramOverviewService(api.db.dataSource, api.db.dataSource, services.sealCompliance, services.seals, undefined, `afresh-${++afreshCode}`);
  return once(overview, (o) => o.overview(AUDITOR, 2025, day));
}

/** A process's overview, its stores awaited: a later DELETE of the stored years is not overtaken by them. */
async function once<T>(overview: ProgramOverviewService, ask: (o: ProgramOverviewService) => Promise<T>): Promise<T> {
  try {
    return await ask(overview);
  } finally {
    await overview.settled();
  }
}

test('every table is marked by producer, by supplier, by its grant\'s producer, marked as shared, or named as read by no figure', async () => {
  const tables: string[] = (await api.db.dataSource.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)).map((t: { tablename: string }) => t.tablename);
  const bySupplier = MARKED_BY_SUPPLIER.map(([t]) => t);
  const listed = [...MARKED_BY_PRODUCER.map(([t]) => t), ...bySupplier, ...MARKED_BY_GRANT, ...MARKED_SHARED_NOW, ...NOT_MARKED_NOW];
  expect(tables.filter((t) => !listed.includes(t))).toEqual([]);
  expect(listed).toHaveLength(new Set(listed).size);
  // Each table's mark triggers by function, every one enabled ALWAYS (a bulk import's replica role runs them).
  const triggers: Array<{ table: string; fn: string; n: number; always: number }> = await api.db.dataSource.query(
    `SELECT c.relname AS table, f.proname AS fn, count(*)::int AS n, count(*) FILTER (WHERE t.tgenabled = 'A')::int AS always
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc f ON f.oid = t.tgfoid
      WHERE f.proname LIKE 'record\\_mark\\_%' GROUP BY 1, 2`);
  const marked = (table: string) => Object.fromEntries(triggers.filter((t) => t.table === table).map((t) => [t.fn, [t.n, t.always]]));
  for (const t of [...MARKED_BY_PRODUCER.map(([name]) => name), ...MARKED_SHARED_NOW]) expect([t, marked(t)]).toEqual([t, { record_mark_add: [4, 4] }]);
  // Insert, update and delete by statement, naming the suppliers; a TRUNCATE names no one: mark 0.
  for (const t of bySupplier) expect([t, marked(t)]).toEqual([t, { record_mark_supplier_add: [3, 3], record_mark_add: [1, 1] }]);
  for (const t of MARKED_BY_GRANT) expect([t, marked(t)]).toEqual([t, { record_mark_grant_add: [3, 3], record_mark_add: [1, 1] }]);
  for (const t of NOT_MARKED_NOW) expect([t, marked(t)]).toEqual([t, {}]);
});

test('every column naming a farmer or an organization is its supplier\'s own record, or a producer\'s record the overview finds the producers by', async () => {
  const columns: Array<{ table: string; column: string; ref: string }> = await api.db.dataSource.query(
    `SELECT k.table_name AS table, k.column_name AS column, u.table_name AS ref
       FROM information_schema.table_constraints c
       JOIN information_schema.key_column_usage k ON k.constraint_schema = c.constraint_schema AND k.constraint_name = c.constraint_name
       JOIN information_schema.constraint_column_usage u ON u.constraint_schema = c.constraint_schema AND u.constraint_name = c.constraint_name
      WHERE c.constraint_type = 'FOREIGN KEY' AND c.table_schema = 'public' AND u.table_name IN ('family_farmer', 'family_farming_organization') ORDER BY 1, 2`);
  const kindOf = (ref: string) => (ref === 'family_farmer' ? 'FAMILY_FARMER' : 'ORGANIZATION');
  const handled = [...MARKED_BY_SUPPLIER.filter(([, column]) => column !== 'id'), ...DEALT_WITH].map(([t, c, k]) => `${t}.${c} ${k}`).sort();
  expect(columns.map((c) => `${c.table}.${c.column} ${kindOf(c.ref)}`)).toEqual(handled);
  // The tables the producers are found in are a producer's records, marked by its producer_id.
  for (const [table] of DEALT_WITH) expect(MARKED_BY_PRODUCER).toContainEqual([table, 'producer_id']);
});

test('a write marks the producers it names, a shared record every producer, a statement that changes nothing no one', async () => {
  await upsertMunicipalities(api, [RECIFE]);
  const a = await createProducer(api, 'Usina Marca A', RECIFE);
  const b = await createProducer(api, 'Usina Marca B', RECIFE);
  const before = await marks();
  await api.db.dataSource.query(`UPDATE producer SET legal_name = legal_name || ' Ltda' WHERE id = $1`, [a]);
  let after = await marks();
  expect(after.get(a)).toBe((before.get(a) ?? 0) + 1);
  expect(after.get(b)).toBe(before.get(b));
  expect(after.get('0')).toBe(before.get('0'));

  await api.db.dataSource.query(`UPDATE producer SET legal_name = 'none' WHERE id = -1`);
  const suppliers = await api.count('SELECT count(*) FROM record_mark_supplier');
  await api.db.dataSource.query(`UPDATE family_farmer SET name = name WHERE id = -1`);
  expect(await marks()).toEqual(after);
  expect(await api.count('SELECT count(*) FROM record_mark_supplier')).toBe(suppliers);

  await api.db.dataSource.query(`UPDATE municipality SET name = name WHERE ibge_code = $1`, [RECIFE]);
  after = await marks();
  expect(after.get('0')).toBe((before.get('0') ?? 0) + 1);
  expect(after.get(b)).toBe(before.get(b));
});

test('many marks are summed up into one row per producer, with the same sums', async () => {
  const a = await createProducer(api, 'Usina Muitas Marcas', RECIFE);
  await api.db.dataSource.query('INSERT INTO record_mark (producer_id) SELECT $1 FROM generate_series(1, 1200)', [a]);
  const before = await marks();
  await afresh();
  expect(await marks()).toEqual(before);
  expect(await api.count('SELECT count(*) FROM record_mark')).toBe(before.size);
  expect(await api.count('SELECT count(*) FROM record_mark WHERE producer_id = $1', [a])).toBe(1);
});

test('the overview reuses a producer\'s year until its records, or the shared ones, change, and always agrees with one computed afresh', async () => {
  const f = await setUpSeloYear(api);
  const a = await createProducer(api, 'Usina Guardada A', RECIFE);
  const b = await createProducer(api, 'Usina Guardada B', RECIFE);
  await grantSeal(api, a);
  await grantSeal(api, b);
  const purchase = async (p: string, cost: string, n: number, as?: { role: 'PRODUCER'; producerId: string }) => {
    const cnpj = await producerCnpj(api, p);
    const lot = { producerId: p, purchasedOn: '2025-03-10', feedstock: 'SOYBEAN', quantityKg: '1000', cost, supplierKind: 'FAMILY_FARMER',
      familyFarmerId: f, originMunicipalityCode: RECIFE, contractId: await contract(api, p, { farmer: f }), invoiceKey: nfeKey(cnpj, n, '2503') };
    await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [lot] }, as);
  };
  await purchase(a, '30000', 1);
  await purchase(b, '20000', 1);
  const overview = async () => (await api.ok(OVERVIEW, {}, { role: 'AUDITOR' })).programOverview;
  const totalOf = (o: { producers: Array<{ producer: { id: string }; sealCompliance: { actualTotal: string } }> }, p: string) =>
    o.producers.find((x) => x.producer.id === p)!.sealCompliance.actualTotal;

  // Services kept across the steps, as a running process keeps them (the API's own answer above them).
  const kept = createServices(api.db.dataSource).programOverview;
  expect(figures(await kept.overview(AUDITOR, 2025, KNOWN_ON))).toEqual(figures(await afresh()));
  const first = await overview();
  expect([totalOf(first, a), totalOf(first, b)]).toEqual(['30000.00', '20000.00']);
  expect(first.byState).toEqual([{ state: 'PE', actual: '50000.00', count: 2 }]);
  expect((await overview())).toEqual(first);

  // The producer's own write, under its role: its year is computed again, the other's reused.
  await purchase(a, '10000', 2, { role: 'PRODUCER', producerId: a });
  const second = await overview();
  expect([totalOf(second, a), totalOf(second, b)]).toEqual(['40000.00', '20000.00']);
  expect(second.byState).toEqual([{ state: 'PE', actual: '60000.00', count: 3 }]);
  expect(second.spending.actualTotal).toBe('60000.00');
  expect(second.families.familyFarmers).toBe(1);
  expect(figures(await kept.overview(AUDITOR, 2025, KNOWN_ON))).toEqual(figures(await afresh()));

  // A supplier's record, written by plain SQL: the farmer's CAF ends before 2025, so nothing counts.
  await api.db.dataSource.query(`UPDATE family_farmer_registration SET valid_until = '2024-12-31' WHERE family_farmer_id = $1`, [f]);
  const third = await overview();
  expect([totalOf(third, a), totalOf(third, b)]).toEqual(['0.00', '0.00']);
  expect(third.byState).toEqual([]);
  expect(third.families.familyFarmers).toBe(0);
  expect(figures(await kept.overview(AUDITOR, 2025, KNOWN_ON))).toEqual(figures(await afresh()));

  // With room for no year at all, each is computed again, with the same figures.
  const services = createServices(api.db.dataSource);
  const small = new ProgramOverviewService(api.db.dataSource, api.db.dataSource, services.sealCompliance, services.seals, 1);
  expect(figures(await small.overview(AUDITOR, 2025, KNOWN_ON))).toEqual(figures(await afresh()));
  expect(figures(await small.overview(AUDITOR, 2025, KNOWN_ON))).toEqual(figures(await afresh()));
});

/** A year as the tests compare it whole: every field, each Decimal tagged with its exact digits, the counted groups apart. */
function whole(y: ProgramYear): unknown {
  return JSON.parse(partText({ ...y, producers: y.producers.map((p) => ({ ...p, report: { ...p.report, countedSource: undefined, countedLater: undefined } })) }));
}

/** A producer with a lot of 2025 from a family farmer. */
async function producerWithLot(name: string): Promise<string> {
  await upsertMunicipalities(api, [RECIFE]);
  const f = await setUpSeloYear(api);
  const p = await createProducer(api, name, RECIFE);
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [{ producerId: p, purchasedOn: '2025-06-10', feedstock: 'SOYBEAN', quantityKg: '500',
    cost: '7000', supplierKind: 'FAMILY_FARMER', familyFarmerId: f, originMunicipalityCode: RECIFE, contractId: await contract(api, p, { farmer: f }) }] });
  return p;
}

/** A new process whose producers' years, once read, wait for `open` (then end if their request has). */
function gated() {
  const process = newProcess();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  const compliance = (process.overview as unknown as { compliance: SealComplianceService }).compliance;
  const ofPage = compliance.ofPage.bind(compliance);
  compliance.ofPage = async (asked, em) => { const reports = await ofPage(asked, em); await gate; stopIfAnswered(); return reports; };
  return { ...process, open };
}

async function begun(process: ReturnType<typeof newProcess>): Promise<void> {
  while (process.computed().length === 0) await new Promise((r) => setTimeout(r, 5));
}

/** Overview services of a new process whose sealCompliance tells which producers' years it computes. */
function newProcess(code?: string) {
  const services = createServices(api.db.dataSource);
  const computed: string[][] = [];
  const years: number[] = [];
  const pairs: Array<[producer: string, year: number]> = [];
  const compliance = Object.create(services.sealCompliance) as SealComplianceService;
  compliance.ofPage = (asked, em) => {
    computed.push(asked.map((a) => a.producer.id));
    years.push(...asked.map((a) => a.year));
    pairs.push(...asked.map((a): [string, number] => [a.producer.id, a.year]));
    return services.sealCompliance.ofPage(asked, em);
  };
  const overview = new ProgramOverviewService(api.db.dataSource, api.db.dataSource, compliance, services.seals, undefined, code);
  /** `pairs`: each producer's year computed; `reset`: what it computes from now on only. */
  return {
    overview, computed: () => computed.flat().sort(), years: () => years, pairs: () => pairs,
    reset: () => { computed.length = 0; years.length = 0; pairs.length = 0; },
  };
}

test('a year stored by one process is read by another, whole and unchanged, until its records, the code or the day asked differ', async () => {
  const DAY = '2026-11-29';
  const f = await setUpSeloYear(api);
  const a = await createProducer(api, 'Usina Guardada no Banco A', RECIFE);
  const b = await createProducer(api, 'Usina Guardada no Banco B', RECIFE);
  await grantSeal(api, a);
  for (const [p, n] of [[a, 1], [b, 1], [a, 2]] as const) {
    const lot = { producerId: p, purchasedOn: '2025-05-10', feedstock: 'SOYBEAN', quantityKg: '1000', cost: `${n}5000`, supplierKind: 'FAMILY_FARMER',
      familyFarmerId: f, originMunicipalityCode: RECIFE, contractId: await contract(api, p, { farmer: f }), invoiceKey: nfeKey(await producerCnpj(api, p), 100 + n, '2505') };
    await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [lot] });
  }
  const producers = await api.count('SELECT count(*) FROM producer');

  const first = newProcess();
  const computed = await first.overview.overview(AUDITOR, 2025, DAY);
  expect(first.computed()).toHaveLength(producers);
  // Stored after the answer.
  await first.overview.settled();
  expect(await api.count('SELECT count(*) FROM program_year_part WHERE year = 2025 AND as_known_on = $1', [DAY])).toBe(producers);

  // Another process computes nothing, and answers the same, to the last digit of every figure.
  const second = newProcess();
  const read = await second.overview.overview(AUDITOR, 2025, DAY);
  expect(second.computed()).toEqual([]);
  expect(whole(read)).toEqual(whole(computed));
  expect(read.producers.find((p) => p.producer.id === a)!.report.actualTotal.toFixed(2)).toBe('40000.00');

  // Through the API (which has not asked this day): the counted items of a year read back are those of the year computed.
  const COUNTED = `query($p: ID!) {
    programOverview(year: 2025, asKnownOn: "${DAY}") { producers { producer { id } sealCompliance { countedItems(first: 5) { totalCount items { id actual weighted } } } } }
    sealCompliance(producerId: $p, year: 2025, asKnownOn: "${DAY}") { countedItems(first: 5) { totalCount items { id actual weighted } } } }`;
  const answer = (await api.ok(COUNTED, { p: a }, { role: 'AUDITOR' }));
  const fromOverview = answer.programOverview.producers.find((p: { producer: { id: string } }) => p.producer.id === a).sealCompliance.countedItems;
  expect(fromOverview.totalCount).toBe(2);
  expect(fromOverview).toEqual(answer.sealCompliance.countedItems);

  // A producer's write: only its year is computed again.
  await api.db.dataSource.query(`UPDATE purchase SET cost = cost + 1 WHERE producer_id = $1 AND cost = 25000`, [a]);
  const third = newProcess();
  const after = await third.overview.overview(AUDITOR, 2025, DAY);
  expect(third.computed()).toEqual([a]);
  await third.overview.settled();
  expect(after.producers.find((p) => p.producer.id === a)!.report.actualTotal.toFixed(2)).toBe('40001.00');
  expect(whole(after)).toEqual(whole(await afreshOn(DAY)));

  // Another day asked, or other code: every year computed again.
  const otherDay = newProcess();
  await otherDay.overview.overview(AUDITOR, 2025, '2026-11-28');
  expect(otherDay.computed()).toHaveLength(producers);
  await otherDay.overview.settled();
  const otherCode = newProcess('another-release');
  expect(whole(await otherCode.overview.overview(AUDITOR, 2025, DAY))).toEqual(whole(after));
  expect(otherCode.computed()).toHaveLength(producers);
  await otherCode.overview.settled();
  // Two releases side by side (a rolling deploy): neither drops the other's parts, each reads its own.
  const codes = async () => (await api.db.dataSource.query('SELECT DISTINCT code FROM program_year_part WHERE code IN ($1, $2) ORDER BY 1', ['another-release', codeFingerprint()]))
    .map((r: { code: string }) => r.code);
  expect(await codes()).toEqual(['another-release', codeFingerprint()].sort());
  const sameRelease = newProcess();
  await sameRelease.overview.overview(AUDITOR, 2025, DAY);
  expect(sameRelease.computed()).toEqual([]);
  // A day after the other code last stored, its parts go with the next store.
  await api.db.dataSource.query(`UPDATE program_year_part SET computed_at = now() - interval '25 hours' WHERE code <> 'another-release'`);
  await otherCode.overview.overview(AUDITOR, 2025, '2026-11-27');
  await otherCode.overview.settled();
  expect(await codes()).toEqual(['another-release']);

  // The ministry's data: a PRODUCER's database role can neither read nor write it.
  await expect(api.db.dataSource.transaction(async (em) => {
    await em.query('SET LOCAL ROLE selo_producer');
    await em.query('SELECT count(*) FROM program_year_part');
  })).rejects.toThrow(/permission denied/);
});

test('the years computed are stored after the answer, and settled() waits until they are', async () => {
  const DAY = '2026-11-21';
  await producerWithLot('Usina Guardada Depois');
  const producers = await api.count('SELECT count(*) FROM producer');
  const stored = () => api.count('SELECT count(*) FROM program_year_part WHERE as_known_on = $1', [DAY]);
  // The table held by another transaction: reads go on, a store waits.
  const holder = api.db.dataSource.createQueryRunner();
  await holder.connect();
  await holder.startTransaction();
  await holder.query('LOCK TABLE program_year_part IN EXCLUSIVE MODE');
  const process = newProcess();
  try {
    const answered = await Promise.race([process.overview.overview(AUDITOR, 2025, DAY), new Promise((r) => setTimeout(() => r('kept waiting'), 10_000))]);
    expect((answered as ProgramYear).producers).toHaveLength(producers);
    let settled = false;
    const settling = process.overview.settled().then(() => { settled = true; });
    await new Promise((r) => setTimeout(r, 100));
    expect([settled, await stored()]).toEqual([false, 0]);
    await holder.rollbackTransaction();
    await settling;
    expect(await stored()).toBe(producers);
  } finally {
    if (holder.isTransactionActive) await holder.rollbackTransaction();
    await holder.release();
  }
});

test('a year asked while the same year is under way waits for it, unless a record was written since its snapshot or it ends unanswered', async () => {
  const DAY = '2026-11-22';
  const p = await producerWithLot('Usina Pedida Duas Vezes');
  const producers = await api.count('SELECT count(*) FROM producer');
  const costOf = (y: ProgramYear) => y.producers.find((r) => r.producer.id === p)!.report.actualTotal.toFixed(2);

  // Three analysts at once: one computation, one answer.
  const together = gated();
  const first = together.overview.overview(AUDITOR, 2025, DAY);
  await begun(together);
  const others = [together.overview.overview(AUDITOR, 2025, DAY), together.overview.overview({ ...AUDITOR, role: Role.ADMIN }, 2025, DAY)];
  together.open();
  const answers = await Promise.all([first, ...others]);
  expect(together.computed()).toHaveLength(producers);
  expect(answers.map(whole)).toEqual([whole(answers[0]), whole(answers[0]), whole(answers[0])]);

  // A write after the first one's snapshot: the second computes its own, with the write.
  await together.overview.settled();
  await api.db.dataSource.query('DELETE FROM program_year_part');
  const written = gated();
  const before = written.overview.overview(AUDITOR, 2025, DAY);
  await begun(written);
  await api.db.dataSource.query(`UPDATE purchase SET cost = cost + 3 WHERE producer_id = $1`, [p]);
  const after = written.overview.overview(AUDITOR, 2025, DAY);
  written.open();
  const [old, now] = await Promise.all([before, after]);
  // The producer written is computed twice; the others' years, unchanged, may be the first one's once it kept them.
  expect(written.computed().filter((id) => id === p)).toEqual([p, p]);
  expect(Number(costOf(now)) - Number(costOf(old))).toBe(3);
  expect(whole(now)).toEqual(whole(await afreshOn(DAY)));

  // The first one's request ends before its answer: the one waiting for it computes its own.
  await written.overview.settled();
  await api.db.dataSource.query('DELETE FROM program_year_part');
  const ended = gated();
  const controller = new AbortController();
  const abandoned = requestContext.run({ requestId: 'gone', ended: controller.signal }, () => ended.overview.overview(AUDITOR, 2025, DAY));
  await begun(ended);
  const waiting = ended.overview.overview(AUDITOR, 2025, DAY);
  await new Promise((r) => setTimeout(r, 20));
  controller.abort();
  ended.open();
  await expect(abandoned).rejects.toThrow();
  expect(whole(await waiting)).toEqual(whole(now));
  // The waiting one computed every producer's year; the abandoned one those its lanes had begun
  // before the abort (its second lane may not have begun any on a busy machine).
  expect(ended.computed().length).toBeGreaterThan(producers);
  expect(ended.computed().length).toBeLessThanOrEqual(2 * producers);
  await ended.overview.settled();
});

test('a year whose lane fails ends only when its other lane has: no connection of it outlives the answer', async () => {
  const DAY = '2026-11-23';
  await api.db.dataSource.query('DELETE FROM program_year_part');
  // Five producers or more: two lanes.
  for (let n = await api.count('SELECT count(*) FROM producer'); n < 5; n++) await producerWithLot(`Usina da Faixa ${n}`);
  const first = String(await api.count('SELECT min(id) FROM producer'));
  const process = newProcess(`lanes-${Date.now()}`);
  const compliance = (process.overview as unknown as { compliance: SealComplianceService }).compliance;
  const ofPage = compliance.ofPage.bind(compliance);
  let letGo!: () => void;
  const gate = new Promise<void>((resolve) => { letGo = resolve; });
  let lanes = 0;
  let bothBegun!: () => void;
  const begunBoth = new Promise<void>((resolve) => { bothBegun = resolve; });
  compliance.ofPage = async (asked, em) => {
    if (++lanes === 2) bothBegun();
    await begunBoth;
    // The lane holding the first producer fails; the other is still computing.
    if (asked.some((a) => a.producer.id === first)) throw new Error('lane failed');
    await gate;
    return ofPage(asked, em);
  };
  const driver = api.db.dataSource.driver as unknown as { connectedQueryRunners: unknown[] };
  let ended = false;
  const year = process.overview.overview(AUDITOR, 2025, DAY).finally(() => { ended = true; });
  year.catch(() => undefined);
  await begunBoth;
  await new Promise((r) => setTimeout(r, 100));
  expect(ended).toBe(false);
  letGo();
  await expect(year).rejects.toThrow('lane failed');
  expect(driver.connectedQueryRunners).toHaveLength(0);
});

test('in the background: this year and the year before, as known today, computed when records change or the day turns, by one process at a time', async () => {
  let day = '2026-11-26';
  const p = await producerWithLot('Usina Atualizada ao Fundo');
  const services = createServices(api.db.dataSource);
  const refresh = new ProgramRefresh(async () => services.programOverview, api.db.dataSource, { everyMs: 0, today: () => day });
  const stored = (year: number, on: string) => api.count('SELECT count(*) FROM program_year_part WHERE year = $1 AND as_known_on = $2', [year, on]);
  const producers = await api.count('SELECT count(*) FROM producer');

  expect(await refresh.tick()).toBe(true);
  expect([await stored(2026, day), await stored(2025, day)]).toEqual([producers, producers]);
  expect(await refresh.tick()).toBe(false);
  const reader = newProcess();
  await reader.overview.overview(AUDITOR, 2025, day);
  expect(reader.computed()).toEqual([]);

  // A producer's write: computed by the next look, so a new process reads the new figure.
  await api.db.dataSource.query(`UPDATE purchase SET cost = cost + 2 WHERE producer_id = $1`, [p]);
  expect(await refresh.tick()).toBe(true);
  const after = newProcess();
  const year = await after.overview.overview(AUDITOR, 2025, day);
  expect(after.computed()).toEqual([]);
  expect(whole(year)).toEqual(whole(await afreshOn(day)));

  // Another process holds the refresh: this one computes nothing, until it is let go.
  const holder = api.db.dataSource.createQueryRunner();
  await holder.connect();
  await holder.query(`SELECT pg_advisory_lock(hashtextextended('selo:program-refresh', 0))`);
  day = '2027-01-02';
  expect(await refresh.tick()).toBe(false);
  expect(await stored(2027, day)).toBe(0);
  await holder.query(`SELECT pg_advisory_unlock(hashtextextended('selo:program-refresh', 0))`);
  await holder.release();
  expect(await refresh.tick()).toBe(true);
  expect([await stored(2027, day), await stored(2026, day)]).toEqual([producers, producers]);
});

test('a process just started answers the year before by waiting for the refresh computing it', async () => {
  const DAY = '2026-11-19';
  await producerWithLot('Usina Recém-Iniciada');
  const producers = await api.count('SELECT count(*) FROM producer');
  const process = gated();
  const refresh = new ProgramRefresh(async () => process.overview, api.db.dataSource, { everyMs: 0, today: () => DAY });
  await api.db.dataSource.query('DELETE FROM program_year_asked');
  const ticking = refresh.tick();
  await begun(process);
  const asked = process.overview.overview(AUDITOR, 2025, DAY);
  process.open();
  expect(await ticking).toBe(true);
  // 2025 then 2026 by the refresh; the overview asked computed nothing of its own.
  expect(process.years()).toEqual([...Array(producers).fill(2025), ...Array(producers).fill(2026)]);
  expect(whole(await asked)).toEqual(whole(await afreshOn(DAY)));
});

test('the years asked as known today are kept ready too, until seven days pass without an ask', async () => {
  const on = today();
  const year = Number(on.slice(0, 4));
  await producerWithLot('Usina Pedida');
  const ds = api.db.dataSource;
  await ds.query('DELETE FROM program_year_asked');
  await once(createServices(ds).programOverview, (o) => o.series(AUDITOR, 2021, 2022, on));
  // Another day than today, or a year that cannot be computed (no wording of the decree in force), is no ask to keep.
  await once(createServices(ds).programOverview, (o) => o.overview(AUDITOR, 2020, '2026-01-01'));
  await expect(once(createServices(ds).programOverview, (o) => o.overview(AUDITOR, 2019, on))).rejects.toThrow(/noVersionInForce/);
  const asked = [{ year: 2021, asked_on: on }, { year: 2022, asked_on: on }];
  expect(await ds.query('SELECT year, asked_on::text FROM program_year_asked ORDER BY year')).toEqual(asked);

  const kept = async (day: string) => {
    await ds.query('DELETE FROM program_year_part');
    const refresh = new ProgramRefresh(async () => createServices(ds).programOverview, ds, { everyMs: 0, today: () => day });
    expect(await refresh.tick()).toBe(true);
    return (await ds.query('SELECT DISTINCT year FROM program_year_part WHERE as_known_on = $1 ORDER BY 1', [day])).map((r: { year: number }) => r.year);
  };
  expect(await kept(on)).toEqual([2021, 2022, year - 1, year]);
  // The refresh's own overviews are no ask.
  expect(await ds.query('SELECT year, asked_on::text FROM program_year_asked ORDER BY year')).toEqual(asked);
  expect(await kept(addDays(on, 6))).toEqual([2021, 2022, year - 1, year]);
  expect(await kept(addDays(on, 7))).toEqual([year - 1, year]);

  // A year that fails (here the year before, its reads refused) leaves the others computed; the
  // look is a failure, tried again at the next.
  await ds.query('DELETE FROM program_year_part');
  const errors: unknown[] = [];
  const failing = Object.create(createServices(ds).programOverview) as ProgramOverviewService;
  const real = failing.overview.bind(failing);
  failing.overview = (actor, y, day) => (y === year - 1 ? Promise.reject(new Error(`year ${y} refused`)) : real(actor, y, day));
  const refresh = new ProgramRefresh(async () => failing, ds, { everyMs: 0, today: () => on, onError: (e) => errors.push(e) });
  expect(await refresh.tick()).toBe(false);
  expect((await ds.query('SELECT DISTINCT year FROM program_year_part WHERE as_known_on = $1 ORDER BY 1', [on])).map((r: { year: number }) => r.year)).toEqual([2021, 2022, year]);
  expect(await refresh.tick()).toBe(false);
  expect(errors.map((e) => String(e))).toEqual([`Error: year ${year - 1} refused`, `Error: year ${year - 1} refused`]);
});

test('the refresh keeps ready every year of the last ten that holds a record, asked or not; a year no decree governs is no failure', async () => {
  const ds = api.db.dataSource;
  const p = await producerWithLot('Usina de Longa Data');
  // A lot of 2019, before any wording of Decreto 10.527/2020 (whose years are NO_RULE_IN_FORCE).
  const f = await setUpSeloYear(api);
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [{ producerId: p, purchasedOn: '2019-03-10', feedstock: 'SOYBEAN', quantityKg: '100',
    cost: '1000', supplierKind: 'FAMILY_FARMER', familyFarmerId: f, originMunicipalityCode: RECIFE }] });
  const keptOn = async (day: string) => {
    await ds.query('DELETE FROM program_year_part');
    await ds.query('DELETE FROM program_year_asked');
    const errors: unknown[] = [];
    const refresh = new ProgramRefresh(async () => createServices(ds).programOverview, ds, { everyMs: 0, today: () => day, onError: (e) => errors.push(e) });
    const computed = await refresh.tick();
    return { computed, errors, years: (await ds.query('SELECT DISTINCT year FROM program_year_part WHERE as_known_on = $1 ORDER BY 1', [day])).map((r: { year: number }) => r.year) };
  };
  // From 2019 to 2026: 2019 refused by the law and skipped, 2020–2026 stored, the look a success.
  expect(await keptOn('2026-11-26')).toEqual({ computed: true, errors: [], years: [2020, 2021, 2022, 2023, 2024, 2025, 2026] });
  // Ten years at most: as known in 2031, 2022–2031.
  expect((await keptOn('2031-03-01')).years).toEqual(Array.from({ length: 10 }, (_, i) => 2022 + i));
  // A new process reads any of them stored: no producer's year computed.
  const reader = newProcess();
  await reader.overview.overview(AUDITOR, 2023, '2031-03-01');
  expect(reader.computed()).toEqual([]);
  await ds.query('DELETE FROM program_year_part');
});

test('a script asking every year does not make the refresh compute them all, nor fill the table', async () => {
  const ds = api.db.dataSource;
  const on = '2026-11-20';
  await ds.query('DELETE FROM program_year_asked');
  await noteAsked(ds, Array.from({ length: 25 }, (_, i) => 2000 + i), on);
  // The twenty last asked; among those of one day, the later years.
  expect(await yearsAsked(ds, on)).toEqual(Array.from({ length: 20 }, (_, i) => 2005 + i));
  await noteAsked(ds, [2001], addDays(on, 1));
  expect(await yearsAsked(ds, addDays(on, 1))).toEqual([2001, ...Array.from({ length: 19 }, (_, i) => 2006 + i)]);
  await ds.query('DELETE FROM program_year_asked');

  // At most 140 (year, day) stored in all, the last computed kept.
  const p = await producerWithLot('Usina de Muitos Anos');
  for (let y = 3000; y < 3145; y++) await storeParts(ds, y, on, codeFingerprint(), [{ producerId: p, mark: '0|0', text: '{}' }]);
  const years = (await ds.query('SELECT DISTINCT year FROM program_year_part ORDER BY 1')).map((r: { year: number }) => r.year);
  expect(years).toEqual(Array.from({ length: 140 }, (_, i) => 3005 + i));
  await ds.query('DELETE FROM program_year_part');
});

test('stopped, the refresh ends the year under way at its next step and begins no other, before the pool closes', async () => {
  const ds = api.db.dataSource;
  const services = createServices(ds);
  const begun: number[] = [];
  let letGo!: () => void;
  const gate = new Promise<void>((resolve) => { letGo = resolve; });
  const slow = Object.create(services.programOverview) as ProgramOverviewService;
  slow.overview = async (actor, y, day) => {
    begun.push(y);
    await gate;
    stopIfAnswered();
    return services.programOverview.overview(actor, y, day);
  };
  const refresh = new ProgramRefresh(async () => slow, ds, { everyMs: 0, today: () => '2026-11-24' });
  const ticking = refresh.tick();
  while (begun.length === 0) await new Promise((r) => setTimeout(r, 10));
  let stopped = false;
  const stopping = refresh.stop().then(() => { stopped = true; });
  await new Promise((r) => setTimeout(r, 50));
  expect(stopped).toBe(false);
  letGo();
  await stopping;
  expect(await ticking).toBe(false);
  expect(begun).toEqual([2025]);
  expect(await api.count(`SELECT count(*) FROM program_year_part WHERE as_known_on = '2026-11-24'`)).toBe(0);
  expect(await refresh.tick()).toBe(false);
});

test('a server started with PROGRAM_REFRESH_MS computes the years of today by itself', async () => {
  const on = today();
  await producerWithLot('Usina do Servidor');
  const app = await createApp({ dataSource: api.db.dataSource, verifier: hs256('refresh-test-secret-of-32-bytes!'), logger: pino({ level: 'silent' }), programRefreshMs: 50 });
  try {
    const producers = await api.count('SELECT count(*) FROM producer');
    const stored = () => api.count('SELECT count(*) FROM program_year_part WHERE as_known_on = $1 AND year = ANY($2::int[])', [on, [Number(on.slice(0, 4)), Number(on.slice(0, 4)) - 1]]);
    await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
    const read = async () => (await fetch(`http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}/metrics`)).text();
    let metrics = await read();
    // The first look computes both years; the metrics count it once it has ended.
    for (let waited = 0; !/^selo_program_refreshes_total\{outcome="(computed|failed)"\} 1$/m.test(metrics) && waited < 20_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
      metrics = await read();
    }
    expect(await stored()).toBe(2 * producers);
    expect(metrics).toMatch(/^selo_program_refreshes_total\{outcome="computed"\} 1$/m);
    expect(metrics).toMatch(/^selo_program_refreshes_total\{outcome="failed"\} 0$/m);
    expect(Number(/^selo_program_refresh_seconds (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
  } finally {
    await app.stop();
  }
});

test('PROGRAM_REFRESH_MS: a minute by default, 0 for never, a wrong value said in one line', () => {
  expect(loadConfig({}).programRefreshMs).toBe(60_000);
  expect(loadConfig({ PROGRAM_REFRESH_MS: '0' }).programRefreshMs).toBe(0);
  expect(() => loadConfig({ PROGRAM_REFRESH_MS: '1m' })).toThrow(new ConfigurationError('PROGRAM_REFRESH_MS: "1m" is not a number of milliseconds such as 60000'));
});

const CAF: [kind: 'CAF', validFrom: string, validUntil: string] = ['CAF', '2023-01-01', '2027-12-31'];

/** A producer of Recife buying from each supplier once in 2025 (R$ 10.000 a lot, 1.000 kg at R$ 10/kg), each lot under a contract. */
async function buyingFrom(name: string, suppliers: Array<{ farmer?: string; org?: string }>): Promise<string> {
  const p = await createProducer(api, name);
  const specs = [];
  for (const [n, s] of suppliers.entries()) specs.push({ on: `2025-04-${String(n + 1).padStart(2, '0')}`, cost: '10000', ...s, contract: await contract(api, p, s) });
  await purchases(api, p, specs);
  return p;
}

const totalOf = (y: ProgramYear, p: string) => y.producers.find((r) => r.producer.id === p)!.report.actualTotal.toFixed(2);

test('a supplier\'s write makes only the years of the producers whose records name it computed again, kept or read back', async () => {
  const DAY = '2026-11-17';
  const ds = api.db.dataSource;
  await setUpSeloYear(api);
  const fA = await farmer(api, [CAF]);
  const fC = await farmer(api, [CAF]);
  // 100 members, 80 of them family farmers: 0,8 >= the 0,6 published (art. 4º VI).
  const coop = await organization(api, 'COOPERATIVE', 100, 80, [CAF]);
  const a = await buyingFrom('Usina do Agricultor A', [{ farmer: fA }]);
  const b = await buyingFrom('Usina da Cooperativa', [{ org: coop }]);
  const c = await buyingFrom('Usina do Agricultor C', [{ farmer: fC }]);
  const grant = await grantSeal(api, a);
  // Each step's new process reads the years stored by the one before (code of their own: the kept
  // process's years are not theirs); the kept process reuses the years it keeps.
  const READER = 'scoped-reader';
  const kept = newProcess();
  const first = await once(kept.overview, (o) => o.overview(AUDITOR, 2025, DAY));
  await once(newProcess(READER).overview, (o) => o.overview(AUDITOR, 2025, DAY));
  expect([totalOf(first, a), totalOf(first, b), totalOf(first, c)]).toEqual(['10000.00', '10000.00', '10000.00']);

  /** Written by plain SQL: a new process reading the years stored before, and the one that keeps them, compute `expected` only, and answer as one computing afresh. */
  const step = async (write: () => Promise<unknown>, expected: string[]) => {
    await write();
    const reader = newProcess(READER);
    const read = await once(reader.overview, (o) => o.overview(AUDITOR, 2025, DAY));
    kept.reset();
    const year = await once(kept.overview, (o) => o.overview(AUDITOR, 2025, DAY));
    expect([reader.computed(), kept.computed()]).toEqual([[...expected].sort(), [...expected].sort()]);
    const fresh = whole(await afreshOn(DAY));
    expect([whole(read), whole(year)]).toEqual([fresh, fresh]);
    return year;
  };

  // fA's CAF ends before 2025 (art. 2º IV): a's lot no longer counts. No producer's mark, nor the shared one, moves.
  const sums = await marks();
  let year = await step(() => ds.query(`UPDATE family_farmer_registration SET valid_until = '2024-12-31' WHERE family_farmer_id = $1`, [fA]), [a]);
  expect(await marks()).toEqual(sums);
  expect([totalOf(year, a), totalOf(year, b), totalOf(year, c)]).toEqual(['0.00', '10000.00', '10000.00']);
  // The cooperative declares 50 family farmers of 100 from 2025-01-01: 0,5 < 0,6, b's lot no longer counts.
  year = await step(() => ds.query(`INSERT INTO organization_membership (organization_id, declared_on, members, family_farmer_members) VALUES ($1, '2025-01-01', 100, 50)`, [coop]), [b]);
  expect([totalOf(year, a), totalOf(year, b), totalOf(year, c)]).toEqual(['0.00', '0.00', '10000.00']);
  // fC moves to Porto Alegre: c's counted farmer is now of RS (its lot, produced in Recife, still counts).
  year = await step(() => ds.query(`UPDATE family_farmer SET municipality_code = $2 WHERE id = $1`, [fC, PORTO_ALEGRE]), [c]);
  expect(totalOf(year, c)).toBe('10000.00');
  expect(year.families.byMunicipality.find((m) => m.ibgeCode === PORTO_ALEGRE)?.familyFarmers).toBe(1);
  // A Selo event of a's grant marks a alone; its standing on 31 December is read with it.
  year = await step(() => ds.query(`INSERT INTO seal_event (grant_id, kind, effective_on) VALUES ($1, 'SUSPENDED', '2025-09-01')`, [grant]), [a]);
  expect(year.producers.find((r) => r.producer.id === a)!.standing).toBe('SUSPENDED');
  // A farmer no record names, written and registered: no producer's year.
  await step(async () => {
    const [{ id }] = await ds.query(`INSERT INTO family_farmer (cpf, name, municipality_code) VALUES ('52998224725', 'Nova', $1) RETURNING id`, [RECIFE]);
    await ds.query(`INSERT INTO family_farmer_registration (family_farmer_id, kind, number, valid_from, valid_until) VALUES ($1, 'CAF', 'CAF-NOVA', '2024-01-01', '2027-12-31')`, [id]);
  }, []);
});

test('a year computed in a snapshot is reused only in one that sees every transaction it saw committed', () => {
  // Snapshots as pg_current_snapshot() writes them, xmin:xmax:running.
  expect(snapshotWithin('100:105:101,103', '100:105:101,103')).toBe(true);
  // Later: 101 and 103 committed since, 107 and 108 begun.
  expect(snapshotWithin('100:105:101,103', '101:109:101,107,108')).toBe(true);
  // Earlier than the part's: 103 was committed in it, runs in this one; 106 was committed in it, is beyond this one's xmax.
  expect(snapshotWithin('100:105:101', '100:105:101,103')).toBe(false);
  expect(snapshotWithin('100:107:101', '100:105:101')).toBe(false);
  // 98 ended before the part's xmin: committed in it, running here is impossible for a later snapshot.
  expect(snapshotWithin('100:105:', '98:105:98')).toBe(false);
});

test('a supplier written by a transaction that commits after an overview\'s snapshot is seen by the next, though later marks were committed before it', async () => {
  const DAY = '2026-11-16';
  const ds = api.db.dataSource;
  await setUpSeloYear(api);
  const f = await farmer(api, [CAF]);
  const other = await farmer(api, [CAF]);
  const p = await buyingFrom('Usina Concorrente', [{ farmer: f }]);
  const kept = newProcess();
  const writer = ds.createQueryRunner();
  await writer.connect();
  try {
    await writer.startTransaction();
    // Its mark is written first (the lower transaction id), and committed last: after the year is computed.
    await writer.query(`UPDATE family_farmer_registration SET valid_until = '2024-12-31' WHERE family_farmer_id = $1`, [f]);
    await ds.query(`UPDATE family_farmer SET name = name || ' Silva' WHERE id = $1`, [other]);
    const before = await once(kept.overview, (o) => o.overview(AUDITOR, 2025, DAY));
    expect(totalOf(before, p)).toBe('10000.00');
    await writer.commitTransaction();
  } finally {
    if (writer.isTransactionActive) await writer.rollbackTransaction();
    await writer.release();
  }
  kept.reset();
  const after = await once(kept.overview, (o) => o.overview(AUDITOR, 2025, DAY));
  expect([kept.computed(), totalOf(after, p)]).toEqual([[p], '0.00']);
  expect(whole(after)).toEqual(whole(await afreshOn(DAY)));
});

test('many supplier marks are summed up into one row per supplier, with the same sums, and a year computed before still sees its supplier written', async () => {
  const DAY = '2026-11-15';
  const ds = api.db.dataSource;
  await setUpSeloYear(api);
  const f = await farmer(api, [CAF]);
  const p = await buyingFrom('Usina de Marcas Somadas', [{ farmer: f }]);
  const kept = newProcess();
  const writer = ds.createQueryRunner();
  await writer.connect();
  try {
    // The year computed while the write is under way: the writing transaction is its snapshot's oldest running (its xmin).
    await writer.startTransaction();
    await writer.query(`UPDATE family_farmer_registration SET valid_until = '2024-12-31' WHERE family_farmer_id = $1`, [f]);
    expect(totalOf(await once(kept.overview, (o) => o.overview(AUDITOR, 2025, DAY)), p)).toBe('10000.00');
    await writer.commitTransaction();
  } finally {
    if (writer.isTransactionActive) await writer.rollbackTransaction();
    await writer.release();
  }
  // 1,200 marks of 600 suppliers no record names, written by two transactions.
  for (let n = 0; n < 2; n++) await ds.query(`INSERT INTO record_mark_supplier (kind, supplier_id) SELECT 'ORGANIZATION', 900000000 + g FROM generate_series(1, 600) g`);
  // Marks are summed up once every transaction running began after them (any of the server's databases).
  for (let waited = 0; ; waited += 100) {
    const [{ ended }] = await ds.query('SELECT pg_snapshot_xmin(pg_current_snapshot()) > (SELECT max(xid) FROM record_mark_supplier) AS ended');
    if (ended) break;
    if (waited > 45_000) throw new Error('a transaction older than the marks still runs on the server');
    await new Promise((r) => setTimeout(r, 100));
  }
  const sums = `SELECT kind, supplier_id::text AS id, sum(weight)::int AS weight, count(*)::int AS n, bool_and(merged) AS merged FROM record_mark_supplier GROUP BY 1, 2 ORDER BY 1, 2`;
  const before: Array<{ kind: string; id: string; weight: number }> = await ds.query(sums);
  kept.reset();
  const year = await once(kept.overview, (o) => o.overview(AUDITOR, 2025, DAY));
  // p's year is computed again; so may be others', when a transaction older than their suppliers'
  // marks ran on the server as the years were computed: those summed up are taken as not seen.
  expect([kept.computed().includes(p), totalOf(year, p)]).toEqual([true, '0.00']);
  expect(whole(year)).toEqual(whole(await afreshOn(DAY)));
  // One row per supplier, merged, each with the weight of its marks.
  expect(await ds.query(sums)).toEqual(before.map((r) => ({ kind: r.kind, id: r.id, weight: r.weight, n: 1, merged: true })));
  // The years computed after the marks summed up saw them all: none is computed again.
  kept.reset();
  await once(kept.overview, (o) => o.overview(AUDITOR, 2025, DAY));
  expect(kept.computed()).toEqual([]);
});

test('after a supplier\'s write, the refresh reads the producers dealing with it once for all the years it computes', async () => {
  const day = '2026-11-13';
  const ds = api.db.dataSource;
  await setUpSeloYear(api);
  const f = await farmer(api, [CAF]);
  const p = await buyingFrom('Usina da Década', [{ farmer: f }]);
  const kept = newProcess();
  const refresh = new ProgramRefresh(async () => kept.overview, ds, { everyMs: 0, today: () => day });
  expect(await refresh.tick()).toBe(true);
  await ds.query(`UPDATE family_farmer_registration SET valid_until = '2024-12-31' WHERE family_farmer_id = $1`, [f]);
  const query = jest.spyOn(EntityManager.prototype, 'query');
  try {
    kept.reset();
    expect(await refresh.tick()).toBe(true);
    // p's year of each year kept ready (this year, the year before, the years holding records), and no
    // other producer's (a year no wording of the decree governs, before 2020, has no view to keep: it
    // is tried again at each look, and refused).
    expect(kept.pairs().filter(([id]) => id === p).length).toBeGreaterThanOrEqual(2);
    expect(kept.pairs().filter(([id, year]) => id !== p && year >= 2020)).toEqual([]);
    expect(query.mock.calls.filter(([sql]) => String(sql).includes('CROSS JOIN LATERAL (VALUES')).length).toBe(1);
  } finally {
    query.mockRestore();
  }
  expect(whole(await once(kept.overview, (o) => o.overview(AUDITOR, 2025, day)))).toEqual(whole(await afreshOn(day)));
});

test('property: after any sequence of writes to the suppliers\' records and the Selo events, a process keeping the years answers as one computing afresh', async () => {
  const DAY = '2026-11-14';
  const ds = api.db.dataSource;
  await setUpSeloYear(api);
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE, FEIRA]);
  const farmers: string[] = [];
  for (let i = 0; i < 4; i++) farmers.push(await farmer(api, [CAF]));
  const orgs = [await organization(api, 'COOPERATIVE', 100, 80, [CAF]), await organization(api, 'COOPERATIVE', 100, 80, [CAF])];
  const producers: string[] = [];
  const grants: string[] = [];
  // Producer i buys from farmers i and i + 1 and from organization i % 2.
  for (let i = 0; i < 3; i++) {
    producers.push(await buyingFrom(`Usina Propriedade ${i}`, [{ farmer: farmers[i] }, { farmer: farmers[i + 1] }, { org: orgs[i % 2] }]));
    grants.push(await grantSeal(api, producers[i]));
  }
  const days = ['2024-12-31', '2025-02-28', '2025-06-30', '2027-12-31'];
  const declared = [null, '2025-01-01', '2025-06-01', '2026-01-01'];
  const write = fc.oneof(
    fc.record({ w: fc.constant('registration' as const), table: fc.constantFrom('family_farmer_registration', 'organization_registration'), i: fc.nat(3), op: fc.constantFrom('until', 'delete', 'insert'), day: fc.constantFrom(...days) }),
    fc.record({ w: fc.constant('move' as const), i: fc.nat(3), to: fc.constantFrom(RECIFE, PORTO_ALEGRE, FEIRA) }),
    fc.record({ w: fc.constant('organization' as const), i: fc.nat(1), kind: fc.constantFrom('COOPERATIVE', 'ASSOCIATION'), familyFarmers: fc.constantFrom(40, 70, 90) }),
    fc.record({ w: fc.constant('membership' as const), i: fc.nat(1), op: fc.constantFrom('declare', 'undeclare'), on: fc.constantFrom(...declared), familyFarmers: fc.constantFrom(40, 70, 90) }),
    fc.record({ w: fc.constant('event' as const), i: fc.nat(2), op: fc.constantFrom('insert', 'delete'), kind: fc.constantFrom('SUSPENDED', 'REINSTATED', 'CANCELLED'), day: fc.constantFrom(...days) }),
  );
  type Write = typeof write extends fc.Arbitrary<infer T> ? T : never;
  let numbers = 0;
  const apply = async (x: Write) => {
    if (x.w === 'registration') {
      const [column, owner] = x.table === 'family_farmer_registration' ? ['family_farmer_id', farmers[x.i]] : ['organization_id', orgs[x.i % 2]];
      if (x.op === 'until') await ds.query(`UPDATE ${x.table} SET valid_until = greatest(valid_from, $2::date) WHERE ${column} = $1`, [owner, x.day]);
      else if (x.op === 'delete') await ds.query(`DELETE FROM ${x.table} WHERE ${column} = $1`, [owner]);
      else await ds.query(`INSERT INTO ${x.table} (${column}, kind, number, valid_from, valid_until) VALUES ($1, 'CAF', $2, '2023-01-01', $3)`, [owner, `PROP-${++numbers}`, x.day]);
    } else if (x.w === 'move') {
      await ds.query('UPDATE family_farmer SET municipality_code = $2 WHERE id = $1', [farmers[x.i], x.to]);
    } else if (x.w === 'organization') {
      await ds.query('UPDATE family_farming_organization SET kind = $2, family_farmer_members = $3 WHERE id = $1', [orgs[x.i], x.kind, x.familyFarmers]);
    } else if (x.w === 'membership') {
      if (x.op === 'declare') await ds.query('INSERT INTO organization_membership (organization_id, declared_on, members, family_farmer_members) VALUES ($1, $2, 100, $3)', [orgs[x.i], x.on, x.familyFarmers]);
      else await ds.query('DELETE FROM organization_membership WHERE id = (SELECT max(id) FROM organization_membership WHERE organization_id = $1)', [orgs[x.i]]);
    } else if (x.op === 'insert') {
      await ds.query('INSERT INTO seal_event (grant_id, kind, effective_on) VALUES ($1, $2, $3)', [grants[x.i], x.kind, x.day]);
    } else {
      await ds.query('DELETE FROM seal_event WHERE id = (SELECT max(id) FROM seal_event WHERE grant_id = $1)', [grants[x.i]]);
    }
  };
  const kept = newProcess();
  const all = await api.count('SELECT count(*) FROM producer');
  let scoped = 0;
  await checkProperty(fc.asyncProperty(fc.array(write, { minLength: 30, maxLength: 30 }), async (writes) => {
    await once(kept.overview, (o) => o.overview(AUDITOR, 2025, DAY));
    for (const [n, x] of writes.entries()) {
      await apply(x);
      kept.reset();
      const year = await once(kept.overview, (o) => o.overview(AUDITOR, 2025, DAY));
      if (kept.computed().length < all) scoped++;
      const fresh = await afreshOn(DAY);
      if (JSON.stringify(whole(year)) !== JSON.stringify(whole(fresh))) {
        throw new Error(`seed ${PROPERTY_SEED}: after write ${n} ${JSON.stringify(x)}, the kept year differs from one computed afresh`);
      }
      expect(whole(year)).toEqual(whole(fresh));
    }
  }), { numRuns: 1, endOnFailure: true });
  // Each write names a few producers of many: most overviews computed some years only.
  expect(scoped).toBeGreaterThan(20);
});
