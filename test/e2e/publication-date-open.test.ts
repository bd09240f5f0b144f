import { startTestApi, TestApi } from '../support/api';
import { createProducer, PORTO_ALEGRE, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * docs/LAW.md, PUBLICATION_DATE_OPEN, over real PostgreSQL: the extension of the 2026 zero window
 * to 31/07/2026 (Decreto 10.527/2020, art. 5º §§2º–4º as extended by a later 2026 act) is shipped
 * as published on 2026-05-31, a date not in our sources. 1 m³ of own production from GENERAL soy
 * sold on 2026-06-10: 1 × 26,41 = 26,41 PIS/Pasep and 1 × 121,59 = 121,59 Cofins (art. 5º §1º) as
 * known on 2026-05-30; 1 × 0,00 = 0,00 (§2º) as known on 2026-05-31 and today. Each says so.
 */

const QUERY = `query($p: ID!, $y: Int!, $m: Int!, $k: Date) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: $k) {
  pisDue cofinsDue warnings { code message legalBasis }
  imports { pisDue imports { clearedOn pisDue cofinsDue warnings { code message legalBasis } } }
} }`;
const CONTRIBUTIONS = `query($p: ID!, $y: Int!, $m: Int!, $k: Date) { importContributions(producerId: $p, year: $y, month: $m, asKnownOn: $k) {
  imports { pisDue warnings { code message legalBasis } }
} }`;
const EXTENSION = 'Decreto 10.527/2020, art. 5º §§2º–4º, as extended to 31/07/2026 by a later 2026 act';
const notApplied = (days: string, k: string) => `For ${days} the answer does not apply ${EXTENSION}, in force on those days: its publication date is not in our sources, and the date used, 2026-05-31, is after ${k}. Had it been published by ${k}, the answer would differ.`;
const applied = (days: string) => `For ${days} the answer applies ${EXTENSION}, whose publication date is not in our sources: 2026-05-31 is used as that date. As known before its real publication the answer would differ.`;

let api: TestApi;
let id: string;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE]);
  id = await createProducer(api, 'Usina de Biodiesel', RECIFE);
  await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2025-11-03' } });
  await api.ok(`mutation($i: GrantSealInput!) { grantSeal(input: $i) { id } }`, { i: { producerId: id, grantedOn: '2019-01-01', validUntil: '2029-12-31' } });
  // GENERAL soy (a third party in the South) used in June and in August, 1 m³ sold in each.
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: ['2026-06-02', '2026-08-02'].map((on) => ({
    producerId: id, purchasedOn: on, feedstock: 'SOYBEAN', quantityKg: '1000', cost: '1000', supplierKind: 'THIRD_PARTY', supplierName: 'Trading Grãos SA', originMunicipalityCode: PORTO_ALEGRE,
  })) });
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: ['2026-06-10', '2026-08-10'].map((on) => ({
    producerId: id, soldOn: on, volumeM3: '1', revenue: '5000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC',
  })) });
  await api.ok(`mutation($i: [RecordImportInput!]!) { recordImports(input: $i) { id } }`, { i: [
    { producerId: id, clearedOn: '2026-06-10', volumeM3: '1', declarationNumber: '26/0000001-1' },
  ] });
});
afterAll(async () => { await api.close(); });

const month = async (m: number, k: string | null) => (await api.ok(QUERY, { p: id, y: 2026, m, k })).taxPeriod;
const open = (warnings: Array<{ code: string; message: string; legalBasis: string }>) => warnings.filter((w) => w.code === 'PUBLICATION_DATE_OPEN');

describe('PUBLICATION_DATE_OPEN on the tax month and each import declaration', () => {
  test('June 2026 as known on 2026-05-30: 26,41 / 121,59, and the import cleared on 06-10: 1 × 26,41, each saying the extension\'s date decides', async () => {
    const june = await month(6, '2026-05-30');
    expect([june.pisDue, june.cofinsDue]).toEqual(['26.41', '121.59']);
    expect(open(june.warnings)).toEqual([{ code: 'PUBLICATION_DATE_OPEN', message: notApplied('2026-06-01 to 2026-06-30', '2026-05-30'), legalBasis: EXTENSION }]);
    expect(june.imports.imports[0]).toMatchObject({ clearedOn: '2026-06-10', pisDue: '26.41', cofinsDue: '121.59' });
    expect(june.imports.imports[0].warnings).toEqual([{ code: 'PUBLICATION_DATE_OPEN', message: notApplied('2026-06-10 to 2026-06-10', '2026-05-30'), legalBasis: EXTENSION }]);
    const alone = (await api.ok(CONTRIBUTIONS, { p: id, y: 2026, m: 6, k: '2026-05-30' })).importContributions.imports[0];
    expect(alone).toEqual({ pisDue: '26.41', warnings: june.imports.imports[0].warnings });
  });

  test.each(['2026-05-31', null])('June 2026 as known on %s (null: today): 0,00, and the import 0,00, each saying it rests on 2026-05-31', async (k) => {
    const june = await month(6, k);
    expect([june.pisDue, june.cofinsDue]).toEqual(['0.00', '0.00']);
    expect(open(june.warnings)).toEqual([{ code: 'PUBLICATION_DATE_OPEN', message: applied('2026-06-01 to 2026-06-30'), legalBasis: EXTENSION }]);
    expect(june.imports.imports[0]).toMatchObject({ pisDue: '0.00', warnings: [{ code: 'PUBLICATION_DATE_OPEN', message: applied('2026-06-10 to 2026-06-10'), legalBasis: EXTENSION }] });
  });

  test('in Portuguese too', async () => {
    const res = await api.gql(QUERY, { p: id, y: 2026, m: 6, k: null }, undefined, { 'accept-language': 'pt-BR' });
    expect(open(res.data!.taxPeriod.warnings)[0].message).toMatch(/^Para 2026-06-01 a 2026-06-30 a resposta aplica .*2026-05-31 é usada como essa data/);
  });

  test.each(['2026-05-30', null])('August 2026 as known on %s: 26,41 and no warning (the extension governs none of its days)', async (k) => {
    const august = await month(8, k);
    expect(august.pisDue).toBe('26.41');
    expect(open(august.warnings)).toEqual([]);
  });
});
