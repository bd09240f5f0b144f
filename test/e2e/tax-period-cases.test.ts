import { startTestApi, TestApi } from '../support/api';
import { createProducer, FEIRA, newCpf, PORTO_ALEGRE, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * The month's cases worked out by hand, over real PostgreSQL (docs/LAW.md):
 * - imports: PIS/Pasep-Importação and Cofins-Importação per m³ (Decreto 10.527/2020, art. 5º §1º),
 *   R$ 0,00 in the 2026 window (§3º), never the art. 6º amounts (§5º);
 * - a stock-only month: the blend of the latest earlier month with raw material used;
 * - a company starting activity (Lei 11.116/2005, art. 4º §4º): from its month, refused after sales;
 * - October 2020: Decreto 7.768/2012 until the 22nd, Decreto 10.527/2020 from the 23rd;
 * - January 2027: the CBS (LC 214/2025, arts. 172–175) before and after its rate is published.
 * Amounts per m³: GENERAL 26,41 / 121,59; CASTOR_PALM_PRIORITY_REGION 22,48 / 103,51;
 * FAMILY_FARMING 10,39 / 47,85 (art. 5º §1º; art. 6º §1º), the same under Decreto 7.768/2012.
 */

const TP = `fragment TP on TaxPeriod {
  year month asKnownOn regime regimeBasis regimeElection { electedOn effectiveYear effectiveFrom }
  pisDue cofinsDue totalDue domesticVolumeM3 importedVolumeM3 exportedVolumeM3 feedstockCost ownProductionValuation blendPeriod { year month }
  warnings { code message legalBasis }
  segments { from to pisCofinsInForce pisDue cofinsDue legalBasis mix { category cost share legalBasis } }
  imports { volumeM3 pisDue cofinsDue totalDue imports { id declarationNumber clearedOn volumeM3 pisPerM3 cofinsPerM3 pisDue cofinsDue legalBasis } }
  fuelTaxes { tax status formula ownProductionVolumeM3 importedVolumeM3 volumeM3 ratePerM3 due legalBasis segments { from to status volumeM3 ratePerM3 due } }
}`;
const QUERY = `query($p: ID!, $y: Int!, $m: Int!, $k: Date) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: $k) { ...TP } } ${TP}`;
const IMPORTS = `mutation($i: [RecordImportInput!]!) { recordImports(input: $i) { id clearedOn volumeM3 declarationNumber } }`;
const CONTRIBUTIONS = `query($p: ID!, $y: Int!, $m: Int!) { importContributions(producerId: $p, year: $y, month: $m) { volumeM3 pisDue cofinsDue totalDue imports { declarationNumber pisDue cofinsDue } } }`;
const ELECT = `mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear effectiveFrom startingActivity } }`;

let api: TestApi;
let farmerSouth: string;

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE, FEIRA]);
  // A DAP valid from 2019 to its cutoff, then a CAF: a family farmer through 2020 and 2026.
  farmerSouth = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, { i: {
    cpf: newCpf(), name: 'Agricultora do Sul', municipalityCode: PORTO_ALEGRE, registrations: [
      { kind: 'DAP', number: 'RS-DAP-2019-1', validFrom: '2019-01-01', validUntil: '2022-10-31' },
      { kind: 'CAF', number: 'RS-CAF-2022-1', validFrom: '2022-11-01', validUntil: '2027-12-31' },
    ],
  } })).createFamilyFarmer.id;
});
afterAll(async () => { await api.close(); });

async function producer(electedOn: string | null = '2025-11-03') {
  const id = await createProducer(api, 'Usina de Biodiesel', RECIFE);
  if (electedOn) await api.ok(ELECT, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn } });
  await api.ok(`mutation($i: GrantSealInput!) { grantSeal(input: $i) { id } }`, { i: { producerId: id, grantedOn: '2019-01-01', validUntil: '2029-12-31' } });
  return id;
}
interface Lot { on: string; consumedOn?: string; feedstock?: string; kg: string; cost?: string; kind: string; farmer?: string; origin: string }
async function purchases(producerId: string, lots: Lot[]) {
  await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: lots.map((l) => ({
    producerId, purchasedOn: l.on, consumedOn: l.consumedOn ?? null, feedstock: l.feedstock ?? 'SOYBEAN', quantityKg: l.kg, cost: l.cost ?? null,
    supplierKind: l.kind, familyFarmerId: l.farmer ?? null, supplierName: l.kind === 'THIRD_PARTY' ? 'Trading Grãos SA' : null, originMunicipalityCode: l.origin,
  })) });
}
async function sales(producerId: string, list: Array<{ on: string; m3: string; revenue?: string; origin?: string; market?: string }>) {
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: list.map((s) => ({
    producerId, soldOn: s.on, volumeM3: s.m3, revenue: s.revenue ?? '100000', origin: s.origin ?? 'OWN_PRODUCTION', market: s.market ?? 'DOMESTIC',
  })) });
}
const month = async (p: string, y: number, m: number, k?: string) => (await api.ok(QUERY, { p, y, m, k: k ?? null })).taxPeriod;
const codes = (tp: any) => tp.warnings.map((w: any) => w.code);

