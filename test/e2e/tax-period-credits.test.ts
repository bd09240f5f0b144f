import { Client } from 'pg';
import { Decimal } from '../../src/law/decimal';
import { startTestApi, TestApi } from '../support/api';
import { efdProblems } from '../support/efd-layout';
import { createProducer, grantSeal, newCpf, nfeKey, RECIFE, upsertMunicipalities } from '../support/fixtures';

/**
 * The month's credits, net and balances over real PostgreSQL (Lei 10.637/2002 and Lei 10.833/2003,
 * art. 3º; Lei 11.116/2005, art. 16; LC 214/2025, art. 378). Every figure is worked by hand:
 * a credit of 1,65% / 7,6% on R$ 100.000,00 net of ICMS is R$ 1.650,00 / 7.600,00.
 */

let api: TestApi;
let farmer: string;
const CAF = [{ kind: 'CAF', number: 'CAF-C1', validFrom: '2024-01-01', validUntil: '2027-12-31' }];

beforeAll(async () => {
  api = await startTestApi();
  await upsertMunicipalities(api, [RECIFE]);
  farmer = (await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`,
    { i: { cpf: newCpf(), name: 'Agricultora Crédito', municipalityCode: RECIFE, registrations: CAF } })).createFamilyFarmer.id;
});
afterAll(async () => { await api.close(); });

async function producer() {
  const id = await createProducer(api, 'Usina de Biodiesel', RECIFE);
  await api.ok(`mutation($i: ElectRegimeInput!) { electRegime(input: $i) { effectiveYear } }`, { i: { producerId: id, regime: 'SPECIAL_PER_M3', electedOn: '2025-11-03' } });
  await grantSeal(api, id);
  return id;
}

const base = (producerId: string, on: string) => ({ producerId, purchasedOn: on, quantityKg: '1000', originMunicipalityCode: RECIFE });
/** Methanol from a company, CST 01, no ICMS: not raw material of the blend, hence purpose OTHER_PRODUCT. */
const methanol = (producerId: string, on: string) => ({
  ...base(producerId, on), feedstock: 'OTHER', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Metanol SA', purpose: 'OTHER_PRODUCT',
  creditSupplier: 'COMPANY', creditProduct: 'INPUT', pisCofinsCst: '01', icmsValue: '0', supplierDocument: '11.222.333/0001-81',
});
async function record(purchases: object[], sales: object[]) {
  if (purchases.length) await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: purchases });
  if (sales.length) await api.ok(`mutation($i: [RecordSaleInput!]!) { recordSales(input: $i) { id } }`, { i: sales });
}
const MONTH = `query($p: ID!, $y: Int!, $m: Int!, $k: Date) { taxPeriod(producerId: $p, year: $y, month: $m, asKnownOn: $k) {
  pisDue cofinsDue
  credits { lines { group codCred base pisRate cofinsRate pis cofins legalBasis } purchases { purchaseId status reason pis cofins legalBasis } presumed { status } awaiting awaitingElection }
  net { pisDebit cofinsDebit pisEarlierDeducted pisDue cofinsDue cbsDue cbsOffset cbsNetDue pisRefundable cofinsRefundable }
  balances { tax originYear originMonth group codCred original deducted claimed offsetAgainstCbs reversed remaining refundableFrom }
} }`;
const month = async (p: string, y: number, m: number, k?: string) => (await api.ok(MONTH, { p, y, m, k: k ?? null })).taxPeriod;
const sumOf = (xs: string[]) => xs.reduce((a, x) => a.plus(x), new Decimal(0)).toFixed(2);
const CLAIM = `mutation($i: RecordCreditClaimInput!) { recordCreditClaim(input: $i) { id codCred amount } }`;

test('a quarter with a category III month and an export month: the kept credits become a refund claim', async () => {
  const id = await producer();
  // August: a family farmer of the Nordeste (category III, R$ 0,00, Decreto 10.527/2020, art. 6º III) and methanol; 100 m³ sold at R$ 0,00.
  await record([
    { ...base(id, '2026-08-03'), feedstock: 'CASTOR_BEAN', cost: '50000', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer },
    methanol(id, '2026-08-04'),
  ], [{ producerId: id, soldOn: '2026-08-20', volumeM3: '100', revenue: '500000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);
  // September: methanol and an export.
  await record([methanol(id, '2026-09-02')], [{ producerId: id, soldOn: '2026-09-20', volumeM3: '100', revenue: '500000', origin: 'OWN_PRODUCTION', market: 'EXPORT' }]);

  const aug = await month(id, 2026, 8);
  expect([aug.pisDue, aug.cofinsDue]).toEqual(['0.00', '0.00']);
  const [farm, meth] = aug.credits.purchases;
  expect([farm.status, farm.reason, farm.pis]).toEqual(['NO_CREDIT', 'NATURAL_PERSON_SUPPLIER', null]);
  expect(farm.legalBasis).toContain('art. 3º § 3º I');
  expect([meth.status, meth.pis, meth.cofins]).toEqual(['CREDIT', '1650.00', '7600.00']);
  expect(aug.credits.lines.map((l: any) => [l.group, l.codCred, l.base, l.pis, l.cofins])).toEqual([['UNTAXED_DOMESTIC', '201', '100000.00', '1650.00', '7600.00']]);
  // The art. 31 credit on the R$ 500.000,00 of revenue waits for its share.
  expect(aug.credits.presumed.map((p: any) => p.status)).toEqual(['AWAITING_PARAMETER']);
  expect([aug.net.pisRefundable, aug.net.cofinsRefundable]).toEqual(['0.00', '0.00']); // the quarter has not ended

  const sep = await month(id, 2026, 9);
  expect(sep.credits.lines.map((l: any) => l.codCred)).toEqual(['301']);
  expect([sep.net.pisRefundable, sep.net.cofinsRefundable]).toEqual(['3300.00', '15200.00']);
  expect(sep.balances.map((b: any) => [b.tax, b.originMonth, b.codCred, b.remaining, b.refundableFrom])).toEqual([
    ['PIS', 8, '201', '1650.00', '2026-10-01'], ['COFINS', 8, '201', '7600.00', '2026-10-01'],
    ['PIS', 9, '301', '1650.00', '2026-10-01'], ['COFINS', 9, '301', '7600.00', '2026-10-01'],
  ]);

  const claim = { producerId: id, tax: 'COFINS', originYear: 2026, originMonth: 9, codCred: '301', kind: 'REFUND', filedOn: '2026-10-15', amount: '7000' };
  const early = await api.gql(CLAIM, { i: { ...claim, filedOn: '2026-09-30' } });
  expect(early.errors![0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'CREDIT_CLAIM', claimReason: 'BEFORE_QUARTER_END' });
  const short = await api.gql(CLAIM, { i: { ...claim, amount: '7600.01' } });
  expect(short.errors![0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'CREDIT_CLAIM', claimReason: 'EXCEEDS_BALANCE', available: '7600' });
  expect(await api.count('SELECT count(*) FROM credit_claim WHERE producer_id = $1', [id])).toBe(0);
  expect((await api.ok(CLAIM, { i: claim })).recordCreditClaim).toMatchObject({ codCred: '301', amount: '7000.00' });

  const after = (await api.ok(`query($p: ID!) { creditBalances(producerId: $p, on: "2026-10-20") { tax codCred claimed remaining } }`, { p: id })).creditBalances;
  expect(after.find((b: any) => b.tax === 'COFINS' && b.codCred === '301')).toEqual({ tax: 'COFINS', codCred: '301', claimed: '7000.00', remaining: '600.00' });
  const oct = await month(id, 2026, 10);
  expect([oct.net.pisRefundable, oct.net.cofinsRefundable]).toEqual(['3300.00', '8200.00']);
});

test('as many claims at once as the pool has connections: each waits its turn, none starves the one holding the balance', async () => {
  const id = await producer();
  await record([methanol(id, '2026-09-02')], [{ producerId: id, soldOn: '2026-09-20', volumeM3: '100', revenue: '500000', origin: 'OWN_PRODUCTION', market: 'EXPORT' }]);
  // The producer's claims held from outside the pool; the claims then wait holding every connection of it.
  const holder = new Client({ connectionString: api.db.url });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`credit-claim:${id}`]);
    const pool = (api.db.dataSource.options.extra as { max: number }).max;
    const claims = Array.from({ length: pool }, (_, k) => api.gql(CLAIM, { i: {
      producerId: id, tax: 'COFINS', originYear: 2026, originMonth: 9, codCred: '301', kind: 'REFUND', filedOn: '2026-10-15', amount: String(1000 + k),
    } }));
    // This database's waits only: the cluster may hold other test files' databases.
    const waiting = async () => Number((await holder.query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)).rows[0].n);
    for (let i = 0; i < 300 && (await waiting()) < pool; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await waiting()).toBe(pool);
    await holder.query('COMMIT');
    const answers = await Promise.all(claims);
    // 1000 + 1001 + … within the 7.600,00 of Cofins: each recorded, one after the other.
    expect(answers.map((a) => a.errors?.[0].extensions?.code ?? 'recorded')).toEqual(answers.map(() => 'recorded'));
    const [{ claimed }] = await api.db.dataSource.query(`SELECT sum(amount)::text AS claimed FROM credit_claim WHERE producer_id = $1`, [id]);
    expect(Number(claimed)).toBe(Array.from({ length: pool }, (_, k) => 1000 + k).reduce((a, b) => a + b, 0));
  } finally {
    await holder.end();
  }
});

test('a 2027 month offsets a 2026 balance against the CBS (LC 214/2025, art. 378 III)', async () => {
  const id = await producer();
  // December 2026: tallow from a company (CST 01) is the raw material (GENERAL, R$ 26,41 / 121,59 per m³); 10 m³ sold.
  await record([{
    ...base(id, '2026-12-01'), feedstock: 'BEEF_TALLOW', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Frigorífico SA',
    creditSupplier: 'COMPANY', pisCofinsCst: '01', icmsValue: '0',
  }], [{ producerId: id, soldOn: '2026-12-10', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);
  const dec = await month(id, 2026, 12);
  // Debit 10 × 26,41 = 264,10 and 10 × 121,59 = 1.215,90, all deducted from the credit of 1.650,00 / 7.600,00.
  expect(dec.net).toMatchObject({ pisDebit: '264.10', cofinsDebit: '1215.90', pisDue: '0.00', cofinsDue: '0.00', cbsDue: null });
  expect(dec.balances.map((b: any) => [b.codCred, b.remaining, b.refundableFrom])).toEqual([['101', '1385.90', null], ['101', '6384.10', null]]);

  await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'fuel-tax-rate', scope: 'CBS', values: [{ name: 'perM3', value: '100' }], validFrom: '2027-01-01',
    publishedOn: '2026-12-20', legalBasis: 'Decreto hipotético nº 2/2026, art. 1º (CBS on biodiesel B100, per m³)',
  } });
  await record([], [{ producerId: id, soldOn: '2027-01-15', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);
  const jan = await month(id, 2027, 1, '2026-12-21');
  // CBS 10 × 100,00 = 1.000,00, offset by the PIS/Pasep balance first (1.385,90 → 385,90).
  expect(jan.net).toMatchObject({ pisDue: '0.00', cofinsDue: '0.00', cbsDue: '1000.00', cbsOffset: '1000.00', cbsNetDue: '0.00' });
  expect(jan.balances.map((b: any) => [b.tax, b.originYear, b.offsetAgainstCbs, b.remaining])).toEqual([['PIS', 2026, '1000.00', '385.90'], ['COFINS', 2026, '0.00', '6384.10']]);
  expect(jan.credits.lines).toEqual([]);
  // As known before the rate's publication, the CBS and its offset are awaited.
  const unknown = await month(id, 2027, 1, '2026-12-19');
  expect(unknown.net).toMatchObject({ cbsDue: null, cbsOffset: null });
});

test('the apportionment method is elected once a year; a PRODUCER sees only its own balances', async () => {
  const id = await producer();
  const other = await producer();
  const ELECT = `mutation($i: ElectCreditApportionmentInput!) { electCreditApportionment(input: $i) { year method } }`;
  const i = { producerId: id, year: 2026, method: 'REVENUE_RATIO', electedOn: '2026-01-05' };
  expect((await api.ok(ELECT, { i }, { role: 'PRODUCER', producerId: id })).electCreditApportionment).toEqual({ year: 2026, method: 'REVENUE_RATIO' });
  expect((await api.gql(ELECT, { i })).errors![0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'APPORTIONMENT_ALREADY_ELECTED' });
  const foreign = await api.gql(`query($p: ID!) { creditBalances(producerId: $p, on: "2026-10-20") { tax } }`, { p: other }, { role: 'PRODUCER', producerId: id });
  expect(foreign.errors![0].extensions!.code).toBe('NOT_FOUND');
  const auditor = await api.gql(ELECT, { i: { ...i, producerId: other } }, { role: 'AUDITOR' });
  expect(auditor.errors![0].extensions!.code).toBe('FORBIDDEN');
});

test('a closed month keeps the credits it closed with', async () => {
  const id = await producer();
  await record([methanol(id, '2026-02-03')], [{ producerId: id, soldOn: '2026-02-20', volumeM3: '1', revenue: '6000', origin: 'OWN_PRODUCTION', market: 'EXPORT' }]);
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 2) { status } }`, { p: id });
  // Bought in February, used in March (an open month): recomputed live it would add a credit to February.
  await record([{ ...methanol(id, '2026-02-10'), consumedOn: '2026-03-02' }], []);
  const feb = await month(id, 2026, 2);
  expect(feb.credits.lines.map((l: any) => [l.codCred, l.pis, l.cofins])).toEqual([['301', '1650.00', '7600.00']]);
  expect(feb.credits.purchases).toHaveLength(1);
  await api.ok(`mutation($p: ID!) { reopenTaxPeriod(producerId: $p, year: 2026, month: 2, reason: "correction") { status } }`, { p: id });
  expect((await month(id, 2026, 2)).credits.lines.map((l: any) => l.pis)).toEqual(['3300.00']);
  // Closed again, it keeps what it closes with now (both lots: 2 × 1.650,00), not the first close's credits.
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 2) { status } }`, { p: id });
  const again = await month(id, 2026, 2);
  expect(again.credits.lines.map((l: any) => [l.codCred, l.pis, l.cofins])).toEqual([['301', '3300.00', '15200.00']]);
  expect(again.credits.purchases).toHaveLength(2);
});

test('the EFD-Contribuições carries the credits: M100/M105, M200 with the balances deducted, 1100 by month of origin', async () => {
  const id = await producer();
  // November: methanol, no sale (its credit stays in group 100); December: tallow from a company and 10 m³ sold at GENERAL.
  await record([methanol(id, '2026-11-05'), {
    ...base(id, '2026-12-01'), feedstock: 'BEEF_TALLOW', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Frigorífico SA',
    creditSupplier: 'COMPANY', pisCofinsCst: '01', icmsValue: '0',
  }], [{ producerId: id, soldOn: '2026-12-10', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);
  await api.ok(`mutation($i: ElectCreditApportionmentInput!) { electCreditApportionment(input: $i) { year } }`,
    { i: { producerId: id, year: 2026, method: 'REVENUE_RATIO', electedOn: '2026-01-02' } });
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 12) { status } }`, { p: id });
  const efd = async () => fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=2026&month=12`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  // The tallow's supplier has no CNPJ on record: C191/C195 field 02 is required, so the file waits for it and names the purchase.
  const tallowId = (await month(id, 2026, 12)).credits.purchases[0].purchaseId;
  const refused = await efd();
  expect(refused.status).toBe(400);
  const problem = JSON.parse(await refused.text()).error;
  expect([problem.field, problem.message]).toEqual(['month', expect.stringContaining(`record none: ${tallowId}.`)]);
  const bad = await api.gql(`mutation($id: ID!) { correctPurchase(id: $id, expectedVersion: 1, input: { supplierDocument: "11.222.333/0001-82" }) { purchase { id } } }`, { id: tallowId });
  expect(bad.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.supplierDocument' });
  await api.ok(`mutation($p: ID!) { reopenTaxPeriod(producerId: $p, year: 2026, month: 12, reason: "supplier's CNPJ") { status } }`, { p: id });
  const fixed = await api.ok(`mutation($id: ID!) { correctPurchase(id: $id, expectedVersion: 1, input: { supplierDocument: "60.746.948/0001-12" }) { purchase { supplierDocument } } }`, { id: tallowId });
  expect(fixed.correctPurchase.purchase.supplierDocument).toBe('60746948000112');
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 12) { status } }`, { p: id });
  const res = await efd();
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  const only = (...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  // The revenue ratio elected: 0110 IND_APRO_CRED 2 and the month's revenue by group in 0111.
  expect(only('0110', '0111')).toEqual(['|0110|1|2|2||', '|0111|60000,00|0,00|0,00|0,00|60000,00|']);
  // The tallow bought in December, at the head office: its item in 0200 (kg), C190 with its NCM, and C191/C195 with the supplier,
  // CST 50 (group 100), CFOP 1101 (Recife to Recife, for industrialization), 100.000,00 × 1,65% and × 7,6%; it sums to M105/M505.
  expect(only('0190', '0200', 'C010', 'C190', 'C191', 'C195')).toEqual([
    '|0190|KG|Quilograma|', '|0190|M3|Metro cubico|',
    '|0200|BIODIESEL-B100|Biodiesel B100|||M3|04|38260000||38|||', '|0200|MP-BEEF_TALLOW|Materia-prima BEEF_TALLOW|||KG|01|15021019||15|||',
    expect.stringMatching(/^\|C010\|\d{14}\|1\|$/),
    '|C190|55|01122026|01122026|MP-BEEF_TALLOW|15021019||100000,00|',
    '|C191|60746948000112|50|1101|100000,00|0,00|100000,00|1,6500|||1650,00||',
    '|C195|60746948000112|50|1101|100000,00|0,00|100000,00|7,6000|||7600,00||',
  ]);
  // The layout check rebuilds M105 from the C191 bases, and wants the participant of a domestic entry.
  const broken = (from: string, to: string) => efdProblems(Buffer.from(body.toString('latin1').replace(from, to), 'latin1'));
  expect(broken('|C191|60746948000112|50|1101|100000,00|0,00|100000,00|', '|C191|60746948000112|50|1101|100000,00|1000,00|99000,00|')).toEqual([
    expect.stringMatching(/^line \d+ \(C191\): VL is not VL_BC × ALIQ \/ 100$/), 'M105 of NAT_BC_CRED, CST and rate 02|50|1.6500: 100000.00, the C191 bases sum 99000.00 (under M100)',
  ]);
  expect(broken('|C191|60746948000112|', '|C191||')).toEqual([expect.stringMatching(/\(C191\): CNPJ_CPF_PART "" with CFOP 1101$/)]);
  // The debit, 10 × 26,41 = 264,10, takes November's balance first (the oldest): December's credit is all carried.
  expect(only('M100', 'M105', 'M200', 'M205')).toEqual([
    '|M100|101|0|100000,00|1,6500|||1650,00|0,00|0,00|0,00|1650,00|1|0,00|1650,00|',
    '|M105|02|50|100000,00||100000,00|100000,00||||',
    '|M200|264,10|0,00|264,10|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|',
  ]);
  expect(only('M500', 'M600')).toEqual([
    '|M500|101|0|100000,00|7,6000|||7600,00|0,00|0,00|0,00|7600,00|1|0,00|7600,00|',
    '|M600|1215,90|0,00|1215,90|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|',
  ]);
  expect(only('1001', '1100', '1500')).toEqual([
    '|1001|0|',
    '|1100|112026|01||101|1650,00||1650,00|0,00|0,00|0,00|1650,00|264,10|0,00|0,00|0,00|0,00|1385,90|',
    '|1100|122026|01||101|1650,00||1650,00|0,00|0,00|0,00|1650,00|0,00|0,00|0,00|0,00|0,00|1650,00|',
    '|1500|112026|01||101|7600,00||7600,00|0,00|0,00|0,00|7600,00|1215,90|0,00|0,00|0,00|0,00|6384,10|',
    '|1500|122026|01||101|7600,00||7600,00|0,00|0,00|0,00|7600,00|0,00|0,00|0,00|0,00|0,00|7600,00|',
  ]);

  // The month's statement shows the debits, the credits, the net and the balances.
  const csv = await fetch(api.url.replace('/graphql', `/export/tax-period?producer=${id}&year=2026&month=12&format=csv&locale=en`), {
    headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` },
  });
  const text = Buffer.from(await csv.arrayBuffer()).toString('utf8');
  const section = (title: string) => text.split(/\r?\n\r?\n/).find((x) => x.startsWith(title))!.split(/\r?\n/);
  expect(section("The month's net")).toEqual(expect.arrayContaining([
    'PIS/Pasep debit (R$),264.10', 'PIS/Pasep: earlier balances deducted (R$),264.10', 'PIS/Pasep payable (R$),0.00', 'Cofins payable (R$),0.00',
    '"Amounts awaiting a fact, a parameter or the election",presumed credit from 2026-12-10: presumed-credit-biodiesel',
  ]));
  expect(section('Credits of the month by COD_CRED').slice(2).map((r) => r.split(',').slice(0, 7))).toEqual([['101', 'TAXED_DOMESTIC', '100000.00', '0.0165', '0.076', '1650.00', '7600.00']]);
  expect(section('Balances after the month').slice(2)).toEqual([
    'PIS,2026-11,101,1650.00,264.10,0.00,0.00,0.00,1385.90,', 'COFINS,2026-11,101,7600.00,1215.90,0.00,0.00,0.00,6384.10,',
    'PIS,2026-12,101,1650.00,0.00,0.00,0.00,0.00,1650.00,', 'COFINS,2026-12,101,7600.00,0.00,0.00,0.00,0.00,7600.00,',
  ]);
});

test('a cancelled NF-e gives no credit; a return reverses its share on its day', async () => {
  const id = await producer();
  const [k1, k2] = [nfeKey('11222333000181', 901), nfeKey('11222333000181', 902)];
  await record([{ ...methanol(id, '2026-03-02'), invoiceKey: k1 }, { ...methanol(id, '2026-03-03'), invoiceKey: k2 }], [
    { producerId: id, soldOn: '2026-03-20', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'EXPORT' },
    { producerId: id, soldOn: '2026-04-20', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'EXPORT' },
  ]);
  expect((await month(id, 2026, 3)).credits.lines.map((l: any) => l.pis)).toEqual(['3300.00']);
  await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { purchases { id } } }`, { k: k1 });
  const mar = await month(id, 2026, 3);
  expect([mar.credits.purchases.length, mar.credits.lines.map((l: any) => [l.codCred, l.pis, l.cofins])]).toEqual([1, [['301', '1650.00', '7600.00']]]);
  const b = mar.credits.purchases[0].purchaseId;
  // 10% of the lot comes back in April: R$ 10.000,00 reverses 165,00 and 760,00 of the credit there.
  await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: k2, purchaseId: b, returnedOn: '2026-04-10', quantity: '100', value: '10000' }] });
  const apr = await month(id, 2026, 4);
  // Not a credit line of April: a reversal of March's 301 balance, which holds the lot's credit (the 1100 key).
  expect(apr.credits.lines).toEqual([]);
  const reversals = (await api.ok(`query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 4) { credits { reversals { purchaseId on originYear originMonth group codCred base pis cofins } } } }`,
    { p: id })).taxPeriod.credits.reversals;
  expect(reversals).toEqual([{ purchaseId: b, on: '2026-04-10', originYear: 2026, originMonth: 3, group: 'EXPORT', codCred: '301', base: '-10000.00', pis: '-165.00', cofins: '-760.00' }]);
  // The reversal takes March's balance (1.650,00 − 165,00) as reversed, not deducted; nothing payable.
  expect(apr.balances.filter((x: any) => x.tax === 'PIS').map((x: any) => [x.originMonth, x.deducted, x.reversed, x.remaining])).toEqual([[3, '0.00', '165.00', '1485.00']]);
  expect([apr.net.pisDue, apr.net.pisEarlierDeducted]).toEqual(['0.00', '0.00']);

  // The EFD of April: March's balance used "by other forms" (1100/1500 field 17), and M200/M600 add up.
  for (const m of [3, 4]) await api.ok(`mutation($p: ID!, $m: Int!) { closeTaxPeriod(producerId: $p, year: 2026, month: $m) { status } }`, { p: id, m });
  const efd = async (m: number) => Buffer.from(await (await fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=2026&month=${m}`), {
    headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` },
  })).arrayBuffer());
  const april = await efd(4);
  expect(efdProblems(april)).toEqual([]);
  const only = (body: Buffer, ...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  expect(only(april, 'M100', 'M200', '1100', '1500')).toEqual([
    '|M200|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|',
    '|1100|032026|01||301|1650,00||1650,00|0,00|0,00|0,00|1650,00|0,00|0,00|0,00|0,00|165,00|1485,00|',
    '|1500|032026|01||301|7600,00||7600,00|0,00|0,00|0,00|7600,00|0,00|0,00|0,00|0,00|760,00|6840,00|',
  ]);
  // May and June: April's reversal is no deduction of an earlier period (field 09, VL_CRED_DESC_PA_ANT, stays 0,00, as the
  // balances' `deducted`); the Guia has no field for other uses before the period, so March's credit enters net of it:
  // 1.650,00 − 165,00 = 1.485,00 and 7.600,00 − 760,00 = 6.840,00 (Interpretation, docs/LAW.md).
  for (const m of [5, 6]) {
    await api.ok(`mutation($p: ID!, $m: Int!) { closeTaxPeriod(producerId: $p, year: 2026, month: $m) { status } }`, { p: id, m });
    const later = await efd(m);
    expect(efdProblems(later)).toEqual([]);
    expect(only(later, '1100', '1500')).toEqual([
      '|1100|032026|01||301|1485,00||1485,00|0,00|0,00|0,00|1485,00|0,00|0,00|0,00|0,00|0,00|1485,00|',
      '|1500|032026|01||301|6840,00||6840,00|0,00|0,00|0,00|6840,00|0,00|0,00|0,00|0,00|0,00|6840,00|',
    ]);
  }
  const june = (await month(id, 2026, 6)).balances.filter((x: any) => x.tax === 'PIS').map((x: any) => [x.originMonth, x.deducted, x.reversed, x.remaining]);
  expect(june).toEqual([[3, '0.00', '165.00', '1485.00']]);
});

