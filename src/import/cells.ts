import {
  dateNotation, EnumNames, Locale, numberNotation, readDate, readNumber,
} from '../formats/brazilian';
import { restored } from '../formats/formula-text';
import { FIRST_DATE, LAST_DATE } from '../law/dates';
import { Decimal, outOfInputBounds, shownNumber } from '../law/decimal';
import { message, Message } from '../i18n';
import { ImportLineError } from './import-error';
import { textLimit, textRefusal, textRefused } from '../services/validation';
import { ColumnSpec, CsvRow, ImportKind } from './import-kind';

export type RawCell = string | number | boolean | Date | { error: string } | null | undefined;

/** m³ reads m3. */
export function headerKey(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Scanned once: a regular expression was quadratic in a cell of many `(` and no `)`. */
export function headerKeyWithoutUnit(text: string): string {
  let kept = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('(', from);
    const close = open === -1 ? -1 : text.indexOf(')', open + 1);
    if (close === -1) return headerKey(kept + text.slice(from));
    kept += text.slice(from, open);
    from = close + 1;
  }
}

/** A column's name with its unit is some 40 characters. */
export const MAX_HEADER_CHARS = 200;

const EXAMPLE_NUMBER: Record<Locale, string> = { en: '30120.50', 'pt-BR': '30.120,50' };
const EXAMPLE_DATE: Record<Locale, string> = { en: '2026-11-03', 'pt-BR': '03/11/2026' };

/** Excel's 15 significant digits: 0.1 + 0.2 is 0.3. */
export function workbookNumber(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : new Decimal(n.toPrecision(15)).toFixed();
}

const FIRST_DAY = Date.parse(`${FIRST_DATE}T00:00:00Z`);
const AFTER_LAST_DAY = Date.parse(`${LAST_DATE}T00:00:00Z`) + 86_400_000;

/**
 * exceljs gives the calendar day at 00:00 UTC. A date-formatted number that names no day of the
 * API's calendar (`1e20`, `NaN`, a serial of the year 10000) gives null: the cell is refused.
 */
function workbookDate(d: Date): string | null {
  const time = d.getTime();
  return time >= FIRST_DAY && time < AFTER_LAST_DAY ? d.toISOString().slice(0, 10) : null;
}

/** Nothing is guessed: an ambiguous cell (`12.500`) before the locale is known refuses the file. */
export class CellReader {
  private names: string[] = [];
  private specs: ColumnSpec[] = [];
  private limits: number[] = [];
  private headers: string[] = [];
  private why: Message | null;

  constructor(private readonly kind: ImportKind, private locale: Locale | null) {
    this.why = locale ? message('import.localeGiven') : null;
  }

  get fileLocale(): Locale | null {
    return this.locale;
  }

  header(cells: RawCell[], line: number): string[] {
    const kind = this.kind;
    const byKey = new Map<string, { spec: ColumnSpec; portuguese: boolean }>();
    for (const c of kind.columns) for (const n of [c.name, ...(c.aliases ?? [])]) byKey.set(headerKey(n), { spec: c, portuguese: false });
    for (const c of kind.columns) for (const n of c.portuguese ?? []) if (!byKey.has(headerKey(n))) byKey.set(headerKey(n), { spec: c, portuguese: true });
    let portuguese = false;
    const texts = cells.map((c) => (c === null || c === undefined ? '' : typeof c === 'object' && !(c instanceof Date) ? '' : String(c).trim()));
    // A sheet's row may end with empty cells the workbook still records.
    while (texts.length && texts[texts.length - 1] === '') texts.pop();
    if (texts.some((h) => h.length > MAX_HEADER_CHARS)) throw new ImportLineError('BAD_USER_INPUT', line, null, message('import.headerTooLong', { max: MAX_HEADER_CHARS }));
    const specs = texts.map((h) => {
      const found = byKey.get(headerKey(h)) ?? byKey.get(headerKeyWithoutUnit(h));
      if (!found) {
        throw new ImportLineError('BAD_USER_INPUT', line, h, message('import.unknownColumn', { kind: kind.name, columns: kind.columns.map((c) => c.name).join(', ') }));
      }
      if (found.portuguese) portuguese = true;
      return found.spec;
    });
    const names = specs.map((s) => s.name);
    const repeated = names.find((n, i) => names.indexOf(n) !== i);
    if (repeated) throw this.at(new ImportLineError('BAD_USER_INPUT', line, repeated, message('import.columnTwice')), texts[names.lastIndexOf(repeated)]);
    const missing = kind.columns.find((c) => c.required && !names.includes(c.name));
    if (missing) throw new ImportLineError('BAD_USER_INPUT', line, missing.name, message('import.columnMissing'));
    if (portuguese && this.locale === null) {
      this.locale = 'pt-BR';
      this.why = message('import.localeFromHeader');
    }
    this.names = names;
    this.specs = specs;
    this.limits = names.map(textLimit);
    this.headers = texts;
    return names;
  }

  at(error: ImportLineError, header?: string): ImportLineError {
    if (!error.column) return error;
    return error.withHeader(header ?? this.headers[this.names.indexOf(error.column)] ?? null);
  }

  row(cells: RawCell[], line: number): CsvRow {
    const row: CsvRow = {};
    const names = this.names;
    const limits = this.limits;
    const specs = this.specs;
    for (let i = 0; i < names.length; i++) {
      const given = cells[i];
      if (given === null || given === undefined || given === '') continue;
      const type = specs[i].type;
      const text = type === undefined || type === 'text';
      // A text the export wrote after a `'` (a formula's first character) comes back, and is bounded, as it was recorded.
      const raw = typeof given === 'string' && text ? restored(given) : given;
      if (typeof raw === 'string' && textRefused(raw, limits[i])) throw this.textRefusal(raw, line, names[i]);
      if (typeof raw === 'string' && text) {
        row[names[i]] = raw;
        continue;
      }
      row[names[i]] = this.cell(raw, type ?? 'text', line, names[i]);
    }
    return row;
  }

