import { ENUMS } from '../../formats/brazilian';
import { Decimal } from '../../law/decimal';
import { BiodieselOrigin, Market } from '../../law/types';
import { Actor } from '../../services/actor';
import { RecordSaleInput, SaleService } from '../../services/sale.service';
import { assertCanWriteFor } from '../../services/scope';
import { ImportLineError } from '../import-error';
import { failures, ImportKind, sqlCheck, STAGING } from '../import-kind';
import { bulkInsert, checkPeriodsOpen, decimalCell } from './common';
import { message } from '../../i18n';
import { nfeKeyIssuerSql } from '../../formats/nfe-key';

/**
 * Sales of biodiesel (Lei 11.116/2005 arts. 3º–4º; Decreto 10.527/2020 art. 3º §3º), the columns
 * of RecordSaleInput, for one producer. Every rule of recordSales applies.
 */
export const salesImport: ImportKind = {
  name: 'sales',
  producerScoped: true,
  columns: [
    { name: 'soldOn', required: true, type: 'date', portuguese: ['dataDaVenda', 'dataVenda'] },
    { name: 'volumeM3', required: true, type: 'decimal', portuguese: ['volume', 'volumeEmM3'] },
    { name: 'revenue', required: true, type: 'decimal', portuguese: ['receita', 'receitaBruta', 'valor', 'valorDaVenda', 'faturamento'] },
    { name: 'origin', required: false, type: ENUMS.BiodieselOrigin, portuguese: ['origem'] },
    { name: 'market', required: false, type: ENUMS.Market, portuguese: ['mercado'] },
    { name: 'invoiceKey', required: false, portuguese: ['chaveNfe', 'chaveDaNfe', 'chaveDeAcesso', 'chaveDaNotaFiscal'] },
  ],
  stagingColumns: [['sold_on', 'date'], ['volume_m3', 'numeric'], ['revenue', 'numeric'], ['origin', 'text'], ['market', 'text'], ['invoice_key', 'text']],

  authorize(actor: Actor, producerId: string | null) {
    assertCanWriteFor(actor, 'Producer', producerId ?? '');
  },

  toStaging(row, producerId) {
    const volume = decimalCell(row, 'volumeM3');
    const revenue = decimalCell(row, 'revenue');
    const input: RecordSaleInput = {
      producerId: producerId!,
      soldOn: row.soldOn as string,
      volumeM3: (volume === undefined ? undefined : new Decimal(volume)) as Decimal,
      revenue: (revenue === undefined ? undefined : new Decimal(revenue)) as Decimal,
      origin: (row.origin ?? null) as BiodieselOrigin | null,
      market: (row.market ?? null) as Market | null,
      invoiceKey: row.invoiceKey ?? null,
    };
    const s = SaleService.toRow(input, 'row');
    return [s.soldOn, s.volumeM3.toFixed(), s.revenue.toFixed(), s.origin, s.market, s.invoiceKey];
  },

  check(em, producerId) {
    return failures([
      sqlCheck(em, `SELECT line, invoice_key FROM (SELECT line, invoice_key, row_number() OVER (PARTITION BY invoice_key ORDER BY line) AS n
                      FROM ${STAGING} WHERE invoice_key IS NOT NULL) d WHERE n > 1`, [],
        (r) => new ImportLineError('CONFLICT', r.line, 'invoiceKey', message('import.invoiceKeyTwice', { key: String(r.invoice_key) }), 'DUPLICATE')),
      // The key's issuer is the producer's CNPJ or one of its establishments, as in recordSales.
      sqlCheck(em, `SELECT s.line, ${nfeKeyIssuerSql('s.invoice_key')} AS issuer FROM ${STAGING} s JOIN producer p ON p.id = $1
                    WHERE s.invoice_key IS NOT NULL AND ${nfeKeyIssuerSql('s.invoice_key')} <> ALL (p.cnpj::text || p.establishments::text[])`, [producerId],
        (r) => new ImportLineError('BAD_USER_INPUT', r.line, 'invoiceKey', message('sale.invoiceKeyIssuer', { issuer: String(r.issuer) }))),
      // Unique per producer (per issuer): only the producer's own sales are looked at.
      sqlCheck(em, `SELECT s.line, s.invoice_key FROM ${STAGING} s JOIN sale x ON x.invoice_key = s.invoice_key AND x.producer_id = $1`, [producerId],
        (r) => new ImportLineError('CONFLICT', r.line, 'invoiceKey', message('sale.invoiceKeyTaken', { key: String(r.invoice_key) }), 'DUPLICATE')),
      // Each sale is taxed in the month of its soldOn (Decreto 10.527/2020 art. 6º §3º).
      () => checkPeriodsOpen(em, producerId!, 'sold_on', 'soldOn'),
    ]);
  },

  async write(em, producerId, rows) {
    const [t] = await em.query(`SELECT sum(volume_m3)::text AS volume, sum(revenue)::text AS revenue FROM ${STAGING}`);
    // The producer row was locked FOR KEY SHARE when the import began.
    await bulkInsert(em, 'sale', () => em.query(
      `INSERT INTO sale (producer_id, sold_on, volume_m3, revenue, origin, market, invoice_key)
       SELECT $1, sold_on, volume_m3, revenue, origin, market, invoice_key FROM ${STAGING}`,
      [producerId],
    ));
    return {
      counts: { sales: rows },
      audit: [{ operation: 'importSales', entity: 'Sale', entityId: null, producerId, after: { rows, volumeM3: t.volume, revenue: t.revenue } }],
    };
  },
};