// Lei 10.637/2002, art. 3º § 4º and the 1100/1500 key (rule 17: balances by month of origin and COD_CRED): a return reverses
// the credit its purchase gave, which October's 301 balance holds; December's own 101 credit is no part of it.
test('a return of an earlier month\'s lot reverses its own month\'s balance, not the credit of the month of the return', async () => {
  const id = await producer();
  const key = nfeKey('11222333000181', 903);
  // October: methanol for an export (COD_CRED 301). December: methanol for a taxed domestic sale (101), and 10% of October's lot
  // comes back: its R$ 10.000,00 reverses 165,00 / 760,00 of October's 301; December's base stays 100.000,00.
  await record([{ ...methanol(id, '2026-10-05'), invoiceKey: key }, methanol(id, '2026-12-02')], [
    { producerId: id, soldOn: '2026-10-20', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'EXPORT' },
    { producerId: id, soldOn: '2026-12-10', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' },
  ]);
  const purchaseId = (await month(id, 2026, 10)).credits.purchases[0].purchaseId;
  await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: key, purchaseId, returnedOn: '2026-12-15', quantity: '100', value: '10000' }] });
  const dec = await month(id, 2026, 12);
  expect(dec.credits.lines.map((l: any) => [l.codCred, l.base, l.pis, l.cofins])).toEqual([['101', '100000.00', '1650.00', '7600.00']]);
  // October's 301 falls by 165,00 / 760,00; the debit 10 × 26,41 = 264,10 (10 × 121,59 = 1.215,90) comes off December's 101.
  expect(dec.balances.map((b: any) => [b.tax, b.originMonth, b.codCred, b.deducted, b.reversed, b.remaining])).toEqual([
    ['PIS', 10, '301', '0.00', '165.00', '1485.00'], ['COFINS', 10, '301', '0.00', '760.00', '6840.00'],
    ['PIS', 12, '101', '264.10', '0.00', '1385.90'], ['COFINS', 12, '101', '1215.90', '0.00', '6384.10'],
  ]);
  for (const m of [10, 11, 12]) await api.ok(`mutation($p: ID!, $m: Int!) { closeTaxPeriod(producerId: $p, year: 2026, month: $m) { status } }`, { p: id, m });
  const res = await fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=2026&month=12`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  const only = (...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  // December's C191 and M100 are its own acquisition; the return is October's 301 used "by other forms" (1100/1500 field 17).
  expect(only('C190', 'C191')).toEqual([
    '|C190|55|02122026|02122026|INSUMO-OTHER|||100000,00|',
    '|C191|11222333000181|50|1101|100000,00|0,00|100000,00|1,6500|||1650,00||',
  ]);
  expect(only('M100', 'M110', 'M200', '1100')).toEqual([
    '|M100|101|0|100000,00|1,6500|||1650,00|0,00|0,00|0,00|1650,00|1|264,10|1385,90|',
    '|M200|264,10|264,10|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|0,00|',
    '|1100|102026|01||301|1650,00||1650,00|0,00|0,00|0,00|1650,00|0,00|0,00|0,00|0,00|165,00|1485,00|',
    '|1100|122026|01||101|1650,00||1650,00|264,10|0,00|0,00|1385,90|0,00|0,00|0,00|0,00|0,00|1385,90|',
  ]);
});

test('a return of a sale leaves the base of its C181/C185: the file reconciles with no adjustment', async () => {
  const id = await producer();
  const cnpj = (await api.ok(`query($p: ID!) { producer(id: $p) { cnpj } }`, { p: id })).producer.cnpj;
  const key = nfeKey(cnpj, 950, '2512');
  await record([{ ...base(id, '2026-12-01'), feedstock: 'BEEF_TALLOW', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Frigorífico SA', creditSupplier: 'COMPANY', pisCofinsCst: '01', icmsValue: '0', supplierDocument: '60746948000112' }],
    [{ producerId: id, soldOn: '2026-12-10', volumeM3: '100', revenue: '600000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC', invoiceKey: key }]);
  const saleId = (await api.ok(`query($p: ID!) { producer(id: $p) { sales(first: 5) { edges { node { id } } } } }`, { p: id })).producer.sales.edges[0].node.id;
  // 10 m³ (R$ 60.000,00) come back on the 20th: the month owes 90 × 26,41 = 2.376,90 and 90 × 121,59 = 10.943,10.
  await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: key, saleId, returnedOn: '2026-12-20', quantity: '10', value: '60000' }] });
  const dec = await month(id, 2026, 12);
  expect([dec.pisDue, dec.cofinsDue]).toEqual(['2376.90', '10943.10']);
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 12) { status } }`, { p: id });
  const res = await fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=2026&month=12`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  const only = (...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  expect(only('C180', 'C181', 'M210', 'M220')).toEqual([
    '|C180|55|10122026|10122026|BIODIESEL-B100|38260000||540000,00|',
    '|C181|03|5101|540000,00|0,00|||90,000|26,4100|2376,90||',
    '|M210|03|540000,00|0,00|0,00|0,00|0,00||90,000|26,4100|2376,90|0,00|0,00|0,00|0,00|2376,90|',
  ]);
  // The tallow's credit of 1.650,00 is deducted: 726,90 payable.
  expect(only('M200')).toEqual(['|M200|2376,90|1650,00|0,00|726,90|0,00|0,00|726,90|0,00|0,00|0,00|0,00|726,90|']);
});

test('each credit reads its purchase and the facts it was decided on, in one statement for the month', async () => {
  const id = await producer();
  const tallow = {
    ...base(id, '2026-07-01'), feedstock: 'BEEF_TALLOW', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Frigorífico SA',
    creditSupplier: 'COMPANY', creditProduct: 'ANIMAL_FAT', pisCofinsCst: '01', icmsValue: '12000', creditRevenueGroup: 'TAXED_DOMESTIC',
  };
  await record([methanol(id, '2026-07-02'), tallow, { ...base(id, '2026-07-03'), feedstock: 'CASTOR_BEAN', cost: '50000', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer }], []);
  const FACTS = 'id supplierKind creditSupplier creditProduct pisCofinsCst icmsValue importPisPaid importCofinsPaid creditRevenueGroup';
  const q = `query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 7) { credits { purchases { purchaseId status base purchase { ${FACTS} } } } } }`;
  api.statements.reset();
  const credits = (await api.ok(q, { p: id })).taxPeriod.credits.purchases;
  const purchaseReads = api.statements.statements.filter((s) => /FROM "purchase" "r"/.test(s));
  expect(purchaseReads).toHaveLength(1); // the three purchases through one loader statement
  expect(credits.map((c: any) => c.purchase.id)).toEqual(credits.map((c: any) => c.purchaseId));
  const of = (kind: string, product: string | null) => credits.find((c: any) => c.purchase.supplierKind === kind && c.purchase.creditProduct === product);
  const [meth, fat, farm] = [of('THIRD_PARTY', 'INPUT'), of('THIRD_PARTY', 'ANIMAL_FAT'), of('FAMILY_FARMER', null)];
  expect(meth.purchase).toMatchObject({ creditSupplier: 'COMPANY', creditProduct: 'INPUT', pisCofinsCst: '01', icmsValue: '0.00', creditRevenueGroup: null });
  // The tallow's base is its cost net of the ICMS it records (art. 3º § 2º III): 100.000,00 − 12.000,00.
  expect([fat.base, fat.purchase.icmsValue, fat.purchase.creditProduct, fat.purchase.creditRevenueGroup]).toEqual(['88000.00', '12000.00', 'ANIMAL_FAT', 'TAXED_DOMESTIC']);
  // A family farmer's lot records no credit facts: they are read from its supplierKind.
  expect(farm.purchase).toMatchObject({ supplierKind: 'FAMILY_FARMER', creditSupplier: null, icmsValue: null, importPisPaid: null });
  expect(farm.status).toBe('NO_CREDIT');

  // The same facts on Purchase itself, and a PRODUCER reads its own.
  const own = (await api.ok(`query($p: ID!) { producer(id: $p) { purchases(first: 5) { edges { node { ${FACTS} } } } } }`, { p: id }, { role: 'PRODUCER', producerId: id }))
    .producer.purchases.edges.map((e: any) => e.node);
  expect(own.find((n: any) => n.id === fat.purchase.id)).toEqual(fat.purchase);
});

test('the regime of incidence is recorded for the year: under CUMULATIVE no credit, the whole debit due, and the EFD follows it', async () => {
  const id = await producer();
  // The December case above: a tallow credit of 1.650,00 / 7.600,00 would cover the debit of 264,10 / 1.215,90; and
  // methanol of November 2025 (non-cumulative) leaves a balance of 1.650,00 / 7.600,00 carried into 2026.
  await record([methanol(id, '2025-11-05'), {
    ...base(id, '2026-12-01'), feedstock: 'BEEF_TALLOW', cost: '100000', supplierKind: 'THIRD_PARTY', supplierName: 'Frigorífico SA',
    creditSupplier: 'COMPANY', pisCofinsCst: '01', icmsValue: '0',
  }], [{ producerId: id, soldOn: '2026-12-10', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);
  const INCIDENCE = `query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 12) { incidence pisDue cofinsDue credits { lines { codCred } purchases { purchaseId } }
    net { pisDebit pisDue cofinsDue } balances { codCred } } }`;
  const before = (await api.ok(INCIDENCE, { p: id })).taxPeriod;
  expect([before.incidence, before.net.pisDue, before.net.cofinsDue, before.credits.lines.length]).toEqual([null, '0.00', '0.00', 1]);

  const ELECT = `mutation($i: ElectIncidenceRegimeInput!) { electIncidenceRegime(input: $i) { year regime electedOn } }`;
  const i = { producerId: id, year: 2026, regime: 'CUMULATIVE', electedOn: '2026-01-10' };
  const auditor = await api.gql(ELECT, { i }, { role: 'AUDITOR' });
  expect(auditor.errors![0].extensions!.code).toBe('FORBIDDEN');
  expect((await api.ok(ELECT, { i }, { role: 'PRODUCER', producerId: id })).electIncidenceRegime).toEqual({ year: 2026, regime: 'CUMULATIVE', electedOn: '2026-01-10' });
  const again = await api.gql(ELECT, { i: { ...i, regime: 'NON_CUMULATIVE' } });
  expect(again.errors![0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'INCIDENCE_ALREADY_ELECTED' });
  expect(await api.count('SELECT count(*) FROM incidence_election WHERE producer_id = $1', [id])).toBe(1);

  // Lei 10.833/2003 art. 10: no credit of art. 3º; the debit 10 × 26,41 / 121,59 is due whole.
  const after = (await api.ok(INCIDENCE, { p: id })).taxPeriod;
  // Nor is the 2025 balance deducted: it is carried whole (an interpretation, docs/LAW.md).
  expect(after).toMatchObject({ incidence: 'CUMULATIVE', pisDue: '264.10', cofinsDue: '1215.90', credits: { lines: [], purchases: [] } });
  expect(after.net).toEqual({ pisDebit: '264.10', pisDue: '264.10', cofinsDue: '1215.90' });
  const carried = (await api.ok(`query($p: ID!) { creditBalances(producerId: $p, on: "2026-12-31") { tax originYear deducted remaining } }`, { p: id })).creditBalances;
  expect(carried).toEqual([
    { tax: 'PIS', originYear: 2025, deducted: '0.00', remaining: '1650.00' }, { tax: 'COFINS', originYear: 2025, deducted: '0.00', remaining: '7600.00' },
  ]);

  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 12) { status } }`, { p: id });
  const efd = async (q = '') => fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=2026&month=12${q}`), {
    headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` },
  });
  const res = await efd();
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  const only = (...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  expect(only('0110')).toEqual(['|0110|2||2|9|']);
  expect(only('M100', 'M500')).toEqual([]);
  expect(only('M210').map((l) => l.split('|')[2])).toEqual(['53']);
  expect(only('M200')).toEqual(['|M200|0,00|0,00|0,00|0,00|0,00|0,00|0,00|264,10|0,00|0,00|264,10|264,10|']);
  const contrary = await efd('&incidence=non-cumulative');
  expect(contrary.status).toBe(400);
  expect(((await contrary.json()) as { error: unknown }).error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'incidence' });
  expect((await efd('&incidence=cumulative')).status).toBe(200);
});

