import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ImportProblemsError } from '../../src/import/import-error';
import { EditionOptions, importFile, ImportSummary } from '../../src/import/importer';
import { SYSTEM_ACTOR } from '../../src/services/actor';
import { startTestApi, TestApi } from '../support/api';
import { createTestDatabase } from '../support/database';

/**
 * The Semiárido as dated membership (Decreto 10.527/2020, art. 6º I and III; art. 3º §2 I b–c): the
 * delimitation changes by Condel/Sudene resolution, so each municipality's membership is a set of
 * intervals citing their acts. An edition of the official list (IBGE code, name) holds over its
 * days; a municipality absent from an edition leaves the Semiárido on its start date. The editions
 * here are test data in the shape of Res. 115/2017 (in force 2017-12-05), 150/2021 (2021-12-30)
 * and 176/2024 (2024-01-03); Janaúba (MG, Sudeste) is left out of the third as a test case.
 */

const ROOT = path.resolve(__dirname, '../..');
const MONTES_CLAROS = '3143302';
const JANAUBA = '3135100';
const FEIRA = '2910800';
const E2017 = { act: 'Resolução Condel/Sudene nº 115/2017', validFrom: '2017-12-05' };
const E2021 = { act: 'Resolução Condel/Sudene nº 150/2021', validFrom: '2021-12-30' };
const E2024 = { act: 'Resolução Condel/Sudene nº 176/2024', validFrom: '2024-01-03' };
const LIST = 'codigo_ibge;nome\n3143302;Montes Claros\n3135100;Janaúba\n2910800;Feira de Santana\n';
const LIST_2024 = 'codigo_ibge;nome\n3143302;Montes Claros\n2910800;Feira de Santana\n';

let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api?.close(); });

function edition(csv: string, e: EditionOptions): Promise<ImportSummary> {
  return importFile(api.db.dataSource, SYSTEM_ACTOR, { kind: 'semiarid', edition: e, input: Readable.from([csv]) });
}
function municipalities(csv: string): Promise<ImportSummary> {
  return importFile(api.db.dataSource, SYSTEM_ACTOR, { kind: 'municipalities', input: Readable.from([csv]) });
}

const MEMBERSHIP = `query($c: String!) { municipality(ibgeCode: $c) { name region semiaridMemberships { validFrom validUntil act }
  d1: semiaridOn(date: "2024-01-02") d2: semiaridOn(date: "2024-01-03") d3: semiaridOn(date: "2024-01-04")
  p1: priorityRegionOn(date: "2024-01-02") p2: priorityRegionOn(date: "2024-01-03") } }`;
const membership = async (code: string) => (await api.ok(MEMBERSHIP, { c: code })).municipality;

