import { Readable } from 'node:stream';
import { ImportProblemsError } from '../../src/import/import-error';
import { importCsv } from '../../src/import/importer';
import { SYSTEM_ACTOR } from '../../src/services/actor';
import { startTestApi, TestApi } from '../support/api';
import { createProducer, electSpecialRegime, FEIRA, PORTO_ALEGRE, upsertMunicipalities } from '../support/fixtures';

/**
 * A closed month's dues are final until it is reopened (issue 4; docs/LAW.md). They depend on the
 * raw material USED in the month (consumedOn, Decreto 10.527/2020 art. 6º §3º) and, where own
 * production is valued, on the raw material ACQUIRED from third parties in the month (purchasedOn,
 * art. 6º §4º: the average price per kg). Recording a third-party lot of raw material acquired in a
 * closed month changes that month's average price, so it is CONFLICT PERIOD_CLOSED, naming
 * purchasedOn, even when the lot is used in a later, open month.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [PORTO_ALEGRE, FEIRA]);
});
afterAll(async () => { await api.close(); });

const RECORD = `mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`;
const QUERY = `query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 3) { status ownProductionPricePerKg pisDue cofinsDue recomputedDiffers } }`;

test('a third-party lot acquired in a closed month and used in the next is refused; own production and lots acquired in open months are not', async () => {
  const p = await createProducer(api, 'Usina Fechada', FEIRA);
  await electSpecialRegime(api, p);
  const lot = (over: object) => ({ producerId: p, feedstock: 'SOYBEAN', quantityKg: '1000', originMunicipalityCode: PORTO_ALEGRE, ...over });
  await api.ok(RECORD, { i: [
    // Own castor from the Semiárido (art. 6º I), valued at March's third-party price, and the one third-party lot of March.
    lot({ purchasedOn: '2026-03-02', feedstock: 'CASTOR_BEAN', supplierKind: 'OWN_PRODUCTION', originMunicipalityCode: FEIRA }),
    lot({ purchasedOn: '2026-03-03', cost: '2000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading SA' }),
  ] });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: [
    { producerId: p, soldOn: '2026-03-20', volumeM3: '10', revenue: '50000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' },
  ] });
  const closed = (await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status ownProductionPricePerKg pisDue cofinsDue } }`, { p })).closeTaxPeriod;
  // R$ 2.000 / 1.000 kg = R$ 2 per kg: own 1.000 kg worth 2.000 (art. 6º I) and 2.000 GENERAL, halves:
  // PIS 10 × (22,48 + 26,41) / 2 = 244,45; Cofins 10 × (103,51 + 121,59) / 2 = 1.125,50.
  expect(closed).toEqual({ status: 'CLOSED', ownProductionPricePerKg: '2.00', pisDue: '244.45', cofinsDue: '1125.50' });

  const before = await api.count(`SELECT count(*) FROM purchase WHERE producer_id = $1`, [p]);
  // Acquired on 03-31 for R$ 4.000 (it would make March's price 6.000 / 2.000 kg = R$ 3), used in April.
  const refused = await api.gql(RECORD, { i: [lot({ purchasedOn: '2026-03-31', consumedOn: '2026-04-01', cost: '4000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading SA' })] });
  expect(refused.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input[0].purchasedOn' });
  expect(await api.count(`SELECT count(*) FROM purchase WHERE producer_id = $1`, [p])).toBe(before);
  const march = (await api.ok(QUERY, { p })).taxPeriod;
  expect(march).toEqual({ status: 'CLOSED', ownProductionPricePerKg: '2.00', pisDue: '244.45', cofinsDue: '1125.50', recomputedDiffers: false });

  // Own production does not enter the average price (it has no acquisition cost): accepted. So are
  // lots acquired in April.
  await api.ok(RECORD, { i: [
    lot({ purchasedOn: '2026-03-31', consumedOn: '2026-04-01', feedstock: 'CASTOR_BEAN', supplierKind: 'OWN_PRODUCTION', originMunicipalityCode: FEIRA }),
    lot({ purchasedOn: '2026-04-01', cost: '4000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading SA' }),
  ] });
  expect(await api.count(`SELECT count(*) FROM purchase WHERE producer_id = $1`, [p])).toBe(before + 2);
  expect((await api.ok(QUERY, { p })).taxPeriod.recomputedDiffers).toBe(false);
});

test('the CSV import refuses the same line: a third-party lot acquired in the closed month (art. 6º §4º)', async () => {
  const p = await createProducer(api, 'Usina Importadora', FEIRA);
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status } }`, { p });
  const header = 'purchasedOn,consumedOn,feedstock,quantityKg,cost,supplierKind,familyFarmerId,organizationId,supplierName,originMunicipalityCode,contractId,purpose,externalId';
  const csv = (lines: string[]) => Readable.from([[header, ...lines].join('\n')]);
  const before = await api.count(`SELECT count(*) FROM purchase WHERE producer_id = $1`, [p]);
  const error = await importCsv(api.db.dataSource, SYSTEM_ACTOR, { kind: 'purchases', producerId: p, input: csv([
    `2026-03-31,2026-04-01,CASTOR_BEAN,1000,,OWN_PRODUCTION,,,,${FEIRA},,,`, //      own production used in April: fine
    `2026-03-31,2026-04-01,SOYBEAN,1000,4000,THIRD_PARTY,,,Trading SA,${PORTO_ALEGRE},,,`, // acquired in closed March
  ]) }).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ImportProblemsError);
  expect(error).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', line: 3, column: 'purchasedOn' });
  expect(await api.count(`SELECT count(*) FROM purchase WHERE producer_id = $1`, [p])).toBe(before);
  const ok = await importCsv(api.db.dataSource, SYSTEM_ACTOR, { kind: 'purchases', producerId: p, input: csv([
    `2026-03-31,2026-04-01,CASTOR_BEAN,1000,,OWN_PRODUCTION,,,,${FEIRA},,,`,
    `2026-04-01,,SOYBEAN,1000,4000,THIRD_PARTY,,,Trading SA,${PORTO_ALEGRE},,,`,
  ]) });
  expect(ok.rows).toBe(2);
});
