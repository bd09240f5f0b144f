import type ExcelJS from 'exceljs';
import { Locale } from '../formats/brazilian';
import { Decimal } from '../law/decimal';
import { CellType, CellValue, ExportDocument, placesOf, toDecimal, yesNo } from './document';
import { workbookText } from '../formats/formula-text';

/** The number format of a type: the decimals it is shown with (Excel displays them in the reader's own notation). */
function numFmt(type: CellType, d: Decimal): string | undefined {
  const places = placesOf(type, d);
  if (type === 'integer') return '0';
  if (places === null) return undefined;
  return `#,##0.${'0'.repeat(places)}`;
}

function cell(type: CellType, value: CellValue, locale: Locale): { value: ExcelJS.CellValue; numFmt?: string } {
  if (value === null || value === undefined) return { value: null };
  if (type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return { value: new Date(`${value}T00:00:00Z`), numFmt: locale === 'pt-BR' ? 'dd/mm/yyyy' : 'yyyy-mm-dd' };
  }
  if (type === 'boolean' && typeof value === 'boolean') return { value: yesNo(value, locale) };
  const d = type === 'text' ? null : toDecimal(value);
  if (d !== null) {
    // The cell holds the figure rounded to the decimals it is shown with, so that what the
    // spreadsheet adds up is what it shows.
    const places = placesOf(type, d);
    return { value: Number(places === null ? d.toFixed() : d.toFixed(places, Decimal.ROUND_HALF_EVEN)), numFmt: numFmt(type, d) };
  }
  // A string cell runs nothing, whatever it begins with: written as stored, so that it reads and imports back as it is.
  return { value: workbookText(String(value)) };
}

/** Sheet names: at most 31 characters, none of \ / ? * [ ] :. */
function sheetName(title: string, used: Set<string>): string {
  let name = title.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31).trim() || 'Sheet';
  for (let i = 2; used.has(name); i++) name = `${name.slice(0, 28)} ${i}`;
  used.add(name);
  return name;
}

/** The document as an .xlsx workbook: one sheet per section, numbers as numbers with their decimals, dates as dates. */
export async function toXlsx(doc: ExportDocument, locale: Locale): Promise<Buffer> {
  // exceljs is loaded with the first workbook: a server that writes none starts without it.
  const { Workbook } = await import('exceljs');
  const workbook = new Workbook();
  workbook.creator = 'Selo API';
  workbook.title = doc.title[locale];
  const used = new Set<string>();
  for (const section of doc.sections) {
    const sheet = workbook.addWorksheet(sheetName(section.title[locale], used));
    const put = (row: ExcelJS.Row, values: Array<{ value: ExcelJS.CellValue; numFmt?: string }>) => {
      values.forEach((v, i) => {
        const c = row.getCell(i + 1);
        c.value = v.value;
        if (v.numFmt) c.numFmt = v.numFmt;
      });
    };
    if (section.kind === 'fields') {
      sheet.columns = [{ width: 48 }, { width: 40 }];
      sheet.addRow(locale === 'pt-BR' ? ['Campo', 'Valor'] : ['Field', 'Value']).font = { bold: true };
      for (const f of section.fields) put(sheet.addRow([]), [{ value: f.label[locale] }, cell(f.type, f.value, locale)]);
    } else {
      sheet.columns = section.columns.map((c) => ({ width: Math.min(60, Math.max(12, c.label[locale].length + 2)) }));
      sheet.addRow(section.columns.map((c) => c.label[locale])).font = { bold: true };
      for (const row of section.rows) put(sheet.addRow([]), section.columns.map((c, i) => cell(c.type, row[i], locale)));
    }
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
