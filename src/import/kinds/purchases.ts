import { ENUMS } from '../../formats/brazilian';
import { Actor } from '../../services/actor';
import { PurchaseService, RecordPurchaseInput } from '../../services/purchase.service';
import { assertCanWriteFor } from '../../services/scope';
import { Feedstock, PurchasePurpose, SupplierKind } from '../../law/types';
import { CreditProduct, CreditSupplier, RevenueGroup } from '../../law/credits/types';
import { Decimal } from '../../law/decimal';
import { ImportLineError } from '../import-error';
import { CsvRow, failures, ImportKind, sqlCheck, STAGING } from '../import-kind';
import { bulkInsert, checkPeriodsOpen, decimalCell, idCell } from './common';
import { message } from '../../i18n';
import { activeSql } from '../../services/record-state';

const CREDIT_FACTS = 'pis_cofins_cst, cofins_cst, credit_supplier, credit_product, icms_value, import_pis_paid, import_cofins_paid, credit_revenue_group, cbs_value';
const text = (v: Decimal | null) => (v === null ? null : v.toFixed());
/** An item number as written (`12`); anything else goes on as it is, for toRow to refuse with the field named. */
const itemCell = (v: string | undefined) => (v === undefined ? null : /^[0-9]{1,4}$/.test(v) ? Number(v) : (v as unknown as number));
const decimalOrNull = (row: CsvRow, column: string) => {
  const v = decimalCell(row, column);
  return v === undefined ? null : new Decimal(v);
};

/**
 * The date whose month must be open besides consumedOn's (Decreto 10.527/2020 art. 6º §4º): a
 * third-party lot of raw material enters the average price per kg of the month it was acquired in.
 */
const ACQUIRED_MONTH_DATE = `(CASE WHEN supplier_kind <> 'OWN_PRODUCTION' AND purpose = 'BIODIESEL_FEEDSTOCK' THEN purchased_on ELSE consumed_on END)`;

/**
 * Purchases of raw material (Decreto 10.527/2020, art. 3º §2 I; art. 6º §§3º–4º), the columns of
 * RecordPurchaseInput, for one producer. Every rule of recordPurchases applies.
 */
