import { cnpj as cnpjLib, cpf as cpfLib } from 'cpf-cnpj-validator';
import { loadDemoData } from '../../src/database/demo-data';
import { Decimal } from '../../src/law/decimal';
import { EXAMPLE_OPERATIONS } from '../../src/http/graphiql-examples';
import { startTestApi, TestApi } from '../support/api';
import { idsAsInProduction } from '../support/database';

// The saved operations GraphiQL opens with answer, without errors, the questions they are for,
// on records made through the API: a producer in Recife (Nordeste) with a CAF farmer in the
// Semiárido, a farmer whose DAP had expired, a third-party supplier, the Selo and the special
// regime. Expected figures are worked out below from Decreto 10.527/2020 and Lei 11.116/2005.

let api: TestApi;
const ids: Record<string, string> = {};

const example = (name: string) => {
  const op = EXAMPLE_OPERATIONS.find((o) => o.name === name);
  if (!op) throw new Error(`no example ${name}`);
  return op;
};

async function run(name: string, variables: Record<string, unknown>) {
  const op = example(name);
  const res = await api.gql(op.query, { ...op.variables, ...variables }, { role: 'AUDITOR' });
  expect(res.errors).toBeUndefined();
  return res.data as Record<string, any>;
}

beforeAll(async () => {
  api = await startTestApi();
  await api.ok(`mutation($m: [MunicipalityInput!]!) { upsertMunicipalities(input: $m) { ibgeCode } }`, {
    m: [
      { ibgeCode: '2611606', name: 'Recife', semiarid: false },
      { ibgeCode: '2910800', name: 'Feira de Santana', semiarid: true },
      { ibgeCode: '4314902', name: 'Porto Alegre', semiarid: false },
    ],
  });
  const p = await api.ok(`mutation($i: CreateProducerInput!) { createProducer(input: $i) { id } }`, {
    i: { cnpj: cnpjLib.generate(), legalName: 'Biodiesel Exemplo S.A.', plantMunicipalityCode: '2611606' },
  });
  ids.producer = p.createProducer.id;
  const farmer = async (name: string, reg: Record<string, string>) =>
    (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, {
      i: { cpf: cpfLib.generate(), name, municipalityCode: '2910800', registrations: [reg] },
    })).createFamilyFarmer.id as string;
  ids.maria = await farmer('Maria do Sertão', { kind: 'CAF', number: 'CAF-BA-0001', validFrom: '2024-01-01', validUntil: '2027-12-31' });
  ids.joao = await farmer('João do Sertão', { kind: 'DAP', number: 'DAP-BA-0002', validFrom: '2020-01-01', validUntil: '2024-12-31' });
  await api.ok(`mutation($i: GrantSealInput!) { grantSeal(input: $i) { id } }`, { i: { producerId: ids.producer, grantedOn: '2024-01-01', validUntil: '2027-12-31' } });
  // Elected by the last business day of November 2025: the special regime governs 2026 (art. 4º §1º).
  await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: ids.producer, regime: 'SPECIAL_PER_M3', electedOn: '2025-11-20' } });
  const purchases = await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, {
    i: [
      // 2025: from João, whose DAP ended on 2024-12-31 — does not count for the Selo.
      { producerId: ids.producer, purchasedOn: '2025-03-10', feedstock: 'SOYBEAN', quantityKg: '5000', cost: '12500', supplierKind: 'FAMILY_FARMER', familyFarmerId: ids.joao, originMunicipalityCode: '2910800' },
      // April 2026: from Maria (CAF valid, Semiárido) and from a third party in the South.
      { producerId: ids.producer, purchasedOn: '2026-04-03', feedstock: 'SOYBEAN', quantityKg: '10000', cost: '25000', supplierKind: 'FAMILY_FARMER', familyFarmerId: ids.maria, originMunicipalityCode: '2910800' },
      { producerId: ids.producer, purchasedOn: '2026-04-10', feedstock: 'SOYBEAN', quantityKg: '10000', cost: '20000', supplierKind: 'THIRD_PARTY', supplierName: 'Cerealista Sul Ltda', originMunicipalityCode: '4314902' },
    ],
  });
  ids.joaoPurchase = purchases.recordPurchases[0].id;
  await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, {
    i: [
      { producerId: ids.producer, soldOn: '2025-06-15', volumeM3: '50', revenue: '250000' },
      { producerId: ids.producer, soldOn: '2026-04-05', volumeM3: '100', revenue: '500000' },
      { producerId: ids.producer, soldOn: '2026-04-20', volumeM3: '100', revenue: '500000' },
      { producerId: ids.producer, soldOn: '2027-01-08', volumeM3: '40', revenue: '230000' },
    ],
  });
  // Two imports cleared in September 2026 (after the zero window): DI and DUIMP.
  await api.ok(`mutation($i: [RecordImportInput!]!) { recordImports(input: $i) { id } }`, {
    i: [
      { producerId: ids.producer, clearedOn: '2026-09-03', volumeM3: '150', declarationNumber: '26/0900001-0' },
      { producerId: ids.producer, clearedOn: '2026-09-17', volumeM3: '0.5', declarationNumber: '26BR00000900002-5' },
    ],
  });
});
afterAll(async () => { await api.close(); });

