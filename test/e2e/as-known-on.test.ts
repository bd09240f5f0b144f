import { knownOn } from '../../src/graphql/context';
import { Role } from '../../src/law/types';
import { contextWithLazyLoaders } from '../../src/server';
import { createServices } from '../../src/services';
import { startTestApi, TestApi } from '../support/api';
import { ownAndOtherProducers } from '../support/fixtures';

/**
 * `asKnownOn` is taken once per request: a field's argument (checked by the Date scalar) or the
 * request's day (today in America/Sao_Paulo, fixed when the request came), never a default of its
 * own in a service. A request made "on" a day reads the law as known that day in every field.
 */

let api: TestApi;
let producer: string;
beforeAll(async () => {
  api = await startTestApi();
  ({ own: producer } = await ownAndOtherProducers(api));
});
afterAll(async () => {
  await api?.close();
});

const admin = { sub: 'test-admin', role: Role.ADMIN, producerId: null, requestId: 'as-known-on' };

/** Runs `query` in a request whose day is `today`, in process (the day cannot be set over HTTP). */
async function on(today: string, query: string, variables: Record<string, unknown> = {}) {
  const contextValue = contextWithLazyLoaders({ actor: admin, requestId: 'as-known-on', services: createServices(api.db.dataSource), today });
  const res = await api.app.apollo.executeOperation({ query, variables }, { contextValue });
  if (res.body.kind !== 'single') throw new Error('expected a single result');
  expect(res.body.singleResult.errors).toBeUndefined();
  return res.body.singleResult.data as Record<string, any>;
}

test('knownOn: the argument when given, else the request\'s day', () => {
  expect(knownOn({ today: '2026-05-20' }, '2025-01-31')).toBe('2025-01-31');
  expect(knownOn({ today: '2026-05-20' }, null)).toBe('2026-05-20');
  expect(knownOn({ today: '2026-05-20' }, undefined)).toBe('2026-05-20');
});

test('every field without asKnownOn answers as known on the request\'s day: root fields, computed fields and their loaders', async () => {
  const query = `query($p: ID!) {
    taxPeriod(producerId: $p, year: 2026, month: 4) { asKnownOn }
    sealCompliance(producerId: $p, year: 2025) { asKnownOn }
    producer(id: $p) {
      a: taxPeriod(year: 2026, month: 4) { asKnownOn }
      b: taxPeriod(year: 2026, month: 4, asKnownOn: "2026-05-21") { asKnownOn }
      sealCompliance(year: 2025) { asKnownOn }
    }
  }`;
  for (const today of ['2026-05-20', '2026-06-01']) {
    const data = await on(today, query, { p: producer });
    expect(data).toEqual({
      taxPeriod: { asKnownOn: today },
      sealCompliance: { asKnownOn: today },
      producer: { a: { asKnownOn: today }, b: { asKnownOn: '2026-05-21' }, sealCompliance: { asKnownOn: today } },
    });
  }
});

test('the law read without asKnownOn is the law known on the request\'s day (the 2026 zero window, extended on 2026-05-31)', async () => {
  const rules = `query($k: Date) { coefficientRules(on: "2026-06-15", asKnownOn: $k) { category coefficient pisPerM3 } }`;
  // Mid-June 2026 as known on 2026-05-20: the window ended on 2026-05-31; known on 2026-06-01: extended to 2026-07-31.
  const before = await on('2026-05-20', rules, { k: null });
  const after = await on('2026-06-01', rules, { k: null });
  expect(before).toEqual(await on('2026-06-01', rules, { k: '2026-05-20' }));
  expect(after).toEqual(await on('2026-05-20', rules, { k: '2026-06-01' }));
  expect(after.coefficientRules.every((r: { pisPerM3: string }) => Number(r.pisPerM3) === 0)).toBe(true);
  expect(before.coefficientRules.some((r: { pisPerM3: string }) => Number(r.pisPerM3) > 0)).toBe(true);
});

test('over HTTP the day is today in Brazil, and an export checks its asKnownOn where it reads it', async () => {
  const { taxPeriod } = await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 4) { asKnownOn } }`, { p: producer });
  const brazil = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' });
  // Either side of a midnight passing during the request.
  expect([brazil.format(Date.now() - 60_000), brazil.format(Date.now())]).toContain(taxPeriod.asKnownOn);

  const base = api.url.replace(/\/graphql$/, '');
  const res = await fetch(`${base}/export/tax-period?producer=${producer}&year=2026&month=4&asKnownOn=2026-02-30`, { headers: { authorization: `Bearer ${await api.token()}` } });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: Record<string, unknown> }).error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'asKnownOn' });
});
