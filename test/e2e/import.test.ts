import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { translate } from '../../src/i18n';
import { ImportLineError, ImportProblemsError } from '../../src/import/import-error';
import { importCsv, ImportSummary } from '../../src/import/importer';
import { SYSTEM_ACTOR } from '../../src/services/actor';
import { Role } from '../../src/law/types';
import { startTestApi, TestApi } from '../support/api';
import { priorityRegionOnSql, semiaridOnSql } from '../../src/services/facts/priority-region.sql';
import { nfeKey, producerCnpj } from '../support/fixtures';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/import');

let api: TestApi;
let producerId: string;
let otherProducerId: string;
let farmerId: string;
let cooperativeId: string;
let associationId: string;
let contractId: string;
let otherContractId: string;

function run(kind: string, csv: string, opts: { producerId?: string | null; delimiter?: string } = {}): Promise<ImportSummary> {
  return importCsv(api.db.dataSource, SYSTEM_ACTOR, { kind, producerId: opts.producerId ?? null, input: Readable.from([csv]), delimiter: opts.delimiter });
}

async function refused(kind: string, csv: string, opts: { producerId?: string | null } = {}): Promise<ImportLineError | ImportProblemsError> {
  const error = await run(kind, csv, opts).then(
    () => null,
    (e: unknown) => e,
  );
  // A file refused as a whole (its header, its producer) or for its bad lines.
  expect([ImportLineError, ImportProblemsError]).toContain((error as object).constructor);
  return error as ImportLineError | ImportProblemsError;
}

const PURCHASE_HEADER = 'purchasedOn,consumedOn,feedstock,quantityKg,cost,supplierKind,familyFarmerId,organizationId,supplierName,originMunicipalityCode,contractId,purpose,externalId';

/** `n` good purchase lines (a farmer's soybean under the contract, Petrolina), line 2 onwards. */
function goodLines(n: number, prefix = 'ok'): string[] {
  return Array.from({ length: n }, (_, i) => `2025-08-${String(1 + (i % 28)).padStart(2, '0')},,SOYBEAN,${100 + i}.5,${(100 + i) * 3},FAMILY_FARMER,${farmerId},,,2611101,${contractId},,${prefix}-${i}`);
}

const purchaseCount = () => api.count('SELECT count(*) FROM purchase');
/** A municipality's Semiárido membership and priority region today (derived from its dated membership). */
const TODAY = `${semiaridOnSql('ibge_code', 'current_date')} AS semiarid, ${priorityRegionOnSql('ibge_code', 'current_date')} AS priority_region`;

