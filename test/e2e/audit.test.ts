import { getSchema } from '../../src/graphql/schema';
import { Caller, startTestApi, TestApi } from '../support/api';
import { nfeKey } from '../support/fixtures';

/**
 * the access rules, README "Tokens": every successful mutation writes AuditEntry rows (actor = token sub, role,
 * operation, entity, id, before and after) in its own transaction; a rejected one writes none.
 * Every mutation of the schema must have a case here, so a new one is checked as soon as it exists.
 */

let api: TestApi;
let mutations: Set<string>;
const ids: Record<string, string> = {};
const ADMIN: Caller = { role: 'ADMIN', sub: 'ministry-analyst' };
let PRODUCER: Caller;

interface AuditRow {
  id: string; actor: string; role: string; operation: string; entity: string; entity_id: string | null;
  producer_id: string | null; request_id: string | null; before: Record<string, unknown> | null; after: Record<string, unknown> | null;
}

async function lastId(): Promise<number> {
  return api.count('SELECT coalesce(max(id), 0) FROM audit_entry');
}

async function entriesAfter(id: number): Promise<AuditRow[]> {
  const rows: AuditRow[] = await api.db.dataSource.query('SELECT * FROM audit_entry WHERE id > $1 ORDER BY id', [id]);
  return rows.map((r) => ({ ...r, id: String(r.id), producer_id: r.producer_id === null ? null : String(r.producer_id) }));
}

beforeAll(async () => {
  api = await startTestApi();
  const schema = await getSchema();
  mutations = new Set(Object.keys(schema.getMutationType()?.getFields() ?? {}));
});
afterAll(async () => { await api.close(); });

interface Case {
  as: () => Caller;
  query: () => string | Promise<string>;
  /** The entity written and the number of entries expected. */
  entity?: string;
  entries: number;
  /** Ids of the records written, from the mutation's answer. */
  idsOf: (data: any) => string[];
  check?: (rows: AuditRow[], data: any) => void;
  after?: (data: any) => void;
}

const PURCHASE = (cost: string) =>
  `{ producerId: "${ids.producer}", purchasedOn: "2025-03-10", feedstock: SOYBEAN, quantityKg: "1000", cost: "${cost}", supplierKind: THIRD_PARTY, supplierName: "Cerealista", originMunicipalityCode: "2611606" }`;