test('the eight saved operations are the eight questions, each a valid named operation', () => {
  expect(EXAMPLE_OPERATIONS.map((o) => o.name)).toEqual(['ProducerMonth', 'ImportsOfMonth', 'MonthsAcross2027', 'SealComplianceOfYear', 'SealPlan', 'RulesInForceAsKnownOn', 'WhyPurchaseDidNotCount', 'ProgramOverview']);
  for (const op of EXAMPLE_OPERATIONS) expect(op.query).toContain(`query ${op.name}(`);
});

test('RulesInForceAsKnownOn: mid-June 2026 as known on 2026-05-20 is general; as known today, the extended zero window', async () => {
  const data = await run('RulesInForceAsKnownOn', {});
  const figures = (rules: Array<{ category: string; pisPerM3: string; cofinsPerM3: string }>) =>
    Object.fromEntries(rules.map((r) => [r.category, [r.pisPerM3, r.cofinsPerM3]]));
  // Art. 5º §1º and art. 6º §1º: the published amounts; on 2026-05-20 the window was known to end 05-31.
  expect(figures(data.asKnownThen)).toEqual({
    GENERAL: ['26.41', '121.59'],
    CASTOR_PALM_PRIORITY_REGION: ['22.48', '103.51'],
    FAMILY_FARMING: ['10.39', '47.85'],
    FAMILY_FARMING_PRIORITY_REGION: ['0.00', '0.00'],
  });
  // Art. 5º §§2º–4º as extended to 2026-07-31: every amount zero.
  expect(Object.values(figures(data.asKnownToday))).toEqual([['0.00', '0.00'], ['0.00', '0.00'], ['0.00', '0.00'], ['0.00', '0.00']]);
});

test('ProducerMonth: April 2026 in two segments, the first blended by cost, the second in the zero window', async () => {
  const { taxPeriod } = await run('ProducerMonth', { producerId: ids.producer, year: 2026, month: 4 });
  expect(taxPeriod.regime).toBe('SPECIAL_PER_M3');
  expect(taxPeriod.segments.map((s: { from: string; to: string }) => [s.from, s.to])).toEqual([['2026-04-01', '2026-04-06'], ['2026-04-07', '2026-04-30']]);
  const [before, window] = taxPeriod.segments;
  // Raw material used in April: 25,000 from Maria (family farming, Semiárido: art. 6º III, R$ 0/m³)
  // and 20,000 from the third party (general: R$ 26,41 and 121,59/m³). Weighted by cost (art. 6º §3º):
  // PIS 26.41 × 20,000 / 45,000 = 11.7377…/m³ × 100 m³ = 1,173.78 (half-even); Cofins 121.59 × 4/9 = 54.04/m³ × 100 = 5,404.00.
  expect(before.sealRegular).toBe(true);
  expect(Object.fromEntries(before.mix.map((m: { category: string; cost: string }) => [m.category, m.cost]))).toMatchObject({ FAMILY_FARMING_PRIORITY_REGION: '25000.00', GENERAL: '20000.00' });
  expect(Number(before.pisDue)).toBe(1173.78);
  expect(Number(before.cofinsDue)).toBe(5404);
  // From 2026-04-07 every amount is zero (art. 5º §§2º–4º).
  expect(Number(window.pisDue)).toBe(0);
  expect(Number(window.cofinsDue)).toBe(0);
  expect(Number(taxPeriod.pisDue)).toBe(1173.78);
  expect(Number(taxPeriod.cofinsDue)).toBe(5404);
  expect(Number(taxPeriod.totalDue)).toBe(6577.78);
  // The month explains itself: the election of 2025-11-20 governs 2026 (Lei 11.116/2005, art. 4º §1º);
  // the zero window is cited only in the segment it applied to; no ad valorem rates under the special regime.
  expect(taxPeriod.regimeBasis).toContain('2025-11-20');
  expect(taxPeriod.regimeBasis).toContain('Lei 11.116/2005, art. 4º §1º');
  expect(before.legalBasis).not.toContain('§§2º–4º');
  expect(before.legalBasis).toContain('Decreto 10.527/2020, art. 6º, III');
  expect(window.legalBasis).toContain('Decreto 10.527/2020, art. 5º §§2º–4º');
  expect([before.pisRate, window.cofinsRate]).toEqual([null, null]);
});

