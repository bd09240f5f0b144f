import { Producer, Purchase } from '../domain';
import { Connection } from '../services/pagination';
import { Column, ExportDocument, label } from './document';
import { producerLine } from './sections';

/** The columns of a page of purchases: the fields of RecordPurchaseInput as the import reads them (English and Portuguese names), after the id. */
type PurchaseColumn = Column & { of: (p: Purchase) => unknown };
const COLUMNS: PurchaseColumn[] = [
  { key: 'id', label: label('id', 'Id'), type: 'text', of: (p) => p.id },
  { key: 'purchasedOn', label: label('purchasedOn', 'Data da compra'), type: 'date', of: (p) => p.purchasedOn },
  { key: 'consumedOn', label: label('consumedOn', 'Data de consumo'), type: 'date', of: (p) => p.consumedOn },
  { key: 'feedstock', label: label('feedstock', 'Matéria-prima'), type: 'text', of: (p) => p.feedstock },
  { key: 'quantityKg', label: label('quantityKg', 'Quantidade (kg)'), type: 'quantity', of: (p) => p.quantityKg },
  { key: 'cost', label: label('cost', 'Custo (R$)'), type: 'money', of: (p) => p.cost },
  { key: 'supplierKind', label: label('supplierKind', 'Tipo de fornecedor'), type: 'text', of: (p) => p.supplierKind },
  { key: 'familyFarmerId', label: label('familyFarmerId', 'Id do agricultor'), type: 'text', of: (p) => p.familyFarmerId },
  { key: 'organizationId', label: label('organizationId', 'Id da organização'), type: 'text', of: (p) => p.organizationId },
  { key: 'supplierName', label: label('supplierName', 'Nome do fornecedor'), type: 'text', of: (p) => p.supplierName },
  { key: 'originMunicipalityCode', label: label('originMunicipalityCode', 'Município de origem'), type: 'text', of: (p) => p.originMunicipalityCode },
  { key: 'contractId', label: label('contractId', 'Id do contrato'), type: 'text', of: (p) => p.contractId },
  { key: 'purpose', label: label('purpose', 'Finalidade'), type: 'text', of: (p) => p.purpose },
  { key: 'externalId', label: label('externalId', 'Id externo'), type: 'text', of: (p) => p.externalId },
  // The note and the facts of the credits (Lei 10.637/2002 and Lei 10.833/2003, art. 3º; LC 214/2025, art. 47).
  ...([
    { key: 'invoiceKey', label: label('invoiceKey', 'Chave da NF-e'), type: 'text', of: (p) => p.invoiceKey },
    { key: 'invoiceItem', label: label('invoiceItem', 'Item da NF-e'), type: 'integer', of: (p) => p.invoiceItem },
    { key: 'supplierDocument', label: label('supplierDocument', 'CNPJ/CPF do fornecedor'), type: 'text', of: (p) => p.supplierDocument },
    { key: 'pisCofinsCst', label: label('pisCofinsCst', 'CST PIS/Cofins'), type: 'text', of: (p) => p.pisCofinsCst },
    { key: 'creditSupplier', label: label('creditSupplier', 'Fornecedor para o crédito'), type: 'text', of: (p) => p.creditSupplier },
    { key: 'creditProduct', label: label('creditProduct', 'Produto para o crédito'), type: 'text', of: (p) => p.creditProduct },
    { key: 'icmsValue', label: label('icmsValue', 'Valor do ICMS'), type: 'money', of: (p) => p.icmsValue },
    { key: 'importPisPaid', label: label('importPisPaid', 'PIS importação pago'), type: 'money', of: (p) => p.importPisPaid },
    { key: 'importCofinsPaid', label: label('importCofinsPaid', 'Cofins importação paga'), type: 'money', of: (p) => p.importCofinsPaid },
    { key: 'creditRevenueGroup', label: label('creditRevenueGroup', 'Receita do crédito'), type: 'text', of: (p) => p.creditRevenueGroup },
    { key: 'cbsValue', label: label('cbsValue', 'Valor da CBS'), type: 'money', of: (p) => p.cbsValue },
  ] satisfies PurchaseColumn[]).map((c) => ({ ...c, filesOnly: true })),
];

/** A page of a producer's purchases (the `Producer.purchases` connection of the API, same service, same order and cursors). */
export function purchasesDocument(producer: Producer, page: Connection<Purchase>, range: { from: string | null; to: string | null }): ExportDocument {
  const span = [range.from, range.to].map((d) => d ?? '…').join(' – ');
  return {
    name: `purchases-producer-${producer.id}${range.from || range.to ? `-${range.from ?? ''}_${range.to ?? ''}` : ''}`,
    title: label(`Purchases of raw material (${span})`, `Compras de matéria-prima (${span})`),
    subtitle: [producerLine(producer), label(
      `${page.edges.length} purchases, by date of use (consumedOn)${page.pageInfo.hasNextPage ? `; more after cursor ${page.pageInfo.endCursor}` : ''}`,
      `${page.edges.length} compras, pela data de consumo${page.pageInfo.hasNextPage ? `; há mais após o cursor ${page.pageInfo.endCursor}` : ''}`,
    )],
    sections: [{
      kind: 'table', key: 'purchases', title: label('Purchases', 'Compras'),
      columns: COLUMNS.map(({ key, label: l, type, filesOnly }) => ({ key, label: l, type, filesOnly })),
      rows: page.edges.map((e) => COLUMNS.map((c) => c.of(e.node) as never)),
    }],
  };
}
