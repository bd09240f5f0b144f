import { stringify } from 'csv-stringify/sync';
import { brazilianDate, Locale } from '../formats/brazilian';
import { escapeControlCharacters } from '../formats/control-characters';
import { neutralised } from '../formats/formula-text';
import { CellType, CellValue, ExportDocument, NUMERIC_TYPES, numberText, yesNo } from './document';

/**
 * A text as a CSV cell: its control characters and direction overrides written as visible text
 * (a name stored before they were refused at input must not start a line of its own), then
 * neutralised (CSV injection: opening the file must never run anything; an import takes the `'` off).
 */
export function csvText(text: string): string {
  return neutralised(escapeControlCharacters(text));
}

/** A cell as CSV text in a locale: numbers with their decimals (a comma in pt-BR), dates dd/mm/aaaa in pt-BR. */
export function cellText(type: CellType, value: CellValue, locale: Locale): string {
  if (value === null || value === undefined) return '';
  if (NUMERIC_TYPES.has(type)) return numberText(type, value, locale);
  if (type === 'boolean' && typeof value === 'boolean') return yesNo(value, locale);
  if (type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return locale === 'pt-BR' ? brazilianDate(value) : value;
  return csvText(String(value));
}

/**
 * The document as one CSV file, as Brazilian Excel opens it (pt-BR): UTF-8 with a byte-order mark,
 * `;` between cells, decimal commas, dates dd/mm/aaaa; in `en`, `,` and the API's notation. The
 * title comes first, then each section: its title on a line, its header and rows, a blank line.
 */
export function toCsv(doc: ExportDocument, locale: Locale): Buffer {
  const rows: string[][] = [[csvText(doc.title[locale])], ...doc.subtitle.map((s) => [csvText(s[locale])]), []];
  for (const section of doc.sections) {
    rows.push([csvText(section.title[locale])]);
    if (section.kind === 'fields') {
      rows.push(locale === 'pt-BR' ? ['Campo', 'Valor'] : ['Field', 'Value']);
      for (const f of section.fields) rows.push([csvText(f.label[locale]), cellText(f.type, f.value, locale)]);
    } else {
      rows.push(section.columns.map((c) => csvText(c.label[locale])));
      for (const row of section.rows) rows.push(section.columns.map((c, i) => cellText(c.type, row[i], locale)));
    }
    rows.push([]);
  }
  return Buffer.from(stringify(rows, { bom: true, delimiter: locale === 'pt-BR' ? ';' : ',', record_delimiter: 'windows' }), 'utf8');
}
