import { Locale } from '../formats/brazilian';
import { toCsv } from './csv';
import { ExportDocument } from './document';
import { toPdf } from './pdf';
import { toXlsx } from './xlsx';

/**
 * A worker thread's work (drawing.ts sends it): the file of a document. pdfmake and exceljs lay a
 * file out synchronously, and a long one takes seconds that would otherwise stop every other request.
 */
export interface DrawTask {
  format: 'csv' | 'xlsx' | 'pdf';
  /** Figures as text (a Decimal does not cross threads); each format reads them by the column's type. */
  doc: ExportDocument;
  locale: Locale;
  generatedAt: Date;
}

export default async function draw({ format, doc, locale, generatedAt }: DrawTask): Promise<Buffer> {
  if (format === 'pdf') return toPdf(doc, locale, generatedAt);
  return format === 'xlsx' ? toXlsx(doc, locale) : toCsv(doc, locale);
}
