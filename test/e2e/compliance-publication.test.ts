import { cpf as cpfLib } from 'cpf-cnpj-validator';
import { startTestApi, TestApi } from '../support/api';

/**
 * The same year as known before and after an ADMIN publishes the minimum weighted percentage
 * (docs/LAW.md; Portaria MDA nº 28/2024, p. 39: open, shipped with no value) and a weighting
 * factor (p. 40). The publications go through the API (publishLawParameter) with test figures,
 * named as such. Its own database: the publications change the law for it.
 */

let api: TestApi;
let producerId: string;
const RECIFE = '2611606';

const COMPLIANCE = `query($p: ID!, $k: Date) { sealCompliance(producerId: $p, year: 2025, asKnownOn: $k) {
  asKnownOn base countedTotal achievedShare requiredShare requiredShareLegalBasis shortfall minimumShareMet compliant status
  minimumShare { requiredShare legalBasis achievedShare requiredAmount shortfall compliant } findings { code } } }`;
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

test('the minimum weighted percentage: not published (requiredShare null, compliant null), then published by an ADMIN (a test figure of 150%)', async () => {
  const before = (await api.ok(COMPLIANCE, { p: producerId, k: '2026-05-31' })).sealCompliance;
  // Weighted: soy from Recife (d × 4): 35.000 × 4 = 140.000; 140.000 / 100.000 = 1,4.
  expect([before.countedTotal, before.achievedShare]).toEqual(['140000.00', '1.4']);
  expect(before.minimumShare).toEqual({
    requiredShare: null, legalBasis: 'Portaria MDA nº 28/2024 (DOU 28/06/2024, Seção 1, p. 39)', achievedShare: '1.4', requiredAmount: null, shortfall: null, compliant: null,
  });
  expect([before.status, before.compliant, before.findings.map((f: { code: string }) => f.code)]).toEqual(['NOT_ESTABLISHED', null, ['MINIMUM_NOT_PUBLISHED']]);

  // A PRODUCER cannot publish law (FORBIDDEN), and nothing is written.
  const versions = await api.count(`SELECT count(*) FROM law_parameter_version`);
  const input = {
    parameter: 'minimum-weighted-share', scope: null, values: [{ name: 'share', value: '1.5' }], validFrom: '2024-01-01', validUntil: null,
    publishedOn: '2026-06-01', legalBasis: 'Portaria MDA (test figure) setting the minimum weighted percentage, art. 1º',
  };
  const refused = await api.gql(PUBLISH, { i: input }, { role: 'PRODUCER', producerId });
  expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  expect(await api.count(`SELECT count(*) FROM law_parameter_version`)).toBe(versions);
  // A fraction above 1 is refused: the share is a fraction of the base (BAD_USER_INPUT), nothing written.
  const tooHigh = await api.gql(PUBLISH, { i: input });
  expect(tooHigh.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.values[0].value' });
  expect(await api.count(`SELECT count(*) FROM law_parameter_version`)).toBe(versions);
  // An open version (no value) is accepted for this parameter, like the shipped one.
  await api.ok(PUBLISH, { i: { ...input, values: [], publishedOn: '2026-05-01', legalBasis: 'Portaria MDA nº 28/2024, p. 39 (still open)' } });

  await api.ok(PUBLISH, { i: { ...input, values: [{ name: 'share', value: '0.9' }], legalBasis: 'Portaria MDA (test figure) setting the minimum weighted percentage at 90%, art. 1º' } });
  // The year as known the day before the publication is unchanged (docs/LAW.md: versions are known from publishedOn).
  const stillBefore = (await api.ok(COMPLIANCE, { p: producerId, k: '2026-05-31' })).sealCompliance;
  expect([stillBefore.minimumShare.requiredShare, stillBefore.minimumShare.compliant, stillBefore.status]).toEqual([null, null, 'NOT_ESTABLISHED']);
  // As known on the publication date: 90% × 100.000 = 90.000 required, 140.000 weighted → met.
  const after = (await api.ok(COMPLIANCE, { p: producerId, k: '2026-06-01' })).sealCompliance;
  expect([after.requiredShare, after.shortfall, after.minimumShareMet, after.compliant, after.status]).toEqual(['0.9', '0.00', true, true, 'COMPLIANT']);
  expect(after.minimumShare).toMatchObject({ requiredShare: '0.9', requiredAmount: '90000.00', shortfall: '0.00', compliant: true });
  expect(after.requiredShareLegalBasis).toBe('Portaria MDA (test figure) setting the minimum weighted percentage at 90%, art. 1º');
  // The default asKnownOn is today, after the publication.
  const today = (await api.ok(COMPLIANCE, { p: producerId, k: null })).sealCompliance;
  expect([today.requiredShare, today.compliant]).toEqual(['0.9', true]);
});

test('Portaria MDA nº 28/2024, p. 40: each item times the factors in force on its date — factor c raised to 40 (a test figure) for the second half of 2025', async () => {
  // R$ 1.000 of fomento in Recife on 2025-06-30 and R$ 1.000 on 2025-07-01.
  await api.ok(`mutation($i: [RecordFomentoInput!]!) { recordFomento(input: $i) { id } }`, {
    i: [
      { producerId, spentOn: '2025-06-30', kind: 'DONATION', amount: '1000', municipalityCode: RECIFE },
      { producerId, spentOn: '2025-07-01', kind: 'INVESTMENT', amount: '1000', municipalityCode: RECIFE },
    ],
  });
  const Q = `query($p: ID!, $k: Date) { sealCompliance(producerId: $p, year: 2025, asKnownOn: $k) { fomento countedTotal } }`;
  // Before the publication: 35.000 × 4 + 1.000 × 30 + 1.000 × 30 = 200.000.
  expect((await api.ok(Q, { p: producerId, k: '2026-06-01' })).sealCompliance).toEqual({ fomento: '2000.00', countedTotal: '200000.00' });
  await api.ok(PUBLISH, { i: {
    parameter: 'selo-weighting-factor', scope: 'FOMENTO_PRIORITY_REGION', values: [{ name: 'factor', value: '40' }], validFrom: '2025-07-01', validUntil: null,
    publishedOn: '2026-06-02', legalBasis: 'Portaria MDA (test figure) weighting fomento from 2025-07-01',
  } });
  // After it: 140.000 + 1.000 × 30 + 1.000 × 40 = 210.000; the fomento spent stays R$ 2.000.
  expect((await api.ok(Q, { p: producerId, k: '2026-06-02' })).sealCompliance).toEqual({ fomento: '2000.00', countedTotal: '210000.00' });
  expect((await api.ok(Q, { p: producerId, k: '2026-06-01' })).sealCompliance).toEqual({ fomento: '2000.00', countedTotal: '200000.00' });
});