// Lei 10.637/2002, art. 3º § 4º (the month's debit, then the credits deducted, then the carry) and Lei 11.116/2005, art. 16:
// a claim filed during a month uses the balance carried into it. August: methanol R$ 100.000,00 (CST 01) and an export →
// 1.650,00 / 7.600,00 under COD_CRED 301. A refund of the whole PIS/Pasep 1.650,00 filed on 15/10; October sells 10 m³ at the
// general rate: 10 × 26,41 = 264,10 is payable (the claimed balance is gone), 10 × 121,59 = 1.215,90 comes off the Cofins balance.
test('a claim filed in October takes the balance carried into October: its debit 264,10 is payable, and nothing fails after it', async () => {
  const id = await producer();
  const key = nfeKey('11222333000181', 1001);
  await record([{ ...methanol(id, '2026-08-04'), invoiceKey: key }], [{ producerId: id, soldOn: '2026-08-20', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'EXPORT' }]);
  const claim = { producerId: id, tax: 'PIS', originYear: 2026, originMonth: 8, codCred: '301', kind: 'REFUND', filedOn: '2026-10-15', amount: '1650.00' };
  expect((await api.ok(CLAIM, { i: claim })).recordCreditClaim).toMatchObject({ codCred: '301', amount: '1650.00' });
  await record([], [{ producerId: id, soldOn: '2026-10-20', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);

  const WARN = `query($p: ID!, $y: Int!, $m: Int!) { taxPeriod(producerId: $p, year: $y, month: $m) { pisDue credits { warnings }
    net { pisDebit cofinsDebit pisEarlierDeducted cofinsEarlierDeducted pisDue cofinsDue pisRefundable cofinsRefundable }
    balances { tax originMonth codCred deducted claimed remaining } } }`;
  const oct = (await api.ok(WARN, { p: id, y: 2026, m: 10 })).taxPeriod;
  expect(oct.net).toEqual({ pisDebit: '264.10', cofinsDebit: '1215.90', pisEarlierDeducted: '0.00', cofinsEarlierDeducted: '1215.90', pisDue: '264.10', cofinsDue: '0.00',
    pisRefundable: '0.00', cofinsRefundable: '6384.10' });
  expect(oct.balances).toEqual([
    { tax: 'PIS', originMonth: 8, codCred: '301', deducted: '0.00', claimed: '1650.00', remaining: '0.00' },
    { tax: 'COFINS', originMonth: 8, codCred: '301', deducted: '1215.90', claimed: '0.00', remaining: '6384.10' },
  ]);
  expect(oct.credits.warnings).toEqual([]);
  expect((await api.ok(WARN, { p: id, y: 2026, m: 11 })).taxPeriod.net.pisDue).toBe('0.00');
  const balances = (await api.ok(`query($p: ID!) { creditBalances(producerId: $p, on: "2026-11-30") { tax claimed remaining } }`, { p: id })).creditBalances;
  expect(balances).toEqual([{ tax: 'PIS', claimed: '1650.00', remaining: '0.00' }, { tax: 'COFINS', claimed: '0.00', remaining: '6384.10' }]);
  // Nothing is left of the PIS/Pasep balance for another claim: a conflict, not an internal error.
  const again = await api.gql(CLAIM, { i: { ...claim, filedOn: '2026-11-05', amount: '1' } });
  expect(again.errors![0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'CREDIT_CLAIM', claimReason: 'EXCEEDS_BALANCE', available: '0' });

  // A return of half of August's lot recorded afterwards, dated in September, reverses 825,00 of the balance the claim took:
  // the claim now exceeds it by 825,00. Every month still answers, with a warning from October on; October closes.
  const purchaseId = (await month(id, 2026, 8)).credits.purchases[0].purchaseId;
  await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: key, purchaseId, returnedOn: '2026-09-10', quantity: '500', value: '50000' }] });
  const after = (await api.ok(WARN, { p: id, y: 2026, m: 10 })).taxPeriod;
  expect(after.net).toMatchObject({ pisDue: '264.10', cofinsDue: '0.00' });
  expect(after.credits.warnings).toEqual([expect.stringMatching(/^2026-10: claim \d+ \(REFUND of 1650\.00, PIS 2026-08 COD_CRED 301, filed 2026-10-15\) exceeds the balance by 825\.00/)]);
  expect(after.balances.find((b: any) => b.tax === 'PIS')).toEqual({ tax: 'PIS', originMonth: 8, codCred: '301', deducted: '0.00', claimed: '825.00', remaining: '0.00' });
  expect((await api.ok(WARN, { p: id, y: 2026, m: 11 })).taxPeriod.credits.warnings).toHaveLength(1);
  expect((await api.ok(WARN, { p: id, y: 2026, m: 9 })).taxPeriod.credits.warnings).toEqual([]);
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 10) { status } }`, { p: id });
  expect((await api.gql(CLAIM, { i: { ...claim, filedOn: '2026-11-05', amount: '1' } })).errors![0].extensions).toMatchObject({ code: 'CONFLICT', claimReason: 'EXCEEDS_BALANCE' });
});

// Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 4º: a balance is carried until used, and used once; claims come off in the
// order filed (docs/LAW.md, "order of the month's claims"). A claim filed before claims on record takes the balance they were
// recorded against: refused when it leaves one of them short. August (category III, R$ 0,00) and September (export) each give
// methanol's 1.650,00 / 7.600,00 (1,65% / 7,6% × 100.000,00), under 201 and 301; no debit follows, so nothing is deducted.
test('a claim filed before claims on record is refused when it leaves one of them short, naming it and by how much', async () => {
  const id = await producer();
  const key = nfeKey('11222333000181', 1077);
  await record([
    { ...base(id, '2026-08-03'), feedstock: 'CASTOR_BEAN', cost: '50000', supplierKind: 'FAMILY_FARMER', familyFarmerId: farmer },
    { ...methanol(id, '2026-08-04'), invoiceKey: key },
  ], [{ producerId: id, soldOn: '2026-08-20', volumeM3: '100', revenue: '500000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);
  await record([methanol(id, '2026-09-02')], [{ producerId: id, soldOn: '2026-09-20', volumeM3: '100', revenue: '500000', origin: 'OWN_PRODUCTION', market: 'EXPORT' }]);
  const claims = () => api.count('SELECT count(*) FROM credit_claim WHERE producer_id = $1', [id]);
  const cofins = { producerId: id, tax: 'COFINS', originYear: 2026, originMonth: 9, codCred: '301', kind: 'REFUND', filedOn: '2026-11-10', amount: '5000' };
  const november = (await api.ok(CLAIM, { i: cofins })).recordCreditClaim.id;

  // Filed on 15/10, before it: 7.600,00 − 5.000,00 = 2.600,00 left for November's 5.000,00, short by 2.400,00. Earlier in
  // November (05/11) the same. Nothing is written.
  for (const filedOn of ['2026-10-15', '2026-11-05']) {
    const refused = await api.gql(CLAIM, { i: { ...cofins, filedOn } });
    expect(refused.errors![0].extensions).toMatchObject({
      code: 'CONFLICT', reason: 'CREDIT_CLAIM', claimReason: 'LATER_CLAIM_SHORT', laterClaimId: november, laterFiledOn: '2026-11-10', available: '2600', shortBy: '2400' });
    expect(refused.errors![0].message).toContain(`claim ${november} (REFUND of 5000.00, filed 2026-11-10) would exceed its balance by 2400.00`);
  }
  expect(await claims()).toBe(1);
  // 2.600,00 on 15/10 leaves November's 5.000,00 whole: 2.600,00 + 5.000,00 = 7.600,00, nothing left.
  await api.ok(CLAIM, { i: { ...cofins, filedOn: '2026-10-15', amount: '2600' } });

  // PIS/Pasep 1.650,00: 600,00 on 10/12 and 600,00 on 10/11 recorded; 600,00 more on 10/10 would leave 1.650,00 − 600,00 −
  // 600,00 = 450,00 for December's 600,00, short by 150,00 (three claims of 1.800,00 on 1.650,00). 400,00 on 20/10 leaves 50,00.
  const pis = { ...cofins, tax: 'PIS', amount: '600' };
  const december = (await api.ok(CLAIM, { i: { ...pis, filedOn: '2026-12-10' } })).recordCreditClaim.id;
  await api.ok(CLAIM, { i: { ...pis, filedOn: '2026-11-10' } });
  expect((await api.gql(CLAIM, { i: { ...pis, filedOn: '2026-10-10' } })).errors![0].extensions)
    .toMatchObject({ claimReason: 'LATER_CLAIM_SHORT', laterClaimId: december, available: '450', shortBy: '150' });
  await api.ok(CLAIM, { i: { ...pis, filedOn: '2026-10-20', amount: '400' } });
  const BAL = `query($p: ID!) { creditBalances(producerId: $p, on: "2026-12-31") { tax originMonth codCred claimed remaining } }`;
  expect((await api.ok(BAL, { p: id })).creditBalances.filter((b: any) => b.originMonth === 9)).toEqual([
    { tax: 'PIS', originMonth: 9, codCred: '301', claimed: '1600.00', remaining: '50.00' },
    { tax: 'COFINS', originMonth: 9, codCred: '301', claimed: '7600.00', remaining: '0.00' },
  ]);
  const WARN = `query($p: ID!) { taxPeriod(producerId: $p, year: 2026, month: 12) { credits { warnings } } }`;
  expect((await api.ok(WARN, { p: id })).taxPeriod.credits.warnings).toEqual([]);

  // A claim short already, by a record written after it, is not a new claim's doing. Cofins 7.000,00 of August's 201 filed
  // 10/11; a return of half of August's methanol on 10/09 then reverses 3.800,00 (7,6% × 50.000,00): 7.600,00 − 3.800,00 =
  // 3.800,00 for the 7.000,00, short by 3.200,00. A PIS/Pasep claim of 50,00 on 301 touches no balance of it: recorded.
  // 100,00 more on 201 on 20/10 would leave it short by 3.300,00: refused.
  const augustClaim = (await api.ok(CLAIM, { i: { ...cofins, originMonth: 8, codCred: '201', amount: '7000' } })).recordCreditClaim.id;
  const purchaseId = (await month(id, 2026, 8)).credits.purchases.find((p: any) => p.status === 'CREDIT').purchaseId;
  await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: key, purchaseId, returnedOn: '2026-09-10', quantity: '500', value: '50000' }] });
  expect((await api.ok(WARN, { p: id })).taxPeriod.credits.warnings)
    .toEqual([expect.stringMatching(new RegExp(`^2026-11: claim ${augustClaim} \\(REFUND of 7000\\.00, COFINS 2026-08 COD_CRED 201, filed 2026-11-10\\) exceeds the balance by 3200\\.00`))]);
  await api.ok(CLAIM, { i: { ...pis, filedOn: '2026-10-20', amount: '50' } });
  expect((await api.gql(CLAIM, { i: { ...cofins, originMonth: 8, codCred: '201', filedOn: '2026-10-20', amount: '100' } })).errors![0].extensions)
    .toMatchObject({ claimReason: 'LATER_CLAIM_SHORT', laterClaimId: augustClaim, available: '3700', shortBy: '3300' });
  expect(await claims()).toBe(7);
});

// Lei 10.637/2002, art. 5º § 1º II and § 2º; Guia, register 1100: an offset (DCOMP) of COD_CRED 301 within its quarter is
// allowed, the cash refund waits for the quarter's end. August: 1.650,00 of 301; an offset of 500,00 filed on 10/09/2026.
test('an offset of an export credit within its quarter is recorded (1.650,00 − 500,00 = 1.150,00); a cash refund that day is refused', async () => {
  const id = await producer();
  await record([methanol(id, '2026-08-04')], [{ producerId: id, soldOn: '2026-08-20', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'EXPORT' }]);
  const offset = { producerId: id, tax: 'PIS', originYear: 2026, originMonth: 8, codCred: '301', kind: 'OFFSET', filedOn: '2026-09-10', amount: '500' };
  const refund = await api.gql(CLAIM, { i: { ...offset, kind: 'REFUND' } });
  expect(refund.errors![0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'CREDIT_CLAIM', claimReason: 'BEFORE_QUARTER_END' });
  expect((await api.ok(CLAIM, { i: offset })).recordCreditClaim).toMatchObject({ codCred: '301', amount: '500.00' });
  const sep = await month(id, 2026, 9);
  expect(sep.balances.filter((b: any) => b.tax === 'PIS').map((b: any) => [b.originMonth, b.codCred, b.claimed, b.remaining])).toEqual([[8, '301', '500.00', '1150.00']]);
});

// Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 1º: the rate applies to the month's base. Three purchases of R$ 1.000,30 (CST 01):
// 3.000,90 × 1,65% = 49,51485 → 49,51 and × 7,6% = 228,0684 → 228,07; the EFD's C191/C195 and M100/M500 say the same.
test('three purchases of R$ 1.000,30 credit 49,51 / 228,07, and the EFD agrees with itself', async () => {
  const id = await producer();
  await record(['2026-03-02', '2026-03-03', '2026-03-04'].map((on) => ({ ...methanol(id, on), cost: '1000.30' })),
    [{ producerId: id, soldOn: '2026-03-20', volumeM3: '1', revenue: '6000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);
  const mar = await month(id, 2026, 3);
  expect(mar.credits.lines.map((l: any) => [l.codCred, l.base, l.pis, l.cofins])).toEqual([['101', '3000.90', '49.51', '228.07']]);
  // The debit 1 × 26,41 / 121,59 is deducted: 23,10 / 106,48 left.
  expect(mar.balances.map((b: any) => b.remaining)).toEqual(['23.10', '106.48']);
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status } }`, { p: id });
  const res = await fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=2026&month=3`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  const only = (...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  expect(only('C191', 'C195', 'M100', 'M500')).toEqual([
    '|C191|11222333000181|50|1101|3000,90|0,00|3000,90|1,6500|||49,51||',
    '|C195|11222333000181|50|1101|3000,90|0,00|3000,90|7,6000|||228,07||',
    '|M100|101|0|3000,90|1,6500|||49,51|0,00|0,00|0,00|49,51|1|26,41|23,10|',
    '|M500|101|0|3000,90|7,6000|||228,07|0,00|0,00|0,00|228,07|1|121,59|106,48|',
  ]);
});

// Lei 10.637/2002 and Lei 10.833/2003, each art. 3º § 2º II: each contribution's credit follows its own CST.
// 10.000,00 net of ICMS 0 under PIS CST 01 / Cofins CST 06: PIS 10.000 × 1,65% = 165,00; Cofins 0,00 (zero rate).
test('recordPurchases with PIS CST 01 and cofinsCst 06 credits PIS 165,00 and no Cofins; the same CST on both is unchanged', async () => {
  const id = await producer();
  await record([{ ...methanol(id, '2026-03-02'), cost: '10000', cofinsCst: '06' }, { ...methanol(id, '2026-03-03'), cost: '10000', cofinsCst: '01' }], []);
  const rows = await api.db.dataSource.query(`SELECT pis_cofins_cst AS pis, cofins_cst AS cofins FROM purchase WHERE producer_id = $1 ORDER BY purchased_on`, [id]);
  // The same CST on both is kept once.
  expect(rows).toEqual([{ pis: '01', cofins: '06' }, { pis: '01', cofins: null }]);
  const mar = await month(id, 2026, 3);
  expect(mar.credits.purchases.map((p: any) => [p.status, p.reason, p.pis, p.cofins])).toEqual([
    ['CREDIT', 'COFINS_SUPPLIER_ZERO_RATE', '165.00', '0.00'], ['CREDIT', null, '165.00', '760.00'],
  ]);
  expect(mar.balances.map((b: any) => [b.tax, b.remaining])).toEqual([['PIS', '330.00'], ['COFINS', '760.00']]);
  const bad = await api.gql(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, { i: [{ ...methanol(id, '2026-03-04'), cofinsCst: '6' }] });
  expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input[0].cofinsCst' });
});

// The same purchase in the EFD (Lei 10.637/2002 and Lei 10.833/2003, each art. 3º § 2º II; Guia, C191/C195, table 4.3.4): 10.000,00
// under PIS CST 01 / Cofins CST 06 and 1 m³ sold (26,41 / 121,59 per m³). C191 CST 50 at 1,65% = 165,00, M100 165,00 less the
// debit 26,41 = 138,59; C195 states the entry at zero rate, CST 73, with no base, rate or credit; no M500, no M505 base.
test('a month with a PIS 01 / Cofins 06 purchase exports an EFD that passes: C191 50 at 165,00, C195 73 without credit, no M500', async () => {
  const id = await producer();
  await record([{ ...methanol(id, '2026-03-02'), cost: '10000', cofinsCst: '06' }],
    [{ producerId: id, soldOn: '2026-03-20', volumeM3: '1', revenue: '6000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status } }`, { p: id });
  const res = await fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=2026&month=3`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  const only = (...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  expect(only('C191', 'C195', 'M100', 'M105', 'M500', 'M505')).toEqual([
    '|C191|11222333000181|50|1101|10000,00|0,00|10000,00|1,6500|||165,00||',
    '|C195|11222333000181|73|1101|10000,00|0,00|||||||',
    '|M100|101|0|10000,00|1,6500|||165,00|0,00|0,00|0,00|165,00|1|26,41|138,59|',
    '|M105|02|50|10000,00||10000,00|10000,00||||',
  ]);
});

// The same month with an ordinary purchase beside it: both credit PIS under 101 at 1,65 %, one M100 on their summed base
// (Lei 10.637/2002, art. 3º § 1º): 20.000,60 × 1,65% = 330,0099 → 330,01 (each alone 165,00495 → 165,00); Cofins only the
// ordinary one's: 10.000,30 × 7,6% = 760,0228 → 760,02.
test('a PIS 01 / Cofins 06 purchase beside an ordinary one: one M100 of 330,01 on 20.000,60, one M500 of 760,02', async () => {
  const id = await producer();
  await record([{ ...methanol(id, '2026-03-02'), cost: '10000.30', cofinsCst: '06' }, { ...methanol(id, '2026-03-03'), cost: '10000.30' }],
    [{ producerId: id, soldOn: '2026-03-20', volumeM3: '1', revenue: '6000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);
  const march = await month(id, 2026, 3);
  expect(sumOf(march.credits.lines.map((l: any) => l.pis))).toBe('330.01');
  expect(sumOf(march.credits.lines.map((l: any) => l.cofins))).toBe('760.02');
  await api.ok(`mutation($p: ID!) { closeTaxPeriod(producerId: $p, year: 2026, month: 3) { status } }`, { p: id });
  const res = await fetch(api.url.replace('/graphql', `/export/efd?producer=${id}&year=2026&month=3`), { headers: { authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` } });
  const body = Buffer.from(await res.arrayBuffer());
  expect(efdProblems(body)).toEqual([]);
  const only = (...regs: string[]) => body.toString('latin1').split('\r\n').filter((l) => regs.some((r) => l.startsWith(`|${r}|`)));
  expect(only('M100', 'M110', 'M500', 'M510')).toEqual([
    '|M100|101|0|20000,60|1,6500|||330,01|0,00|0,00|0,00|330,01|1|26,41|303,60|',
    '|M500|101|0|10000,30|7,6000|||760,02|0,00|0,00|0,00|760,02|1|121,59|638,43|',
  ]);
});

