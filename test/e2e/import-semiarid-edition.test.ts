import { Caller, startTestApi, TestApi } from '../support/api';
import { createProducer, FEIRA, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { writtenRows } from '../support/hostile-files';

/**
 * The parameters of a Semiárido edition over HTTP (`POST /import/semiarid?act=…&validFrom=…`):
 * each one refused is a 400 naming it, and writes nothing; every interval stored stays a pair of
 * dates the Date scalar writes, the days before and after an edition included.
 */
let api: TestApi;
let producerId: string;
const FILE = `ibgeCode,name\n${FEIRA},Feira de Santana\n`;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  producerId = await createProducer(api, 'Usina do Sertão');
});
afterAll(() => api?.close());
afterEach(() => api.db.dataSource.query('DELETE FROM semiarid_membership'));

async function edition(query: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${api.url.replace(/\/graphql$/, '')}/import/semiarid?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', authorization: `Bearer ${await api.token()}` },
    body: FILE,
  });
  return { status: res.status, body: await res.json() };
}

const MEMBERSHIPS = `{ municipality(ibgeCode: "${FEIRA}") { semiaridMemberships { validFrom validUntil act } } }`;

/** The intervals as every role reads them (a failure to write one is an error, not a null). */
async function memberships(): Promise<unknown> {
  const answers = [];
  for (const as of [{ role: 'ADMIN' }, { role: 'AUDITOR' }, { role: 'PRODUCER', producerId }] as Caller[]) {
    const res = await api.gql(MEMBERSHIPS, {}, as);
    expect([as.role, res.errors]).toEqual([as.role, undefined]);
    answers.push(res.data!.municipality.semiaridMemberships);
  }
  expect(answers[1]).toEqual(answers[0]);
  expect(answers[2]).toEqual(answers[0]);
  return answers[0];
}

describe('the dates of an edition', () => {
  it('refuse a validUntil whose day after is past 9999-12-31, writing nothing', async () => {
    expect((await edition('act=X&validFrom=2026-01-01')).status).toBe(200);
    const before = await writtenRows(api.db.dataSource);
    const answer = await edition('act=Y&validFrom=2026-01-01&validUntil=9999-12-31');
    expect([answer.status, answer.body.error]).toEqual([400, expect.objectContaining({ code: 'BAD_USER_INPUT', column: 'validUntil', messageKey: 'input.semiaridDay' })]);
    expect(answer.body.error.message).toBe('column validUntil: validUntil must be a date from 2026-01-01 to 9999-12-30: the day before and the day after the days stated are stored too, and dates run from 0001-01-01 to 9999-12-31');
    expect(await writtenRows(api.db.dataSource)).toEqual(before);
    expect(await memberships()).toEqual([{ validFrom: '2026-01-01', validUntil: null, act: 'X' }]);
  });

  it('refuse a validFrom whose day before is before 0001-01-01, writing nothing', async () => {
    const before = await writtenRows(api.db.dataSource);
    const answer = await edition('act=A&validFrom=0001-01-01');
    expect([answer.status, answer.body.error]).toEqual([400, expect.objectContaining({ code: 'BAD_USER_INPUT', column: 'validFrom', messageKey: 'input.semiaridDay' })]);
    expect(answer.body.error.message).toBe('column validFrom: validFrom must be a date from 0001-01-02 to 9999-12-31: the day before and the day after the days stated are stored too, and dates run from 0001-01-01 to 9999-12-31');
    expect(await writtenRows(api.db.dataSource)).toEqual(before);
    expect(await memberships()).toEqual([]);
  });

  it('take the first and last days whose neighbours are dates, and every interval they leave is readable', async () => {
    expect((await edition('act=A&validFrom=0001-01-02')).status).toBe(200);
    expect((await edition('act=B&validFrom=2026-01-01&validUntil=9999-12-30')).status).toBe(200);
    expect(await memberships()).toEqual([
      { validFrom: '0001-01-02', validUntil: '2025-12-31', act: 'A' },
      { validFrom: '2026-01-01', validUntil: '9999-12-30', act: 'B' },
      { validFrom: '9999-12-31', validUntil: null, act: 'A' },
    ]);
  });

  it('still refuse a day that is not a date, and a validUntil before validFrom', async () => {
    for (const [query, column] of [['act=A&validFrom=2026-02-30', 'validFrom'], ['act=A&validFrom=10000-01-01', 'validFrom'], ['act=A&validFrom=2026-01-02&validUntil=2026-01-01', 'validUntil']]) {
      const answer = await edition(query);
      expect([query, answer.status, answer.body.error?.column, answer.body.error?.messageKey]).toEqual([query, 400, column, 'import.editionDate']);
    }
    expect(await memberships()).toEqual([]);
  });
});