export const purchasesImport: ImportKind = {
  name: 'purchases',
  producerScoped: true,
  columns: [
    { name: 'purchasedOn', required: true, type: 'date', portuguese: ['dataDaCompra', 'dataCompra', 'dataDeAquisicao', 'dataAquisicao'] },
    { name: 'consumedOn', required: false, type: 'date', portuguese: ['dataDeConsumo', 'dataConsumo', 'dataDeUso', 'consumidoEm'] },
    { name: 'feedstock', required: true, type: ENUMS.Feedstock, portuguese: ['materiaPrima', 'insumo'] },
    { name: 'quantityKg', required: true, type: 'decimal', portuguese: ['quantidadeKg', 'quantidade', 'qtdKg', 'pesoKg'] },
    { name: 'cost', required: false, type: 'decimal', portuguese: ['custo', 'custoDeAquisicao', 'valor', 'valorTotal', 'custoRs', 'valorRs'] },
    { name: 'supplierKind', required: true, type: ENUMS.SupplierKind, portuguese: ['tipoDeFornecedor', 'tipoFornecedor'] },
    { name: 'familyFarmerId', required: false, portuguese: ['agricultorFamiliarId', 'idDoAgricultor', 'idAgricultor', 'agricultorId'] },
    { name: 'organizationId', required: false, portuguese: ['organizacaoId', 'idDaOrganizacao', 'idOrganizacao', 'cooperativaId'] },
    { name: 'supplierName', required: false, portuguese: ['nomeDoFornecedor', 'nomeFornecedor', 'fornecedor', 'razaoSocial'] },
    { name: 'originMunicipalityCode', required: true, portuguese: ['municipioDeOrigem', 'municipioOrigem', 'codigoDoMunicipioDeOrigem', 'codigoMunicipioOrigem', 'codIbgeOrigem', 'origem'] },
    { name: 'contractId', required: false, portuguese: ['contratoId', 'idDoContrato', 'idContrato', 'contrato'] },
    { name: 'purpose', required: false, type: ENUMS.PurchasePurpose, portuguese: ['finalidade', 'destinacao'] },
    { name: 'externalId', required: false, portuguese: ['idExterno', 'codigoExterno', 'identificadorExterno', 'referencia'] },
    { name: 'invoiceKey', required: false, portuguese: ['chaveNfe', 'chaveDaNfe', 'chaveDeAcesso', 'chaveDaNotaFiscal'] },
    { name: 'invoiceItem', required: false, portuguese: ['itemDaNfe', 'numeroDoItem', 'nItem'] },
    { name: 'supplierDocument', required: false, portuguese: ['cnpjCpfDoFornecedor', 'cpfCnpjDoFornecedor', 'cnpjDoFornecedor', 'cpfDoFornecedor', 'documentoDoFornecedor'] },
    // The facts of the credits (Lei 10.637/2002 and Lei 10.833/2003, art. 3º; LC 214/2025, art. 47), all optional.
    { name: 'pisCofinsCst', required: false, portuguese: ['cstPisCofins', 'cstDoPisCofins', 'cst'] },
    // The Cofins CST where it differs (each credit follows its own: art. 3º § 2º II of both laws); stored null when the same.
    { name: 'cofinsCst', required: false, portuguese: ['cstCofins', 'cstDaCofins', 'cstDoCofins'] },
    { name: 'creditSupplier', required: false, type: ENUMS.CreditSupplier, portuguese: ['fornecedorParaOCredito', 'naturezaDoFornecedor'] },
    { name: 'creditProduct', required: false, type: ENUMS.CreditProduct, portuguese: ['produtoParaOCredito', 'naturezaDoProduto'] },
    { name: 'icmsValue', required: false, type: 'decimal', portuguese: ['valorDoIcms', 'icms', 'vIcms'] },
    { name: 'importPisPaid', required: false, type: 'decimal', portuguese: ['pisImportacaoPago', 'pisImportacao'] },
    { name: 'importCofinsPaid', required: false, type: 'decimal', portuguese: ['cofinsImportacaoPaga', 'cofinsImportacao'] },
    { name: 'creditRevenueGroup', required: false, type: ENUMS.RevenueGroup, portuguese: ['receitaDoCredito', 'grupoDeReceita'] },
    { name: 'cbsValue', required: false, type: 'decimal', portuguese: ['valorDaCbs', 'cbs', 'vCbs'] },
  ],
  stagingColumns: [
    ['purchased_on', 'date'], ['consumed_on', 'date'], ['feedstock', 'text'], ['quantity_kg', 'numeric'], ['cost', 'numeric'],
    ['supplier_kind', 'text'], ['family_farmer_id', 'bigint'], ['organization_id', 'bigint'], ['supplier_name', 'text'],
    ['origin_municipality_code', 'text'], ['contract_id', 'bigint'], ['purpose', 'text'], ['external_id', 'text'], ['invoice_key', 'text'],
    ['invoice_item', 'int'], ['supplier_document', 'text'], ['pis_cofins_cst', 'text'], ['cofins_cst', 'text'], ['credit_supplier', 'text'], ['credit_product', 'text'], ['icms_value', 'numeric'],
    ['import_pis_paid', 'numeric'], ['import_cofins_paid', 'numeric'], ['credit_revenue_group', 'text'], ['cbs_value', 'numeric'],
  ],

  authorize(actor: Actor, producerId: string | null) {
    assertCanWriteFor(actor, 'Producer', producerId ?? '');
  },

  toStaging(row, producerId) {
    const quantityKg = decimalCell(row, 'quantityKg');
    const input: RecordPurchaseInput = {
      producerId: producerId!,
      purchasedOn: row.purchasedOn as string,
      consumedOn: row.consumedOn ?? null,
      feedstock: row.feedstock as Feedstock,
      quantityKg: (quantityKg === undefined ? undefined : new Decimal(quantityKg)) as Decimal,
      cost: decimalOrNull(row, 'cost'),
      supplierKind: row.supplierKind as SupplierKind,
      familyFarmerId: idCell(row, 'familyFarmerId', 'FamilyFarmer'),
      organizationId: idCell(row, 'organizationId', 'FamilyFarmingOrganization'),
      supplierName: row.supplierName ?? null,
      originMunicipalityCode: row.originMunicipalityCode as string,
      contractId: idCell(row, 'contractId', 'Contract'),
      purpose: (row.purpose ?? null) as PurchasePurpose | null,
      externalId: row.externalId ?? null,
      // Checked as recordPurchases checks it (layout, model, digit), so the lot can be cancelled or returned by key.
      invoiceKey: row.invoiceKey ?? null,
      invoiceItem: itemCell(row.invoiceItem),
      supplierDocument: row.supplierDocument ?? null,
      pisCofinsCst: row.pisCofinsCst ?? null,
      cofinsCst: row.cofinsCst ?? null,
      creditSupplier: (row.creditSupplier ?? null) as CreditSupplier | null,
      creditProduct: (row.creditProduct ?? null) as CreditProduct | null,
      icmsValue: decimalOrNull(row, 'icmsValue'),
      importPisPaid: decimalOrNull(row, 'importPisPaid'),
      importCofinsPaid: decimalOrNull(row, 'importCofinsPaid'),
      creditRevenueGroup: (row.creditRevenueGroup ?? null) as RevenueGroup | null,
      cbsValue: decimalOrNull(row, 'cbsValue'),
    };
    const p = PurchaseService.toRow(input, 'row');
    return [
      p.purchasedOn, p.consumedOn, p.feedstock, p.quantityKg.toFixed(), text(p.cost), p.supplierKind,
      p.familyFarmerId, p.organizationId, p.supplierName, p.originMunicipalityCode, p.contractId, p.purpose, p.externalId, p.invoiceKey,
      p.invoiceItem, p.supplierDocument, p.pisCofinsCst, p.cofinsCst, p.creditSupplier, p.creditProduct, text(p.icmsValue), text(p.importPisPaid), text(p.importCofinsPaid), p.creditRevenueGroup,
      text(p.cbsValue),
    ];
  },

  async check(em, producerId) {
    const s = STAGING;
    // One pass over the staged rows collects what they refer to, the supplier kind each
    // organization is named with, and the months of both dates the tax periods are checked on; the
    // references are then locked FOR KEY SHARE (as a foreign-key check would) and looked up by id.
    // Only when one is missing or of another kind is the file searched again, for its lines.
    // (Texts compared under COLLATE "C": equality is the same, without the locale's ordering.)
    const [refs] = await em.query(
      `SELECT array_agg(DISTINCT origin_municipality_code COLLATE "C") AS municipalities,
              array_agg(DISTINCT family_farmer_id) FILTER (WHERE family_farmer_id IS NOT NULL)::text[] AS farmers,
              array_agg(DISTINCT organization_id) FILTER (WHERE organization_id IS NOT NULL)::text[] AS organizations,
              array_agg(DISTINCT organization_id::text || ' ' || supplier_kind COLLATE "C") FILTER (WHERE organization_id IS NOT NULL) AS organization_kinds,
              array_agg(DISTINCT contract_id) FILTER (WHERE contract_id IS NOT NULL)::text[] AS contracts,
              array_agg(DISTINCT extract(year FROM consumed_on)::int * 100 + extract(month FROM consumed_on)::int) AS months,
              array_agg(DISTINCT extract(year FROM ${ACQUIRED_MONTH_DATE})::int * 100 + extract(month FROM ${ACQUIRED_MONTH_DATE})::int) AS acquired_months
         FROM ${s}`,
    );
    const list = (v: string[] | null) => v ?? [];
    const found = async (sql: string, values: string[]) => (values.length ? ((await em.query(sql, [values, producerId])) as Array<{ key: string; kind?: string }>) : []);
    const municipalities = await found(`SELECT ibge_code::text AS key FROM municipality WHERE ibge_code = ANY($1::text[]) AND $2::text IS NOT NULL FOR KEY SHARE`, list(refs.municipalities));
    const farmers = await found(`SELECT id::text AS key FROM family_farmer WHERE id = ANY($1::bigint[]) AND $2::text IS NOT NULL FOR KEY SHARE`, list(refs.farmers));
    const organizations = await found(`SELECT id::text AS key, kind FROM family_farming_organization WHERE id = ANY($1::bigint[]) AND $2::text IS NOT NULL FOR KEY SHARE`, list(refs.organizations));
    // A contract of another producer is reported as a missing one (the access rules, README "Tokens").
    const contracts = await found(`SELECT id::text AS key FROM contract WHERE id = ANY($1::bigint[]) AND producer_id = $2 FOR KEY SHARE`, list(refs.contracts));
    const missing = (wanted: string[], rows: Array<{ key: string }>) => {
      const known = new Set(rows.map((r) => r.key));
      return wanted.filter((w) => !known.has(w));
    };
    const lost = {
      municipalities: missing(list(refs.municipalities), municipalities),
      farmers: missing(list(refs.farmers), farmers),
      organizations: missing(list(refs.organizations), organizations),
      contracts: missing(list(refs.contracts), contracts),
    };
    const cooperatives = organizations.filter((o) => o.kind === 'COOPERATIVE').map((o) => o.key);
    const associations = organizations.filter((o) => o.kind === 'ASSOCIATION').map((o) => o.key);
    const kinds = Object.fromEntries(organizations.map((o) => [o.key, o.kind]));
    const anyLost = Object.values(lost).some((l) => l.length > 0);
    const otherKind = ((refs.organization_kinds ?? []) as string[]).some((pair) => {
      const [org, supplierKind] = (pair ?? '').split(' ');
      return (kinds[org] === 'COOPERATIVE' || kinds[org] === 'ASSOCIATION') && kinds[org] !== supplierKind;
    });
    return failures([
      // The lines naming something missing, or an organization of another kind than their supplierKind.
      ...(anyLost || otherKind
        ? [sqlCheck(em, `SELECT line, origin_municipality_code AS code, family_farmer_id::text AS farmer, organization_id::text AS org, contract_id::text AS contract, supplier_kind,
                                origin_municipality_code = ANY($1::text[]) AS lost_municipality, family_farmer_id = ANY($2::bigint[]) AS lost_farmer,
                                organization_id = ANY($3::bigint[]) AS lost_org, contract_id = ANY($4::bigint[]) AS lost_contract
                           FROM ${s}
                          WHERE origin_municipality_code = ANY($1::text[]) OR family_farmer_id = ANY($2::bigint[]) OR organization_id = ANY($3::bigint[])
                             OR contract_id = ANY($4::bigint[])
                             OR (organization_id = ANY($5::bigint[]) AND supplier_kind <> 'COOPERATIVE') OR (organization_id = ANY($6::bigint[]) AND supplier_kind <> 'ASSOCIATION')`,
          [lost.municipalities, lost.farmers, lost.organizations, lost.contracts, cooperatives, associations],
          (r) => {
            if (r.lost_municipality) return new ImportLineError('BAD_USER_INPUT', r.line, 'originMunicipalityCode', message('input.unknownMunicipality', { code: String(r.code) }));
            if (r.lost_farmer) return new ImportLineError('NOT_FOUND', r.line, 'familyFarmerId', message('notFound.FamilyFarmer', { id: String(r.farmer) }));
            if (r.lost_org) return new ImportLineError('NOT_FOUND', r.line, 'organizationId', message('notFound.FamilyFarmingOrganization', { id: String(r.org) }));
            if (r.lost_contract) return new ImportLineError('NOT_FOUND', r.line, 'contractId', message('notFound.Contract', { id: String(r.contract) }));
            return new ImportLineError('BAD_USER_INPUT', r.line, 'supplierKind', message('purchase.organizationKind', { given: String(r.supplier_kind), id: String(r.org), kind: String(kinds[r.org as string]) }));
          })]
        : []),
      sqlCheck(em, `SELECT line, external_id FROM (SELECT line, external_id, row_number() OVER (PARTITION BY external_id COLLATE "C" ORDER BY line) AS n
                      FROM ${s} WHERE external_id IS NOT NULL) d WHERE n > 1`, [],
        (r) => new ImportLineError('CONFLICT', r.line, 'externalId', message('import.externalIdTwice', { externalId: String(r.external_id), producerId: String(producerId) }), 'DUPLICATE')),
      sqlCheck(em, `SELECT s.line, s.external_id FROM ${s} s JOIN purchase p ON p.producer_id = $1 AND p.external_id = s.external_id`, [producerId],
        (r) => new ImportLineError('CONFLICT', r.line, 'externalId', message('purchase.externalIdTaken', { producerId: String(producerId), externalId: String(r.external_id) }), 'DUPLICATE')),
      // An NF-e item is one active purchase (migration PurchaseInvoiceItem), as recordPurchases checks it.
      sqlCheck(em, `SELECT line, invoice_key, invoice_item FROM (SELECT line, invoice_key, invoice_item,
                             row_number() OVER (PARTITION BY invoice_key COLLATE "C", invoice_item ORDER BY line) AS n
                      FROM ${s} WHERE invoice_item IS NOT NULL) d WHERE n > 1`, [],
        (r) => new ImportLineError('CONFLICT', r.line, 'invoiceItem', message('purchase.invoiceItemTwice', { item: String(r.invoice_item), key: String(r.invoice_key) }), 'DUPLICATE')),
      sqlCheck(em, `SELECT s.line, s.invoice_key, s.invoice_item, p.id::text AS id FROM ${s} s
                      JOIN purchase p ON p.producer_id = $1 AND p.invoice_key = s.invoice_key AND p.invoice_item = s.invoice_item AND ${activeSql('p')}`, [producerId],
        (r) => new ImportLineError('CONFLICT', r.line, 'invoiceItem', message('purchase.invoiceItemRecorded', { item: String(r.invoice_item), key: String(r.invoice_key), id: String(r.id) }), 'DUPLICATE')),
      // Decreto 10.527/2020 art. 6º §3º: the purchase weighs in the month it is used (consumedOn).
      () => checkPeriodsOpen(em, producerId!, 'consumed_on', 'consumedOn', (refs.months ?? []) as number[]),
      // art. 6º §4º: a third-party lot of raw material also enters the average price per kg of the
      // month it was acquired in (purchasedOn), which must then be open too.
      () => checkPeriodsOpen(em, producerId!, ACQUIRED_MONTH_DATE, 'purchasedOn', (refs.acquired_months ?? []) as number[]),
    ]);
  },

  async write(em, producerId, rows) {
    // The totals for the audit entry, from the staged rows (what is inserted, exactly).
    const [t] = await em.query(`SELECT sum(quantity_kg)::text AS kg, sum(cost)::text AS cost, min(line) AS first, max(line) AS last FROM ${STAGING}`);
    await bulkInsert(em, 'purchase', () => em.query(
      `INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id, organization_id,
                             supplier_name, origin_municipality_code, contract_id, purpose, external_id, invoice_key, invoice_item, supplier_document, ${CREDIT_FACTS})
       SELECT $1, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id, organization_id,
              supplier_name, origin_municipality_code, contract_id, purpose, external_id, invoice_key, invoice_item, supplier_document, ${CREDIT_FACTS} FROM ${STAGING}`,
      [producerId],
    ));
    return {
      counts: { purchases: rows },
      audit: [{ operation: 'importPurchases', entity: 'Purchase', entityId: null, producerId, after: { rows, quantityKg: t.kg, cost: t.cost } }],
    };
  },
};
