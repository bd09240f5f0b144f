import { startTestApi, TestApi } from '../support/api';
import { createProducer, PORTO_ALEGRE, RECIFE, upsertMunicipalities } from '../support/fixtures';
import { contract, farmer, purchases } from '../support/selo-year';

/**
 * Balances of the Selo's evaluation (Portaria MDA nº 28/2024, art. 58; docs/LAW.md): the
 * evaluation of 2024, recorded as communicated on 2025-04-10, leaves its weighted balance to 2026
 * (the year after the communication); a deficit must be made up by 2026-12-31. The minimum
 * weighted percentage is open in our sources: this database publishes a test figure of 50%, so
 * that balances exist. Factors as shipped: castor from Recife (Nordeste) × 4 × 2 = 8; soy from
 * Porto Alegre (Sul) × 1.
 */

let api: TestApi;
let farmerId: string;
const Q = `query($p: ID!, $y: Int!, $k: Date) { sealCompliance(producerId: $p, year: $y, asKnownOn: $k) {
  countedTotal shortfall minimumShareMet
  minimumShare { requiredShare requiredAmount balanceIn shortfall compliant }
  balance { broughtIn { fromYear communicatedOn amount deadline legalBasis } carriedOut { amount communicatedOn toYear legalBasis } legalBasis }
  findings { code message } } }`;
const RECORD = `mutation($i: RecordSealEvaluationInput!) { recordSealEvaluation(input: $i) { id producerId year communicatedOn note } }`;
const compliance = async (p: string, y: number, k = '2026-12-01') => (await api.ok(Q, { p, y, k })).sealCompliance;

/** A producer selling R$ 1.000.000 of own biodiesel in each of 2024 and 2026, spending `castor2024` on castor from Recife in 2024 and R$ 100.000 on soy from Porto Alegre in 2026. */
async function producerWith(castor2024: string): Promise<string> {
  const p = await createProducer(api, `Usina ${castor2024}`, RECIFE);
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [
    { producerId: p, soldOn: '2024-02-01', volumeM3: '200', revenue: '1000000' },
    { producerId: p, soldOn: '2026-02-01', volumeM3: '200', revenue: '1000000' },
  ] });
  const k24 = await contract(api, p, { farmer: farmerId, signedOn: '2024-01-02', validFrom: '2024-01-02', validUntil: '2024-12-31', feedstock: 'CASTOR_BEAN' });
  const k26 = await contract(api, p, { farmer: farmerId, signedOn: '2026-01-02', validFrom: '2026-01-02', validUntil: '2026-12-31' });
  await purchases(api, p, [
    { on: '2024-03-01', cost: castor2024, farmer: farmerId, contract: k24, feedstock: 'CASTOR_BEAN' },
    { on: '2026-03-01', cost: '100000', farmer: farmerId, contract: k26, origin: PORTO_ALEGRE },
  ]);
  return p;
}

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE]);
  farmerId = await farmer(api, [['CAF', '2023-01-01', '2027-12-31']]);
  await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'minimum-weighted-share', values: [{ name: 'share', value: '0.5' }], validFrom: '2024-01-01', publishedOn: '2025-01-15',
    legalBasis: 'Portaria MDA (test figure), minimum weighted percentage',
  } });
});
afterAll(async () => { await api.close(); });