beforeAll(async () => {
  api = await startTestApi();
  const summary = await run('municipalities', fs.readFileSync(path.join(FIXTURES, 'municipalities.csv'), 'utf8'), { delimiter: ';' });
  expect(summary.counts).toEqual({ inserted: 5, updated: 0, semiarid: 2 });
  const q = (sql: string, params: unknown[] = []) => api.db.dataSource.query(sql, params);
  [{ id: producerId }] = await q(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code) VALUES ('11222333000181', 'Usina Import', '2611101') RETURNING id::text`);
  [{ id: otherProducerId }] = await q(`INSERT INTO producer (cnpj, legal_name, plant_municipality_code) VALUES ('11444777000161', 'Outra Usina', '4314100') RETURNING id::text`);
  const farmers = await run('farmers', fs.readFileSync(path.join(FIXTURES, 'farmers.csv'), 'utf8'));
  expect(farmers.counts).toEqual({ farmers: 3, registrations: 3 });
  [{ id: farmerId }] = await q(`SELECT id::text FROM family_farmer WHERE cpf = '52998224725'`);
  [{ id: cooperativeId }] = await q(`INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members)
                                     VALUES ('04252011000110', 'Coop Sertão', 'COOPERATIVE', '2611101', 100, 80) RETURNING id::text`);
  [{ id: associationId }] = await q(`INSERT INTO family_farming_organization (cnpj, name, kind, municipality_code, members, family_farmer_members)
                                     VALUES ('60701190000104', 'Assoc. Serra', 'ASSOCIATION', '3143302', 40, 40) RETURNING id::text`);
  [{ id: contractId }] = await q(`INSERT INTO contract (producer_id, family_farmer_id, signed_on, valid_from, valid_until, feedstock, quantity_kg, price_per_kg, technical_assistance)
                                  VALUES ($1, $2, '2025-06-01', '2025-07-01', '2026-12-31', 'SOYBEAN', 1000000, 2.5, true) RETURNING id::text`, [producerId, farmerId]);
  [{ id: otherContractId }] = await q(`INSERT INTO contract (producer_id, family_farmer_id, signed_on, valid_from, valid_until, feedstock, quantity_kg, price_per_kg, technical_assistance)
                                       VALUES ($1, $2, '2025-06-01', '2025-07-01', '2026-12-31', 'SOYBEAN', 1000, 2.5, true) RETURNING id::text`, [otherProducerId, farmerId]);
});

afterAll(async () => {
  await api?.close();
});

describe('municipalities (the Semiárido list)', () => {
  it('derives UF, region and priority region from the code and the flag, and upserts by code', async () => {
    const rows = await api.db.dataSource.query(`SELECT ibge_code, name, state, region, ${TODAY} FROM municipality ORDER BY ibge_code`);
    expect(rows).toEqual([
      { ibge_code: '2304400', name: 'Fortaleza', state: 'CE', region: 'NORTHEAST', semiarid: false, priority_region: true },
      { ibge_code: '2611101', name: 'Petrolina', state: 'PE', region: 'NORTHEAST', semiarid: true, priority_region: true },
      // Minas Gerais is Sudeste: priority only because it is in the Semiárido (art. 6º, I).
      { ibge_code: '3143302', name: 'Montes Claros', state: 'MG', region: 'SOUTHEAST', semiarid: true, priority_region: true },
      { ibge_code: '4314100', name: 'Passo Fundo', state: 'RS', region: 'SOUTH', semiarid: false, priority_region: false },
      { ibge_code: '5107925', name: 'Sorriso', state: 'MT', region: 'CENTER_WEST', semiarid: false, priority_region: false },
    ]);
    const again = await run('municipalities', 'ibgeCode,name,semiarid\n3135100,Janaúba,true\n3143302,Montes Claros,false\n');
    expect(again.counts).toEqual({ inserted: 1, updated: 1, semiarid: 1 });
    const [mc] = await api.db.dataSource.query(`SELECT ${TODAY} FROM municipality WHERE ibge_code = '3143302'`);
    expect(mc).toEqual({ semiarid: false, priority_region: false });
    await run('municipalities', 'ibgeCode,name,semiarid\n3143302,Montes Claros,sim\n');
    const audit = await api.count(`SELECT count(*) FROM audit_entry WHERE operation = 'importMunicipalities'`);
    expect(audit).toBe(3);
  });

  it('refuses a bad code, a bad flag and a repeated code, naming line and column, and writes nothing', async () => {
    const before = await api.count('SELECT count(*) FROM municipality');
    expect((await refused('municipalities', 'ibgeCode,name,semiarid\n2927408,Salvador,não\n9999999,Nowhere,não\n')).message)
      .toBe('line 3, column ibgeCode: IBGE code "9999999" must be 7 digits starting with a valid UF code');
    expect((await refused('municipalities', 'ibgeCode,name,semiarid\n2927408,Salvador,talvez\n')).message).toMatch(/^line 2, column semiarid: must be true or false/);
    const dup = await refused('municipalities', 'ibgeCode,name,semiarid\n2927408,Salvador,não\n2910800,Feira de Santana,sim\n2927408,Salvador,não\n');
    expect([dup.line, dup.column, dup.code]).toEqual([4, 'ibgeCode', 'BAD_USER_INPUT']);
    expect(await api.count('SELECT count(*) FROM municipality')).toBe(before);
  });

  it('only an ADMIN loads reference data', async () => {
    const actor = { sub: 'p', role: Role.PRODUCER, producerId, requestId: null };
    await expect(importCsv(api.db.dataSource, actor, { kind: 'municipalities', input: Readable.from(['ibgeCode,name,semiarid\n2927408,Salvador,não\n']) }))
      .rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('farmers', () => {
  it('keeps every registration of a farmer given on several lines', async () => {
    const regs = await api.db.dataSource.query(
      `SELECT f.name, f.municipality_code, r.kind, r.number, r.valid_from, r.valid_until FROM family_farmer f
         LEFT JOIN family_farmer_registration r ON r.family_farmer_id = f.id ORDER BY f.cpf, r.valid_from`,
    );
    expect(regs).toEqual([
      { name: 'Souza, João', municipality_code: '4314100', kind: 'CAF', number: 'CAF-RS-0002', valid_from: '2024-06-01', valid_until: '2026-05-31' },
      { name: 'Ana Pereira', municipality_code: '3143302', kind: null, number: null, valid_from: null, valid_until: null },
      { name: 'Maria da Silva', municipality_code: '2611101', kind: 'DAP', number: 'DAP-PE-0001', valid_from: '2020-01-01', valid_until: '2022-12-31' },
      { name: 'Maria da Silva', municipality_code: '2611101', kind: 'CAF', number: 'CAF-PE-0001', valid_from: '2023-01-01', valid_until: '2027-12-31' },
    ]);
  });

  it('refuses a bad CPF, a reversed validity, an existing CPF and an unknown municipality', async () => {
    const header = 'cpf,name,municipalityCode,registrationKind,registrationNumber,validFrom,validUntil\n';
    expect((await refused('farmers', `${header}12345678900,X,2611101,,,,\n`)).message).toBe('line 2, column cpf: CPF "12345678900" is not valid');
    expect((await refused('farmers', `${header}86288366757,X,2611101,CAF,C-1,2025-01-02,2025-01-01\n`)).message).toBe('line 2, column validUntil: must not be before validFrom');
    const dup = await refused('farmers', `${header}86288366757,X,2611101,,,,\n111.444.777-35,Y,2611101,,,,\n`);
    expect([dup.line, dup.column, dup.code, dup.reason]).toEqual([3, 'cpf', 'CONFLICT', 'DUPLICATE']);
    const unknown = await refused('farmers', `${header}86288366757,X,1100015,,,,\n`);
    expect([unknown.line, unknown.column, unknown.code]).toEqual([2, 'municipalityCode', 'BAD_USER_INPUT']);
    expect(await api.count(`SELECT count(*) FROM family_farmer WHERE cpf = '86288366757'`)).toBe(0);
  });
});

describe('purchases', () => {
  it('imports every kind of supplier with the defaults of recordPurchases and one audit entry', async () => {
    const csv = [
      PURCHASE_HEADER,
      `2025-07-10,,SOYBEAN,1000,2500.00,FAMILY_FARMER,${farmerId},,,2611101,${contractId},,nf-1`,
      `2025-07-11,2025-08-02,CASTOR_BEAN,500.250,1400,COOPERATIVE,,${cooperativeId},,2611101,,,nf-2`,
      `2025-07-12,,SUNFLOWER,300,900,ASSOCIATION,,${associationId},,3143302,,OTHER_PRODUCT,`,
      `2025-07-13,,SOYBEAN,2000,4400,THIRD_PARTY,,,"Cerealista Sul, Ltda",4314100,,,`,
      `2025-07-14,,SOYBEAN,800,,OWN_PRODUCTION,,,,5107925,,,`,
    ].join('\n');
    const summary = await run('purchases', csv, { producerId });
    expect(summary).toMatchObject({ kind: 'purchases', producerId, rows: 5, counts: { purchases: 5 } });
    // Decimals are stored as the mutations store them: the exact value, trailing zeros dropped.
    const rows = await api.db.dataSource.query(
      `SELECT purchased_on, consumed_on, quantity_kg, cost, supplier_kind, supplier_name, purpose, external_id FROM purchase WHERE producer_id = $1 ORDER BY purchased_on`, [producerId]);
    expect(rows).toEqual([
      { purchased_on: '2025-07-10', consumed_on: '2025-07-10', quantity_kg: '1000', cost: '2500', supplier_kind: 'FAMILY_FARMER', supplier_name: null, purpose: 'BIODIESEL_FEEDSTOCK', external_id: 'nf-1' },
      { purchased_on: '2025-07-11', consumed_on: '2025-08-02', quantity_kg: '500.25', cost: '1400', supplier_kind: 'COOPERATIVE', supplier_name: null, purpose: 'BIODIESEL_FEEDSTOCK', external_id: 'nf-2' },
      { purchased_on: '2025-07-12', consumed_on: '2025-07-12', quantity_kg: '300', cost: '900', supplier_kind: 'ASSOCIATION', supplier_name: null, purpose: 'OTHER_PRODUCT', external_id: null },
      { purchased_on: '2025-07-13', consumed_on: '2025-07-13', quantity_kg: '2000', cost: '4400', supplier_kind: 'THIRD_PARTY', supplier_name: 'Cerealista Sul, Ltda', purpose: 'BIODIESEL_FEEDSTOCK', external_id: null },
      { purchased_on: '2025-07-14', consumed_on: '2025-07-14', quantity_kg: '800', cost: null, supplier_kind: 'OWN_PRODUCTION', supplier_name: null, purpose: 'BIODIESEL_FEEDSTOCK', external_id: null },
    ]);
    const audit = await api.db.dataSource.query(`SELECT actor, role, entity, producer_id::text, after FROM audit_entry WHERE operation = 'importPurchases'`);
    expect(audit).toHaveLength(1);
    // 1000 + 500.250 + 300 + 2000 + 800 kg; 2500.00 + 1400 + 900 + 4400 reais.
    expect(audit[0]).toMatchObject({ actor: 'system', role: 'ADMIN', entity: 'Purchase', producer_id: producerId, after: { rows: 5, quantityKg: '4600.25', cost: '9200' } });
  });

  it('imports the facts of the credits under English or Portuguese names, each checked as recordPurchases checks it', async () => {
    const credit = 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode,pisCofinsCst,creditSupplier,creditProduct,icmsValue,importPisPaid,importCofinsPaid,creditRevenueGroup,cbsValue,externalId';
    await run('purchases', [credit,
      '2025-09-10,SOYBEAN_OIL,1000,10000,THIRD_PARTY,Esmagadora,4314100,01,COMPANY,VEGETABLE_OIL,1200,,,TAXED_DOMESTIC,,cf-1',
      '2025-09-11,OTHER,10,5000,THIRD_PARTY,Trading,4314100,,ABROAD,INPUT,,82.50,380,,,cf-2'].join('\n'), { producerId });
    await run('purchases', ['dataDaCompra,materiaPrima,quantidadeKg,custo,tipoDeFornecedor,nomeDoFornecedor,municipioDeOrigem,cstPisCofins,fornecedorParaOCredito,produtoParaOCredito,valorDoIcms,valorDaCbs,idExterno',
      '2025-12-15,ÓLEO_DE_SOJA,1000,10000,TERCEIRO,Esmagadora,4314100,50,PESSOA_JURÍDICA,ÓLEO_VEGETAL,0,880,cf-3'].join('\n'), { producerId });
    const rows = await api.db.dataSource.query(
      `SELECT external_id AS id, pis_cofins_cst AS cst, credit_supplier AS supplier, credit_product AS product, icms_value::text AS icms, import_pis_paid::text AS pis,
              import_cofins_paid::text AS cofins, credit_revenue_group AS "group", cbs_value::text AS cbs
         FROM purchase WHERE producer_id = $1 AND external_id LIKE 'cf-%' ORDER BY external_id`, [producerId]);
    expect(rows).toEqual([
      { id: 'cf-1', cst: '01', supplier: 'COMPANY', product: 'VEGETABLE_OIL', icms: '1200', pis: null, cofins: null, group: 'TAXED_DOMESTIC', cbs: null },
      { id: 'cf-2', cst: null, supplier: 'ABROAD', product: 'INPUT', icms: null, pis: '82.5', cofins: '380', group: null, cbs: null },
      { id: 'cf-3', cst: '50', supplier: 'COMPANY', product: 'VEGETABLE_OIL', icms: '0', pis: null, cofins: null, group: null, cbs: '880' },
    ]);
    const before = await purchaseCount();
    const line = (facts: string) => refused('purchases', [credit, `2025-09-12,SOYBEAN_OIL,1000,10000,THIRD_PARTY,Esmagadora,4314100,${facts},`].join('\n'), { producerId });
    expect(await line('01,COMPANY,VEGETABLE_OIL,10001,,,,')).toMatchObject({ line: 2, column: 'icmsValue', code: 'BAD_USER_INPUT' });
    expect(await line('1,COMPANY,VEGETABLE_OIL,0,,,,')).toMatchObject({ line: 2, column: 'pisCofinsCst', code: 'BAD_USER_INPUT' });
    expect(await line('01,SOMEONE,VEGETABLE_OIL,0,,,,')).toMatchObject({ line: 2, column: 'creditSupplier', code: 'BAD_USER_INPUT' });
    expect(await line('01,COMPANY,VEGETABLE_OIL,0,,,,-1')).toMatchObject({ line: 2, column: 'cbsValue', code: 'BAD_USER_INPUT' });
    expect(await purchaseCount()).toBe(before);
  });

  // Lei 10.637/2002 and Lei 10.833/2003, each art. 3º § 2º II: each credit follows its own CST, so a line may state a Cofins CST
  // apart from the PIS/Pasep one (PIS 01 / Cofins 06: PIS credited, Cofins not); the same on both is kept once, as recordPurchases keeps it.
  it('imports a Cofins CST apart from the PIS/Pasep one under English or Portuguese names: stored where it differs, checked as recordPurchases checks it', async () => {
    const header = 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode,pisCofinsCst,cofinsCst,creditSupplier,creditProduct,icmsValue,externalId';
    await run('purchases', [header,
      '2025-09-13,SOYBEAN_OIL,1000,10000,THIRD_PARTY,Esmagadora,4314100,01,06,COMPANY,VEGETABLE_OIL,0,cc-1',
      '2025-09-13,SOYBEAN_OIL,1000,10000,THIRD_PARTY,Esmagadora,4314100,01,01,COMPANY,VEGETABLE_OIL,0,cc-2',
      '2025-09-13,SOYBEAN_OIL,1000,10000,THIRD_PARTY,Esmagadora,4314100,01,,COMPANY,VEGETABLE_OIL,0,cc-3'].join('\n'), { producerId });
    await run('purchases', ['dataDaCompra,materiaPrima,quantidadeKg,custo,tipoDeFornecedor,nomeDoFornecedor,municipioDeOrigem,cstPisCofins,cstCofins,idExterno',
      '2025-09-14,ÓLEO_DE_SOJA,1000,10000,TERCEIRO,Esmagadora,4314100,06,01,cc-4'].join('\n'), { producerId });
    expect(await api.db.dataSource.query(`SELECT external_id AS id, pis_cofins_cst AS pis, cofins_cst AS cofins FROM purchase WHERE external_id LIKE 'cc-%' ORDER BY 1`)).toEqual([
      { id: 'cc-1', pis: '01', cofins: '06' }, { id: 'cc-2', pis: '01', cofins: null }, { id: 'cc-3', pis: '01', cofins: null }, { id: 'cc-4', pis: '06', cofins: '01' },
    ]);
    const before = await purchaseCount();
    const e = await refused('purchases', [header, '2025-09-15,SOYBEAN_OIL,1000,10000,THIRD_PARTY,Esmagadora,4314100,01,6,COMPANY,VEGETABLE_OIL,0,cc-5'].join('\n'), { producerId });
    expect(e).toMatchObject({ line: 2, column: 'cofinsCst', code: 'BAD_USER_INPUT' });
    expect(await purchaseCount()).toBe(before);
  });

  it('takes the NF-e item of a lot: one item, one purchase, whether typed or imported before or twice in the file', async () => {
    const header = 'purchasedOn,feedstock,quantityKg,cost,supplierKind,supplierName,originMunicipalityCode,invoiceKey,invoiceItem,externalId';
    const key = nfeKey('11444777000161', 9101, '2509');
    const lot = (item: string, id: string, k = key) => `2025-09-20,SOYBEAN,100,300,THIRD_PARTY,Cerealista,4314100,${k},${item},${id}`;
    await run('purchases', [header, lot('1', 'it-1'), lot('002', 'it-2')].join('\n'), { producerId });
    expect(await api.db.dataSource.query(`SELECT external_id AS id, invoice_key AS key, invoice_item AS item FROM purchase WHERE external_id LIKE 'it-%' ORDER BY 1`))
      .toEqual([{ id: 'it-1', key, item: 1 }, { id: 'it-2', key, item: 2 }]);
    const [{ id: first }] = await api.db.dataSource.query(`SELECT id::text FROM purchase WHERE external_id = 'it-1'`);
    const before = await purchaseCount();
    const again = await refused('purchases', [header, lot('3', 'it-3'), lot('1', 'it-4')].join('\n'), { producerId });
    expect(again).toMatchObject({ line: 3, column: 'invoiceItem', code: 'CONFLICT', reason: 'DUPLICATE' });
    expect(translate(again.detail)).toContain(`as purchase ${first}`);
    expect(await refused('purchases', [header, lot('5', 'it-5'), lot('5', 'it-6')].join('\n'), { producerId }))
      .toMatchObject({ line: 3, column: 'invoiceItem', code: 'CONFLICT', reason: 'DUPLICATE' });
    // The same item of another note, or of the same note for another producer, is another purchase.
    await run('purchases', [header, lot('1', 'it-7', nfeKey('11444777000161', 9102, '2509'))].join('\n'), { producerId });
    await run('purchases', [header, lot('1', 'it-8')].join('\n'), { producerId: otherProducerId });
    for (const [item, k] of [['991', key], ['0', key], ['1.0', key], ['abc', key], ['1', '']]) {
      expect(await refused('purchases', [header, lot(item, 'it-bad', k)].join('\n'), { producerId })).toMatchObject({ line: 2, column: 'invoiceItem', code: 'BAD_USER_INPUT' });
    }
    expect(await purchaseCount()).toBe(before + 2);
  });

  const cases: Array<[string, string, number, string, string]> = [
    ['a zero quantity', `2025-08-01,,SOYBEAN,0,10,THIRD_PARTY,,,X,4314100,,,`, 57, 'quantityKg', 'must be greater than zero'],
    ['a negative cost', `2025-08-01,,SOYBEAN,10,-1,THIRD_PARTY,,,X,4314100,,,`, 57, 'cost', 'must be greater than zero'],
    ['a comma decimal', `2025-08-01,,SOYBEAN,"10,5",10,THIRD_PARTY,,,X,4314100,,,`, 57, 'quantityKg', '"10,5" is written in pt-BR notation, but the file is read as en (from "100.5" at line 2, column quantityKg)'],
    ['own production with a cost', `2025-08-01,,SOYBEAN,10,5,OWN_PRODUCTION,,,,4314100,,,`, 57, 'cost', 'OWN_PRODUCTION has no acquisition cost (valued per art. 6º §4º)'],
    ['a third party without cost', `2025-08-01,,SOYBEAN,10,,THIRD_PARTY,,,X,4314100,,,`, 57, 'cost', 'A THIRD_PARTY purchase needs its acquisition cost'],
    ['consumption before purchase', `2025-08-02,2025-08-01,SOYBEAN,10,5,THIRD_PARTY,,,X,4314100,,,`, 57, 'consumedOn', 'must not be before purchasedOn'],
    ['a day that does not exist', `2025-02-29,,SOYBEAN,10,5,THIRD_PARTY,,,X,4314100,,,`, 57, 'purchasedOn', 'must be a real date from 0001-01-01 to 9999-12-31 written as 2026-11-03, got "2025-02-29"'],
    ['a farmer purchase without farmer', `2025-08-01,,SOYBEAN,10,5,FAMILY_FARMER,,,,4314100,,,`, 57, 'familyFarmerId', 'supplierKind FAMILY_FARMER needs familyFarmerId'],
    ['an unknown feedstock', `2025-08-01,,COFFEE,10,5,THIRD_PARTY,,,X,4314100,,,`, 57, 'feedstock', 'unknown Feedstock "COFFEE"; accepted: SOYBEAN, CASTOR_BEAN, PALM, COTTONSEED, SUNFLOWER, CANOLA, PEANUT, MACAUBA, BEEF_TALLOW, USED_COOKING_OIL, SOYBEAN_OIL, LIVE_ANIMALS, OTHER'],
  ];
  it.each(cases)('refuses %s at its line and column, writing nothing', async (_name, line, at, column, detail) => {
    const before = await purchaseCount();
    const lines = goodLines(at - 2, `case-${at}-${column}`);
    const e = await refused('purchases', [PURCHASE_HEADER, ...lines, line, ...goodLines(10, `after-${column}`)].join('\n'), { producerId });
    expect(e.message).toBe(`line ${at}, column ${column}: ${detail}`);
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(await purchaseCount()).toBe(before);
  });

  it('refuses references that the database does not hold for this producer, at their first line', async () => {
    const before = await purchaseCount();
    const at = (line: string, position = 40) => [PURCHASE_HEADER, ...goodLines(position - 2, `ref-${position}`), line, ...goodLines(5, `ref-after-${position}`)].join('\n');
    const check = async (csv: string, expected: Partial<ImportLineError>) => expect(await refused('purchases', csv, { producerId })).toMatchObject(expected);
    await check(at(`2025-08-01,,SOYBEAN,10,5,THIRD_PARTY,,,X,2927408,,,`), { line: 40, column: 'originMunicipalityCode', code: 'BAD_USER_INPUT' });
    await check(at(`2025-08-01,,SOYBEAN,10,5,FAMILY_FARMER,999999,,,2611101,,,`), { line: 40, column: 'familyFarmerId', code: 'NOT_FOUND' });
    await check(at(`2025-08-01,,SOYBEAN,10,5,COOPERATIVE,,${associationId},,2611101,,,`), { line: 40, column: 'supplierKind', code: 'BAD_USER_INPUT' });
    // Each organization also named rightly elsewhere in the file: the line naming one with the other kind is still found.
    await check([PURCHASE_HEADER, `2025-08-01,,SOYBEAN,10,5,COOPERATIVE,,${cooperativeId},,2611101,,,`, `2025-08-01,,SOYBEAN,10,5,ASSOCIATION,,${associationId},,2611101,,,`,
      `2025-08-02,,SOYBEAN,10,5,ASSOCIATION,,${cooperativeId},,2611101,,,`].join('\n'), { line: 4, column: 'supplierKind', code: 'BAD_USER_INPUT' });
    // Another producer's contract is reported as a missing one (the access rules, README "Tokens").
    await check(at(`2025-08-01,,SOYBEAN,10,5,FAMILY_FARMER,${farmerId},,,2611101,${otherContractId},,`), { line: 40, column: 'contractId', code: 'NOT_FOUND' });
    await check(at(`2025-08-01,,SOYBEAN,10,5,THIRD_PARTY,,,X,4314100,,,nf-1`), { line: 40, column: 'externalId', code: 'CONFLICT', reason: 'DUPLICATE' });
    await check([PURCHASE_HEADER, ...goodLines(3, 'twice'), ...goodLines(1, 'twice')].join('\n'), { line: 5, column: 'externalId', code: 'CONFLICT', reason: 'DUPLICATE' });
    // Two errors: the earlier line is named.
    await check(at(`2025-08-01,,SOYBEAN,10,5,FAMILY_FARMER,999999,,,2927408,,,`, 9), { line: 9, column: 'originMunicipalityCode' });
    expect(await purchaseCount()).toBe(before);
  });

  it('refuses a line in a CLOSED tax period (CONFLICT PERIOD_CLOSED), by consumedOn', async () => {
    await api.db.dataSource.query(`INSERT INTO tax_period (producer_id, year, month, status, snapshot, fingerprint, closed_at, closed_by)
                                   VALUES ($1, 2025, 11, 'CLOSED', '{}'::jsonb, 'f', now(), 'test')`, [producerId]);
    const before = await purchaseCount();
    // Bought in October, used in November (art. 6º §3º: the month of use is the one it weighs in).
    const csv = [PURCHASE_HEADER, ...goodLines(2, 'closed'), `2025-10-30,2025-11-02,SOYBEAN,10,5,THIRD_PARTY,,,X,4314100,,,`, `2025-11-05,,SOYBEAN,10,5,THIRD_PARTY,,,X,4314100,,,`].join('\n');
    expect(await refused('purchases', csv, { producerId })).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', line: 4, column: 'consumedOn' });
    expect(await refused('sales', `soldOn,volumeM3,revenue\n2025-10-31,1,1\n2025-11-30,1,1\n`, { producerId })).toMatchObject({ code: 'CONFLICT', reason: 'PERIOD_CLOSED', line: 3, column: 'soldOn' });
    expect(await purchaseCount()).toBe(before);
    await api.db.dataSource.query(`DELETE FROM tax_period WHERE producer_id = $1`, [producerId]);
  });

  it('counts the lines of a quoted cell that spans lines (refused itself: no text takes a line break)', async () => {
    const csv = [PURCHASE_HEADER, `2025-08-01,,SOYBEAN,10,5,THIRD_PARTY,,,"Cerealista\nSul",4314100,,,`, `2025-08-01,,SOYBEAN,-1,5,THIRD_PARTY,,,X,4314100,,,`].join('\n');
    const error = await refused('purchases', csv, { producerId }) as ImportProblemsError;
    expect(error.problems.map((p) => [p.line, p.column, p.message])).toEqual([
      [3, 'supplierName', 'line 3, column supplierName: the cell holds a control character (U+000A): line breaks, tabs, other control characters and direction overrides are refused'],
      [4, 'quantityKg', 'line 4, column quantityKg: must be greater than zero'],
    ]);
  });

  it('refuses a bad header and malformed CSV', async () => {
    expect((await refused('purchases', 'purchasedOn,feedstock,quantityKg,supplierKind,originMunicipalityCode,colour\n', { producerId })).message)
      .toMatch(/^line 1, column colour: unknown column/);
    expect((await refused('purchases', 'purchasedOn,feedstock,quantityKg,supplierKind\n', { producerId })).message)
      .toBe('line 1, column originMunicipalityCode: required column missing from the header');
    const ragged = await refused('purchases', [PURCHASE_HEADER, ...goodLines(3, 'ragged'), '2025-08-01,SOYBEAN'].join('\n'), { producerId });
    expect([ragged.line, ragged.code]).toEqual([5, 'BAD_USER_INPUT']);
    expect((await refused('purchases', '', { producerId })).message).toBe('line 1: the file is empty: a header line is required');
  });

  it('carries each lot\'s NF-e key (optional column), checked as recordPurchases checks it, so the lots can be cancelled by it', async () => {
    const header = `${PURCHASE_HEADER},invoiceKey`;
    // Two items of one supplier's note share its key; a lot without a key keeps none.
    const key = nfeKey('60701190000104', 41, '2510');
    const line = (day: string, ext: string, k: string) => `2025-10-${day},,SOYBEAN,100,300,FAMILY_FARMER,${farmerId},,,2611101,${contractId},,${ext},${k}`;
    const wrongDigit = `${key.slice(0, 43)}${(Number(key[43]) + 1) % 10}`;
    const count = await purchaseCount();
    const bad = await refused('purchases', [header, line('01', 'k-0', key), line('02', 'k-bad', wrongDigit)].join('\n'), { producerId });
    expect(bad).toMatchObject({ line: 3, column: 'invoiceKey', code: 'BAD_USER_INPUT' });
    expect(await purchaseCount()).toBe(count);
    expect((await run('purchases', [header, line('01', 'k-1', key), line('02', 'k-2', key), line('03', 'k-3', '')].join('\n'), { producerId })).counts).toEqual({ purchases: 3 });
    const keys = await api.db.dataSource.query(`SELECT external_id AS ext, invoice_key AS key FROM purchase WHERE external_id LIKE 'k-%' ORDER BY external_id`);
    expect(keys).toEqual([{ ext: 'k-1', key }, { ext: 'k-2', key }, { ext: 'k-3', key: null }]);
    const cancelled = (await api.ok(`mutation($k: String!) { cancelDocument(key: $k) { purchases { state } } }`, { k: key })).cancelDocument.purchases;
    expect(cancelled).toEqual([{ state: 'CANCELLED' }, { state: 'CANCELLED' }]);
  });

  it('carries the supplier\'s CNPJ or CPF (optional column, punctuation allowed), checked by its digits', async () => {
    const header = `${PURCHASE_HEADER},cnpjDoFornecedor`;
    const line = (ext: string, doc: string) => `2025-10-06,,SOYBEAN,100,300,FAMILY_FARMER,${farmerId},,,2611101,${contractId},,${ext},${doc}`;
    const count = await purchaseCount();
    const bad = await refused('purchases', [header, line('d-0', '60.746.948/0001-12'), line('d-bad', '60.746.948/0001-13')].join('\n'), { producerId });
    expect(bad).toMatchObject({ line: 3, column: 'supplierDocument', code: 'BAD_USER_INPUT' });
    expect(await purchaseCount()).toBe(count);
    await run('purchases', [header, line('d-1', '60.746.948/0001-12'), line('d-2', '529.982.247-25'), line('d-3', '')].join('\n'), { producerId });
    const docs = await api.db.dataSource.query(`SELECT external_id AS ext, supplier_document AS doc FROM purchase WHERE external_id LIKE 'd-%' ORDER BY external_id`);
    expect(docs).toEqual([{ ext: 'd-1', doc: '60746948000112' }, { ext: 'd-2', doc: '52998224725' }, { ext: 'd-3', doc: null }]);
  });

  it('refuses a file without producer, and an unknown producer', async () => {
    expect((await refused('purchases', PURCHASE_HEADER)).column).toBe('producer');
    expect(await refused('purchases', PURCHASE_HEADER, { producerId: '987654' })).toMatchObject({ code: 'NOT_FOUND', column: 'producer' });
    // The producer's id with a leading zero names no producer, as over GraphQL.
    expect(await refused('purchases', PURCHASE_HEADER, { producerId: `0${producerId}` })).toMatchObject({ code: 'NOT_FOUND', column: 'producer' });
  });
});

describe('sales', () => {
  it('imports sales with their defaults and refuses a repeated invoice key', async () => {
    const cnpj = await producerCnpj(api, producerId);
    const key = (n: number) => nfeKey(cnpj, n);
    const header = 'soldOn,volumeM3,revenue,origin,market,invoiceKey';
    const summary = await run('sales', [header, `2025-09-01,30.5,152500.00,,,${key(1)}`, `2025-09-02,10,51000,IMPORTED,,`, `2025-09-03,5,26000,,EXPORT,${key(2)}`].join('\n'), { producerId });
    expect(summary.counts).toEqual({ sales: 3 });
    // 30.5 + 10 + 5 m³; 152500.00 + 51000 + 26000 reais (stored without trailing zeros).
    const [audit] = await api.db.dataSource.query(`SELECT after FROM audit_entry WHERE operation = 'importSales'`);
    expect(audit.after).toEqual({ rows: 3, volumeM3: '45.5', revenue: '229500' });
    expect(await api.db.dataSource.query(`SELECT sold_on, volume_m3, origin, market FROM sale ORDER BY sold_on`)).toEqual([
      { sold_on: '2025-09-01', volume_m3: '30.5', origin: 'OWN_PRODUCTION', market: 'DOMESTIC' },
      { sold_on: '2025-09-02', volume_m3: '10', origin: 'IMPORTED', market: 'DOMESTIC' },
      { sold_on: '2025-09-03', volume_m3: '5', origin: 'OWN_PRODUCTION', market: 'EXPORT' },
    ]);
    expect(await refused('sales', [header, `2025-09-04,1,1,,,${key(3)}`, `2025-09-05,1,1,,,${key(1)}`].join('\n'), { producerId }))
      .toMatchObject({ line: 3, column: 'invoiceKey', code: 'CONFLICT', reason: 'DUPLICATE' });
    expect((await refused('sales', [header, `2025-09-04,1,0,,,`].join('\n'), { producerId })).message).toBe('line 2, column revenue: must be greater than zero');
    expect((await refused('sales', [header, `2025-09-04,1,1,,,123`].join('\n'), { producerId })).message).toBe('line 2, column invoiceKey: must be an NF-e access key: 44 digits, the issuer\'s CNPJ (positions 7 to 18) may hold letters A to Z');
    expect(await api.count('SELECT count(*) FROM sale')).toBe(3);
  });
});

describe('POST /import/<kind>', () => {
  const post = async (kind: string, body: string, as: Parameters<TestApi['token']>[0] | null, query = '') => {
    const headers: Record<string, string> = { 'content-type': 'text/csv' };
    if (as) headers.authorization = `Bearer ${await api.token(as)}`;
    const res = await fetch(`${api.url.replace(/\/graphql$/, '')}/import/${kind}${query}`, { method: 'POST', headers, body });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('imports for the producer of a PRODUCER token and answers with the summary', async () => {
    const before = await purchaseCount();
    const res = await post('purchases', [PURCHASE_HEADER, ...goodLines(25, 'http')].join('\n'), { role: 'PRODUCER', producerId });
    expect(res.status).toBe(200);
    expect(res.body.import).toMatchObject({ kind: 'purchases', producerId, rows: 25, counts: { purchases: 25 } });
    expect(res.body.import.rowsPerSecond).toBeGreaterThan(0);
    expect(await purchaseCount()).toBe(before + 25);
  });

  it('answers a bad line with its code, line and column, writing nothing', async () => {
    const before = await purchaseCount();
    const lines = goodLines(60, 'http-bad');
    lines[55] = `2025-08-01,,SOYBEAN,0,5,THIRD_PARTY,,,X,4314100,,,`;
    const res = await post('purchases', [PURCHASE_HEADER, ...lines].join('\n'), { role: 'ADMIN' }, `?producer=${producerId}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_USER_INPUT', line: 57, column: 'quantityKg', message: 'line 57, column quantityKg: must be greater than zero' });
    expect(await purchaseCount()).toBe(before);
  });

  it('writes nothing when the client goes away mid-upload', async () => {
    const before = await purchaseCount();
    const { port } = new URL(api.url);
    const token = await api.token({ role: 'ADMIN' });
    await new Promise<void>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/import/purchases?producer=${producerId}`, headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` } });
      req.on('error', () => resolve());
      req.write(`${[PURCHASE_HEADER, ...goodLines(2000, 'gone')].join('\n')}\n`);
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(await purchaseCount()).toBe(before);
    // No transaction is left waiting for the rest of the file.
    expect(await api.count(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND (query LIKE 'COPY import_stage%' OR state = 'idle in transaction')`)).toBe(0);
    // The server goes on answering, and the import's connection went back to the pool.
    const res = await post('purchases', [PURCHASE_HEADER, ...goodLines(3, 'after-gone')].join('\n'), { role: 'ADMIN' }, `?producer=${producerId}`);
    expect(res.status).toBe(200);
  });

  it('is scoped like the API', async () => {
    const csv = [PURCHASE_HEADER, ...goodLines(1, 'scope')].join('\n');
    expect((await post('purchases', csv, null, `?producer=${producerId}`)).status).toBe(401);
    expect((await post('purchases', csv, { role: 'PRODUCER', producerId }, `?producer=${otherProducerId}`)).body.error.code).toBe('NOT_FOUND');
    expect((await post('purchases', csv, { role: 'AUDITOR' }, `?producer=${producerId}`)).body.error.code).toBe('FORBIDDEN');
    expect((await post('municipalities', 'ibgeCode,name,semiarid\n2927408,Salvador,não\n', { role: 'PRODUCER', producerId })).status).toBe(403);
    expect((await post('tractors', csv, { role: 'ADMIN' })).status).toBe(404);
    const res = await fetch(`${api.url.replace(/\/graphql$/, '')}/import/purchases?producer=${producerId}`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await api.token({ role: 'ADMIN' })}` }, body: '{}',
    });
    expect(res.status).toBe(415);
    expect(await api.count(`SELECT count(*) FROM purchase WHERE external_id LIKE 'scope-%'`)).toBe(0);
  });
});