// Lei 12.865/2013, art. 31 (the revenue of the sales) and docs/LAW.md "Returns" (a return of a sale reduces the revenue of its month):
// October exports 500.000, November 1.000.000, and on 20/11 100.000 of the October sale comes back → November's base is 900.000:
// at a share of 0,27, PIS 900.000 × 0,27 × 1,65% = 4.009,50 and Cofins × 7,6% = 18.468,00.
test('a sale of October returned in November reduces November\'s presumed-credit base: 900.000 → 4.009,50 / 18.468,00', async () => {
  const id = await producer();
  // Published (for this test's queries only) with a day after every other test's knowledge.
  await api.ok(`mutation($i: PublishLawParameterInput!) { publishLawParameter(input: $i) { id } }`, { i: {
    parameter: 'presumed-credit-biodiesel', values: [{ name: 'share', value: '0.27' }], validFrom: '2026-01-01', validUntil: '2026-12-31',
    publishedOn: '2027-11-01', legalBasis: 'Lei 12.865/2013, art. 31 § 2º (test figure)',
  } });
  const cnpj = (await api.ok(`query($p: ID!) { producer(id: $p) { cnpj } }`, { p: id })).producer.cnpj;
  const key = nfeKey(cnpj, 960, '2610');
  await record([], [
    { producerId: id, soldOn: '2026-10-10', volumeM3: '100', revenue: '500000', origin: 'OWN_PRODUCTION', market: 'EXPORT', invoiceKey: key },
    { producerId: id, soldOn: '2026-11-05', volumeM3: '200', revenue: '1000000', origin: 'OWN_PRODUCTION', market: 'EXPORT' },
  ]);
  const sales = (await api.ok(`query($p: ID!) { producer(id: $p) { sales(first: 5) { edges { node { id soldOn } } } } }`, { p: id })).producer.sales.edges.map((e: any) => e.node);
  const october = sales.find((s: any) => s.soldOn === '2026-10-10').id;
  await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: key, saleId: october, returnedOn: '2026-11-20', quantity: '20', value: '100000' }] });
  const nov = await month(id, 2026, 11, '2027-11-02');
  expect(nov.credits.lines.map((l: any) => [l.codCred, l.base, l.pis, l.cofins])).toEqual([['307', '900000.00', '4009.50', '18468.00']]);
  // October keeps its own: 500.000 × 0,27 × 1,65% = 2.227,50; × 7,6% = 10.260,00.
  expect((await month(id, 2026, 10, '2027-11-02')).credits.lines.map((l: any) => [l.codCred, l.base, l.pis, l.cofins])).toEqual([['307', '500000.00', '2227.50', '10260.00']]);
});