/** In the order they run: later cases use what earlier ones created. */
const CASES: Array<[string, Case]> = [
  ['upsertMunicipalities', {
    as: () => ADMIN, entries: 2, entity: 'Municipality',
    query: () => `mutation { upsertMunicipalities(input: [{ ibgeCode: "2611606", name: "Recife", semiarid: false }, { ibgeCode: "2927408", name: "Salvador", semiarid: false }]) { ibgeCode } }`,
    idsOf: (d) => d.upsertMunicipalities.map((m: any) => m.ibgeCode),
  }],
  ['createProducer', {
    as: () => ADMIN, entries: 1, entity: 'Producer',
    query: () => `mutation { createProducer(input: { cnpj: "11222333000181", legalName: "Usina Auditada", plantMunicipalityCode: "2611606" }) { id } }`,
    idsOf: (d) => [d.createProducer.id],
    after: (d) => { ids.producer = d.createProducer.id; PRODUCER = { role: 'PRODUCER', producerId: ids.producer, sub: 'tax-team-1' }; },
    check: ([row]) => { expect(row.before).toBeNull(); expect(row.after).toMatchObject({ legalName: 'Usina Auditada', cnpj: '11222333000181' }); },
  }],
  ['updateProducer', {
    as: () => PRODUCER, entries: 1, entity: 'Producer',
    query: () => `mutation { updateProducer(id: "${ids.producer}", input: { legalName: "Usina Auditada S.A." }, expectedVersion: 1) { id } }`,
    idsOf: (d) => [d.updateProducer.id],
    check: ([row]) => {
      expect(row.before).toMatchObject({ legalName: 'Usina Auditada', version: 1 });
      expect(row.after).toMatchObject({ legalName: 'Usina Auditada S.A.', version: 2 });
      expect(row.producer_id).toBe(ids.producer);
    },
  }],
  ['createFamilyFarmer', {
    as: () => PRODUCER, entries: 1, entity: 'FamilyFarmer',
    query: () => `mutation { createFamilyFarmer(input: { cpf: "52998224725", name: "Maria", municipalityCode: "2611606", registrations: [{ kind: CAF, number: "CAF-1", validFrom: "2024-01-01", validUntil: "2027-12-31" }] }) { id } }`,
    idsOf: (d) => [d.createFamilyFarmer.id],
    after: (d) => { ids.farmer = d.createFamilyFarmer.id; },
  }],
  ['createOrganization', {
    as: () => PRODUCER, entries: 1, entity: 'FamilyFarmingOrganization',
    query: () => `mutation { createOrganization(input: { cnpj: "60701190000104", name: "Coop", kind: COOPERATIVE, municipalityCode: "2611606", registrations: [{ kind: CAF, number: "CAF-J-1", validFrom: "2024-01-01", validUntil: "2027-12-31" }], members: 10, familyFarmerMembers: 8 }) { id } }`,
    idsOf: (d) => [d.createOrganization.id],
    after: (d) => { ids.organization = d.createOrganization.id; },
  }],
  ['updateOrganization', {
    // ADMIN only: other producers' figures read an organization's members.
    as: () => ADMIN, entries: 1, entity: 'FamilyFarmingOrganization',
    query: () => `mutation { updateOrganization(id: "${ids.organization}", input: { members: 10, familyFarmerMembers: 5, membersDeclaredOn: "2025-07-01" }) { id } }`,
    idsOf: (d) => [d.updateOrganization.id],
  }],
  ['createContract', {
    as: () => PRODUCER, entries: 1, entity: 'Contract',
    query: async () => {
      if (!ids.farmer) {
        const [f] = await api.db.dataSource.query(`INSERT INTO family_farmer (cpf, name, municipality_code) VALUES ('11144477735', 'João', '2611606') RETURNING id`);
        ids.farmer = String(f.id);
      }
      return `mutation { createContract(input: { producerId: "${ids.producer}", familyFarmerId: "${ids.farmer}", signedOn: "2025-01-05", validFrom: "2025-01-05", validUntil: "2025-12-31", feedstock: SOYBEAN, quantityKg: "5000", pricePerKg: "2.5", technicalAssistance: true }) { id } }`;
    },
    idsOf: (d) => [d.createContract.id],
  }],
  ['recordPurchases', {
    as: () => PRODUCER, entries: 3, entity: 'Purchase',
    query: () => `mutation { recordPurchases(input: [${PURCHASE('100.50')}, ${PURCHASE('200.25')}, ${PURCHASE('300')}]) { id } }`,
    idsOf: (d) => d.recordPurchases.map((p: any) => p.id),
    check: (rows) => expect(rows.map((r) => r.after?.cost)).toEqual(['100.5', '200.25', '300']),
    after: (d) => { ids.purchase = d.recordPurchases[0].id; },
  }],
  ['recordSales', {
    as: () => PRODUCER, entries: 1, entity: 'Sale',
    query: () => `mutation { recordSales(input: [{ producerId: "${ids.producer}", soldOn: "2025-03-20", volumeM3: "10", revenue: "5000" }]) { id } }`,
    idsOf: (d) => d.recordSales.map((s: any) => s.id),
    after: (d) => { ids.sale = d.recordSales[0].id; },
  }],
  ['recordImports', {
    as: () => PRODUCER, entries: 2, entity: 'BiodieselImport',
    query: () => `mutation { recordImports(input: [{ producerId: "${ids.producer}", clearedOn: "2025-03-05", volumeM3: "12.5", declarationNumber: "25/0300001-1" }, { producerId: "${ids.producer}", clearedOn: "2025-03-06", volumeM3: "3", declarationNumber: "25/0300002-2" }]) { id } }`,
    idsOf: (d) => d.recordImports.map((i: any) => i.id),
    check: (rows) => expect(rows.map((r) => r.after?.declarationNumber)).toEqual(['25/0300001-1', '25/0300002-2']),
    after: (d) => { ids.import = d.recordImports[1].id; },
  }],
  ['recordFomento', {
    as: () => PRODUCER, entries: 1, entity: 'FomentoExpense',
    query: () => `mutation { recordFomento(input: [{ producerId: "${ids.producer}", spentOn: "2025-04-01", kind: TECHNICAL_ASSISTANCE, amount: "650", municipalityCode: "2611606" }]) { id } }`,
    idsOf: (d) => d.recordFomento.map((f: any) => f.id),
    after: (d) => { ids.fomento = d.recordFomento[0].id; },
  }],
  ['electRegime', {
    as: () => PRODUCER, entries: 1, entity: 'RegimeElection',
    query: () => `mutation { electRegime(input: { producerId: "${ids.producer}", regime: SPECIAL_PER_M3, electedOn: "2024-11-01" }) { effectiveYear } }`,
    idsOf: () => [],
  }],
  ['grantSeal', {
    as: () => ADMIN, entries: 1, entity: 'SealGrant',
    query: () => `mutation { grantSeal(input: { producerId: "${ids.producer}", grantedOn: "2024-01-10", validUntil: "2029-01-09", act: "Portaria 1/2024" }) { id } }`,
    idsOf: (d) => [d.grantSeal.id],
    after: (d) => { ids.grant = d.grantSeal.id; },
  }],
  ['recordSealEvent', {
    as: () => ADMIN, entries: 1, entity: 'SealEvent',
    query: () => `mutation { recordSealEvent(input: { grantId: "${ids.grant}", kind: SUSPENDED, effectiveOn: "2025-06-01", reason: "Audit" }) { id } }`,
    idsOf: () => [],
  }],
  ['recordSealEvaluation', {
    as: () => ADMIN, entries: 1, entity: 'SealEvaluation',
    query: () => `mutation { recordSealEvaluation(input: { producerId: "${ids.producer}", year: 2024, communicatedOn: "2025-04-10", note: "Audit" }) { id } }`,
    idsOf: (d) => [d.recordSealEvaluation.id],
    check: ([row]) => { expect(row.after).toMatchObject({ year: 2024, communicatedOn: '2025-04-10', note: 'Audit' }); },
  }],
  ['publishMinimumPrice', {
    as: () => ADMIN, entries: 1, entity: 'MinimumPrice',
    query: () => `mutation { publishMinimumPrice(input: { feedstock: CASTOR_BEAN, validFrom: "2025-01-01", validUntil: "2025-12-31", pricePerKg: "2.75", source: "Portaria MDA 1/2025", publishedOn: "2024-12-20" }) { id } }`,
    idsOf: (d) => [d.publishMinimumPrice.id],
  }],
  ['publishCoefficientRule', {
    as: () => ADMIN, entries: 1, entity: 'LawParameterVersion',
    query: () => `mutation { publishCoefficientRule(input: { category: GENERAL, coefficient: "0.6", pisPerM3: "30.00", cofinsPerM3: "138.00", validFrom: "2030-01-01", publishedOn: "2029-12-01", legalBasis: "Decreto de teste, art. 1º" }) { id } }`,
    idsOf: (d) => [d.publishCoefficientRule.id],
  }],
  ['publishLawParameter', {
    as: () => ADMIN, entries: 1, entity: 'LawParameterVersion',
    query: async () => {
      const { lawParameterCatalogue: catalogue } = await api.ok('{ lawParameterCatalogue { name scopes values } }');
      const p = catalogue.find((c: any) => c.name === 'cooperative-min-family-farmer-share') ?? catalogue[0];
      const values = p.values.map((v: string) => `{ name: "${v}", value: "0.5" }`).join(', ');
      const scope = p.scopes.length ? `, scope: "${p.scopes[0]}"` : '';
      return `mutation { publishLawParameter(input: { parameter: "${p.name}"${scope}, values: [${values}], validFrom: "2030-01-01", publishedOn: "2029-12-01", legalBasis: "Portaria de teste, art. 1º" }) { id } }`;
    },
    idsOf: (d) => [d.publishLawParameter.id],
  }],
  ['closeTaxPeriod', {
    as: () => PRODUCER, entries: 1,
    query: () => `mutation { closeTaxPeriod(producerId: "${ids.producer}", year: 2025, month: 3) { status } }`,
    idsOf: () => [],
    check: ([row]) => expect(row.producer_id).toBe(ids.producer),
  }],
  ['reopenTaxPeriod', {
    as: () => ADMIN, entries: 1,
    query: () => `mutation { reopenTaxPeriod(producerId: "${ids.producer}", year: 2025, month: 3, reason: "Invoice corrected") { status } }`,
    idsOf: () => [],
    check: ([row]) => expect(row.producer_id).toBe(ids.producer),
  }],
  ['correctPurchase', {
    as: () => PRODUCER, entries: 1, entity: 'Purchase',
    query: () => `mutation { correctPurchase(id: "${ids.purchase}", input: { cost: "150" }, expectedVersion: 1) { purchase { id } } }`,
    idsOf: (d) => [d.correctPurchase.purchase.id],
    check: ([row]) => { expect([row.before?.cost, row.before?.version, row.after?.cost, row.after?.version]).toEqual(['100.5', 1, '150', 2]); },
  }],
  ['correctSale', {
    as: () => PRODUCER, entries: 1, entity: 'Sale',
    query: () => `mutation { correctSale(id: "${ids.sale}", input: { invoiceKey: "${nfeKey('11222333000181', 1, '2503')}" }, expectedVersion: 1) { sale { id } } }`,
    idsOf: (d) => [d.correctSale.sale.id],
    check: ([row]) => { expect([row.before?.invoiceKey, row.after?.invoiceKey]).toEqual([null, nfeKey('11222333000181', 1, '2503')]); },
  }],
  ['recordReturns', {
    as: () => PRODUCER, entries: 1, entity: 'RecordReturn',
    query: () => `mutation { recordReturns(input: [{ originalKey: "${nfeKey('11222333000181', 1, '2503')}", saleId: "${ids.sale}", returnedOn: "2025-03-25", quantity: "1", value: "500" }]) { id } }`,
    idsOf: (d) => d.recordReturns.map((r: any) => r.id),
    check: ([row]) => { expect([row.before, row.after?.saleId, row.after?.quantity, row.producer_id]).toEqual([null, ids.sale, '1', ids.producer]); },
  }],
  ['correctImport', {
    as: () => PRODUCER, entries: 1, entity: 'BiodieselImport',
    query: () => `mutation { correctImport(id: "${ids.import}", input: { volumeM3: "4" }, expectedVersion: 1) { biodieselImport { id } } }`,
    idsOf: (d) => [d.correctImport.biodieselImport.id],
    check: ([row]) => { expect([row.before?.volumeM3, row.after?.volumeM3, row.after?.version]).toEqual(['3', '4', 2]); },
  }],
  ['correctFomento', {
    as: () => PRODUCER, entries: 1, entity: 'FomentoExpense',
    query: () => `mutation { correctFomento(id: "${ids.fomento}", input: { amount: "700" }, expectedVersion: 1) { fomentoExpense { id } } }`,
    idsOf: (d) => [d.correctFomento.fomentoExpense.id],
    check: ([row]) => { expect([row.before?.amount, row.after?.amount]).toEqual(['650', '700']); },
  }],
  ['cancelDocument', {
    as: () => PRODUCER, entries: 1, entity: 'Sale',
    query: () => `mutation { cancelDocument(key: "${nfeKey('11222333000181', 1, '2503')}") { sales { id } } }`,
    idsOf: (d) => d.cancelDocument.sales.map((s: any) => s.id),
    check: ([row]) => { expect([row.before, row.after]).toEqual([{ state: 'ACTIVE', version: 2 }, { state: 'CANCELLED', version: 3, invoiceKey: nfeKey('11222333000181', 1, '2503') }]); },
  }],
  ['electCreditApportionment', {
    as: () => PRODUCER, entries: 1, entity: 'CreditApportionmentElection',
    query: () => `mutation { electCreditApportionment(input: { producerId: "${ids.producer}", year: 2026, method: REVENUE_RATIO, electedOn: "2026-01-02" }) { year } }`,
    idsOf: () => [],
    check: ([row]) => expect(row.producer_id).toBe(ids.producer),
  }],
  ['electIncidenceRegime', {
    as: () => PRODUCER, entries: 1, entity: 'IncidenceElection',
    query: () => `mutation { electIncidenceRegime(input: { producerId: "${ids.producer}", year: 2026, regime: NON_CUMULATIVE, electedOn: "2026-01-02" }) { year } }`,
    idsOf: () => [],
    check: ([row]) => { expect([row.producer_id, row.after!.regime, row.after!.year]).toEqual([ids.producer, 'NON_CUMULATIVE', 2026]); },
  }],
  ['recordCreditClaim', {
    as: () => PRODUCER, entries: 1, entity: 'CreditClaim',
    query: async () => {
      // A credit kept on an export (COD_CRED 301), written without audit: only the claim is the case's.
      await api.db.dataSource.query(
        `INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, supplier_name, origin_municipality_code, purpose,
           credit_supplier, credit_product, pis_cofins_cst, icms_value)
         VALUES ($1, '2026-01-05', '2026-01-05', 'OTHER', 1000, 100000, 'THIRD_PARTY', 'Metanol SA', '2611606', 'OTHER_PRODUCT', 'COMPANY', 'INPUT', '01', 0)`, [ids.producer]);
      await api.db.dataSource.query(`INSERT INTO sale (producer_id, sold_on, volume_m3, revenue, origin, market) VALUES ($1, '2026-01-20', 10, 60000, 'OWN_PRODUCTION', 'EXPORT')`, [ids.producer]);
      return `mutation { recordCreditClaim(input: { producerId: "${ids.producer}", tax: PIS, originYear: 2026, originMonth: 1, codCred: "301", kind: REFUND, filedOn: "2026-04-10", amount: "1000" }) { id } }`;
    },
    idsOf: (d) => [d.recordCreditClaim.id],
    check: ([row]) => expect(row.producer_id).toBe(ids.producer),
  }],
];