test('ImportsOfMonth: September 2026, each declaration at the general amounts (art. 5º §1º), rounded on its own', async () => {
  const { importContributions, producer } = await run('ImportsOfMonth', { producerId: ids.producer, year: 2026, month: 9 });
  // 150 m³ × 26,41 = 3.961,50; × 121,59 = 18.238,50. 0,5 m³ × 26,41 = 13,205 → 13,20 (half-even, 0 is even);
  // × 121,59 = 60,795 → 60,80 (9 is odd: up). Totals 3.974,70 and 18.299,30; 22.274,00 in all.
  expect(importContributions.imports.map((l: any) => [l.declarationNumber, l.pisDue, l.cofinsDue])).toEqual([
    ['26/0900001-0', '3961.50', '18238.50'], ['26BR00000900002-5', '13.20', '60.80'],
  ]);
  expect([importContributions.volumeM3, importContributions.pisDue, importContributions.cofinsDue, importContributions.totalDue]).toEqual(['150.500', '3974.70', '18299.30', '22274.00']);
  expect(producer.imports.totalCount).toBe(2);
});

test('MonthsAcross2027: December 2026 with PIS/Cofins, January 2027 with the CBS, its rate not yet published', async () => {
  const { producer } = await run('MonthsAcross2027', { producerId: ids.producer });
  expect(producer.december.fuelTaxes).toEqual([]);
  expect([producer.january.pisDue, producer.january.cofinsDue]).toEqual(['0.00', '0.00']);
  expect(producer.january.segments).toEqual([expect.objectContaining({ from: '2027-01-01', to: '2027-01-31', pisCofinsInForce: false })]);
  // 40 m³ of own production sold on 2027-01-08; no import: the base is 40 m³, the amount unknown.
  expect(producer.january.fuelTaxes).toEqual([expect.objectContaining({ tax: 'CBS', status: 'RATE_NOT_PUBLISHED', volumeM3: '40.000', ratePerM3: null, due: null })]);
  expect(producer.january.warnings.map((w: any) => w.code)).toEqual(['RATE_NOT_PUBLISHED']);
  // No purchase in January: no CBS credit; with the rate unknown nothing is deducted or payable.
  expect([producer.january.credits.cbsPurchases, producer.january.net]).toEqual([[], {
    cbsDue: null, cbsCredits: '0.00', cbsCreditsDeducted: null, cbsOffset: null, cbsNetDue: null, cbsCreditBalance: '0.00',
  }]);
});

test('SealPlan: R$ 400.000 of castor from Feira de Santana (Semiárido) weighs 400.000 × 4 × 2 = 3.200.000; thirteen levers; nothing written', async () => {
  const before = await api.count('SELECT count(*) FROM purchase');
  const { sealPlan } = await run('SealPlan', {
    producerId: ids.producer, year: 2026,
    hypothetical: [{ kind: 'FAMILY_FARMING_ACQUISITION', amount: '400000', on: '2026-08-01', municipalityCode: '2910800', product: 'CASTOR_BEAN', label: 'Mamona' }],
  });
  expect(sealPlan.model).toBe('WEIGHTED');
  expect(sealPlan.hypothetical[0]).toMatchObject({ label: 'Mamona', counts: true, semiarid: true, weight: '8', weighted: '3200000.00' });
  expect(sealPlan.hypothetical[0].factors.map((f: { alinea: string }) => f.alinea)).toEqual(['d', 'f']);
  expect(sealPlan.levers).toHaveLength(13);
  // The minimum weighted percentage is not published: requirement 1 is not established.
  expect([sealPlan.minimumShare.weighted, sealPlan.minimumShare.met]).toEqual([null, null]);
  expect(await api.count('SELECT count(*) FROM purchase')).toBe(before);
});

