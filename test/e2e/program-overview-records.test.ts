import { startTestApi, TestApi } from '../support/api';
import { createProducer, grantSeal, nfeKey, producerCnpj, RECIFE } from '../support/fixtures';
import { contract, farmer, setUpSeloYear } from '../support/selo-year';

/**
 * The program's figures by state and its families read the same records as each producer's
 * sealCompliance: a cancelled NF-e's purchase counts in neither (Ajuste SINIEF 07/2005, cl. 12ª).
 */
let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(async () => { await api.close(); });

const OVERVIEW = `query { programOverview(year: 2025, asKnownOn: "2026-11-30") {
  spending { familyFarmingAcquisitions fomento actualTotal } byState { state actual count } families { familyFarmers byState { state familyFarmers } }
  producers { sealCompliance { actualTotal } } } }`;

test('a cancelled purchase counts in neither the producers\' totals nor the program\'s states and families', async () => {
  const kept = await setUpSeloYear(api);
  const cancelledOnly = await farmer(api, [['CAF', '2023-01-01', '2027-12-31']]);
  const p = await createProducer(api, 'Usina Cancela Programa', RECIFE);
  await grantSeal(api, p);
  const cnpj = await producerCnpj(api, p);
  const lot = (farmerId: string, contractId: string, cost: string, n: number) => ({
    producerId: p, purchasedOn: '2025-03-10', feedstock: 'SOYBEAN', quantityKg: '1000', cost, supplierKind: 'FAMILY_FARMER',
    familyFarmerId: farmerId, originMunicipalityCode: RECIFE, contractId, invoiceKey: nfeKey(cnpj, n, '2503'),
  });
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [
    lot(kept, await contract(api, p, { farmer: kept }), '30000', 1),
    lot(cancelledOnly, await contract(api, p, { farmer: cancelledOnly }), '5000', 2),
  ] });
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { key } }`, { k: nfeKey(cnpj, 2, '2503') });

  const o = (await api.ok(OVERVIEW, {}, { role: 'AUDITOR' })).programOverview;
  // Only the kept lot of R$ 30.000 from Recife (PE) counts, and only its farmer was served.
  expect(o.producers.map((x: { sealCompliance: { actualTotal: string } }) => x.sealCompliance.actualTotal)).toEqual(['30000.00']);
  expect(o.spending).toMatchObject({ familyFarmingAcquisitions: '30000.00', actualTotal: '30000.00' });
  expect(o.byState).toEqual([{ state: 'PE', actual: '30000.00', count: 1 }]);
  expect(o.families.familyFarmers).toBe(1);
  expect(o.families.byState).toEqual([{ state: 'PE', familyFarmers: 1 }]);
});
