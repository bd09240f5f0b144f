import http from 'node:http';
import { AddressInfo } from 'node:net';
import express from 'express';
import fc from 'fast-check';
import pino from 'pino';
import { hs256 } from '../../src/graphql/auth/token';
import { mountImport } from '../../src/http/import';
import { ImportSlots } from '../../src/http/import-slots';
import { UPLOAD_LIMITS } from '../../src/http/upload';
import { ReadLimits } from '../../src/import/sources';
import { startTestApi, TEST_SECRET, TestApi } from '../support/api';
import { buildCase, caseSpec, FORMS, FuzzTarget, KINDS, MUTATIONS } from '../support/file-fuzz';
import { createProducer, FEIRA, PORTO_ALEGRE, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { heldByImports, writtenRows } from '../support/hostile-files';
import { checkProperty } from '../support/property';

/**
 * The file fuzzer (docs/RELIABILITY.md): for every import kind and upload form, mutations of valid
 * files are each answered — 2xx, or 4xx with a code — leave no import slot, pooled connection,
 * transaction, COPY or lock held, and write nothing when refused. The import route is mounted with
 * read limits a hundred times smaller than the API's, so that the bombs stay cheap to make and
 * every limit is reached. Seeded: a failure prints the seed and the case.
 */
const SEED = 2812;
const RUNS = 300;
const LIMITS: ReadLimits = { lineBytes: 64 << 10, inflatedBytes: 2 << 20, sharedStringsBytes: 512 << 10, entries: 100, textRunBytes: 64 << 10, rows: 2_000, cellsPerRow: 256, cells: 50_000 };
/** A request not answered in this is a hang (the route's own read deadline is 10 s). */
const HANG_MS = 25_000;

let api: TestApi;
let server: http.Server;
let base: string;
let slots: ImportSlots;
let target: FuzzTarget;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE, FEIRA]);
  const producerId = await createProducer(api, 'Usina Fuzz');
  target = { producerId, bombBytes: 4 << 20, bombRows: 3_000, lineBytes: LIMITS.lineBytes };
  const app = express();
  slots = mountImport(app, {
    dataSource: api.db.dataSource, verifier: hs256(TEST_SECRET), logger: pino({ level: 'silent' }),
    upload: { ...UPLOAD_LIMITS, maxBytes: 8 << 20 }, limits: LIMITS, readTimeoutMs: 10_000,
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await api?.close();
});

it(`answers ${RUNS} mutated files of every kind and form, holding nothing after each and writing nothing when refused (seed ${SEED})`, async () => {
  const seen = { answered: 0, accepted: 0, kinds: new Set<string>(), forms: new Set<string>(), mutations: new Set<string>() };
  await checkProperty(fc.asyncProperty(caseSpec, async (spec) => {
    const c = await buildCase(spec, target);
    const t0 = Date.now();
    const before = await writtenRows(api.db.dataSource);
    const token = await api.token(c.producer ? { role: 'PRODUCER', producerId: target.producerId, sub: 'fuzz' } : { role: 'ADMIN', sub: 'fuzz' });
    const res = await fetch(`${base}${c.path}`, {
      method: 'POST', headers: { 'content-type': c.contentType, authorization: `Bearer ${token}` }, body: c.body, signal: AbortSignal.timeout(HANG_MS),
    });
    const body = (await res.json()) as { import?: unknown; error?: { code?: unknown } };
    const where = `${Date.now() - t0} ms ${c.kind} ${c.form} ${c.mutation}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`;
    if (res.status >= 200 && res.status < 300) {
      if (!body.import) throw new Error(`2xx without a summary, ${where}`);
      seen.accepted++;
    } else if (!(res.status >= 400 && res.status < 500 && res.status !== 429) || typeof body.error?.code !== 'string') {
      throw new Error(`not a 2xx nor a 4xx with a code, ${where}`);
    }
    seen.answered++;
    if (process.env.FUZZ_DEBUG) process.stderr.write(`${where.slice(0, 200)}\n`);
    seen.kinds.add(c.kind);
    seen.forms.add(c.form);
    seen.mutations.add(c.mutation);
    if (slots.inUse.total !== 0) throw new Error(`an import slot is still taken, ${where}`);
    const held = await heldByImports(api.db.dataSource);
    if (held.checkedOut || held.waiting || held.busy || held.locks) throw new Error(`${JSON.stringify(held)} held, ${where}`);
    if (res.status >= 400) expect(await writtenRows(api.db.dataSource)).toEqual(before);
  }), { seed: SEED, numRuns: RUNS, endOnFailure: true });
  expect(seen.answered).toBe(RUNS);
  // The run reached every kind, form and mutation, and some files were imported.
  expect([seen.kinds.size, seen.forms.size, seen.mutations.size]).toEqual([KINDS.length, FORMS.length, MUTATIONS.length]);
  expect(seen.accepted).toBeGreaterThan(0);
}, 240_000);
