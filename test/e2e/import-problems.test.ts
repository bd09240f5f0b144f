import { Readable } from 'node:stream';
import { importFile } from '../../src/import/importer';
import { ImportProblemsError } from '../../src/import/import-error';
import { SYSTEM_ACTOR } from '../../src/services/actor';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, PORTO_ALEGRE, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * An import reports every bad line of its file (up to 100, all counted), each with its line and
 * column, as a GraphQL batch reports every bad item (extensions.problems): over HTTP in the JSON
 * answer's `error.problems`, from `npm run import` one a line. Nothing of the file is written.
 */
let api: TestApi;
let producerId: string;

const HEADER = 'purchasedOn,consumedOn,feedstock,quantityKg,cost,supplierKind,familyFarmerId,organizationId,supplierName,originMunicipalityCode,contractId,purpose,externalId';
const good = (n: number) => `2026-02-0${1 + (n % 9)},,SOYBEAN,1000,2500.50,THIRD_PARTY,,,Cerealista ${n},${PORTO_ALEGRE},,,ext-${n}`;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE]);
  producerId = await createProducer(api, 'Usina Importadora');
});
afterAll(async () => { await api?.close(); });

const purchases = () => api.count('SELECT count(*) FROM purchase WHERE producer_id = $1', [producerId]);

async function post(csv: string, headers: Record<string, string> = {}) {
  const res = await fetch(api.url.replace(/\/graphql$/, `/import/purchases?producer=${producerId}`), {
    method: 'POST', headers: { 'content-type': 'text/csv', authorization: `Bearer ${await api.token()}`, ...headers }, body: csv,
  });
  return { status: res.status, body: (await res.json()) as { error?: Record<string, any>; import?: unknown } };
}

test('a file with three bad lines among good ones: the three reported with line and column, nothing written', async () => {
  const before = await purchases();
  const csv = [
    HEADER,
    good(1),
    '2026-02-02,,SOYBEAN,0,2500.50,THIRD_PARTY,,,Cerealista,4314902,,,x-3', //        line 3: quantityKg not positive
    good(2),
    `2026-02-30,,SOYBEAN,1000,2500.50,THIRD_PARTY,,,Cerealista,${PORTO_ALEGRE},,,x-5`, // line 5: no such day
    good(3),
    `2026-02-04,,COFFEE,1000,2500.50,THIRD_PARTY,,,Cerealista,${PORTO_ALEGRE},,,x-7`, //  line 7: unknown feedstock
    good(4),
  ].join('\n');
  const { status, body } = await post(csv);
  expect(status).toBe(400);
  expect(body.import).toBeUndefined();
  const { error } = body;
  expect(error).toMatchObject({ code: 'BAD_USER_INPUT', line: 3, column: 'quantityKg', problemCount: 3 });
  expect(error!.message).toMatch(/^3 lines of the file are refused, nothing was written \(see problems\); the first: line 3, column quantityKg: /);
  expect(error!.problems.map((p: any) => [p.code, p.line, p.column])).toEqual([
    ['BAD_USER_INPUT', 3, 'quantityKg'], ['BAD_USER_INPUT', 5, 'purchasedOn'], ['BAD_USER_INPUT', 7, 'feedstock'],
  ]);
  expect(error!.problems[2].message).toMatch(/^line 7, column feedstock: unknown Feedstock "COFFEE"/);
  expect(error!.problems.every((p: any) => typeof p.messageKey === 'string')).toBe(true);
  expect(await purchases()).toBe(before);
});

