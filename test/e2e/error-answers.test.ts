import { readFileSync } from 'node:fs';
import http from 'node:http';
import net, { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { errorAnswers, refuseUnparsed } from '../../src/http/error-answers';
import { startTestApi, TestApi } from '../support/api';

// Requests Express refuses before any route of the API runs (a body it cannot decode, a path it
// cannot percent-decode, a path it does not serve) are answered in the API's JSON error shape,
// with a 4xx status and a code, no token needed, and no stack trace nor file path in the answer;
// what the log gets is one JSON line.

const lines: string[] = [];
const sink = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } });
let api: TestApi;
let base = '';
beforeAll(async () => {
  api = await startTestApi({ logger: pino({ level: 'info' }, sink) });
  base = api.url.replace(/\/graphql$/, '');
});
afterAll(async () => { await api.close(); });

const BODY = '{"query":"{ __typename }"}';
/** BODY correctly encoded in UTF-16 and UTF-32 (little-endian, with their byte-order marks), which the JSON parser could decode. */
const UTF16 = Buffer.from(`\ufeff${BODY}`, 'utf16le');
const UTF32 = Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), ...[...BODY].map((c) => Buffer.from([c.charCodeAt(0), 0, 0, 0]))]);
const jsonIn = (charset: string, body: string | Buffer) => () => fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': `application/json; charset=${charset}` }, body });

/** A CONNECT (fetch refuses the method): Node hands its answer over as a tunnel, read to its end. */
function connect(target: string, headers: Record<string, string> = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: Number(new URL(base).port), method: 'CONNECT', path: target, headers });
    req.on('connect', (res: http.IncomingMessage, socket, head: Buffer) => {
      const chunks = [head];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('close', () => resolve(new Response(Buffer.concat(chunks), {
        status: res.statusCode, headers: Object.entries(res.headers).map(([k, v]) => [k, String(v)] as [string, string]),
      })));
    });
    req.on('error', reject);
    req.end();
  });
}
/** Bytes no HTTP client would send, on a connection of their own; the answer read to the connection's end. */
function raw(bytes: string, port = Number(new URL(base).port)): Promise<{ text: string; response: Response }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers = lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]);
      resolve({ text, response: new Response(text.slice(end + 4), { status: Number(statusLine.split(' ')[1]), headers }) });
    });
  });
}
const LONG = 'a'.repeat(17 * 1024);