test('every mutation of the schema has an audit case here', () => {
  const covered = new Set(CASES.map(([name]) => name));
  expect([...mutations].filter((m) => !covered.has(m))).toEqual([]);
});

test('each successful mutation writes its audit entries: actor, role, operation, entity, ids, after', async () => {
  const ran: string[] = [];
  for (const [name, c] of CASES) {
    if (!mutations.has(name)) continue;
    const caller = c.as();
    const from = await lastId();
    const data = await api.ok(await c.query(), {}, caller);
    const rows = await entriesAfter(from);
    expect([name, rows.length]).toEqual([name, c.entries]);
    for (const row of rows) {
      expect({ name, actor: row.actor, role: row.role, operation: row.operation, requestId: typeof row.request_id, hasAfter: row.after !== null })
        .toEqual({ name, actor: caller.sub, role: caller.role, operation: name, requestId: 'string', hasAfter: true });
      if (c.entity) expect([name, row.entity]).toEqual([name, c.entity]);
    }
    const written = c.idsOf(data);
    if (written.length) expect([name, rows.map((r) => r.entity_id)]).toEqual([name, written]);
    c.check?.(rows, data);
    c.after?.(data);
    ran.push(name);
  }
  expect(ran.length).toBeGreaterThanOrEqual(10);
});

