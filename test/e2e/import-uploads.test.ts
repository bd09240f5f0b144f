import fs from 'node:fs';
import http from 'node:http';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import type express from 'express';
import { Client } from 'pg';
import { QueryRunner } from 'typeorm';
import { receiveBody, UPLOAD_LIMITS, UploadError } from '../../src/http/upload';
import { Caller, startTestApi, TestApi } from '../support/api';
import { RECIFE, upsertMunicipalities, createProducer } from '../support/fixtures';

/**
 * Uploads to POST /import/<kind> are received whole before the database is touched: a slow client
 * holds no pooled connection, uploads are bounded per caller and in all, a crawl is cut off, and a
 * pool with no free connection is a 503 to retry (docs/RELIABILITY.md).
 */
let api: TestApi;
let producerId: string;
const HEADER = 'soldOn,volumeM3,revenue';
const line = (i: number) => `2026-03-${String(1 + (i % 28)).padStart(2, '0')},1.5,${1000 + i}`;

beforeAll(async () => {
  api = await startTestApi(); // a pool of 5 connections
  await upsertMunicipalities(api, [RECIFE]);
  producerId = await createProducer(api, 'Usina Upload');
});

afterAll(async () => {
  await api?.close();
});

const base = () => api.url.replace(/\/graphql$/, '');
const saleCount = () => api.count('SELECT count(*) FROM sale');

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
}

/** An upload whose body the test sends piece by piece; `answer` settles when the server answers. */
async function openUpload(as: Caller, path = `/import/sales?producer=${producerId}`, headers: Record<string, string> = {}) {
  const { port } = new URL(api.url);
  const token = await api.token(as);
  const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}`, ...headers } });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += String(c)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} }));
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  req.flushHeaders();
  return { req, answer };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post(path: string, body: string | Uint8Array, as: Caller | null = { role: 'ADMIN' }, headers: Record<string, string> = {}): Promise<Answer> {
  const h: Record<string, string> = { 'content-type': 'text/csv', ...headers };
  if (as) h.authorization = `Bearer ${await api.token(as)}`;
  const res = await fetch(`${base()}${path}`, { method: 'POST', headers: h, body });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: (await res.json()) as Record<string, any> };
}

it('slow uploads hold no database connection: GraphQL is served while five trickle in, and they then import', async () => {
  const before = await saleCount();
  // As many slow uploads as the pool has connections, each from its own caller.
  const uploads = await Promise.all([1, 2, 3, 4, 5].map((n) => openUpload({ role: 'ADMIN', sub: `slow-${n}` })));
  for (const u of uploads) u.req.write(`${HEADER}\n`);
  for (let i = 0; i < 6; i++) {
    await sleep(150);
    uploads.forEach((u, n) => u.req.write(`${line(i * 10 + n)}\n`));
  }
  // Were the five uploads holding the pool's five connections, this would fail with DATABASE_UNAVAILABLE.
  const res = await api.gql(`{ producers { totalCount } }`);
  expect(res.errors).toBeUndefined();
  expect(res.data?.producers.totalCount).toBe(1);
  const pg = new Client({ connectionString: api.db.url });
  await pg.connect();
  try {
    const [{ n }] = (await pg.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND (query LIKE 'COPY import_stage%' OR state LIKE 'idle in transaction%')`)).rows;
    expect(n).toBe(0);
  } finally {
    await pg.end();
  }
  uploads.forEach((u) => u.req.end());
  const answers = await Promise.all(uploads.map((u) => u.answer));
  expect(answers.map((a) => [a.status, a.body.import?.rows])).toEqual(Array(5).fill([200, 6]));
  expect(await saleCount()).toBe(before + 30);
}, 30_000);

