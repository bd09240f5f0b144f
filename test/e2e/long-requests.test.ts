import net, { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { hs256 } from '../../src/graphql/auth/token';
import { today, yearOf } from '../../src/law/dates';
import { createApp } from '../../src/server';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';
import { createProducer, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * Work of many steps, bounded and stopped once answered. Credits and balances are folded month by
 * month from the producer's first record (Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 4º), the
 * months between read in ranged statements, and a month later than December of next year is
 * refused. A program series of twenty years whose request has been answered (its timeout) stops at
 * its next step; a credit fold's or a Selo year's statement under way stops with the answer.
 */

const NEXT = yearOf(today()) + 1;
let api: TestApi;
let producer: string;

const oldPurchase = (producerId: string) => ({
  producerId, purchasedOn: '2004-02-10', feedstock: 'SOYBEAN', quantityKg: '1000', cost: '1000', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista Antiga', originMunicipalityCode: RECIFE,
});
const PURCHASES = `mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  producer = await createProducer(api, 'Usina Antiga', RECIFE);
});
afterAll(async () => { await api.close(); });

test(`balances on a day of December ${NEXT} are folded; in January ${NEXT + 1} they are refused on \`on\`, as PRODUCER too`, async () => {
  const last = await api.gql(`query($p: ID!, $on: Date!) { creditBalances(producerId: $p, on: $on) { tax } }`, { p: producer, on: `${NEXT}-12-31` });
  expect(last.errors).toBeUndefined();
  for (const as of [undefined, { role: 'PRODUCER', producerId: producer }] as const) {
    const far = await api.gql(`query($p: ID!, $on: Date!) { creditBalances(producerId: $p, on: $on) { tax } }`, { p: producer, on: `${NEXT + 1}-01-01` }, as);
    expect(far.errors?.map((e) => [e.extensions?.code, e.extensions?.field])).toEqual([['BAD_USER_INPUT', 'on']]);
    expect(far.errors?.[0].message).toBe(`Credits and balances are folded month by month up to December ${NEXT} at the latest (the year after today); on asks for ${NEXT + 1}-01`);
  }
  const pt = await api.gql(`query($p: ID!) { creditBalances(producerId: $p, on: "9999-12-01") { tax } }`, { p: producer }, undefined, { 'accept-language': 'pt-BR' });
  expect(pt.errors?.[0].message).toBe(`Créditos e saldos são apurados mês a mês até dezembro de ${NEXT} no máximo (o ano seguinte ao atual); on pede 9999-12`);
});

// The non-cumulative Cofins began in February 2004 (Lei 10.833/2003): the fold starts there at the earliest, and a
// month before it has no fold (it was an internal error).
test('balances of a month before February 2004 are refused on `on`; February 2004 is folded', async () => {
  const BALANCES = `query($p: ID!, $on: Date!) { creditBalances(producerId: $p, on: $on) { tax } }`;
  const res = await api.gql(BALANCES, { p: producer, on: '2004-01-31' });
  expect(res.errors?.map((e) => [e.path?.join('.'), e.extensions?.code, e.extensions?.field, e.message])).toEqual([
    ['creditBalances', 'BAD_USER_INPUT', 'on', 'Credits and balances are folded from February 2004, when the non-cumulative Cofins began (Lei 10.833/2003); on asks for 2004-01'],
  ]);
  expect((await api.ok(BALANCES, { p: producer, on: '2004-02-01' })).creditBalances).toEqual([]);
});

// A date's year is the date's: a year before 2000 was refused naming `year`, an argument these fields do not have.
test('a date of a year before 2000 is refused on the date itself: creditBalances `on`, a claim\'s `input.filedOn`; its month of origin on `input.originMonth`', async () => {
  const BALANCES = `query($p: ID!, $on: Date!) { creditBalances(producerId: $p, on: $on) { tax } }`;
  for (const [on, asked] of [['0001-01-01', '0001-01'], ['1999-12-31', '1999-12']]) {
    const res = await api.gql(BALANCES, { p: producer, on });
    expect(res.errors?.map((e) => [e.extensions?.code, e.extensions?.field, e.message])).toEqual([
      ['BAD_USER_INPUT', 'on', `Credits and balances are folded from February 2004, when the non-cumulative Cofins began (Lei 10.833/2003); on asks for ${asked}`],
    ]);
  }
  const before = await api.count('SELECT count(*) FROM credit_claim');
  const claim = (i: Record<string, unknown>) => api.gql(`mutation($i: RecordCreditClaimInput!) { recordCreditClaim(input: $i) { id } }`, {
    i: { producerId: producer, tax: 'PIS', originYear: 2026, originMonth: 1, codCred: '301', kind: 'REFUND', filedOn: '2026-06-02', amount: '1', ...i },
  });
  const refusals = [await claim({ filedOn: '1999-05-10' }), await claim({ originMonth: 13 }), await claim({ originYear: 1999 })];
  expect(refusals.map((r) => r.errors?.map((e) => [e.extensions?.code, e.extensions?.field]))).toEqual([
    [['BAD_USER_INPUT', 'input.filedOn']], [['BAD_USER_INPUT', 'input.originMonth']], [['BAD_USER_INPUT', 'input.originYear']],
  ]);
  expect(await api.count('SELECT count(*) FROM credit_claim')).toBe(before);
});

test('the credits of a tax month past the horizon are refused, on `month`', async () => {
  const res = await api.gql(`query($p: ID!) { taxPeriod(producerId: $p, year: 9999, month: 12) { year month credits { awaiting } } }`, { p: producer });
  expect(res.errors?.map((e) => [e.path?.join('.'), e.extensions?.code, e.extensions?.field])).toEqual([['taxPeriod.credits', 'BAD_USER_INPUT', 'month']]);
  expect(res.errors?.[0].message).toMatch(/month asks for 9999-12$/);
});

test('a claim filed past the horizon is refused and writes nothing', async () => {
  const before = await api.count('SELECT count(*) FROM credit_claim');
  const res = await api.gql(`mutation($i: RecordCreditClaimInput!) { recordCreditClaim(input: $i) { id } }`, {
    i: { producerId: producer, tax: 'PIS', originYear: 2026, originMonth: 1, codCred: '301', kind: 'REFUND', filedOn: `${NEXT + 1}-01-02`, amount: '1' },
  });
  expect(res.errors?.map((e) => [e.extensions?.code, e.extensions?.field])).toEqual([['BAD_USER_INPUT', 'input.filedOn']]);
  expect(await api.count('SELECT count(*) FROM credit_claim')).toBe(before);
});

/** The statements a request runs on the test server, answered in full. */
async function statementsOf(query: string, variables: Record<string, unknown>): Promise<number> {
  const before = api.statements.count;
  await api.ok(query, variables);
  return api.statements.count - before;
}

/**
 * The same request on a second server over the same database (its statements are counted with
 * the first's) answering a timeout after `ms`: the statements run after the answer arrived, once
 * the database has gone quiet.
 */
async function statementsAfterTimeout(ms: number, query: string, variables: Record<string, unknown>): Promise<number> {
  const short = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), requestTimeoutMs: ms });
  try {
    await new Promise<void>((resolve) => short.httpServer.listen(0, '127.0.0.1', resolve));
    const { port } = short.httpServer.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await api.token()}` }, body: JSON.stringify({ query, variables }),
    });
    const answered = api.statements.count;
    expect([res.status, ((await res.json()) as { errors: Array<{ extensions: { code: string } }> }).errors.map((e) => e.extensions.code)]).toEqual([503, ['REQUEST_TIMEOUT']]);
    await sleep(2000);
    return api.statements.count - answered;
  } finally {
    await short.stop();
  }
}

test('a fold of about 290 months reads them in ranged statements; cut short by the request timeout, its statement under way stops with the answer', async () => {
  const id = await createProducer(api, 'Usina Mais Antiga', RECIFE);
  // The first record in February 2004: the fold to December of next year is about 290 months.
  await api.ok(PURCHASES, { i: [oldPurchase(id)] });
  const query = 'query($p: ID!, $on: Date!) { creditBalances(producerId: $p, on: $on) { tax } }';
  // As many statements as a fold of one month (about 20), not three or more a month.
  expect(await statementsOf(query, { p: id, on: `${NEXT}-12-01` })).toBeLessThan(40);
  // Another transaction holds the claims: the fold's first statement to read them waits as a long one would run.
  expect(await afterTimeout('credit_claim', query, { p: id, on: `${NEXT}-12-01` })).toEqual({ waiting: 0, errors: [] });
}, 60_000);

test('a program series cut short by the request timeout stops at its next year', async () => {
  const query = 'query { programOverview(year: 2040) { years(from: 2021) { year producerCount } } }';
  const whole = await statementsOf(query, {});
  expect(whole).toBeGreaterThan(20 * 5);
  expect(await statementsAfterTimeout(5, query, {})).toBeLessThan(whole / 4);
}, 60_000);

test('years asked at once by aliases, cut short by the request timeout: those still waiting their turn are not begun', async () => {
  const aliases = Array.from({ length: 20 }, (_, i) => `y${i}: programOverview(year: ${2021 + i}) { producerCount }`).join(' ');
  const query = `query { ${aliases} }`;
  const whole = await statementsOf(query, {});
  expect(whole).toBeGreaterThan(20 * 5);
  expect(await statementsAfterTimeout(5, query, {})).toBeLessThan(whole / 4);
}, 60_000);

test('a Selo year cut short by the request timeout stops its statement under way with the answer', async () => {
  const id = await createProducer(api, 'Usina Travada', RECIFE);
  // Another transaction holds the contracts: the year's groups, the first statement to read them, wait as a long one would run.
  expect(await afterTimeout('contract', 'query($p: ID!) { sealCompliance(producerId: $p, year: 2025) { status } }', { p: id })).toEqual({ waiting: 0, errors: [] });
}, 60_000);

/**
 * With `table` held by another transaction, the request on a second server answering a timeout
 * after 400 ms: how many of its statements still wait for the table two seconds after the answer
 * (without a bound of its own a statement waits for the lock up to the connection's bound, the
 * request timeout of the server, 30 s), and the errors logged (the statement cancelled with the
 * answer is that stop, not a failure of the database to log).
 */
async function afterTimeout(table: string, query: string, variables: Record<string, unknown>): Promise<{ waiting: number; errors: Array<{ msg: string }> }> {
  const holder = api.db.dataSource.createQueryRunner();
  await holder.connect();
  await holder.startTransaction();
  await holder.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  const waiting = () => api.count(`SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1 AND pid <> pg_backend_pid()`, [`%${table}%`]);
  const errors: Array<{ msg: string }> = [];
  const sink = new Writable({ write(chunk, _encoding, done) { for (const l of String(chunk).split('\n').filter(Boolean)) if (JSON.parse(l).level >= 50) errors.push(JSON.parse(l)); done(); } });
  const short = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'info' }, sink), requestTimeoutMs: 400 });
  try {
    await new Promise<void>((resolve) => short.httpServer.listen(0, '127.0.0.1', resolve));
    const { port } = short.httpServer.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await api.token()}` }, body: JSON.stringify({ query, variables }),
    });
    expect(res.status).toBe(503);
    let left = await waiting();
    for (let i = 0; i < 20 && left > 0; i++) {
      await sleep(100);
      left = await waiting();
    }
    await sleep(200);
    return { waiting: left, errors };
  } finally {
    await holder.rollbackTransaction();
    await holder.release();
    await short.stop();
  }
}