test('the audit log answers them, newest first, filtered by entity and id', async () => {
  const purchases = await api.ok('{ auditLog(entity: "Purchase") { totalCount edges { node { actor role operation entity entityId before after at } } } }', {}, { role: 'AUDITOR' });
  expect(purchases.auditLog.totalCount).toBe(4);
  const nodes = purchases.auditLog.edges.map((e: any) => e.node);
  expect(nodes.map((n: any) => n.after.cost)).toEqual(['150', '300', '200.25', '100.5']);
  expect(nodes[0]).toMatchObject({ actor: 'tax-team-1', role: 'PRODUCER', operation: 'correctPurchase', entity: 'Purchase', before: { cost: '100.5' } });
  expect(nodes[1]).toMatchObject({ actor: 'tax-team-1', role: 'PRODUCER', operation: 'recordPurchases', entity: 'Purchase', before: null });
  expect(Number.isNaN(Date.parse(nodes[0].at))).toBe(false);
  const one = await api.ok(`{ auditLog(entity: "Producer", entityId: "${ids.producer}") { totalCount edges { node { operation before after } } } }`);
  expect(one.auditLog.edges.map((e: any) => e.node.operation)).toEqual(['updateProducer', 'createProducer']);
  // pages: newest first, no entry twice, none skipped
  const total = await api.count('SELECT count(*) FROM audit_entry');
  const seen: string[] = [];
  let after: string | null = null;
  for (;;) {
    const page: any = await api.ok('query ($after: String) { auditLog(first: 4, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }', { after });
    expect(page.auditLog.totalCount).toBe(total);
    seen.push(...page.auditLog.edges.map((e: any) => e.node.id));
    if (!page.auditLog.pageInfo.hasNextPage) break;
    after = page.auditLog.pageInfo.endCursor;
  }
  expect(seen).toHaveLength(total);
  expect(seen).toEqual([...seen].sort((a, b) => Number(b) - Number(a)));
});