/** [what, request, status, code, shape]: `graphql` answers as GraphQL errors, `error` as the import and export routes do. */
const CASES: Array<[string, () => Promise<Response>, number, string, 'graphql' | 'error']> = [
  ['a JSON body in latin1', jsonIn('latin1', BODY), 415, 'UNSUPPORTED_MEDIA_TYPE', 'graphql'],
  ['a JSON body in UTF-16', jsonIn('utf-16', UTF16), 415, 'UNSUPPORTED_MEDIA_TYPE', 'graphql'],
  ['a JSON body in UTF-16, its charset quoted and in capitals', jsonIn('"UTF-16LE"', UTF16.subarray(2)), 415, 'UNSUPPORTED_MEDIA_TYPE', 'graphql'],
  ['a JSON body in UTF-32', jsonIn('utf-32', UTF32), 415, 'UNSUPPORTED_MEDIA_TYPE', 'graphql'],
  ['a JSON body in UTF-16 by another method', () => fetch(`${base}/graphql`, { method: 'PUT', headers: { 'content-type': 'application/json; charset=utf-16' }, body: UTF16 }), 415, 'UNSUPPORTED_MEDIA_TYPE', 'graphql'],
  ['Content-Encoding: bogus', () => fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'bogus' }, body: BODY }), 415, 'UNSUPPORTED_MEDIA_TYPE', 'graphql'],
  ['a body sent as gzip that is not', () => fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: BODY }), 400, 'BAD_REQUEST', 'graphql'],
  ['a malformed percent-encoding in an import path', () => fetch(`${base}/import/%E0%A4%A`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a;b\n' }), 400, 'BAD_REQUEST', 'error'],
  ['a malformed percent-encoding in an asset path', () => fetch(`${base}/graphiql-assets/%E0`), 400, 'BAD_REQUEST', 'error'],
  ['a path nothing serves', () => fetch(`${base}/nothing-here`), 404, 'NOT_FOUND', 'error'],
  ['CONNECT, a proxy\'s method', () => connect('example.com:443'), 405, 'METHOD_NOT_ALLOWED', 'error'],
  ['a query string over 16 KB on an export path', () => fetch(`${base}/export/tax-period?x=${LONG}`), 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE', 'error'],
  ['a query string over 16 KB on /graphql', () => fetch(`${base}/graphql?query=${LONG}`, { headers: { 'apollo-require-preflight': 'true' } }), 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE', 'graphql'],
  ['headers over 16 KB', () => fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-padding': LONG }, body: BODY }), 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE', 'graphql'],
  ['a header line Node cannot parse', async () => (await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n')).response, 400, 'BAD_REQUEST', 'error'],
  ['a chunked body whose chunk size is not hexadecimal', async () => (await raw(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)}\r\n${BODY}\r\nzz\r\n`)).response,
    400, 'BAD_REQUEST', 'graphql'],
];

test.each(CASES)('%s: JSON with a 4xx status and a code, no stack nor path; one JSON log line', async (_what, send, status, code, shape) => {
  const stderr = jest.spyOn(process.stderr, 'write');
  const consoleError = jest.spyOn(console, 'error');
  lines.length = 0;
  try {
    const res = await send();
    const text = await res.text();
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(text).not.toMatch(/\bat \S+ \(|node_modules|\.js:\d|\/work\/|<html|<pre>/i);
    const body = JSON.parse(text);
    const requestId = res.headers.get('x-request-id');
    if (shape === 'graphql') expect(body).toEqual({ errors: [{ message: expect.any(String), extensions: { code, requestId } }] });
    else expect(body).toEqual({ error: { code, message: expect.any(String), requestId } });
    expect(consoleError).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
  } finally {
    stderr.mockRestore();
    consoleError.mockRestore();
  }
  const logged = lines.map((l) => JSON.parse(l) as { msg: string }).filter((l) => l.msg === 'request refused');
  expect(logged).toEqual([expect.objectContaining({ level: 40, status, code })]);
});

test('a JSON body in UTF-8 is read whichever way its charset is written, or when none is', async () => {
  const token = await api.token();
  for (const contentType of ['application/json', 'application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset="Utf-8"']) {
    const res = await fetch(api.url, { method: 'POST', headers: { 'content-type': contentType, authorization: `Bearer ${token}` }, body: '{"query":"{ __typename }","variables":{"name":"Cerealista São João"}}' });
    expect([contentType, res.status, await res.json()]).toEqual([contentType, 200, { data: { __typename: 'Query' } }]);
  }
});

test('the messages are in the caller\'s language', async () => {
  const res = await fetch(`${base}/graphiql-assets/%E0`, { headers: { 'accept-language': 'pt-BR' } });
  expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^A requisição não pôde ser lida/);
  const tunnel = await connect('/graphql', { 'accept-language': 'pt-BR' });
  expect(((await tunnel.json()) as { error: { message: string } }).error.message).toMatch(/^CONNECT não é atendido/);
  expect(tunnel.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
});

test('what the HTTP parser refuses: the caller\'s request id and language, the connection closed, the server serving on', async () => {
  lines.length = 0;
  const { text, response } = await raw(`GET /export/program?year=${LONG} HTTP/1.1\r\nHost: x\r\nAccept-Language: pt-BR\r\nX-Request-Id: caller-7\r\n\r\n`);
  expect(text).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  expect([response.headers.get('connection'), response.headers.get('x-request-id')]).toEqual(['close', 'caller-7']);
  expect(await response.json()).toEqual({ error: { code: 'REQUEST_HEADER_FIELDS_TOO_LARGE', requestId: 'caller-7',
    message: 'A linha da requisição e os cabeçalhos passam do que o servidor lê (16 KB): envie uma consulta longa por POST, no corpo' } });
  expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([expect.objectContaining({ msg: 'request refused', status: 431, method: 'GET', path: '/export/program', requestId: 'caller-7' })]);
  // The query string is no part of the log: it may carry anything.
  expect(lines.join('\n')).not.toContain(LONG.slice(0, 100));
  // A body the parser fails on mid-way is refused under the id its request was given.
  const { response: midway } = await raw(`POST /graphql HTTP/1.1\r\nHost: x\r\nX-Request-Id: caller-8\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n`);
  expect([midway.status, midway.headers.get('x-request-id'), await midway.json()]).toEqual([400, 'caller-8', { errors: [{ message: expect.any(String), extensions: { code: 'BAD_REQUEST', requestId: 'caller-8' } }] }]);
  // An id that broke the parse is not echoed into the answer's headers.
  const { text: unechoed } = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: a\u0001b\r\n\r\n');
  expect(unechoed).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n(.+\r\n)*x-request-id: [0-9a-f-]{36}\r\n/);
  expect((await api.gql('{ __typename }')).data).toEqual({ __typename: 'Query' });
});

test('a request not received within the server\'s request timeout keeps Node\'s 408 with an empty body', async () => {
  const server = http.createServer({ requestTimeout: 300, headersTimeout: 300, connectionsCheckingInterval: 50 }, (req, res) => {
    req.resume();
    req.on('end', () => res.end('served'));
  });
  server.on('clientError', refuseUnparsed(pino({ level: 'silent' })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    for (const partial of ['POST /import/purchases HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nnot all of it', 'GET /healthz HTTP/1.1\r\nHost: x\r\n']) {
      expect((await raw(partial, port)).text).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('anything else that reaches the handler is 500 INTERNAL_SERVER_ERROR: the stack goes to the log, in one JSON line, never into the answer', async () => {
  const app = express();
  app.get('/boom', () => { throw new Error('kaput at a place only the log may name'); });
  app.use(errorAnswers(pino({ level: 'info' }, sink)));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  lines.length = 0;
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'INTERNAL_SERVER_ERROR', message: 'Internal error (request unknown)', requestId: null } });
    expect(text).not.toContain('kaput');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  expect(lines).toHaveLength(1);
  const line = JSON.parse(lines[0]) as { level: number; msg: string; err: { message: string; stack: string } };
  expect([line.level, line.msg, line.err.message]).toEqual([50, 'unexpected error', 'kaput at a place only the log may name']);
  expect(line.err.stack).toContain('error-answers.test.ts');
});

test('a subscription, which the schema has none of, is refused at validation: 400 GRAPHQL_VALIDATION_FAILED, by POST and by GET, nothing logged as an error', async () => {
  const token = await api.token();
  const post = (query: string, language = 'en') => fetch(api.url, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': language }, body: JSON.stringify({ query }),
  });
  const get = (query: string) => fetch(`${api.url}?query=${encodeURIComponent(query)}`, { headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' } });
  lines.length = 0;
  const answers = [await post('subscription { __typename }'), await post('subscription Ticks { producers(first: 1) { totalCount } }'), await get('subscription { __typename }')];
  for (const res of answers) {
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: unknown[] }).errors).toEqual([{
      message: 'The schema serves no subscription operations: only query and mutation.', locations: [{ line: 1, column: 1 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    }]);
  }
  const pt = (await (await post('subscription { __typename }', 'pt-BR')).json()) as { errors: Array<{ message: string }> };
  expect(pt.errors.map((e) => e.message)).toEqual(['O esquema não atende operações subscription: apenas query e mutation.']);
  // A document holding a query and a subscription is refused whole, whichever operation is named.
  const mixed = await fetch(api.url, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: 'query Q { __typename } subscription S { __typename }', operationName: 'Q' }),
  });
  expect([mixed.status, ((await mixed.json()) as { errors: Array<{ extensions: { code: string } }> }).errors.map((e) => e.extensions.code)]).toEqual([400, ['GRAPHQL_VALIDATION_FAILED']]);
  expect(lines.map((l) => JSON.parse(l) as { level: number }).filter((l) => l.level >= 50)).toEqual([]);
});

/** The codes of docs/API.md's table of errors, each with the text of its HTTP column. */
function documentedCodes(): Map<string, string> {
  const doc = readFileSync(`${__dirname}/../../docs/API.md`, 'utf8');
  const section = doc.slice(doc.indexOf('\n## Errors\n'), doc.indexOf('\n## ', doc.indexOf('\n## Errors\n') + 1));
  const codes = new Map<string, string>();
  for (const row of section.split('\n').filter((l) => l.startsWith('| `'))) {
    const [, first, , status] = row.split('|');
    for (const [, code] of first.matchAll(/`([A-Z_]+)`/g)) codes.set(code, status);
  }
  return codes;
}

// A client switches on `code` (docs/API.md, "Errors"): whatever refuses a request — Express, the
// HTTP parser, Apollo Server, the API's own checks — answers with a code and status the table lists.
test('every code a malformed request is answered with is in docs/API.md\'s table of errors, with its status', async () => {
  const token = await api.token();
  const authorized = { authorization: `Bearer ${token}` };
  const post = (body: unknown, headers: Record<string, string> = {}) => fetch(api.url, {
    method: 'POST', headers: { 'content-type': 'application/json', ...authorized, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const get = (query: string) => fetch(`${api.url}?query=${encodeURIComponent(query)}`, { headers: { ...authorized, 'apollo-require-preflight': 'true' } });
  const malformed: Array<[string, () => Promise<Response>]> = [
    ...CASES.map(([what, send]) => [what, send] as [string, () => Promise<Response>]),
    ['a document that does not parse', () => post({ query: '{ producers(first: 1) { totalCount }' })],
    ['a field the schema does not have', () => post({ query: '{ nope }' })],
    ['two operations, none named', () => post({ query: 'query A { __typename } query B { __typename }' })],
    ['an operation name the document does not hold', () => post({ query: '{ __typename }', operationName: 'Missing' })],
    ['two operations by GET, none named', () => get('query A { __typename } query B { __typename }')],
    ['a variable of the wrong type', () => post({ query: 'query($n: Int!) { producers(first: $n) { totalCount } }', variables: { n: 'many' } })],
    ['a required variable missing', () => post({ query: 'query($n: Int!) { producers(first: $n) { totalCount } }' })],
    ['a string with a NUL character', () => post({ query: 'mutation { upsertMunicipalities(input: [{ ibgeCode: "2611606", name: "Rec\\u0000ife", semiarid: false }]) { ibgeCode } }' })],
    ['too deep', () => post({ query: `{ ${'producers(first: 1) { edges { node { '.repeat(4)}id${' } } }'.repeat(4)} }` })],
    ['variables nested too deep', () => post({ query: 'query($v: JSON) { __typename }', variables: { v: JSON.parse('['.repeat(70) + ']'.repeat(70)) } })],
    ['a body that is not JSON', () => post('{"query":')],
    ['a JSON array (a batch)', () => post([{ query: '{ __typename }' }, { query: '{ __typename }' }])],
    ['an empty query', () => post({ query: '' })],
    ['operationName not a string', () => post({ query: '{ __typename }', operationName: 7 })],
    ['a body over 1 MB', () => post({ query: `{ __typename } # ${'x'.repeat(1_100_000)}` })],
    ['an unknown persisted query hash', () => post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } })],
    ['a persisted query whose hash is not its document\'s', () => post({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } })],
    ['an Accept the server cannot answer', () => post({ query: '{ __typename }' }, { accept: 'text/html' })],
    ['a token not signed by the server', () => post({ query: '{ __typename }' }, { authorization: 'Bearer nope' })],
    ['a mutation by GET', () => get('mutation { upsertMunicipalities(input: []) { ibgeCode } }')],
    ['a subscription', () => post({ query: 'subscription { __typename }' })],
    ['a GraphQL request without the preflight header by GET', () => fetch(`${api.url}?query=${encodeURIComponent('{ __typename }')}`, { headers: authorized })],
    ['an import of an unknown kind', () => fetch(`${base}/import/nothing`, { method: 'POST', headers: { 'content-type': 'text/csv', ...authorized }, body: 'a;b\n' })],
    ['an import sent as JSON', () => fetch(`${base}/import/municipalities`, { method: 'POST', headers: { 'content-type': 'application/json', ...authorized }, body: BODY })],
    ['an import without a token', () => fetch(`${base}/import/municipalities`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a;b\n' })],
    ['an export without its parameters', () => fetch(`${base}/export/tax-period`, { headers: authorized })],
    ['an export of an unknown producer', () => fetch(`${base}/export/tax-period?producer=987654&year=2026&month=1`, { headers: authorized })],
  ];
  const documented = documentedCodes();
  const answered: Array<[string, number, string | undefined]> = [];
  for (const [what, send] of malformed) {
    const res = await send();
    const body = (await res.json().catch(() => ({}))) as { errors?: Array<{ extensions?: { code?: string } }>; error?: { code?: string } };
    answered.push([what, res.status, body.errors?.[0]?.extensions?.code ?? body.error?.code]);
  }
  const undocumented = answered.filter(([, status, code]) => code === undefined || !documented.get(code)?.includes(String(status)));
  expect(undocumented).toEqual([]);
  expect(new Set(answered.map(([, , code]) => code))).toEqual(new Set(['UNSUPPORTED_MEDIA_TYPE', 'BAD_REQUEST', 'NOT_FOUND', 'METHOD_NOT_ALLOWED', 'REQUEST_HEADER_FIELDS_TOO_LARGE',
    'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'OPERATION_RESOLUTION_FAILURE', 'BAD_USER_INPUT', 'QUERY_TOO_COMPLEX', 'PAYLOAD_TOO_LARGE', 'PERSISTED_QUERY_NOT_FOUND', 'UNAUTHENTICATED']));
});