describe('editions of the official list', () => {
  test('three editions: the intervals with their acts; a municipality absent from 2024 leaves on its start date, to the day', async () => {
    expect((await edition(LIST, E2017)).counts).toEqual({ members: 3, entered: 3, left: 0, municipalitiesAdded: 3 });
    expect((await edition(LIST, { ...E2021, validUntil: null })).counts).toEqual({ members: 3, entered: 0, left: 0, municipalitiesAdded: 0 });
    expect((await edition(LIST_2024, E2024)).counts).toEqual({ members: 2, entered: 0, left: 1, municipalitiesAdded: 0 });

    const janauba = await membership(JANAUBA);
    expect(janauba).toEqual({
      name: 'Janaúba', region: 'SOUTHEAST',
      semiaridMemberships: [
        { validFrom: '2017-12-05', validUntil: '2021-12-29', act: E2017.act },
        { validFrom: '2021-12-30', validUntil: '2024-01-02', act: E2021.act },
      ],
      // In it until the day before the 2024 edition; out from its first day (Sudeste: no longer priority).
      d1: true, d2: false, d3: false, p1: true, p2: false,
    });
    const mc = await membership(MONTES_CLAROS);
    expect(mc.semiaridMemberships.map((m: { act: string }) => m.act)).toEqual([E2017.act, E2021.act, E2024.act]);
    expect(mc.semiaridMemberships[2]).toEqual({ validFrom: '2024-01-03', validUntil: null, act: E2024.act });
    expect([mc.d1, mc.d2, mc.d3, mc.p1, mc.p2]).toEqual([true, true, true, true, true]);
    // Before the first edition recorded: not in the Semiárido; Feira stays priority by its region.
    const before = await api.ok(`{ j: municipality(ibgeCode: "${JANAUBA}") { semiaridOn(date: "2017-12-04") on: semiaridOn(date: "2017-12-05") }
                                   f: municipality(ibgeCode: "${FEIRA}") { semiaridOn(date: "2017-12-04") priorityRegionOn(date: "2017-12-04") } }`);
    expect(before).toEqual({ j: { semiaridOn: false, on: true }, f: { semiaridOn: false, priorityRegionOn: true } });
  });

  test('an edition loaded again changes nothing; one with an end keeps what lies after it', async () => {
    await edition(LIST_2024, E2024);
    expect((await membership(MONTES_CLAROS)).semiaridMemberships).toHaveLength(3);
    // A one-month correction over March 2025 without Montes Claros: out that month only, the 2024 act around it.
    const cut = await edition('ibgeCode,name\n2910800,Feira de Santana\n', { act: 'Retificação (teste)', validFrom: '2025-03-01', validUntil: '2025-03-31' });
    expect(cut.counts).toEqual({ members: 1, entered: 0, left: 1, municipalitiesAdded: 0 });
    expect((await membership(MONTES_CLAROS)).semiaridMemberships.slice(2)).toEqual([
      { validFrom: '2024-01-03', validUntil: '2025-02-28', act: E2024.act },
      { validFrom: '2025-04-01', validUntil: null, act: E2024.act },
    ]);
    await edition(LIST_2024, E2024);
    expect((await membership(MONTES_CLAROS)).semiaridMemberships.slice(2)).toEqual([{ validFrom: '2024-01-03', validUntil: null, act: E2024.act }]);
  });

  test('an edition needs its act and start date; a repeated code is refused with its line; nothing is written', async () => {
    const before = await api.count('SELECT count(*) FROM semiarid_membership');
    const refused = (csv: string, e: EditionOptions) => edition(csv, e).then(() => null, (err: unknown) => err as ImportProblemsError);
    expect(await refused(LIST, { validFrom: '2024-01-03' })).toMatchObject({ code: 'BAD_USER_INPUT', column: 'act' });
    expect(await refused(LIST, { act: 'X', validFrom: '2024-02-30' })).toMatchObject({ code: 'BAD_USER_INPUT', column: 'validFrom' });
    // The act is shown in answers and written into files: no line break, no direction override, 255 characters.
    expect(await refused(LIST, { act: 'Res. Condel 150/2021\r\n|M200|', validFrom: '2024-01-03' })).toMatchObject({ code: 'BAD_USER_INPUT', column: 'act', message: expect.stringContaining('U+000D') });
    expect(await refused(LIST, { act: 'Res. \u202Eacted', validFrom: '2024-01-03' })).toMatchObject({ code: 'BAD_USER_INPUT', column: 'act' });
    expect(await refused(LIST, { act: 'R'.repeat(256), validFrom: '2024-01-03' })).toMatchObject({ code: 'BAD_USER_INPUT', column: 'act', messageKey: 'input.tooLong' });
    expect(await refused(LIST, { act: 'X', validFrom: '2024-01-03', validUntil: '2024-01-02' })).toMatchObject({ code: 'BAD_USER_INPUT', column: 'validUntil' });
    expect(await refused(`${LIST}3143302;Montes Claros\n`, E2024)).toMatchObject({ code: 'BAD_USER_INPUT', line: 5, column: 'ibgeCode' });
    expect(await api.count('SELECT count(*) FROM semiarid_membership')).toBe(before);
  });

  test('npm run import -- semiarid FILE --act … --valid-from D', async () => {
    const file = path.join(os.tmpdir(), `selo-semiarid-${process.pid}.csv`);
    fs.writeFileSync(file, 'ibgeCode,name\n3143302,Montes Claros\n2910800,Feira de Santana\n2611101,Petrolina\n');
    try {
      const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['-r', '@swc-node/register', 'scripts/import.ts', 'semiarid', file, '--act', 'Resolução (teste) 2026', '--valid-from', '2026-01-01'],
          { cwd: ROOT, env: { ...process.env, DATABASE_URL: api.db.url, LOG_LEVEL: 'silent' } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += String(d)));
        child.stderr.on('data', (d) => (stderr += String(d)));
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
      });
      expect([out.code, out.stderr]).toEqual([0, expect.any(String)]);
      expect(out.stdout).toMatch(/members 3, entered 1, left 0, municipalitiesAdded 1/);
      const petrolina = await membership('2611101');
      expect(petrolina.semiaridMemberships).toEqual([{ validFrom: '2026-01-01', validUntil: null, act: 'Resolução (teste) 2026' }]);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }, 60_000);
});