describe('a rejected mutation writes no audit entry', () => {
  async function expectNoEntry(query: string, caller: Caller, code: string) {
    const from = await lastId();
    const res = await api.gql(query, {}, caller);
    expect(res.errors?.[0].extensions?.code).toBe(code);
    expect(await entriesAfter(from)).toEqual([]);
  }

  test('refused by role, bad input in one item of a batch, version mismatch, duplicate', async () => {
    await expectNoEntry(`mutation { recordSales(input: [{ producerId: "${ids.producer}", soldOn: "2025-03-21", volumeM3: "1", revenue: "1" }]) { id } }`, { role: 'AUDITOR' }, 'FORBIDDEN');
    await expectNoEntry(`mutation { upsertMunicipalities(input: [{ ibgeCode: "4314902", name: "Porto Alegre", semiarid: false }]) { ibgeCode } }`, PRODUCER, 'FORBIDDEN');
    await expectNoEntry(`mutation { recordPurchases(input: [${PURCHASE('10')}, ${PURCHASE('-5')}]) { id } }`, PRODUCER, 'BAD_USER_INPUT');
    await expectNoEntry(`mutation { updateProducer(id: "${ids.producer}", input: { legalName: "Stale" }, expectedVersion: 1) { id } }`, PRODUCER, 'CONFLICT');
    await expectNoEntry(`mutation { createProducer(input: { cnpj: "11222333000181", legalName: "Twin", plantMunicipalityCode: "2611606" }) { id } }`, ADMIN, 'CONFLICT');
    await expectNoEntry(`mutation { recordSales(input: [{ producerId: "${ids.producer}", soldOn: "2025-03-21", volumeM3: "1", revenue: "1" }]) { id } }`, { role: 'PRODUCER', producerId: '999999' }, 'NOT_FOUND');
    expect(await api.count(`SELECT count(*) FROM producer WHERE legal_name IN ('Stale', 'Twin')`)).toBe(0);
  });
});

