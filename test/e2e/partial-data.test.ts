import { startTestApi, TestApi } from '../support/api';
import { createProducer, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * Producer.taxPeriod and Producer.sealCompliance are nullable: a month or year that cannot be
 * computed is null with its error (path and code), and everything asked beside it is kept.
 */
let api: TestApi;
let producers: string[];

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  producers = [await createProducer(api, 'Usina Parcial A'), await createProducer(api, 'Usina Parcial B')];
  // The special regime from 2012 (Lei 11.116/2005, art. 4º §1º): a month before Decreto 7.768/2012
  // (2012-06-28) has no coefficient rule in force, so it cannot be computed.
  for (const producerId of producers) {
    await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId, regime: 'SPECIAL_PER_M3', electedOn: '2011-11-03' } });
  }
});
afterAll(() => api.close());

test('December 2026 beside May 2012 (no coefficient rule yet): the month with a rule is kept, the other is null with NO_RULE_IN_FORCE at its path', async () => {
  const res = await api.gql(
    `query($id: ID!) { producer(id: $id) { legalName
        dec: taxPeriod(year: 2026, month: 12) { year month regime totalDue }
        may: taxPeriod(year: 2012, month: 5) { year month totalDue }
        jan: taxPeriod(year: 2027, month: 1) { year month totalDue fuelTaxes { status due } } } }`,
    { id: producers[0] },
  );
  expect(res.status).toBe(200);
  // January 2027 is data (no PIS/Cofins; nothing sold, so the CBS is 0 m³ × its rate, not yet published = 0,00), never an error.
  expect(res.data!.producer).toEqual({
    legalName: 'Usina Parcial A', dec: { year: 2026, month: 12, regime: 'SPECIAL_PER_M3', totalDue: '0.00' }, may: null,
    jan: { year: 2027, month: 1, totalDue: '0.00', fuelTaxes: [{ status: 'COMPUTED', due: '0.00' }] },
  });
  expect(res.errors).toHaveLength(1);
  expect(res.errors![0]).toMatchObject({ path: ['producer', 'may'], extensions: { code: 'NO_RULE_IN_FORCE' } });
  expect(res.errors![0].message).toContain('2012-05-01');
});

test("a list of producers' months and years: every producer kept, each failing field null with its own path", async () => {
  const res = await api.gql(`query { producers(first: 10) { edges { node { id legalName
      ok: taxPeriod(year: 2026, month: 11) { month totalDue }
      early: taxPeriod(year: 2012, month: 2) { month totalDue }
      year: sealCompliance(year: 2026) { year }
      badYear: sealCompliance(year: 1999) { year } } } } }`);
  expect(res.status).toBe(200);
  const nodes = res.data!.producers.edges.map((e: any) => e.node);
  expect(nodes.map((n: any) => n.id)).toEqual(producers);
  for (const n of nodes) {
    expect(n.ok).toEqual({ month: 11, totalDue: '0.00' });
    expect(n.early).toBeNull();
    expect(n.year).toEqual({ year: 2026 });
    expect(n.badYear).toBeNull();
  }
  const byPath = new Map(res.errors!.map((e) => [JSON.stringify(e.path), e.extensions!.code]));
  expect(Object.fromEntries(byPath)).toEqual({
    '["producers","edges",0,"node","early"]': 'NO_RULE_IN_FORCE',
    '["producers","edges",1,"node","early"]': 'NO_RULE_IN_FORCE',
    '["producers","edges",0,"node","badYear"]': 'BAD_USER_INPUT',
    '["producers","edges",1,"node","badYear"]': 'BAD_USER_INPUT',
  });
});