test('the lines checked against stored data are reported with the others, in the order of the lines; in Portuguese for a caller who asks', async () => {
  const before = await purchases();
  await post([HEADER, good(10)].join('\n')); // ext-10 is now taken
  const csv = [
    HEADER,
    good(10), //                                                                               line 2: externalId taken (stored data)
    `2026-02-03,,SOYBEAN,1000,2500.50,THIRD_PARTY,,,Cerealista,1234567,,,y-3`, //             line 3: no such municipality (stored data)
    `2026-02-03,,SOYBEAN,-1,2500.50,THIRD_PARTY,,,Cerealista,${PORTO_ALEGRE},,,y-4`, //       line 4: quantityKg (the line itself)
    good(11),
  ].join('\n');
  const { status, body } = await post(csv, { 'accept-language': 'pt-BR' });
  // Problems of several codes: the file is BAD_USER_INPUT (400), as a batch of mixed problems is.
  expect(status).toBe(400);
  expect(body.error).toMatchObject({ code: 'BAD_USER_INPUT', line: 2, column: 'externalId', problemCount: 3 });
  expect(body.error!.problems.map((p: any) => [p.code, p.line, p.column, p.reason ?? null])).toEqual([
    ['CONFLICT', 2, 'externalId', 'DUPLICATE'], ['BAD_USER_INPUT', 3, 'originMunicipalityCode', null], ['BAD_USER_INPUT', 4, 'quantityKg', null],
  ]);
  expect(body.error!.message).toMatch(/^3 linhas do arquivo foram recusadas, nada foi gravado/);
  expect(body.error!.problems[2].message).toMatch(/^linha 4, coluna quantityKg: /);
  expect(await purchases()).toBe(before + 1);
});

test('150 bad lines: the first 100 reported, all 150 counted', async () => {
  const lines = [HEADER];
  for (let i = 0; i < 150; i++) lines.push(`2026-02-03,,SOYBEAN,0,2500.50,THIRD_PARTY,,,Cerealista,${PORTO_ALEGRE},,,z-${i}`);
  const error = await importFile(api.db.dataSource, SYSTEM_ACTOR, { kind: 'purchases', producerId, input: Readable.from([lines.join('\n')]) }).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ImportProblemsError);
  const e = error as ImportProblemsError;
  expect(e.problemCount).toBe(150);
  const ext = e.extensions() as { problems: Array<{ line: number }>; problemCount: number };
  expect(ext.problems).toHaveLength(100);
  expect(ext.problems.map((p) => p.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
  expect(ext.problemCount).toBe(150);
});

test('one bad line answers as before, with its one problem listed', async () => {
  const { status, body } = await post([HEADER, good(20), `2026-02-03,,SOYBEAN,0,2500.50,THIRD_PARTY,,,Cerealista,${PORTO_ALEGRE},,,w-3`].join('\n'));
  expect(status).toBe(400);
  expect(body.error).toMatchObject({ code: 'BAD_USER_INPUT', line: 3, column: 'quantityKg', problemCount: 1 });
  expect(body.error!.message).toMatch(/^line 3, column quantityKg: /);
  expect(body.error!.problems).toEqual([expect.objectContaining({ code: 'BAD_USER_INPUT', line: 3, column: 'quantityKg', message: body.error!.message })]);
});

test('an external id another transaction commits while the import writes: its line is named as taken, nothing of the file written', async () => {
  // The other transaction's row is not yet visible to the import's checks; its INSERT then waits on
  // the unique key until the other commits, and fails there.
  const holder = api.db.dataSource.createQueryRunner();
  await holder.connect();
  try {
    await holder.startTransaction();
    await holder.query(
      `INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, supplier_name, origin_municipality_code, external_id)
       VALUES ($1, '2026-03-02', '2026-03-02', 'SOYBEAN', 10, 20, 'THIRD_PARTY', 'Outra', $2, 'race-2')`, [producerId, PORTO_ALEGRE]);
    const before = await purchases();
    const csv = [HEADER, ...[1, 2, 3].map((n) => good(n).replace(`ext-${n}`, `race-${n}`))].join('\n');
    const answered = post(csv);
    const waiting = () => api.count(`SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO purchase%'`, []);
    for (let i = 0; i < 200 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await waiting()).toBe(1);
    await holder.commitTransaction();
    const { status, body } = await answered;
    expect(status).toBe(409);
    expect(body.error).toMatchObject({ code: 'CONFLICT', reason: 'DUPLICATE', line: 3, column: 'externalId', problemCount: 1 });
    expect(body.error!.message).toMatch(/race-2/);
    expect(await purchases()).toBe(before + 1);
  } finally {
    if (holder.isTransactionActive) await holder.rollbackTransaction();
    await holder.release();
  }
});