describe("the municipality record's semiarid flag", () => {
  test('dated (semiaridFrom): from that day on, the history before it stays; undated and agreeing with today: nothing changes', async () => {
    await municipalities('ibgeCode,name,semiarid,semiaridFrom,semiaridAct\n3135100,Janaúba,sim,2026-06-01,Resolução (teste) de retorno\n');
    const j = await membership(JANAUBA);
    expect(j.semiaridMemberships.slice(-1)).toEqual([{ validFrom: '2026-06-01', validUntil: null, act: 'Resolução (teste) de retorno' }]);
    expect(j.semiaridMemberships).toHaveLength(3);
    // The flag files of before (no date), re-sent as they were: the dated history stays whole.
    const history = (await membership(MONTES_CLAROS)).semiaridMemberships;
    expect(history.length).toBeGreaterThanOrEqual(3);
    await municipalities('ibgeCode,name,semiarid\n3143302,Montes Claros,true\n2304400,Fortaleza,false\n');
    expect((await membership(MONTES_CLAROS)).semiaridMemberships).toEqual(history);
  });

  test('undated and disagreeing with today: the membership becomes the flag, with no date (upsertMunicipalities as the import)', async () => {
    await api.ok(`mutation { upsertMunicipalities(input: [{ ibgeCode: "${MONTES_CLAROS}", name: "Montes Claros", semiarid: false }]) { ibgeCode semiarid priorityRegion } }`);
    expect((await membership(MONTES_CLAROS)).semiaridMemberships).toEqual([]);
    const back = await api.ok(`mutation { upsertMunicipalities(input: [{ ibgeCode: "${MONTES_CLAROS}", name: "Montes Claros", semiarid: true }]) { semiarid priorityRegion semiaridMemberships { validFrom validUntil act } } }`);
    expect(back.upsertMunicipalities).toEqual([{ semiarid: true, priorityRegion: true,
      semiaridMemberships: [{ validFrom: null, validUntil: null, act: 'Semiárido flag of the municipality record (undated)' }] }]);
    const dated = await api.ok(`mutation { upsertMunicipalities(input: [{ ibgeCode: "${MONTES_CLAROS}", name: "Montes Claros", semiarid: false, semiaridFrom: "2030-01-01" }]) {
      semiarid semiaridMemberships { validFrom validUntil } } }`);
    expect(dated.upsertMunicipalities).toEqual([{ semiarid: true, semiaridMemberships: [{ validFrom: null, validUntil: '2029-12-31' }] }]);
    const bad = await municipalities('ibgeCode,name,semiarid,semiaridFrom\n3143302,Montes Claros,sim,2030-02-30\n').then(() => null, (e: unknown) => e);
    expect(bad).toMatchObject({ code: 'BAD_USER_INPUT', line: 2, column: 'semiaridFrom' });
  });
});

test('the migration turns each semiarid flag into an open interval with no start date, and drops the stored flags', async () => {
  const db = await createTestDatabase(2);
  try {
    // Back to the schema before this migration (and any later one).
    const last = async () => (await db.dataSource.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`))[0].name;
    while (await last() !== 'SemiaridMembership1765500000000') await db.dataSource.undoLastMigration({ transaction: 'each' });
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    await db.dataSource.query(`INSERT INTO municipality (ibge_code, name, state, region, semiarid, priority_region) VALUES
      ('3143302', 'Montes Claros', 'MG', 'SOUTHEAST', true, true), ('2910800', 'Feira de Santana', 'BA', 'NORTHEAST', true, true),
      ('2611606', 'Recife', 'PE', 'NORTHEAST', false, true), ('4314902', 'Porto Alegre', 'RS', 'SOUTH', false, false)`);
    await db.dataSource.runMigrations({ transaction: 'each' });
    expect(await db.dataSource.query(`SELECT municipality_code, valid_from, valid_until, act FROM semiarid_membership ORDER BY municipality_code`)).toEqual([
      { municipality_code: '2910800', valid_from: null, valid_until: null, act: 'Undated Semiárido flag of the municipality record (before dated membership)' },
      { municipality_code: '3143302', valid_from: null, valid_until: null, act: 'Undated Semiárido flag of the municipality record (before dated membership)' },
    ]);
    const columns = await db.dataSource.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'municipality' ORDER BY ordinal_position`);
    expect(columns.map((c: { column_name: string }) => c.column_name)).toEqual(['ibge_code', 'name', 'state', 'region']);
  } finally {
    await db.drop();
  }
});