describe('imports of biodiesel (Decreto 10.527/2020, art. 5º §1º and §3º; art. 6º §5º)', () => {
  test('a month in the 2026 window and one after it: a block of their own, per declaration', async () => {
    const id = await producer();
    const recorded = (await api.ok(IMPORTS, { i: [
      { producerId: id, clearedOn: '2026-05-15', volumeM3: '100', declarationNumber: '26/0000001-1' },
      { producerId: id, clearedOn: '2026-09-10', volumeM3: '33.333', declarationNumber: ' 26br00000000002-2 ' },
    ] })).recordImports;
    expect(recorded.map((r: any) => r.declarationNumber)).toEqual(['26/0000001-1', '26BR00000000002-2']); // trimmed, in capitals
    expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'recordImports' AND producer_id = $1`, [id])).toBe(2);

    // May (window, §3º): 100 m³ × R$ 0,00.
    const may = await month(id, 2026, 5);
    expect(may.imports).toMatchObject({ volumeM3: '100.000', pisDue: '0.00', cofinsDue: '0.00', totalDue: '0.00' });
    expect(may.imports.imports[0]).toMatchObject({ pisPerM3: '0.00', cofinsPerM3: '0.00' });
    expect(may.imports.imports[0].legalBasis).toContain('art. 5º §§2º–4º');
    // September: 33,333 × 26,41 = 880,32453 → 880,32; × 121,59 = 4.052,95947 → 4.052,96. Separate from the sales:
    // 2 m³ of imported biodiesel sold at GENERAL (art. 6º §5º) = 52,82 / 243,18 in the month's dues.
    await sales(id, [{ on: '2026-09-20', m3: '2', origin: 'IMPORTED' }]);
    const sep = await month(id, 2026, 9);
    expect(sep.imports).toMatchObject({ volumeM3: '33.333', pisDue: '880.32', cofinsDue: '4052.96', totalDue: '4933.28' });
    expect(sep.imports.imports[0]).toMatchObject({ declarationNumber: '26BR00000000002-2', clearedOn: '2026-09-10', pisPerM3: '26.41', cofinsPerM3: '121.59' });
    expect([sep.pisDue, sep.cofinsDue, sep.totalDue]).toEqual(['52.82', '243.18', '296.00']);
    expect(codes(sep)).toEqual(['NO_FEEDSTOCK_IN_PERIOD', 'IMPORTED_BIODIESEL']);
    // importContributions: the same block on its own, for every role that may read the producer.
    for (const as of [undefined, { role: 'AUDITOR' as const }, { role: 'PRODUCER' as const, producerId: id }]) {
      expect((await api.ok(CONTRIBUTIONS, { p: id, y: 2026, m: 9 }, as)).importContributions)
        .toEqual({ volumeM3: '33.333', pisDue: '880.32', cofinsDue: '4052.96', totalDue: '4933.28', imports: [{ declarationNumber: '26BR00000000002-2', pisDue: '880.32', cofinsDue: '4052.96' }] });
    }
    const other = await producer();
    expect((await api.gql(CONTRIBUTIONS, { p: id, y: 2026, m: 9 }, { role: 'PRODUCER', producerId: other })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    // Producer.imports: the records, by clearance date.
    const listed = (await api.ok(`query($p: ID!) { producer(id: $p) { imports(first: 10) { totalCount edges { node { clearedOn volumeM3 declarationNumber producer { id } } } } } }`, { p: id })).producer.imports;
    expect(listed.totalCount).toBe(2);
    expect(listed.edges.map((e: any) => [e.node.clearedOn, e.node.producer.id])).toEqual([['2026-05-15', id], ['2026-09-10', id]]);
  });

  test('refused whole, nothing written: a declaration already recorded or repeated, a bad volume, a closed month, an AUDITOR', async () => {
    const id = await producer();
    await api.ok(IMPORTS, { i: [{ producerId: id, clearedOn: '2026-08-03', volumeM3: '10', declarationNumber: '26/0000009-9' }] });
    const count = () => api.count(`SELECT count(*) FROM biodiesel_import WHERE producer_id = $1`, [id]);
    const good = { producerId: id, clearedOn: '2026-08-04', volumeM3: '1', declarationNumber: '26/0000010-0' };
    const cases: Array<[unknown[], Record<string, unknown>, { role: 'AUDITOR' } | undefined]> = [
      [[good, { ...good, declarationNumber: '26/0000009-9' }], { code: 'CONFLICT', reason: 'DUPLICATE', field: 'input[1].declarationNumber' }, undefined],
      [[good, good], { code: 'CONFLICT', reason: 'DUPLICATE', field: 'input[1].declarationNumber' }, undefined],
      [[good, { ...good, declarationNumber: '26/0000011-1', volumeM3: '0' }], { code: 'BAD_USER_INPUT', field: 'input[1].volumeM3' }, undefined],
      [[{ ...good, declarationNumber: '?' }], { code: 'BAD_USER_INPUT', field: 'input[0].declarationNumber' }, undefined],
      [[{ ...good, clearedOn: '2026-02-30' }], { code: 'BAD_USER_INPUT' }, undefined], // refused by the Date scalar
      [[good], { code: 'FORBIDDEN' }, { role: 'AUDITOR' }],
    ];
    for (const [input, extensions, as] of cases) {
      expect((await api.gql(IMPORTS, { i: input }, as)).errors?.[0].extensions).toMatchObject(extensions);
      expect(await count()).toBe(1);
    }
    // Every bad item is reported, each with its field; the first is the error's own.
    const many = await api.gql(IMPORTS, { i: [{ ...good, declarationNumber: '26/0000009-9' }, { ...good, volumeM3: '-1' }] });
    expect(many.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', problemCount: 2 });
    expect((many.errors?.[0].extensions?.problems as any[]).map((p) => [p.code, p.field])).toEqual([['CONFLICT', 'input[0].declarationNumber'], ['BAD_USER_INPUT', 'input[1].volumeM3']]);
    expect(await count()).toBe(1);
    // Another producer may use the same number (unique per producer).
    const other = await producer();
    await api.ok(IMPORTS, { i: [{ ...good, producerId: other, declarationNumber: '26/0000009-9' }] });
    // A closed month refuses a clearance in it (the contributions are due there).
    await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 8) { status } }`, { p: id });
    expect((await api.gql(IMPORTS, { i: [good] })).errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', field: 'input[0].clearedOn' });
    expect(await count()).toBe(1);
    // The closed month keeps its imports' block in its snapshot.
    expect((await month(id, 2026, 8)).imports).toMatchObject({ volumeM3: '10.000', pisDue: '264.10', cofinsDue: '1215.90' });
  });
});