describe('the date a municipality\'s flag holds from', () => {
  const UPSERT = 'mutation($i: [MunicipalityInput!]!) { upsertMunicipalities(input: $i) { ibgeCode } }';
  const flag = (semiarid: boolean, semiaridFrom?: string) => ({ ibgeCode: FEIRA, name: 'Feira de Santana', semiarid, ...(semiaridFrom ? { semiaridFrom } : {}) });

  it('is refused on 0001-01-01, over GraphQL and in the municipalities import: the undated interval would end the day before', async () => {
    await api.ok(UPSERT, { i: [flag(true)] });
    const before = await writtenRows(api.db.dataSource);
    const refused = await api.gql(UPSERT, { i: [flag(false, '0001-01-01')] });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input[0].semiaridFrom' });
    expect(refused.errors?.[0].message).toBe('semiaridFrom must be a date from 0001-01-02 to 9999-12-31: the day before and the day after the days stated are stored too, and dates run from 0001-01-01 to 9999-12-31');
    const res = await fetch(`${api.url.replace(/\/graphql$/, '')}/import/municipalities`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${await api.token()}` },
      body: `ibgeCode,name,semiarid,semiaridFrom\n${FEIRA},Feira de Santana,false,0001-01-01\n`,
    });
    const answer = (await res.json()) as any;
    expect([res.status, answer.error.line, answer.error.column, answer.error.messageKey]).toEqual([400, 2, 'semiaridFrom', 'input.semiaridDay']);
    expect(await writtenRows(api.db.dataSource)).toEqual(before);
    await api.ok(UPSERT, { i: [flag(false, '0001-01-02')] });
    expect(await memberships()).toEqual([{ validFrom: null, validUntil: '0001-01-01', act: 'Semiárido flag of the municipality record (undated)' }]);
  });
});

describe('the act of an edition', () => {
  it('takes 255 characters, as docs/API.md lists it, and refuses 256 with both counts', async () => {
    const before = await writtenRows(api.db.dataSource);
    const long = await edition(`act=${'R'.repeat(256)}&validFrom=2026-01-01`);
    expect([long.status, long.body.error.code, long.body.error.column, long.body.error.messageKey]).toEqual([400, 'BAD_USER_INPUT', 'act', 'input.tooLong']);
    expect(long.body.error.message).toBe('column act: act must be at most 255 characters long (it has 256)');
    const middle = await edition(`act=${'R'.repeat(300)}&validFrom=2026-01-01`);
    expect([middle.status, middle.body.error.message]).toEqual([400, 'column act: act must be at most 255 characters long (it has 300)']);
    expect(await writtenRows(api.db.dataSource)).toEqual(before);
    expect((await edition(`act=${'R'.repeat(255)}&validFrom=2026-01-01`)).status).toBe(200);
    expect(await memberships()).toEqual([{ validFrom: '2026-01-01', validUntil: null, act: 'R'.repeat(255) }]);
  });

  it('is refused for the character at fault, as every text of the input: a NUL, a line break, a direction override', async () => {
    const before = await writtenRows(api.db.dataSource);
    for (const [act, key, text] of [
      ['A%00', 'http.nulCharacter', 'column act: act contains a NUL character (U+0000), which no field accepts'],
      ['A%0D%0A%7CM200%7C', 'input.controlCharacter', 'column act: act contains a control character (U+000D): line breaks, tabs, other control characters and direction overrides are refused'],
      ['Res.%E2%80%AEacted', 'input.controlCharacter', 'column act: act contains a control character (U+202E): line breaks, tabs, other control characters and direction overrides are refused'],
    ]) {
      const answer = await edition(`act=${act}&validFrom=2026-01-01`);
      expect([act, answer.status, answer.body.error.column, answer.body.error.messageKey, answer.body.error.message]).toEqual([act, 400, 'act', key, text]);
    }
    expect(await writtenRows(api.db.dataSource)).toEqual(before);
  });
});