test('no use case writes outside mutate(): the only way to the tables is through the audited transaction', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = require('node:path') as typeof import('node:path');
  const dirs = ['src/services', 'src/graphql'].map((d) => path.resolve(__dirname, '../..', d));
  const files = dirs.flatMap((dir) => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f)));
  const direct = /\b(?:ds|dataSource)\s*\.\s*(?:getRepository\([^)]*\)\s*\.\s*(?:save|insert|update|delete|upsert|remove|softDelete)\b|query\(\s*[`'"]\s*(?:INSERT|UPDATE|DELETE|TRUNCATE)\b|createQueryBuilder\(\)\s*\.\s*(?:insert|update|delete)\b)/i;
  // start-up work, not a mutation: the shipped law is loaded by prepareDatabase() before serving
  const startUp: Record<string, RegExp> = { 'src/services/law.service.ts': /export async function loadShippedLaw\(ds[^]*?INSERT INTO law_parameter_version/ };
  const offenders = files
    .map((f) => ({ file: path.relative(path.resolve(__dirname, '../..'), f), text: fs.readFileSync(f, 'utf8') }))
    .map(({ file, text }) => ({ file, text: startUp[file] ? text.replace(startUp[file], '') : text }))
    .filter(({ text }) => direct.test(text))
    .map(({ file }) => file);
  expect(offenders).toEqual([]);
  expect(files.length).toBeGreaterThan(20);
});
