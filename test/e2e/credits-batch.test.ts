import { startTestApi, TestApi } from '../support/api';
import { createProducer, grantSeal, nfeKey, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * The credits of a page of producers' months (the dashboard): every month of a producer as known
 * on a day is served by one fold from its first record (Lei 10.637/2002 and Lei 10.833/2003,
 * art. 3º § 4º; from 2027 LC 214/2025, art. 378), every producer's months read in ranged
 * statements. Each month must be exactly the month asked alone, over producers whose folds differ:
 * a claim taking its balance before the month's debit, a return reversing its month of origin, a
 * balance offset against the CBS, a closed month's kept credits, a cumulative year, no record
 * before September. A credit of 1,65% / 7,6% on R$ 100.000,00 net of ICMS is R$ 1.650,00 / 7.600,00;
 * a month with no raw material owes 26,41 / 121,59 per m³ sold at home.
 */

let api: TestApi;
/** Every figure as known on this day: the CBS rate is published the day before. */
const KNOWN = '2026-12-21';
/** April 2026 to March 2027: across the CBS's first months. */
const MONTHS = Array.from({ length: 12 }, (_, i) => ({ year: i < 9 ? 2026 : 2027, month: ((i + 3) % 12) + 1 }));
const ids: Record<'claim' | 'returned' | 'cbs' | 'closed' | 'cumulative' | 'late', string> = {} as never;

const CREDITS = `fragment C on TaxPeriod {
  year month incidence
  credits {
    lines { group codCred base pisRate cofinsRate pis cofins legalBasis } purchaseCount purchases { purchaseId status reason pis cofins }
    cbsPurchases { purchaseId status amount } presumed { status pis cofins } reversals { purchaseId originYear originMonth codCred pis cofins }
    awaiting awaitingElection method warnings
  }
  net { pisDebit cofinsDebit pisCreditsOfMonthDeducted cofinsCreditsOfMonthDeducted pisEarlierDeducted cofinsEarlierDeducted pisDue cofinsDue
    cbsDue cbsCredits cbsCreditsDeducted cbsCreditBalance cbsOffset cbsNetDue pisRefundable cofinsRefundable }
  balances { tax originYear originMonth group codCred original deducted claimed offsetAgainstCbs reversed remaining refundableFrom }
}`;
const alias = (m: { year: number; month: number }) => `m${m.year}_${m.month}`;
const page = (first: number, months: Array<{ year: number; month: number }>, selection: string) => `query($k: Date) { producers(first: ${first}) { edges { node { id
  ${months.map((m) => `${alias(m)}: taxPeriod(year: ${m.year}, month: ${m.month}, asKnownOn: $k) { ${selection} }`).join('\n  ')} } } } }`;
const PAGE = `${page(6, MONTHS, '...C')} ${CREDITS}`;
const ALONE = `query($p: ID!, $y: Int!, $m: Int!, $k: Date) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: $k) { ...C } } ${CREDITS}`;

const base = (producerId: string, on: string) => ({ producerId, purchasedOn: on, quantityKg: '1000', originMunicipalityCode: RECIFE });
/** Methanol from a company, CST 01, no ICMS: not raw material of the blend. */
const methanol = (producerId: string, on: string, over: object = {}) => ({
  ...base(producerId, on), feedstock: 'OTHER', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Metanol SA', purpose: 'OTHER_PRODUCT',
  creditSupplier: 'COMPANY', creditProduct: 'INPUT', pisCofinsCst: '01', icmsValue: '0', supplierDocument: '11.222.333/0001-81', ...over,
});
/** Tallow from a company (CST 01): the raw material, at the GENERAL amounts of 26,41 / 121,59 per m³. */
const tallow = (producerId: string, on: string) => ({
  ...base(producerId, on), feedstock: 'BEEF_TALLOW', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Frigorífico SA', creditSupplier: 'COMPANY', pisCofinsCst: '01', icmsValue: '0',
});
const sale = (producerId: string, soldOn: string, market: 'DOMESTIC' | 'EXPORT') => ({ producerId, soldOn, volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market });
async function record(purchases: object[], sales: object[]): Promise<string[]> {
  const made = purchases.length ? (await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: purchases })).recordPurchases : [];
  if (sales.length) await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: sales });
  return made.map((p: { id: string }) => p.id);
}
async function producer(name: string): Promise<string> {
  const id = await createProducer(api, name, RECIFE);
  await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2025-11-03' } });
  await grantSeal(api, id, '2028-12-31');
  return id;
}

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'fuel-tax-rate', scope: 'CBS', values: [{ name: 'perM3', value: '100' }], validFrom: '2027-01-01',
    publishedOn: '2026-12-20', legalBasis: 'Decreto hipotético nº 5/2026, art. 1º (CBS on biodiesel B100, per m³)',
  } });
  // The page lists producers by id: made in this order.
  ids.claim = await producer('Usina do Pedido');
  ids.returned = await producer('Usina da Devolução');
  ids.cbs = await producer('Usina da CBS');
  ids.closed = await producer('Usina do Mês Fechado');
  ids.cumulative = await producer('Usina Cumulativa');
  ids.late = await producer('Usina Tardia');

  // August: an export credit (301) of 1.650,00 / 7.600,00; a refund of the whole PIS/Pasep 301 filed on 15/10 (after the
  // quarter); October sells 10 m³ at home.
  await record([methanol(ids.claim, '2026-08-04')], [sale(ids.claim, '2026-08-20', 'EXPORT'), sale(ids.claim, '2026-10-20', 'DOMESTIC')]);
  await api.ok(`mutation($i: RecordCreditClaimInput!) { recordCreditClaim(input: $i) { id } }`, { i: {
    producerId: ids.claim, tax: 'PIS', originYear: 2026, originMonth: 8, codCred: '301', kind: 'REFUND', filedOn: '2026-10-15', amount: '1650',
  } });

  // August's export lot, half of it returned in October beside a domestic month of its own.
  const key = nfeKey('11222333000181', 1201);
  const [lotA] = await record([methanol(ids.returned, '2026-08-04', { invoiceKey: key })], [sale(ids.returned, '2026-08-20', 'EXPORT')]);
  await record([methanol(ids.returned, '2026-10-02')], [sale(ids.returned, '2026-10-20', 'DOMESTIC')]);
  await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: key, purchaseId: lotA, returnedOn: '2026-10-15', quantity: '500', value: '50000' }] });

  // December: tallow and 10 m³ at home; January 2027: 10 m³ more, under the CBS.
  await record([tallow(ids.cbs, '2026-12-01')], [sale(ids.cbs, '2026-12-10', 'DOMESTIC'), sale(ids.cbs, '2027-01-15', 'DOMESTIC')]);

  // February exports and closes; a lot bought in February and used in March is recorded after the close.
  await record([methanol(ids.closed, '2026-02-03')], [{ ...sale(ids.closed, '2026-02-20', 'EXPORT'), volumeM3: '1', revenue: '6000' }]);
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 2) { status } }`, { p: ids.closed });
  await record([methanol(ids.closed, '2026-02-10', { consumedOn: '2026-03-02' })], []);
  await api.ok(`mutation($i: ElectCreditApportionmentInput!) { electCreditApportionment(input: $i) { year } }`,
    { i: { producerId: ids.closed, year: 2026, method: 'REVENUE_RATIO', electedOn: '2026-01-05' } });

  // Methanol of November 2025 (non-cumulative) leaves 1.650,00 / 7.600,00; 2026 is cumulative: December's debit is due whole.
  await record([methanol(ids.cumulative, '2025-11-05'), tallow(ids.cumulative, '2026-12-01')], [sale(ids.cumulative, '2026-12-10', 'DOMESTIC')]);
  await api.ok(`mutation($i: ElectIncidenceRegimeInput!) { electIncidenceRegime(input: $i) { year } }`,
    { i: { producerId: ids.cumulative, year: 2026, regime: 'CUMULATIVE', electedOn: '2026-01-10' } });

  // No record before September; a claim filed in July stands on nothing (written directly: the API refuses it).
  await record([methanol(ids.late, '2026-09-02')], [sale(ids.late, '2026-09-20', 'EXPORT')]);
  await api.db.dataSource.query(`INSERT INTO credit_claim (producer_id, tax, origin_year, origin_month, cod_cred, kind, filed_on, amount)
    VALUES ($1, 'PIS', 2026, 5, '301', 'REFUND', '2026-07-10', 100)`, [ids.late]);
}, 120_000);
afterAll(async () => { await api?.close(); });

test('6 producers × 12 months of credits in a page: each month exactly the month asked alone', async () => {
  const nodes = (await api.ok(PAGE, { k: KNOWN })).producers.edges.map((e: any) => e.node);
  expect(nodes.map((n: any) => n.id)).toEqual(Object.values(ids));
  for (const node of nodes) {
    const alone = await Promise.all(MONTHS.map((m) => api.ok(ALONE, { p: node.id, y: m.year, m: m.month, k: KNOWN })));
    MONTHS.forEach((m, i) => expect([node.id, node[alias(m)]]).toEqual([node.id, alone[i].taxPeriod]));
  }
  const of = (who: keyof typeof ids, year: number, month: number) => nodes.find((n: any) => n.id === ids[who])[alias({ year, month })];

  // The claim takes August's 1.650,00 before October's debit of 10 × 26,41 = 264,10, which is then due whole; Cofins
  // 1.215,90 is deducted from 7.600,00 (6.384,10 left).
  expect(of('claim', 2026, 10).net).toMatchObject({ pisDebit: '264.10', pisDue: '264.10', cofinsDebit: '1215.90', cofinsDue: '0.00' });
  expect(of('claim', 2026, 10).balances.map((b: any) => [b.tax, b.codCred, b.claimed, b.deducted, b.remaining])).toEqual([
    ['PIS', '301', '1650.00', '0.00', '0.00'], ['COFINS', '301', '0.00', '1215.90', '6384.10'],
  ]);
  // The return of half of lot A reverses August's 301 (825,00 / 3.800,00 left); October's 101 pays its own debit:
  // 1.650,00 − 264,10 = 1.385,90 and 7.600,00 − 1.215,90 = 6.384,10.
  expect(of('returned', 2026, 10).balances.map((b: any) => [b.tax, b.originMonth, b.codCred, b.deducted, b.reversed, b.remaining])).toEqual([
    ['PIS', 8, '301', '0.00', '825.00', '825.00'], ['COFINS', 8, '301', '0.00', '3800.00', '3800.00'],
    ['PIS', 10, '101', '264.10', '0.00', '1385.90'], ['COFINS', 10, '101', '1215.90', '0.00', '6384.10'],
  ]);
  // January 2027: CBS 10 × 100,00 = 1.000,00, offset by December's PIS/Pasep balance of 1.385,90 (385,90 left).
  expect(of('cbs', 2027, 1).net).toMatchObject({ cbsDue: '1000.00', cbsOffset: '1000.00', cbsNetDue: '0.00' });
  expect(of('cbs', 2027, 1).balances.map((b: any) => [b.tax, b.offsetAgainstCbs, b.remaining])).toEqual([['PIS', '1000.00', '385.90'], ['COFINS', '0.00', '6384.10']]);
  // The closed February keeps its one lot: 1.650,00 / 7.600,00, not the 3.300,00 / 15.200,00 the second lot would make.
  expect(of('closed', 2026, 4).balances.map((b: any) => [b.originMonth, b.codCred, b.remaining])).toEqual([[2, '301', '1650.00'], [2, '301', '7600.00']]);
  // Cumulative 2026: no credit, December's 264,10 / 1.215,90 due whole, November 2025's balance carried untouched.
  expect(of('cumulative', 2026, 12)).toMatchObject({ incidence: 'CUMULATIVE', net: { pisDue: '264.10', cofinsDue: '1215.90' } });
  expect(of('cumulative', 2026, 12).balances.map((b: any) => [b.originYear, b.originMonth, b.remaining])).toEqual([[2025, 11, '1650.00'], [2025, 11, '7600.00']]);
  // Before its first record a month is folded alone: July says its claim stands on nothing; from September the fold starts
  // at the first record, without it.
  expect(of('late', 2026, 7).credits.warnings).toEqual([expect.stringMatching(/^2026-07: claim \d+ \(REFUND of 100\.00, PIS 2026-05 COD_CRED 301, filed 2026-07-10\) NO_BALANCE/)]);
  expect(of('late', 2026, 8).credits.warnings).toEqual([]);
  expect(of('late', 2026, 9).credits.warnings).toEqual([]);
  expect(of('late', 2026, 9).balances.map((b: any) => [b.originMonth, b.codCred, b.remaining])).toEqual([[9, '301', '1650.00'], [9, '301', '7600.00']]);
}, 120_000);

test('the statements of a page\'s credits do not grow with its months or its producers', async () => {
  const NET = 'net { pisDue cofinsDue }';
  const statements = async (query: string) => {
    api.statements.reset();
    await api.ok(query, { k: KNOWN });
    return api.statements.count;
  };
  await statements(page(1, MONTHS.slice(0, 1), NET)); // the law book is loaded once, then cached
  const one = await statements(page(1, MONTHS.slice(0, 1), NET));
  const all = await statements(page(6, MONTHS, NET));
  // One month of one producer: the page, its months, the fold's reads; 72 months of 6 producers: the same statements.
  expect(one).toBeLessThanOrEqual(30);
  expect(all).toBe(one);

  // A month asked again, deeper in the request, and an earlier one: served by the fold already read (only their tax months are read).
  const root = `query($p: ID!, $k: Date) { taxPeriod(producerId: $p, year: 2027, month: 3, asKnownOn: $k) { net { pisDue cbsDue } } }`;
  const nested = `query($p: ID!, $k: Date) { taxPeriod(producerId: $p, year: 2027, month: 3, asKnownOn: $k) { net { pisDue cbsDue } producer {
    again: taxPeriod(year: 2027, month: 3, asKnownOn: $k) { net { pisDue cbsDue } } earlier: taxPeriod(year: 2026, month: 10, asKnownOn: $k) { net { pisDue cbsDue } } } } }`;
  const count = async (query: string) => {
    api.statements.reset();
    const data = await api.ok(query, { p: ids.returned, k: KNOWN });
    return { data, statements: api.statements.count, folds: api.statements.statements.filter((s) => s.includes('FROM credit_claim')).length };
  };
  const alone = await count(root);
  const deeper = await count(nested);
  expect([alone.folds, deeper.folds]).toEqual([1, 1]);
  expect(deeper.statements - alone.statements).toBeLessThanOrEqual(8);
  expect(deeper.data.taxPeriod.producer.again.net).toEqual(alone.data.taxPeriod.net);
  // October as asked alone: its debit 264,10 paid by its own credit.
  expect(deeper.data.taxPeriod.producer.earlier.net).toEqual({ pisDue: '0.00', cbsDue: null });
});
