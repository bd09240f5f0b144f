import { MARKED_BY_PRODUCER, MARKED_SHARED, NOT_MARKED } from '../../src/database/migrations/1766450000000-record-mark';
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
import { codeFingerprint, noteAsked, partText, storeParts, yearsAsked } from '../../src/services/program-parts';
import { ProgramRefresh } from '../../src/services/program-refresh';
import { requestContext, stopIfAnswered } from '../../src/request-context';
import { SealComplianceService } from '../../src/services/seal-compliance/compliance.service';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, grantSeal, nfeKey, producerCnpj, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { contract, setUpSeloYear } from '../support/selo-year';

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

test('every table is marked by producer, marked as shared, or named as read by no figure', async () => {
  const tables: string[] = (await api.db.dataSource.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)).map((t: { tablename: string }) => t.tablename);
  const listed = [...MARKED_BY_PRODUCER.map(([t]) => t), ...MARKED_SHARED, ...NOT_MARKED];
  expect(tables.filter((t) => !listed.includes(t))).toEqual([]);
  const triggers: Array<{ table: string; n: number }> = await api.db.dataSource.query(
    `SELECT c.relname AS table, count(*)::int AS n FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc f ON f.oid = t.tgfoid
      WHERE f.proname = 'record_mark_add' GROUP BY 1`);
  const marked = new Map(triggers.map((t) => [t.table, t.n]));
  for (const t of [...MARKED_BY_PRODUCER.map(([name]) => name), ...MARKED_SHARED]) expect([t, marked.get(t)]).toEqual([t, 4]);
  for (const t of NOT_MARKED) expect(marked.get(t)).toBeUndefined();
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
  await api.db.dataSource.query(`UPDATE family_farmer SET name = name WHERE id = -1`);
  expect(await marks()).toEqual(after);

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

  // A shared record, written by plain SQL: the farmer's CAF ends before 2025, so nothing counts.
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
  const compliance = Object.create(services.sealCompliance) as SealComplianceService;
  compliance.ofPage = (asked, em) => {
    computed.push(asked.map((a) => a.producer.id));
    years.push(...asked.map((a) => a.year));
    return services.sealCompliance.ofPage(asked, em);
  };
  const overview = new ProgramOverviewService(api.db.dataSource, api.db.dataSource, compliance, services.seals, undefined, code);
  return { overview, computed: () => computed.flat().sort(), years: () => years };
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
  expect(ended.computed()).toHaveLength(2 * producers);
  await ended.overview.settled();
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