it('cuts off an upload slower than the minimum rate with 408, writing nothing', async () => {
  const before = await saleCount();
  const upload = await openUpload({ role: 'PRODUCER', producerId, sub: 'crawler' });
  upload.req.write(`${HEADER}\n`);
  const timer = setInterval(() => upload.req.write(`${line(1)}\n`), 1_000);
  const answer = await upload.answer.finally(() => clearInterval(timer));
  upload.req.destroy();
  expect(answer.status).toBe(408);
  expect(answer.body.error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
  expect(answer.body.error.message).toMatch(/slower than 8 KB\/s/);
  expect(await saleCount()).toBe(before);
}, 20_000);

it('bounds imports per caller (429) and in all (503), with Retry-After, and frees the slots', async () => {
  const producer: Caller = { role: 'PRODUCER', producerId, sub: 'busy-producer' };
  const mine = await Promise.all([openUpload(producer, '/import/sales'), openUpload(producer, '/import/sales')]);
  await sleep(200);
  const third = await post('/import/sales', `${HEADER}\n${line(1)}\n`, producer);
  expect(third.status).toBe(429);
  expect(third.body.error.code).toBe('TOO_MANY_REQUESTS');
  expect(third.headers['retry-after']).toBe('2');
  // Six in all: two more callers with two each fill the server.
  const others = await Promise.all(['a', 'b', 'a', 'b'].map((s) => openUpload({ role: 'ADMIN', sub: `busy-${s}` })));
  await sleep(200);
  const seventh = await post(`/import/sales?producer=${producerId}`, `${HEADER}\n${line(1)}\n`, { role: 'ADMIN', sub: 'busy-c' });
  expect(seventh.status).toBe(503);
  expect(seventh.body.error.code).toBe('TOO_MANY_REQUESTS');
  expect(seventh.headers['retry-after']).toBe('2');
  for (const u of [...mine, ...others]) u.req.destroy();
  await sleep(300);
  const after = await post('/import/sales', `${HEADER}\n${line(2)}\n`, producer);
  expect(after.status).toBe(200);
}, 20_000);

it('answers 503 with Retry-After, not 500, when the pool has no free connection', async () => {
  const held: QueryRunner[] = [];
  try {
    for (let i = 0; i < 5; i++) {
      const qr = api.db.dataSource.createQueryRunner();
      await qr.connect();
      held.push(qr);
    }
    const res = await post(`/import/sales?producer=${producerId}`, `${HEADER}\n${line(3)}\n`);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('DATABASE_UNAVAILABLE');
    expect(res.headers['retry-after']).toBe('2');
  } finally {
    for (const qr of held) await qr.release();
  }
}, 20_000);

it('refuses a file over the size cap, declared or sent, with 413', async () => {
  const declared = await openUpload({ role: 'ADMIN' }, `/import/sales?producer=${producerId}`, { 'content-length': String(65 * 1024 * 1024) });
  const a = await declared.answer;
  declared.req.destroy();
  expect([a.status, a.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  const sent = await openUpload({ role: 'ADMIN', sub: 'big' });
  const chunk = `${Array.from({ length: 20_000 }, (_, i) => line(i)).join('\n')}\n`;
  let written = 0;
  let settled = false;
  const stop = new Promise<void>((resolve) => {
    void sent.answer.finally(() => resolve());
    sent.req.once('close', () => resolve());
  }).then(() => (settled = true));
  sent.req.write(`${HEADER}\n`);
  // Sent until the answer comes, or twice the cap: what is in flight on the loopback (the sockets'
  // buffers, several MB under load) is written before the client can see the answer.
  const whole = 2 * UPLOAD_LIMITS.maxBytes;
  while (!settled && written < whole) {
    if (!sent.req.write(chunk)) await Promise.race([new Promise<void>((r) => sent.req.once('drain', () => r())), stop]);
    written += chunk.length;
  }
  const b = await sent.answer;
  // The server answered before the whole file had been sent.
  expect(written).toBeLessThan(whole);
  sent.req.destroy();
  expect([b.status, b.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
}, 60_000);

it('a body sent gzip, deflate or br is inflated, as /graphql does; another Content-Encoding is 415, a body that does not inflate 400, nothing written', async () => {
  const id = await createProducer(api, 'Usina Comprimida');
  const revenue = async () => (await api.db.dataSource.query('SELECT count(*)::int AS n, sum(revenue)::numeric(15, 2)::text AS total, sum(volume_m3)::numeric(15, 3)::text AS m3 FROM sale WHERE producer_id = $1', [id]))[0];
  // Two sales: 1,5 m³ for R$ 1.000,00 and 1,5 m³ for R$ 1.001,00 (line(0), line(1)).
  const csv = `${HEADER}\n${line(0)}\n${line(1)}\n`;
  const form = (bytes: string) => {
    const boundary = 'selo-form';
    return { type: `multipart/form-data; boundary=${boundary}`, body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="vendas.csv"\r\nContent-Type: text/csv\r\n\r\n${bytes}\r\n--${boundary}--\r\n` };
  };
  const sent: Array<[string, Buffer, string]> = [
    ['gzip', zlib.gzipSync(csv), 'text/csv'], ['deflate', zlib.deflateSync(csv), 'text/csv'], ['br', zlib.brotliCompressSync(csv), 'text/csv'],
    ['GZip', zlib.gzipSync(form(csv).body), form(csv).type],
  ];
  for (const [encoding, body, type] of sent) {
    const res = await post(`/import/sales?producer=${id}`, body, { role: 'ADMIN' }, { 'content-encoding': encoding, 'content-type': type });
    expect([encoding, res.status, res.body.import?.rows]).toEqual([encoding, 200, 2]);
  }
  // Four uploads of the two sales: 8 rows, R$ (1.000,00 + 1.001,00) × 4 = R$ 8.004,00, 1,5 m³ × 8 = 12 m³.
  expect(await revenue()).toEqual({ n: 8, total: '8004.00', m3: '12.000' });

  for (const encoding of ['compress', 'zstd', 'bogus', 'gzip, identity']) {
    const res = await post(`/import/sales?producer=${id}`, csv, { role: 'ADMIN' }, { 'content-encoding': encoding });
    expect([encoding, res.status, res.body.error?.code, res.body.error?.message]).toEqual([encoding, 415, 'UNSUPPORTED_MEDIA_TYPE', expect.stringMatching(/Content-Encoding is not supported/)]);
  }
  const plain = await post(`/import/sales?producer=${id}`, csv, { role: 'ADMIN' }, { 'content-encoding': 'gzip', 'accept-language': 'pt-BR' });
  expect([plain.status, plain.body.error?.code, plain.body.error?.message]).toEqual([400, 'BAD_REQUEST', 'O envio não se descompacta como diz o seu Content-Encoding (gzip); nada foi gravado']);
  // A gzip cut short does not inflate either.
  const cut = zlib.gzipSync(csv);
  const truncated = await post(`/import/sales?producer=${id}`, cut.subarray(0, cut.length - 10), { role: 'ADMIN' }, { 'content-encoding': 'gzip' });
  expect([truncated.status, truncated.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
  expect(await revenue()).toEqual({ n: 8, total: '8004.00', m3: '12.000' });
});

it('an upload is bounded once inflated: some 65 KB of gzip inflating past 64 MB is 413, as a plain body of that size', async () => {
  const id = await createProducer(api, 'Usina da Bomba');
  // 64 MiB + 1 KiB of one repeated line, from a few dozen KB on the wire.
  const bomb = zlib.gzipSync(Buffer.alloc(UPLOAD_LIMITS.maxBytes + 1024, 'a'), { level: 9 });
  expect(bomb.length).toBeLessThan(100 * 1024);
  for (const path of [`/import/sales?producer=${id}`, `/import/nfe?producer=${id}`]) {
    const res = await post(path, bomb, { role: 'ADMIN' }, { 'content-encoding': 'gzip', 'content-type': path.includes('nfe') ? 'application/xml' : 'text/csv' });
    expect([path, res.status, res.body.error?.code]).toEqual([path, 413, 'PAYLOAD_TOO_LARGE']);
  }
  expect(await api.count('SELECT count(*) FROM sale WHERE producer_id = $1', [id])).toBe(0);
}, 30_000);

it('refuses a repeated or list producer or delimiter, and kinds that are not its own', async () => {
  const csv = `${HEADER}\n${line(4)}\n`;
  const twice = await post(`/import/sales?producer=${producerId}&producer=${producerId}`, csv);
  expect([twice.status, twice.body.error.code, twice.body.error.column]).toEqual([400, 'BAD_USER_INPUT', undefined]);
  expect(twice.body.error.field).toBe('producer');
  const bracket = await post(`/import/sales?producer[]=${producerId}`, csv, { role: 'PRODUCER', producerId });
  expect([bracket.status, bracket.body.error.field]).toEqual([400, 'producer[]']);
  const delimiter = await post(`/import/sales?producer=${producerId}&delimiter=|`, csv);
  expect([delimiter.status, delimiter.body.error.field]).toEqual([400, 'delimiter']);
  for (const kind of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const res = await post(`/import/${kind}?producer=${producerId}`, csv);
    expect([kind, res.status, res.body.error.code]).toEqual([kind, 404, 'NOT_FOUND']);
  }
});

describe('receiveBody', () => {
  /** A request stand-in: a stream with headers. */
  const request = (headers: Record<string, string> = {}) => Object.assign(new PassThrough(), { headers }) as unknown as express.Request & PassThrough;
  const limits = { maxBytes: 4096, memoryBytes: 1024, minBytesPerSecond: 1024, windowMs: 300 };

  it('keeps a small body in memory and a larger one in a temporary file it removes', async () => {
    const small = request();
    const pending = receiveBody(small, limits);
    small.end('a,b\n1,2\n');
    const body = await pending;
    expect([body.bytes, body.file]).toEqual([8, null]);
    expect(await streamText(body.stream())).toBe('a,b\n1,2\n');

    const large = request();
    const spooling = receiveBody(large, limits);
    const text = 'x'.repeat(3000);
    large.write(text.slice(0, 1500));
    large.end(text.slice(1500));
    const spooled = await spooling;
    expect(spooled.bytes).toBe(3000);
    expect(spooled.file).not.toBeNull();
    expect(await streamText(spooled.stream())).toBe(text);
    expect(await streamText(spooled.stream())).toBe(text);
    await spooled.dispose();
    expect(fs.existsSync(spooled.file!)).toBe(false);
  });

  it('refuses more than maxBytes and a crawl below the minimum rate', async () => {
    const big = request();
    const tooBig = receiveBody(big, limits);
    big.write('y'.repeat(4000));
    big.write('y'.repeat(200));
    await expect(tooBig).rejects.toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });

    const slow = request();
    const crawling = receiveBody(slow, limits);
    const timer = setInterval(() => slow.write('z'), 50);
    const error = await crawling.catch((e: unknown) => e).finally(() => clearInterval(timer));
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
  });

  it('keeps a gzip body inflated, bounded by maxBytes once inflated; the rate is of the bytes as sent', async () => {
    const gzipped = request({ 'content-encoding': 'gzip' });
    const pending = receiveBody(gzipped, limits);
    gzipped.end(zlib.gzipSync('a,b\n1,2\n'));
    const body = await pending;
    expect([body.bytes, await streamText(body.stream())]).toEqual([8, 'a,b\n1,2\n']);

    // 4097 bytes once inflated, 30-odd as sent: over the 4096 of maxBytes.
    const bomb = request({ 'content-encoding': 'gzip' });
    const refused = receiveBody(bomb, limits);
    bomb.end(zlib.gzipSync(Buffer.alloc(limits.maxBytes + 1, 'z')));
    await expect(refused).rejects.toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });

    // 1024 B/s on the wire is the minimum: 2 KB a second as sent, some 20 B of which is gzip of a run of 2 KB, is a crawl.
    const slow = request({ 'content-encoding': 'gzip' });
    const crawling = receiveBody(slow, { ...limits, maxBytes: 1 << 20 });
    const deflater = zlib.createGzip();
    deflater.pipe(slow);
    const timer = setInterval(() => deflater.write(Buffer.alloc(2048, 'q'), () => deflater.flush()), 50);
    const error = await crawling.catch((e: unknown) => e).finally(() => { clearInterval(timer); deflater.destroy(); });
    expect(error).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
  });
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}