// Rule 17 (balances by month of origin and COD_CRED, the 1100/1500 key) with Lei 11.116/2005, art. 16 (only groups 200/300 are
// refundable): August, lot A R$ 100.000,00 against an export (301: 1.650,00 / 7.600,00). October: lot B R$ 100.000,00, a domestic
// sale (debit 264,10 / 1.215,90) and half of lot A returned → 301 falls to 825,00 / 3.800,00; October's 101 is 1.650,00 − 264,10 =
// 1.385,90 and 7.600,00 − 1.215,90 = 6.384,10; refundable 825,00 / 3.800,00.
test('half of an August export lot returned in October reduces August\'s 301 balance: 825,00 / 3.800,00 refundable, 101 untouched', async () => {
  const id = await producer();
  const key = nfeKey('11222333000181', 1101);
  await record([{ ...methanol(id, '2026-08-04'), invoiceKey: key }], [{ producerId: id, soldOn: '2026-08-20', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'EXPORT' }]);
  await record([methanol(id, '2026-10-02')], [{ producerId: id, soldOn: '2026-10-20', volumeM3: '10', revenue: '60000', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' }]);
  const lotA = (await month(id, 2026, 8)).credits.purchases[0].purchaseId;
  await api.ok(`mutation($i: [RecordReturnInput!]!) { recordReturns(input: $i) { id } }`, { i: [{ originalKey: key, purchaseId: lotA, returnedOn: '2026-10-15', quantity: '500', value: '50000' }] });
  const oct = await month(id, 2026, 10);
  expect(oct.balances.map((b: any) => [b.tax, b.originMonth, b.codCred, b.deducted, b.reversed, b.remaining])).toEqual([
    ['PIS', 8, '301', '0.00', '825.00', '825.00'], ['COFINS', 8, '301', '0.00', '3800.00', '3800.00'],
    ['PIS', 10, '101', '264.10', '0.00', '1385.90'], ['COFINS', 10, '101', '1215.90', '0.00', '6384.10'],
  ]);
  expect(oct.net).toMatchObject({ pisDue: '0.00', cofinsDue: '0.00', pisRefundable: '825.00', cofinsRefundable: '3800.00' });
  // A refund of more than is left of 301 is refused.
  const over = await api.gql(CLAIM, { i: { producerId: id, tax: 'PIS', originYear: 2026, originMonth: 8, codCred: '301', kind: 'REFUND', filedOn: '2026-11-05', amount: '825.01' } });
  expect(over.errors![0].extensions).toMatchObject({ code: 'CONFLICT', claimReason: 'EXCEEDS_BALANCE', available: '825' });
});
