import { startTestApi, TestApi } from '../support/api';
import { createProducer, FEIRA, PORTO_ALEGRE, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { contract, farmer, organization, purchases } from '../support/selo-year';

/**
 * sealPlan (docs/LAW.md): each requirement's shortfall, every lever with the actual spending that
 * closes it alone, and hypothetical items evaluated as if recorded — writing nothing. Factors as
 * shipped (Portaria MDA nº 28/2024: b 1,1 · c 30 · d 4 · e 3 · f 2); the minimum weighted
 * percentage, open in our sources, is a test figure of 50% in this database; requirement 2 of
 * 2026 is 20% (Portaria Interministerial MME/MDA nº 2/2023). Feira de Santana (BA) is Nordeste and
 * Semiárido, Porto Alegre Sul.
 */

let api: TestApi;
let p: string;
let cooperative: string;
const PLAN = `query($p: ID!, $y: Int!, $k: Date, $h: [HypotheticalSpendingInput!]) { sealPlan(producerId: $p, year: $y, asKnownOn: $k, hypothetical: $h) {
  year model
  recorded { countedTotal status minimumShare { shortfall } }
  withHypothetical { countedTotal actualTotal status compliant minimumShare { requiredAmount shortfall compliant } priorityRegion { share compliant } balance { carriedOut { amount toYear } } spending { weighted } }
  hypothetical { index label kind counts region semiarid priorityRegion product organizationShare actual factors { alinea value } weight weighted findings { code } }
  minimumShare { weighted actual met legalBasis } priorityRegion { weighted actual met }
  levers { kind region diversified viaOrganizationUpTo75 factors { alinea } weight closesMinimumShare closesPriorityRegion closesBoth } } }`;
const plan = async (h: unknown[] | null, k = '2026-12-01') => (await api.ok(PLAN, { p, y: 2026, k, h })).sealPlan;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE, FEIRA]);
  await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'minimum-weighted-share', values: [{ name: 'share', value: '0.5' }], validFrom: '2024-01-01', publishedOn: '2025-01-15',
    legalBasis: 'Portaria MDA (test figure), minimum weighted percentage',
  } });
  const f = await farmer(api, [['CAF', '2023-01-01', '2027-12-31']]);
  // A cooperative of Feira de Santana with 70 family farmers among 100 members (habilitated; up to 75%: factor b).
  cooperative = await organization(api, 'COOPERATIVE', 100, 70, [['CAF', '2023-01-01', '2027-12-31']]);
  p = await createProducer(api, 'Usina Planejada S.A.', RECIFE);
  // 2026: R$ 1.000.000 of own biodiesel; R$ 100.000 of soy from Porto Alegre (Sul: × 1).
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId: p, soldOn: '2026-02-01', volumeM3: '200', revenue: '1000000' }] });
  const k = await contract(api, p, { farmer: f, signedOn: '2026-01-02', validFrom: '2026-01-02', validUntil: '2026-12-31' });
  await purchases(api, p, [{ on: '2026-03-01', cost: '100000', farmer: f, contract: k, origin: PORTO_ALEGRE }]);
});
afterAll(async () => { await api.close(); });

test('as recorded: 400.000 weighted short of 500.000; requirement 2 short by 25.000 in the region; each lever alone', async () => {
  const s = await plan(null);
  expect([s.year, s.model, s.recorded.countedTotal, s.recorded.status]).toEqual([2026, 'WEIGHTED', '100000.00', 'NOT_COMPLIANT']);
  // W = 50% × 1.000.000 − 100.000 = 400.000; x = (0,2 × 100.000 − 0) / 0,8 = 25.000.
  expect(s.minimumShare).toEqual({ weighted: '400000.00', actual: null, met: false, legalBasis: 'Portaria MDA (test figure), minimum weighted percentage' });
  expect(s.priorityRegion).toEqual({ weighted: null, actual: '25000.00', met: false });
  expect(s.levers).toHaveLength(13);
  const key = (l: any) => `${l.kind} ${l.region} ${l.diversified} ${l.viaOrganizationUpTo75}`;
  const by = new Map(s.levers.map((l: any) => [key(l), [l.factors.map((x: any) => x.alinea).join(''), l.weight, l.closesMinimumShare, l.closesPriorityRegion, l.closesBoth]]));
  expect(by.get('ACQUISITION PRIORITY_REGION true true')).toEqual(['bdf', '8.8', '45454.55', '25000.00', '45454.55']); // 400.000 / 8,8 ↑
  expect(by.get('ACQUISITION SOUTH false false')).toEqual(['', '1', '400000.00', null, null]);
  expect(by.get('FOMENTO PRIORITY_REGION null null')).toEqual(['c', '30', '13333.34', '25000.00', '25000.00']); // 400.000 / 30 ↑
});