test('a stock-only month takes the blend of the latest earlier month with raw material used (docs/LAW.md)', async () => {
  const id = await producer();
  // August: own castor from Feira de Santana (Semiárido, art. 6º I), 2.000 kg; a family farmer's soybean
  // from the Sul, 1.000 kg for R$ 3.000 (art. 6º II); a trader's, 2.000 kg for R$ 4.000 (GENERAL).
  // Own castor at the month's third-party price 7.000 / 3.000 kg: 4.666,67.
  await purchases(id, [
    { on: '2026-08-03', feedstock: 'CASTOR_BEAN', kg: '2000', kind: 'OWN_PRODUCTION', origin: FEIRA },
    { on: '2026-08-04', kg: '1000', cost: '3000', kind: 'FAMILY_FARMER', farmer: farmerSouth, origin: PORTO_ALEGRE },
    { on: '2026-08-05', kg: '2000', cost: '4000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE },
  ]);
  // September and October: no raw material used; 5 m³ sold from stock in October.
  await sales(id, [{ on: '2026-10-15', m3: '5' }]);
  const oct = await month(id, 2026, 10);
  // PIS = (14 × 22,48 + 9 × 10,39 + 12 × 26,41) / 35 = 725,15 / 35 = 20,718571…; × 5 = 103,59.
  // Cofins = (14 × 103,51 + 9 × 47,85 + 12 × 121,59) / 35 = 3.338,87 / 35 = 95,396285…; × 5 = 476,98.
  expect([oct.pisDue, oct.cofinsDue]).toEqual(['103.59', '476.98']);
  expect(oct.blendPeriod).toEqual({ year: 2026, month: 8 });
  expect(oct.feedstockCost).toBe('0.00');
  expect(oct.segments[0].mix.map((m: any) => [m.category, m.cost, m.share])).toEqual([
    ['FAMILY_FARMING', '3000.00', '0.257143'], ['CASTOR_PALM_PRIORITY_REGION', '4666.67', '0.4'], ['GENERAL', '4000.00', '0.342857'],
  ]);
  expect(codes(oct)).toEqual(['BLEND_OF_EARLIER_PERIOD']);
  expect(oct.warnings[0].message).toContain('2026-08');
  const pt = await api.gql(QUERY, { p: id, y: 2026, m: 10, k: null }, undefined, { 'accept-language': 'pt-BR' });
  expect(pt.data!.taxPeriod.warnings[0].message).toBe('Nenhuma matéria-prima foi utilizada no período: a produção própria vendida do estoque segue a ponderação de 2026-08, o último mês anterior com matéria-prima utilizada.');
  // A producer with no raw material ever used: GENERAL, 5 × 26,41 = 132,05, NO_FEEDSTOCK_IN_PERIOD.
  const none = await producer();
  await sales(none, [{ on: '2026-10-15', m3: '5' }]);
  const bare = await month(none, 2026, 10);
  expect([bare.pisDue, bare.blendPeriod, codes(bare)]).toEqual(['132.05', null, ['NO_FEEDSTOCK_IN_PERIOD']]);
});

describe('a company starting activity (Lei 11.116/2005, art. 4º §4º)', () => {
  test('a June election governs from June to the year\'s end, never earlier months', async () => {
    const id = await producer(null);
    expect((await api.ok(ELECT, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2026-06-10', startingActivity: true } })).electRegime)
      .toEqual({ effectiveYear: 2026, effectiveFrom: '2026-06-01', startingActivity: true });
    const regime = async (m: number) => (await api.ok(`query($p: ID!, $m: Int) { producer(id: $p) { regime(year: 2026, month: $m) } }`, { p: id, m })).producer.regime;
    expect([await regime(5), await regime(6), await regime(12)]).toEqual(['AD_VALOREM', 'SPECIAL_PER_M3', 'SPECIAL_PER_M3']);
    // May: no election governs it; June: the special regime from its first day, in the zero window (R$ 0,00);
    // August: 2 m³ from a trader's lot at GENERAL, 2 × 26,41 = 52,82 (ad valorem would be 6,15% of the revenue).
    await purchases(id, [{ on: '2026-08-03', kg: '1000', cost: '2000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE }]);
    await sales(id, [{ on: '2026-06-20', m3: '2' }, { on: '2026-08-20', m3: '2' }]);
    const may = await month(id, 2026, 5);
    expect([may.regime, may.regimeElection, codes(may)]).toEqual(['AD_VALOREM', null, ['NO_REGIME_ELECTION']]);
    const june = await month(id, 2026, 6);
    expect([june.regime, june.pisDue, june.regimeElection]).toEqual(['SPECIAL_PER_M3', '0.00', { electedOn: '2026-06-10', effectiveYear: 2026, effectiveFrom: '2026-06-01' }]);
    expect(june.regimeBasis).toContain('§4º (company starting activity: applies from 2026-06, the month of the election, to the year\'s end)');
    expect((await month(id, 2026, 8)).pisDue).toBe('52.82');
  });

  test('refused with CONFLICT and the first earlier sale\'s date when the producer already sold that year; nothing written', async () => {
    const id = await producer(null);
    await sales(id, [{ on: '2026-03-20', m3: '1' }, { on: '2026-03-12', m3: '1' }, { on: '2025-12-20', m3: '1' }]);
    const res = await api.gql(ELECT, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2026-06-10', startingActivity: true } });
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'ALREADY_SOLD_IN_YEAR', field: 'input.startingActivity', firstSaleOn: '2026-03-12' });
    expect(res.errors?.[0].message).toContain('2026-03-12');
    expect(await api.count(`SELECT count(*) FROM regime_election WHERE producer_id = $1`, [id])).toBe(0);
    expect(await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'electRegime' AND producer_id = $1`, [id])).toBe(0);
    // A sale of the year before does not count, nor does an ordinary election look at sales.
    const earlier = await producer(null);
    await sales(earlier, [{ on: '2025-12-20', m3: '1' }, { on: '2026-06-10', m3: '1' }]);
    expect((await api.ok(ELECT, { i: { producerId: earlier, regime: 'SPECIAL_PER_M3', electedOn: '2026-06-10', startingActivity: true } })).electRegime.effectiveFrom).toBe('2026-06-01');
    expect((await api.ok(ELECT, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2026-06-10' } })).electRegime.effectiveYear).toBe(2027);
  });

  test('a sale earlier in the election\'s own month does not refuse it, and is taxed per m³; one in May still does', async () => {
    // §4º: the election governs from the first day of its month (2026-06-01), so a sale of 06-05 is in
    // the company's first month, under the regime it elects.
    const id = await producer(null);
    await sales(id, [{ on: '2026-06-05', m3: '1', revenue: '6000' }]);
    expect((await api.ok(ELECT, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2026-06-10', startingActivity: true } })).electRegime)
      .toEqual({ effectiveYear: 2026, effectiveFrom: '2026-06-01', startingActivity: true });
    // As known today June is in the extended zero window (art. 5º §2º): per m³ at R$ 0,00, not 6,15% of R$ 6.000 = 369,00.
    const june = await month(id, 2026, 6);
    expect([june.regime, june.pisDue, june.cofinsDue, june.segments.map((s: { pisDue: string }) => s.pisDue)]).toEqual(['SPECIAL_PER_M3', '0.00', '0.00', ['0.00']]);
    // As known on 2026-05-20, before the extension: 1 m³ × 26,41 and × 121,59 (GENERAL, no raw material: art. 5º §1º),
    // where ad valorem would give 6.000 × 6,15% = 369,00 and × 28,32% = 1.699,20.
    const before = (await api.ok(QUERY, { p: id, y: 2026, m: 6, k: '2026-05-20' })).taxPeriod;
    expect([before.regime, before.pisDue, before.cofinsDue]).toEqual(['SPECIAL_PER_M3', '26.41', '121.59']);
    // A sale on the last day of the month before refuses it (an earlier month of the year).
    const may = await producer(null);
    await sales(may, [{ on: '2026-05-31', m3: '1' }, { on: '2026-06-05', m3: '1' }]);
    const res = await api.gql(ELECT, { i: { producerId: may, regime: 'SPECIAL_PER_M3', electedOn: '2026-06-10', startingActivity: true } });
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'ALREADY_SOLD_IN_YEAR', field: 'input.startingActivity', firstSaleOn: '2026-05-31' });
    expect(await api.count(`SELECT count(*) FROM regime_election WHERE producer_id = $1`, [may])).toBe(0);
  });
});

test('October 2020: a sale on the 20th under Decreto 7.768/2012, one on the 26th under Decreto 10.527/2020', async () => {
  const id = await producer('2019-11-05'); // special regime from 2020 (art. 4º §1º)
  // Half family farming (R$ 1.000, art. 6º II; the farmer's DAP valid in 2020), half a trader's (R$ 1.000):
  // PIS (10,39 + 26,41) / 2 = 18,40; Cofins (47,85 + 121,59) / 2 = 84,72 per m³.
  await purchases(id, [
    { on: '2020-10-02', kg: '1000', cost: '1000', kind: 'FAMILY_FARMER', farmer: farmerSouth, origin: PORTO_ALEGRE },
    { on: '2020-10-02', kg: '1000', cost: '1000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE },
  ]);
  await sales(id, [{ on: '2020-10-20', m3: '10' }, { on: '2020-10-26', m3: '5' }]);
  const tp = await month(id, 2020, 10);
  // 10 m³: 184,00 / 847,20; 5 m³: 92,00 / 423,60.
  expect(tp.segments.map((s: any) => [s.from, s.to, s.pisDue, s.cofinsDue])).toEqual([
    ['2020-10-01', '2020-10-22', '184.00', '847.20'], ['2020-10-23', '2020-10-31', '92.00', '423.60'],
  ]);
  expect([tp.pisDue, tp.cofinsDue]).toEqual(['276.00', '1270.80']);
  const [before, after] = tp.segments.map((s: any) => s.legalBasis.split('; '));
  expect(before[0]).toBe('Lei 11.116/2005, art. 4º');
  for (const part of before.slice(1)) expect(part).toContain('Decreto 7.768/2012');
  for (const m of tp.segments[0].mix) expect(m.legalBasis).toContain('Decreto 7.768/2012 (revoked by Decreto 10.527/2020, art. 9º III)');
  for (const part of after) expect(part).not.toContain('7.768');
  for (const m of tp.segments[1].mix) expect(m.legalBasis).toMatch(/^Decreto 10\.527\/2020/);
});

test('January 2027: the CBS with no rate (RATE_NOT_PUBLISHED), then with an ADMIN\'s rate, as known before and after its publication', async () => {
  const id = await producer();
  // 10 m³ of own production sold on the domestic market; 3 m³ of imported biodiesel sold (it bore the CBS at
  // its import); 2 m³ exported (none); 4 m³ imported, cleared on 2027-01-15. Base: 10 + 4 = 14 m³.
  await sales(id, [{ on: '2027-01-10', m3: '10' }, { on: '2027-01-12', m3: '3', origin: 'IMPORTED' }, { on: '2027-01-14', m3: '2', market: 'EXPORT' }]);
  await api.ok(IMPORTS, { i: [{ producerId: id, clearedOn: '2027-01-15', volumeM3: '4', declarationNumber: '27/0000001-1' }] });
  const none = await month(id, 2027, 1);
  expect([none.pisDue, none.cofinsDue, none.totalDue]).toEqual(['0.00', '0.00', '0.00']);
  expect(none.segments.map((s: any) => s.pisCofinsInForce)).toEqual([false]);
  const [cbs] = none.fuelTaxes;
  expect(cbs).toMatchObject({ tax: 'CBS', status: 'RATE_NOT_PUBLISHED', ownProductionVolumeM3: '10.000', importedVolumeM3: '4.000', volumeM3: '14.000', ratePerM3: null, due: null });
  expect(cbs.formula).toContain('art. 173 §2º');
  expect(cbs.legalBasis).toContain('Lei Complementar 214/2025, arts. 172–175');
  expect(codes(none)).toEqual(['RATE_NOT_PUBLISHED']);
  expect(none.warnings[0].message).toBe('No rate per m³ of the CBS on biodiesel is published for 2027-01-01 to 2027-01-31 as known on ' + none.asKnownOn + ': the volumes and the formula are shown, the amount follows its publication.');
  // In Portuguese for a caller who asks (Accept-Language), the code unchanged.
  const pt = await api.gql(QUERY, { p: id, y: 2027, m: 1, k: null }, undefined, { 'accept-language': 'pt-BR' });
  expect(pt.data!.taxPeriod.warnings[0]).toMatchObject({ code: 'RATE_NOT_PUBLISHED', message: expect.stringContaining('Nenhuma alíquota por m³ da CBS sobre o biodiesel está publicada para 2027-01-01 a 2027-01-31') });
  expect(none.imports.imports[0]).toMatchObject({ pisPerM3: null, cofinsPerM3: null, pisDue: '0.00', cofinsDue: '0.00' });
  // A dashboard of months keeps working: December 2026 and January 2027 side by side, no error.
  const both = await api.ok(`query($p: ID!) { producer(id: $p) { dec: taxPeriod(year: 2026, month: 12) { totalDue } jan: taxPeriod(year: 2027, month: 1) { fuelTaxes { status } } } }`, { p: id });
  expect(both.producer).toEqual({ dec: { totalDue: '0.00' }, jan: { fuelTaxes: [{ status: 'RATE_NOT_PUBLISHED' }] } });

  await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'fuel-tax-rate', scope: 'CBS', values: [{ name: 'perM3', value: '187.4567' }], validFrom: '2027-01-01',
    publishedOn: '2026-12-20', legalBasis: 'Decreto hipotético nº 1/2026, art. 1º (CBS on biodiesel B100, per m³)',
  } });
  const before = await month(id, 2027, 1, '2026-12-19');
  expect(before.fuelTaxes[0]).toMatchObject({ status: 'RATE_NOT_PUBLISHED', due: null });
  // 14 × 187,4567 = 2.624,3938 → 2.624,39.
  const after = await month(id, 2027, 1, '2026-12-20');
  expect(after.fuelTaxes[0]).toMatchObject({ status: 'COMPUTED', volumeM3: '14.000', ratePerM3: '187.4567', due: '2624.39' });
  expect(after.fuelTaxes[0].legalBasis).toContain('rate: Decreto hipotético nº 1/2026');
  expect(codes(after)).toEqual([]);
});