test('SealComplianceOfYear and WhyPurchaseDidNotCount: João\'s 2025 purchase is excluded, and why', async () => {
  const { sealCompliance } = await run('SealComplianceOfYear', { producerId: ids.producer, year: 2025 });
  expect(sealCompliance.salesRevenue).toBe('250000.00');
  const excluded = sealCompliance.excluded.find((e: { id: string }) => e.id === ids.joaoPurchase);
  expect(excluded).toBeDefined();
  expect(excluded.amount).toBe('12500.00');
  expect(excluded.findings.map((f: { code: string }) => f.code)).toEqual(expect.arrayContaining([expect.stringMatching(/^(SUPPLIER_NOT_ELIGIBLE|REGISTRATION_NOT_VALID)$/)]));
  // Nothing counted: João was not eligible on 2025-03-10 (art. 2º IV). With no minimum weighted
  // percentage published the verdict is not established: null, never false.
  expect(sealCompliance.countedTotal).toBe('0.00');
  expect(sealCompliance.compliant).toBeNull();

  const { purchase } = await run('WhyPurchaseDidNotCount', { purchaseId: ids.joaoPurchase, purchasedOn: '2025-03-10' });
  expect(purchase).toMatchObject({
    id: ids.joaoPurchase,
    purchasedOn: '2025-03-10',
    supplierKind: 'FAMILY_FARMER',
    familyFarmingOrigin: false,
    originMunicipality: { name: 'Feira de Santana', state: 'BA', priorityRegion: true },
    familyFarmer: { name: 'João do Sertão', eligibleOn: false, registrations: [{ kind: 'DAP', number: 'DAP-BA-0002', validFrom: '2020-01-01', validUntil: '2024-12-31' }] },
    organization: null,
    contract: null,
  });
  // selo: the purchase's own verdict for 2025, the very findings sealCompliance.excluded lists for it:
  // no contract (art. 3º §2 II) and a DAP that ended 2024-12-31 (art. 2º IV).
  expect(purchase.selo).toMatchObject({ year: 2025, counts: false, kind: 'FAMILY_FARMING_ACQUISITION' });
  expect(purchase.selo.findings.map((f: { code: string }) => f.code)).toEqual(excluded.findings.map((f: { code: string }) => f.code));
  expect(purchase.selo.findings.map((f: { code: string }) => f.code)).toEqual(expect.arrayContaining(['NO_CONTRACT', 'SUPPLIER_NOT_ELIGIBLE', 'REGISTRATION_NOT_VALID']));
});

test('ProgramOverview: one producer, regular all along; 2025\'s sales and nothing counted (João\'s purchase excluded)', async () => {
  const { programOverview: o } = await run('ProgramOverview', { year: 2025, from: 2024 });
  expect(o.producerCount).toBe(1);
  expect(o.byStanding.find((s: { standing: string }) => s.standing === 'REGULAR').producers).toBe(1);
  expect(o.standingChanges).toEqual([]);
  expect(o.spending).toMatchObject({ salesRevenue: '250000.00', actualTotal: '0.00', weightedTotal: '0.00' });
  expect(o.families.familyFarmers).toBe(0);
  expect(o.producers).toEqual([{ producer: { id: ids.producer, legalName: 'Biodiesel Exemplo S.A.' }, standing: 'REGULAR', compliance: expect.any(String), sealCompliance: expect.objectContaining({ actualTotal: '0.00' }) }]);
  expect(o.years.map((y: { year: number }) => y.year)).toEqual([2024, 2025]);
});