test('"R$ 400 mil of castor from Bahia via the cooperative": 400.000 × 1,1 × 4 × 2 = 3.520.000 weighted — the year complies', async () => {
  const before = await api.count('SELECT count(*) FROM purchase');
  const s = await plan([{ kind: 'FAMILY_FARMING_ACQUISITION', amount: '400000', on: '2026-06-01', municipalityCode: FEIRA, product: 'CASTOR_BEAN', organizationId: cooperative, label: 'Mamona via cooperativa' }]);
  expect(s.hypothetical).toEqual([{
    index: 0, label: 'Mamona via cooperativa', kind: 'FAMILY_FARMING_ACQUISITION', counts: true, region: 'NORTHEAST', semiarid: true, priorityRegion: true,
    product: 'CASTOR_BEAN', organizationShare: '0.7', actual: '400000.00', factors: [{ alinea: 'b', value: '1.1' }, { alinea: 'd', value: '4' }, { alinea: 'f', value: '2' }],
    weight: '8.8', weighted: '3520000.00', findings: [],
  }]);
  // 100.000 + 3.520.000 = 3.620.000 ≥ 500.000; priority 400.000 / 500.000 = 0,8 ≥ 0,2.
  const w = s.withHypothetical;
  expect([w.countedTotal, w.actualTotal, w.minimumShare.shortfall, w.minimumShare.compliant, w.priorityRegion.share, w.priorityRegion.compliant, w.status, w.compliant])
    .toEqual(['3620000.00', '500000.00', '0.00', true, '0.8', true, 'COMPLIANT', true]);
  // 2026 carries no balance (only 2024 is seeded as carrying): none shown.
  expect(w.balance.carriedOut).toBeNull();
  expect([s.minimumShare.weighted, s.minimumShare.met, s.priorityRegion.actual, s.priorityRegion.met]).toEqual(['0.00', true, '0.00', true]);
  expect(s.levers.every((l: any) => l.closesMinimumShare === '0.00')).toBe(true);
  // The recorded year is unchanged, and nothing was written.
  expect(s.recorded.countedTotal).toBe('100000.00');
  expect(await api.count('SELECT count(*) FROM purchase')).toBe(before);
  expect((await api.ok(`query($p: ID!) { sealCompliance(producerId: $p, year: 2026, asKnownOn: "2026-12-01") { countedTotal } }`, { p })).sealCompliance.countedTotal).toBe('100000.00');
});

test('the balance a plan leaves (art. 58): in 2024, whose balance carries, R$ 1.000 of fomento in Feira would leave 30.000 to the year after its communication', async () => {
  // No sales in 2024: a zero base requires nothing; 1.000 × 30 = 30.000 weighted, all of it a surplus.
  const s = (await api.ok(PLAN, { p, y: 2024, k: '2026-12-01', h: [{ kind: 'FOMENTO', amount: '1000', on: '2024-05-01', municipalityCode: FEIRA }] })).sealPlan;
  expect(s.withHypothetical.balance.carriedOut).toEqual({ amount: '30000.00', toYear: null }); // not communicated yet
  expect(s.recorded.countedTotal).toBe('0.00');
});

test('hypothetical items the law would exclude are shown with their reasons; fomento in the Sul does not count', async () => {
  const s = await plan([
    { kind: 'FOMENTO', amount: '1000', on: '2026-05-01', municipalityCode: PORTO_ALEGRE },
    { kind: 'FOMENTO', amount: '1000', on: '2026-05-01', municipalityCode: FEIRA }, // × 30 (c)
    { kind: 'OTHER_PRODUCT', amount: '500', on: '2026-05-02', municipalityCode: PORTO_ALEGRE, product: 'OTHER' },
  ]);
  expect(s.hypothetical.map((h: any) => [h.counts, h.weighted, h.findings.map((f: any) => f.code)])).toEqual([
    [false, null, ['OUTSIDE_PRIORITY_REGION']], [true, '30000.00', []], [false, null, ['OUTSIDE_PRIORITY_REGION']],
  ]);
  // 400.000 − 30.000 = 370.000 short; requirement 2: (0,2 × 101.000 − 1.000) / 0,8 = 24.000.
  expect([s.minimumShare.weighted, s.priorityRegion.actual]).toEqual(['370000.00', '24000.00']);
});

test('bad input is the caller\'s error, naming the item\'s field; nothing computed', async () => {
  const bad = async (h: Record<string, unknown>) => (await api.gql(PLAN, { p, y: 2026, k: '2026-12-01', h: [{ kind: 'FAMILY_FARMING_ACQUISITION', amount: '1', on: '2026-05-01', municipalityCode: FEIRA, product: 'SOYBEAN', ...h }] })).errors?.[0].extensions;
  expect(await bad({ on: '2025-12-31' })).toMatchObject({ code: 'BAD_USER_INPUT', field: 'hypothetical[0].on' });
  expect(await bad({ amount: '0' })).toMatchObject({ code: 'BAD_USER_INPUT', field: 'hypothetical[0].amount' });
  expect(await bad({ municipalityCode: '9999999' })).toMatchObject({ code: 'BAD_USER_INPUT', field: 'hypothetical[0].municipalityCode' });
  expect(await bad({ product: null })).toMatchObject({ code: 'BAD_USER_INPUT', field: 'hypothetical[0].product' });
  expect(await bad({ organizationId: '999999' })).toMatchObject({ code: 'BAD_USER_INPUT', field: 'hypothetical[0].organizationId' });
});

test('access: a PRODUCER plans its own year; another producer is NOT_FOUND', async () => {
  const own = await api.ok(PLAN, { p, y: 2026, k: '2026-12-01', h: null }, { role: 'PRODUCER', producerId: p });
  expect(own.sealPlan.minimumShare.weighted).toBe('400000.00');
  const other = await createProducer(api, 'Outra Usina S.A.', PORTO_ALEGRE);
  const res = await api.gql(PLAN, { p, y: 2026, k: '2026-12-01', h: null }, { role: 'PRODUCER', producerId: other });
  expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
});