  /** The GraphQL input's checks (src/services/validation.ts). */
  private textRefusal(text: string, line: number, column: string): ImportLineError {
    const refusal = textRefusal(text);
    const why = 'nul' in refusal ? message('import.nulCharacter')
      : 'control' in refusal ? message('import.controlCharacter', { character: refusal.control })
        : 'surrogate' in refusal ? message('import.loneSurrogate', { character: refusal.surrogate })
          : message('import.tooLong', { max: textLimit(column), length: text.length });
    return this.at(new ImportLineError('BAD_USER_INPUT', line, column, why));
  }

  private cell(raw: Exclude<RawCell, null | undefined>, type: NonNullable<ColumnSpec['type']>, line: number, column: string): string | undefined {
    if (typeof raw === 'object' && !(raw instanceof Date)) throw this.fail(line, column, message('import.cellError', { error: raw.error }));
    if (typeof raw === 'boolean') return String(raw);
    if (raw instanceof Date) {
      const day = workbookDate(raw);
      if (day === null) throw this.fail(line, column, message('import.workbookDate'));
      if (type === 'decimal') throw this.fail(line, column, message('import.notANumber', { example: EXAMPLE_NUMBER[this.locale ?? 'en'], value: day }));
      return type === 'date' || type === 'text' ? day : this.enumeration(type, day, line, column);
    }
    if (type === 'decimal') {
      const given = typeof raw === 'number' ? workbookNumber(raw) : raw.trim();
      const number = typeof raw === 'number' ? given : this.decimal(given, line, column);
      if (outOfInputBounds(number)) throw this.fail(line, column, message('import.numberBounds', { value: shownNumber(given) }));
      return number;
    }
    if (type === 'date') {
      // A whole number in a date column of a workbook is a date serial whose format was lost (1900 date system).
      if (typeof raw === 'number' && Number.isInteger(raw) && raw > 0 && raw < 2958466) return new Date(Date.UTC(1899, 11, 30) + raw * 86_400_000).toISOString().slice(0, 10);
      const text = typeof raw === 'number' ? workbookNumber(raw) : raw.trim();
      return this.date(text, line, column);
    }
    const text = typeof raw === 'number' ? workbookNumber(raw) : raw.trim();
    if (text === '') return undefined;
    if (type === 'text') return text;
    return this.enumeration(type, text, line, column);
  }

  private fail(line: number, column: string, text: Message): ImportLineError {
    return this.at(new ImportLineError('BAD_USER_INPUT', line, column, text));
  }

  private decide(locale: Locale, value: string, line: number, column: string): void {
    this.locale = locale;
    this.why = message('import.localeFromCell', { value, line, column });
  }

  private otherNotation(value: string, other: Locale, line: number, column: string): ImportLineError {
    return this.at(new ImportLineError('BAD_USER_INPUT', line, column, message('import.otherNotation', { value, other, locale: this.locale!, why: this.why! })));
  }

  private decimal(text: string, line: number, column: string): string {
    if (this.locale) {
      const value = readNumber(text, this.locale);
      if (value !== null) return value;
      const notation = numberNotation(text);
      const other: Locale = this.locale === 'en' ? 'pt-BR' : 'en';
      if (notation === other || notation === 'ambiguous') throw this.otherNotation(text, other, line, column);
      throw this.at(new ImportLineError('BAD_USER_INPUT', line, column, message('import.notANumber', { example: EXAMPLE_NUMBER[this.locale], value: text })));
    }
    switch (numberNotation(text)) {
      case 'both':
        return readNumber(text, 'pt-BR')!;
      case 'en':
        this.decide('en', text, line, column);
        return text;
      case 'pt-BR':
        this.decide('pt-BR', text, line, column);
        return readNumber(text, 'pt-BR')!;
      case 'ambiguous':
        throw this.at(new ImportLineError('BAD_USER_INPUT', line, column, message('import.ambiguousNumber', { value: text, pt: readNumber(text, 'pt-BR')!, en: text })));
      default:
        throw this.at(new ImportLineError('BAD_USER_INPUT', line, column, message('import.notANumber', { example: `${EXAMPLE_NUMBER.en} / ${EXAMPLE_NUMBER['pt-BR']}`, value: text })));
    }
  }

  private date(text: string, line: number, column: string): string {
    const notation = dateNotation(text);
    if (notation === 'pt-BR' && this.locale === 'en') throw this.otherNotation(text, 'pt-BR', line, column);
    if (notation === 'pt-BR' && this.locale === null) this.decide('pt-BR', text, line, column);
    const value = readDate(text, this.locale ?? 'en');
    if (value !== null) return value;
    const example = this.locale ? EXAMPLE_DATE[this.locale] : `${EXAMPLE_DATE.en} / ${EXAMPLE_DATE['pt-BR']}`;
    throw this.at(new ImportLineError('BAD_USER_INPUT', line, column, message('import.notADate', { example, value: text })));
  }

  private enumeration(names: EnumNames, text: string, line: number, column: string): string {
    const value = names.read(text);
    if (value !== undefined) return value;
    const accepted = names.values.map((v) => (this.locale === 'pt-BR' ? `${names.portuguese(v)} (${v})` : v)).join(', ');
    throw this.at(new ImportLineError('BAD_USER_INPUT', line, column, message('import.unknownValue', { enum: names.name, value: text, accepted })));
  }
}