describe('on the demo dataset, with the variables GraphiQL opens with', () => {
  let demo: TestApi;
  beforeAll(async () => {
    demo = await startTestApi();
    // The saved operations name the demo's records by the ids a new database gives them.
    await idsAsInProduction(demo.db.dataSource);
    await loadDemoData(demo.db.dataSource);
  }, 120_000);
  afterAll(async () => { await demo.close(); });

  const runSaved = async (name: string) => {
    const op = example(name);
    const res = await demo.gql(op.query, op.variables, { role: 'AUDITOR' });
    expect(res.errors).toBeUndefined();
    return { data: res.data as Record<string, any>, variables: op.variables };
  };

  test('every saved operation answers without errors', async () => {
    for (const op of EXAMPLE_OPERATIONS) {
      const res = await demo.gql(op.query, op.variables, { role: 'AUDITOR' });
      expect({ name: op.name, errors: res.errors }).toEqual({ name: op.name, errors: undefined });
    }
  });

  test('ProducerMonth shows a real month: the producer exists and April 2026 has its two segments', async () => {
    const { data, variables } = await runSaved('ProducerMonth');
    expect(data.taxPeriod.producer.id).toBe(variables.producerId);
    expect(data.taxPeriod.segments.map((s: { from: string; to: string }) => [s.from, s.to])).toEqual([['2026-04-01', '2026-04-06'], ['2026-04-07', '2026-04-30']]);
    expect(data.taxPeriod.segments[0].mix.length).toBeGreaterThan(0);
  });

  test('ImportsOfMonth shows the demo producer\'s September import; May\'s, in the window, owes R$ 0,00 (art. 5º §3º)', async () => {
    const { data } = await runSaved('ImportsOfMonth');
    // 380,5 m³ × 26,41 = 10.049,005 → 10.049,00 (half-even: 0 is even); × 121,59 = 46.264,995 → 46.265,00.
    expect(data.importContributions).toMatchObject({ volumeM3: '380.500', pisDue: '10049.00', cofinsDue: '46265.00' });
    expect(data.producer.imports.totalCount).toBe(2);
    const may = await demo.gql(example('ImportsOfMonth').query, { producerId: '1', year: 2026, month: 5 }, { role: 'AUDITOR' });
    expect(may.data?.importContributions).toMatchObject({ volumeM3: '420.000', pisDue: '0.00', cofinsDue: '0.00' });
  });

  test('ProgramOverview: the demo producers, each in one standing and one verdict, the program\'s totals their sums', async () => {
    const { data } = await runSaved('ProgramOverview');
    const o = data.programOverview;
    const [{ n }] = await demo.db.dataSource.query('SELECT count(*)::int AS n FROM producer');
    expect(o.producerCount).toBe(n);
    const count = (rows: Array<{ producers: number }>) => rows.reduce((s, r) => s + r.producers, 0);
    expect([count(o.byStanding), count(o.byCompliance)]).toEqual([n, n]);
    const sum = o.producers.reduce((s: Decimal, p: { sealCompliance: { actualTotal: string } }) => s.plus(p.sealCompliance.actualTotal), new Decimal(0));
    expect(o.spending.actualTotal).toBe(sum.toFixed(2));
    expect(o.years.map((y: { year: number }) => y.year)).toEqual([2023, 2024, 2025]);
  });

  test('WhyPurchaseDidNotCount names a purchase that did not count, on its own date, and SealComplianceOfYear lists it', async () => {
    const { data, variables } = await runSaved('WhyPurchaseDidNotCount');
    const [row] = await demo.db.dataSource.query('SELECT producer_id::text AS producer, purchased_on FROM purchase WHERE id = $1', [variables.purchaseId]);
    expect(data.purchase.purchasedOn).toBe(row.purchased_on);
    expect(variables.purchasedOn).toBe(row.purchased_on);
    const year = Number(row.purchased_on.slice(0, 4));
    const compliance = example('SealComplianceOfYear');
    expect(compliance.variables).toEqual({ producerId: row.producer, year });
    const { data: c } = await runSaved('SealComplianceOfYear');
    const excluded = c.sealCompliance.excluded.find((e: { id: string }) => e.id === variables.purchaseId);
    expect(excluded).toBeDefined();
    expect(excluded.findings.length).toBeGreaterThan(0);
    // The reasons the purchase shows for itself: no valid DAP/CAF on the date (art. 2º IV), and a
    // contract signed after the purchase (art. 3º §2 II) — each listed by the compliance too.
    const codes = excluded.findings.map((f: { code: string }) => f.code);
    expect(data.purchase.familyFarmer.eligibleOn).toBe(false);
    expect(data.purchase.familyFarmer.registrations.every((r: { validFrom: string; validUntil: string }) => r.validUntil < row.purchased_on || r.validFrom > row.purchased_on)).toBe(true);
    expect(codes).toContain('REGISTRATION_NOT_VALID');
    expect(data.purchase.contract.signedOn > data.purchase.purchasedOn).toBe(true);
    expect(codes).toContain('NO_PRIOR_CONTRACT');
    expect(data.purchase.familyFarmingOrigin).toBe(false);
    // The purchase's own verdict says the same, in the same order.
    expect(data.purchase.selo.counts).toBe(false);
    expect(data.purchase.selo.findings.map((f: { code: string }) => f.code)).toEqual(codes);
  });
});