test('a body still arriving when the timeout answers gets that one answer, with Connection: close, and the connection ends', async () => {
  const short = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }), requestTimeoutMs: 300 });
  const socket = new net.Socket();
  let trickle: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve) => short.httpServer.listen(0, '127.0.0.1', resolve));
    const { port } = short.httpServer.address() as AddressInfo;
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
    let received = '';
    socket.on('data', (chunk: Buffer) => { received += chunk.toString('latin1'); });
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    socket.write(`POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer ${await api.token()}\r\nTransfer-Encoding: chunked\r\n\r\n`);
    // A byte of the JSON every 100 ms: the body is not whole for as long as the client keeps sending.
    const body = [...'{"query":"{ __typename }"}'];
    trickle = setInterval(() => { if (!socket.destroyed) socket.write(`1\r\n${body.shift() ?? ' '}\r\n`); }, 100);
    const started = Date.now();
    const at = await Promise.race([closed, sleep(2_000).then(() => null)]);
    clearInterval(trickle);
    // The connection is ended by the server soon after the answer (300 ms), while the body still arrives.
    expect(at).not.toBeNull();
    expect(at! - started).toBeLessThan(1_500);
    // One request, one response: the timeout's, which says the connection closes.
    expect(received.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 503']);
    const [head, json] = received.split('\r\n\r\n');
    expect(head.toLowerCase()).toContain('\r\nconnection: close');
    expect((JSON.parse(json) as { errors: Array<{ extensions: { code: string } }> }).errors.map((e) => e.extensions.code)).toEqual(['REQUEST_TIMEOUT']);
  } finally {
    clearInterval(trickle);
    socket.destroy();
    await short.stop();
  }
}, 30_000);