describe('npm run import (the command line)', () => {
  const cli = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['-r', '@swc-node/register', 'scripts/import.ts', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: api.db.url, LOG_LEVEL: 'silent' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += String(d)));
      child.stderr.on('data', (d) => (stderr += String(d)));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  /** A generated purchases file of `lines` data lines (all suppliers but cooperatives), into os.tmpdir(). */
  function generate(lines: number, bad?: { line: number; text: string }): string {
    const file = path.join(os.tmpdir(), `selo-import-${process.pid}-${lines}-${bad ? 'bad' : 'ok'}.csv`);
    const out = fs.openSync(file, 'w');
    let chunk = `${PURCHASE_HEADER}\n`;
    for (let i = 0; i < lines; i++) {
      const line = i + 2;
      const day = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
      if (bad?.line === line) chunk += `${bad.text}\n`;
      else if (i % 10 === 9) chunk += `${day},,SOYBEAN,${50 + (i % 100)},,OWN_PRODUCTION,,,,5107925,,,\n`;
      else if (i % 10 === 8) chunk += `${day},,SOYBEAN,${50 + (i % 100)},${120 + (i % 7)}.10,THIRD_PARTY,,,Cerealista ${i % 13},4314100,,,\n`;
      // External ids of their own in a file with a bad line: its other lines are all good.
      else chunk += `${day},,SOYBEAN,${50 + (i % 100)}.25,${125 + (i % 9)}.40,FAMILY_FARMER,${farmerId},,,2611101,${i % 2 ? contractId : ''},,${bad ? 'bad' : 'gen'}-${i}\n`;
      if (chunk.length > 1 << 16) {
        fs.writeSync(out, chunk);
        chunk = '';
      }
    }
    fs.writeSync(out, chunk);
    fs.closeSync(out);
    return file;
  }

  it('imports a generated 100,000-line purchases file with progress lines and a summary', async () => {
    const file = generate(100_000);
    const before = await purchaseCount();
    const { code, stdout, stderr } = await cli(['purchases', file, '--producer', producerId]);
    fs.rmSync(file, { force: true });
    process.stdout.write(`${stderr.split('\n').filter((l) => l.startsWith('purchases')).slice(-4).join('\n')}\n${stdout}`);
    expect(code).toBe(0);
    expect(stderr).toMatch(/: reading( \d+%)?, \d+ rows, \d+ rows\/s/);
    expect(stderr).toMatch(/: done, 100000 rows, \d+ rows\/s/);
    expect(stdout).toMatch(new RegExp(`^Imported purchases for producer ${producerId}: 100000 rows \\(purchases 100000\\) in \\d+\\.\\d\\d s, \\d+ rows/s`));
    expect(await purchaseCount()).toBe(before + 100_000);
    // Exact sums straight from the generator's rule: kg per line.
    let kg = 0n; // in hundredths of a kg
    for (let i = 0; i < 100_000; i++) kg += BigInt((50 + (i % 100)) * 100 + (i % 10 < 8 ? 25 : 0));
    const [{ sum }] = await api.db.dataSource.query(`SELECT sum(quantity_kg)::text AS sum FROM purchase WHERE external_id LIKE 'gen-%' OR supplier_kind IN ('OWN_PRODUCTION', 'THIRD_PARTY') AND purchased_on >= '2026-01-01'`);
    expect(sum).toBe(`${kg / 100n}.${String(kg % 100n).padStart(2, '0')}`);
  }, 120_000);

  it('a 100,000-line file with one bad line imports nothing and names the line', async () => {
    const file = generate(100_000, { line: 77_777, text: `2026-03-01,,SOYBEAN,10,,THIRD_PARTY,,,Cerealista,4314100,,,` });
    const before = await purchaseCount();
    const { code, stderr } = await cli(['purchases', file, '--producer', producerId]);
    fs.rmSync(file, { force: true });
    expect(code).toBe(1);
    expect(stderr).toContain('Import refused, nothing was written (BAD_USER_INPUT): line 77777, column cost: A THIRD_PARTY purchase needs its acquisition cost\n');
    expect(await purchaseCount()).toBe(before);
  }, 120_000);

  it('explains how it is used', async () => {
    const { code, stderr } = await cli(['purchases', path.join(FIXTURES, 'farmers.csv')]);
    expect(code).toBe(2);
    expect(stderr).toContain('add --producer ID');
  });
});