test('recordSealEvaluation: ADMIN only, after the year ends, once per year; audited', async () => {
  const p = await producerWith('1000');
  const input = { producerId: p, year: 2024, communicatedOn: '2025-04-10', note: 'Ofício MDA (test)' };
  const refused = await api.gql(RECORD, { i: input }, { role: 'PRODUCER', producerId: p });
  expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  const early = await api.gql(RECORD, { i: { ...input, communicatedOn: '2024-12-31' } });
  expect(early.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.communicatedOn' });
  const missing = await api.gql(RECORD, { i: { ...input, producerId: '999999' } });
  expect(missing.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  expect(await api.count(`SELECT count(*) FROM seal_evaluation WHERE producer_id = ${p}`)).toBe(0);
  const saved = (await api.ok(RECORD, { i: input })).recordSealEvaluation;
  expect(saved).toMatchObject({ producerId: p, year: 2024, communicatedOn: '2025-04-10', note: 'Ofício MDA (test)' });
  const twice = await api.gql(RECORD, { i: { ...input, communicatedOn: '2025-05-01' } });
  expect(twice.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', field: 'input.year' });
  expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'recordSealEvaluation' AND entity_id = '${saved.id}'`)).toBe(1);
});

test('a surplus: 2024 leaves 800.000 − 500.000 = 300.000 to 2026, which then needs 100.000 more instead of 400.000', async () => {
  const p = await producerWith('100000'); // 100.000 × 8 = 800.000 weighted in 2024
  const before = await compliance(p, 2024);
  // Not yet communicated: the balance is known, not where it goes.
  expect(before.balance.carriedOut).toEqual({ amount: '300000.00', communicatedOn: null, toYear: null, legalBasis: 'Portaria MDA nº 28/2024, art. 58 (DOU 28/06/2024, Seção 1, p. 41)' });
  await api.ok(RECORD, { i: { producerId: p, year: 2024, communicatedOn: '2025-04-10' } });
  const y2024 = await compliance(p, 2024);
  expect(y2024.balance.carriedOut).toMatchObject({ amount: '300000.00', communicatedOn: '2025-04-10', toYear: 2026 });
  expect(y2024.balance.legalBasis).toBe('Portaria MDA nº 28/2024, art. 58');

  // 2026: 100.000 of soy from the Sul (× 1) + 300.000 brought in = 400.000 of the 500.000 required: 100.000 short.
  const y2026 = await compliance(p, 2026);
  expect(y2026.balance.broughtIn).toEqual([{ fromYear: 2024, communicatedOn: '2025-04-10', amount: '300000.00', deadline: '2026-12-31', legalBasis: 'Portaria MDA nº 28/2024, art. 58 (DOU 28/06/2024, Seção 1, p. 41)' }]);
  expect(y2026.minimumShare).toEqual({ requiredShare: '0.5', requiredAmount: '500000.00', balanceIn: '300000.00', shortfall: '100000.00', compliant: false });
  expect([y2026.countedTotal, y2026.shortfall, y2026.minimumShareMet]).toEqual(['100000.00', '100000.00', false]);
  // (All of 2026's actual spending is in the Sul: requirement 2 fails too.)
  expect(y2026.findings.map((f: { code: string }) => f.code)).toEqual(['MINIMUM_SHARE_NOT_REACHED', 'PRIORITY_REGION_SHARE_NOT_REACHED', 'BALANCE_BROUGHT_IN']);
  expect(y2026.findings[2].message).toContain('surplus of R$ 300000.00');
  // 2026 as known the day before the communication: nothing brought in, 400.000 short.
  const unknown = await compliance(p, 2026, '2025-04-09');
  expect([unknown.balance.broughtIn, unknown.minimumShare.balanceIn, unknown.minimumShare.shortfall]).toEqual([[], '0.00', '400000.00']);
  // 2025 gets nothing: the 2024 result was communicated in 2025, so it counts toward 2026; 2025's own balance does not carry (law data).
  const y2025 = await compliance(p, 2025);
  expect([y2025.balance.broughtIn, y2025.balance.carriedOut]).toEqual([[], null]);
});

test('a deficit: 2024 leaves 200.000 − 500.000 = −300.000, to make up by 2026-12-31 on top of 2026\'s minimum', async () => {
  const p = await producerWith('25000'); // 25.000 × 8 = 200.000 weighted in 2024
  await api.ok(RECORD, { i: { producerId: p, year: 2024, communicatedOn: '2025-02-20' } });
  const y2026 = await compliance(p, 2026);
  // 100.000 − 300.000 = −200.000 toward 500.000: 700.000 short.
  expect(y2026.minimumShare).toEqual({ requiredShare: '0.5', requiredAmount: '500000.00', balanceIn: '-300000.00', shortfall: '700000.00', compliant: false });
  expect(y2026.findings[2].message).toMatch(/deficit of R\$ 300000\.00 \(weighted\), to be made up by 2026-12-31/);
});