test('requests stopped by their timeout log no error: the stop is the documented one, and nothing is answered twice', async () => {
  const id = await createProducer(api, 'Usina Paciente', RECIFE);
  // From February 2004, each request's fold reads and computes some 290 months: far longer than the 200 ms given here.
  await api.ok(PURCHASES, { i: [oldPurchase(id)] });
  const lines: Array<{ level: number; msg: string; err?: unknown; status?: number }> = [];
  const sink = new Writable({ write(chunk, _encoding, done) { for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l)); done(); } });
  const short = await createApp({ dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'info' }, sink), requestTimeoutMs: 200 });
  try {
    await new Promise<void>((resolve) => short.httpServer.listen(0, '127.0.0.1', resolve));
    const { port } = short.httpServer.address() as AddressInfo;
    const months = Array.from({ length: 10 }, (_, i) => `m${i}: taxPeriod(producerId: $p, year: ${NEXT}, month: ${i + 1}) { credits { awaiting } }`).join(' ');
    const token = await api.token();
    const answers = await Promise.all(Array.from({ length: 20 }, async () => {
      const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: `query($p: ID!) { ${months} }`, variables: { p: id } }),
      });
      return [res.status, ((await res.json()) as { errors: Array<{ extensions: { code: string } }> }).errors.map((e) => e.extensions.code)];
    }));
    expect(answers).toEqual(Array(20).fill([503, ['REQUEST_TIMEOUT']]));
    // The folds under way stop with the answer (their statement's bound), the rest are not begun; then nothing is left to log.
    await sleep(3000);
    expect(lines.filter((l) => l.level >= 50).map((l) => [l.msg, l.err])).toEqual([]);
    // One request line each, the timeout's answer.
    expect(lines.filter((l) => l.msg === 'request').map((l) => l.status)).toEqual(Array(20).fill(503));
  } finally {
    await short.stop();
  }
}, 60_000);
