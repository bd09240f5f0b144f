import { cpf as cpfLib } from 'cpf-cnpj-validator';
import { startTestApi, TestApi } from '../support/api';

/**
 * The same year as known before and after an ADMIN publishes a new minimum share (DESIGN §1.4;
 * Decreto 10.527/2020, art. 3º §3º I; Portaria MDA 28/2024 lets the Ministry set the values). The
 * publication goes through the API (publishLawParameter); the shipped Nordeste share is 30%
 * (Portaria MAPA 144/2019, secondary). Its own database: the publication changes the law for it.
 */

let api: TestApi;
let producerId: string;
const RECIFE = '2611606';

const COMPLIANCE = `query($p: ID!, $k: Date) { sealCompliance(producerId: $p, year: 2025, asKnownOn: $k) {
  asKnownOn base countedTotal achievedShare requiredShare requiredShareLegalBasis shortfall minimumShareMet compliant } }`;
const PUBLISH = `mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`;

beforeAll(async () => {
  api = await startTestApi();
  await api.ok(`mutation { upsertMunicipalities(input: [{ ibgeCode: "${RECIFE}", name: "Recife", semiarid: false }]) { ibgeCode } }`);
  producerId = (await api.ok(`mutation { createProducer(input: { cnpj: "11222333000181", legalName: "Usina Recife S.A.", plantMunicipalityCode: "${RECIFE}" }) { id } }`)).createProducer.id;
  const farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, {
    i: { cpf: cpfLib.generate(), name: 'Agricultor', municipalityCode: RECIFE, registrations: [{ kind: 'CAF', number: 'CAF-1', validFrom: '2024-01-01', validUntil: '2027-12-31' }] },
  })).createFamilyFarmer;
  const contract = (await api.ok(`mutation($i: CreateContractInput!) { createContract(input: $i) { id } }`, {
    i: { producerId, familyFarmerId: farmer.id, signedOn: '2025-01-02', validFrom: '2025-01-02', validUntil: '2025-12-31', feedstock: 'SOYBEAN', quantityKg: '50000', pricePerKg: '2.5', technicalAssistance: true },
  })).createContract.id;
  // Base R$ 100.000; counted (a) R$ 35.000 from Recife.
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [{ producerId, soldOn: '2025-05-01', volumeM3: '20', revenue: '100000' }] });
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, {
    i: [{ producerId, purchasedOn: '2025-04-01', feedstock: 'SOYBEAN', quantityKg: '14000', cost: '35000', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer.id, originMunicipalityCode: RECIFE, contractId: contract }],
  });
});
afterAll(async () => { await api.close(); });

test('as known before the publication the Nordeste minimum is 30% (compliant); from its publication on, 40% (R$ 5.000 short)', async () => {
  const before = (await api.ok(COMPLIANCE, { p: producerId, k: '2026-05-31' })).sealCompliance;
  // 35.000 / 100.000 = 0,35 ≥ 0,30.
  expect([before.achievedShare, before.requiredShare, before.shortfall, before.compliant]).toEqual(['0.35', '0.3', '0', true]);

  // A PRODUCER cannot publish law (FORBIDDEN), and nothing is written.
  const versions = await api.count(`SELECT count(*) FROM law_parameter_version`);
  const input = {
    parameter: 'minimum-spending-share', scope: 'NORTHEAST', values: [{ name: 'share', value: '0.40' }], validFrom: '2025-01-01', validUntil: null,
    publishedOn: '2026-06-01', legalBasis: 'Portaria MDA (test) confirming the Nordeste share for 2025, art. 1º',
  };
  const refused = await api.gql(PUBLISH, { i: input }, { role: 'PRODUCER', producerId });
  expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  expect(await api.count(`SELECT count(*) FROM law_parameter_version`)).toBe(versions);

  await api.ok(PUBLISH, { i: input });

  // The year as known the day before the publication is unchanged (DESIGN §1.4: versions are known from publishedOn).
  const stillBefore = (await api.ok(COMPLIANCE, { p: producerId, k: '2026-05-31' })).sealCompliance;
  expect([stillBefore.requiredShare, stillBefore.compliant]).toEqual(['0.3', true]);
  // As known on the publication date: 40% × 100.000 = 40.000 required, 35.000 counted → R$ 5.000 short.
  const after = (await api.ok(COMPLIANCE, { p: producerId, k: '2026-06-01' })).sealCompliance;
  expect([after.requiredShare, after.shortfall, after.minimumShareMet, after.compliant]).toEqual(['0.4', '5000', false, false]);
  expect(after.requiredShareLegalBasis).toBe('Portaria MDA (test) confirming the Nordeste share for 2025, art. 1º');
  // The default asKnownOn is today, after the publication.
  const today = (await api.ok(COMPLIANCE, { p: producerId, k: null })).sealCompliance;
  expect([today.requiredShare, today.compliant]).toEqual(['0.4', false]);
});

test('art. 3º §2º I: each item times the weighting factor in force on its date — a fomento factor of 2 published for the second half of 2025', async () => {
  // R$ 1.000 of fomento in Recife on 2025-06-30 and R$ 1.000 on 2025-07-01.
  await api.ok(`mutation($i: [RecordFomentoInput!]!) { recordFomento(input: $i) { id } }`, {
    i: [
      { producerId, spentOn: '2025-06-30', kind: 'DONATION', amount: '1000', municipalityCode: RECIFE },
      { producerId, spentOn: '2025-07-01', kind: 'INVESTMENT', amount: '1000', municipalityCode: RECIFE },
    ],
  });
  const Q = `query($p: ID!, $k: Date) { sealCompliance(producerId: $p, year: 2025, asKnownOn: $k) { fomento countedTotal } }`;
  // Before the publication: factors 1 → 35.000 + 1.000 + 1.000 = 37.000.
  expect((await api.ok(Q, { p: producerId, k: '2026-06-01' })).sealCompliance).toEqual({ fomento: '2000', countedTotal: '37000' });
  await api.ok(PUBLISH, { i: {
    parameter: 'weighting-factor', scope: 'FOMENTO', values: [{ name: 'factor', value: '2' }], validFrom: '2025-07-01', validUntil: null,
    publishedOn: '2026-06-02', legalBasis: 'Portaria MDA (test) weighting fomento from 2025-07-01',
  } });
  // After it: 35.000 + 1.000 × 1 + 1.000 × 2 = 38.000; the fomento spent stays R$ 2.000.
  expect((await api.ok(Q, { p: producerId, k: '2026-06-02' })).sealCompliance).toEqual({ fomento: '2000', countedTotal: '38000' });
  expect((await api.ok(Q, { p: producerId, k: '2026-06-01' })).sealCompliance).toEqual({ fomento: '2000', countedTotal: '37000' });
});
