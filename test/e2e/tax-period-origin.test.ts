import { Decimal } from '../../src/law/decimal';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, grantSeal, newCnpj, newCpf, PORTO_ALEGRE, RECIFE, upsertMunicipalities, publishMemberMinimum } from '../support/fixtures';

/**
 * Family-farming origin as the month's SQL aggregate judges it (Decreto 10.527/2020, art. 6º §2º;
 * Lei 11.116/2005, art. 5º §3º; docs/LAW.md): a family farmer holding a DAP or CAF valid on the
 * PURCHASE date (art. 2º IV; both ends inclusive), or a COOPERATIVE holding a DAP/CAF jurídica
 * valid on that date with family-farmer members at or above the minimum share in force then
 * (art. 4º VI–VII; shipped 0,6). Associations count for the Selo but not for categories II/III
 * (Interpretation; docs/LAW.md). A DAP issued after 2022-10-31 is kept and counts by its dates
 * (docs/LAW.md). Amounts: FAMILY_FARMING_PRIORITY_REGION 0 / 0 (art. 6º §1º III),
 * FAMILY_FARMING 10,39 / 47,85 (§1º II), GENERAL 26,41 / 121,59 (art. 5º §1º).
 */

const D = (v: string | number) => new Decimal(v);

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await publishMemberMinimum(api); // 60/100 vs 59/100 judged against a published 0,6 (none is shipped)
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE]);
});
afterAll(async () => { await api.close(); });

const farmer = async (n: string, kind: string, validFrom: string, validUntil: string) => (await api.ok(
  `mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`,
  { i: { cpf: newCpf(), name: `Agricultor ${n}`, municipalityCode: PORTO_ALEGRE, registrations: [{ kind, number: n, validFrom, validUntil }] } },
)).createFamilyFarmer.id as string;
const org = async (n: string, kind: string, members: number, familyFarmerMembers: number, validUntil = '2027-12-31') => (await api.ok(
  `mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }`,
  { i: { cnpj: newCnpj(), name: `${kind} ${n}`, kind, municipalityCode: RECIFE, members, familyFarmerMembers, registrations: [{ kind: 'CAF', number: n, validFrom: '2024-01-01', validUntil }] } },
)).createOrganization.id as string;

test('each lot judged on its purchase date: members 60/100 vs 59/100, registrations on their first and last days, an association, a late DAP, a lot consumed after its CAF lapsed', async () => {
  const coop60 = await org('CAF-J60', 'COOPERATIVE', 100, 60); //          0,60 ≥ 0,6: habilitated → art. 6º III (Recife)
  const coop59 = await org('CAF-J59', 'COOPERATIVE', 100, 59); //          0,59 < 0,6: not → GENERAL
  const association = await org('CAF-JA', 'ASSOCIATION', 100, 100); //   associations: not II/III → GENERAL
  const coopExpired = await org('CAF-JX', 'COOPERATIVE', 100, 90, '2026-03-09'); // CAF jurídica ended the day before → GENERAL
  const lastDay = await farmer('CAF-L', 'CAF', '2024-03-11', '2026-03-10'); //     valid through 03-10
  const firstDay = await farmer('CAF-F', 'CAF', '2026-03-12', '2028-03-11'); //    valid from 03-12
  const lateDap = await farmer('DAP-2022-11', 'DAP', '2022-11-15', '2026-11-14'); // issued after the cutoff: counts by its dates
  const lapsedLater = await farmer('CAF-E', 'CAF', '2024-02-28', '2026-02-28'); //   valid on the purchase date (02-25), not on consumption (03-05)

  const id = await createProducer(api, 'Usina Origem', RECIFE);
  await electSpecialRegime(api, id);
  await grantSeal(api, id);

  const lot = (on: string, kind: string, ref: { farmer?: string; org?: string }, origin: string, consumedOn: string | null = null) => ({
    producerId: id, purchasedOn: on, consumedOn, feedstock: 'SOYBEAN', quantityKg: '1000', cost: '1000', supplierKind: kind,
    familyFarmerId: ref.farmer ?? null, organizationId: ref.org ?? null, originMunicipalityCode: origin,
  });
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    lot('2026-03-02', 'COOPERATIVE', { org: coop60 }, RECIFE), //                        FAMILY_FARMING_PRIORITY_REGION
    lot('2026-03-02', 'COOPERATIVE', { org: coop59 }, RECIFE), //                        GENERAL
    lot('2026-03-02', 'ASSOCIATION', { org: association }, RECIFE), //                   GENERAL
    lot('2026-03-10', 'COOPERATIVE', { org: coopExpired }, RECIFE), //                   GENERAL
    lot('2026-03-10', 'FAMILY_FARMER', { farmer: lastDay }, PORTO_ALEGRE), //           FAMILY_FARMING (last day of the CAF)
    lot('2026-03-11', 'FAMILY_FARMER', { farmer: lastDay }, PORTO_ALEGRE), //           GENERAL (the day after)
    lot('2026-03-12', 'FAMILY_FARMER', { farmer: firstDay }, PORTO_ALEGRE), //          FAMILY_FARMING (first day of the CAF)
    lot('2026-03-13', 'FAMILY_FARMER', { farmer: lateDap }, PORTO_ALEGRE), //           FAMILY_FARMING
    lot('2026-02-25', 'FAMILY_FARMER', { farmer: lapsedLater }, PORTO_ALEGRE, '2026-03-05'), // FAMILY_FARMING, weighed in March
  ] });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [
    { producerId: id, soldOn: '2026-03-31', volumeM3: '9', revenue: '45000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' },
  ] });

  const tp = (await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 3) {
    feedstockCost pisDue cofinsDue segments { blendedPisPerM3 blendedCofinsPerM3 mix { category cost share } } } }`, { p: id })).taxPeriod;
  // Weights (art. 6º §3º): FFPR 1.000; FF 4.000; GENERAL 4.000; total 9.000 (the lot bought in February and used in March included).
  expect(tp.feedstockCost).toBe('9000.00');
  expect(tp.segments[0].mix).toEqual([
    { category: 'FAMILY_FARMING_PRIORITY_REGION', cost: '1000.00', share: '0.111111' }, // 1/9
    { category: 'FAMILY_FARMING', cost: '4000.00', share: '0.444444' }, //                4/9
    { category: 'GENERAL', cost: '4000.00', share: '0.444444' },
  ]);
  // PIS (1.000 × 0 + 4.000 × 10,39 + 4.000 × 26,41) / 9.000 = 147.200 / 9.000 = 16,3555…; × 9 m³ = 147,20
  // Cofins (4.000 × 47,85 + 4.000 × 121,59) / 9.000 = 677.760 / 9.000 = 75,3066…; × 9 m³ = 677,76
  const pis = D(4000).times('10.39').plus(D(4000).times('26.41')).div(9000);
  const cofins = D(4000).times('47.85').plus(D(4000).times('121.59')).div(9000);
  expect(tp.segments[0].blendedPisPerM3).toBe(pis.toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toFixed()); // 16.355556
  expect(tp.segments[0].blendedCofinsPerM3).toBe('75.306667');
  expect([tp.pisDue, tp.cofinsDue]).toEqual(['147.20', '677.76']);
  expect(D(9).times(cofins).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed()).toBe('677.76');
});
