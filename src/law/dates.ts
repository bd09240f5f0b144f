/**
 * Calendar dates of the law as 'YYYY-MM-DD' strings: no time, no time zone (STYLE: dates of the
 * law are calendar dates). Arithmetic goes through UTC so that no local offset can shift a day.
 */
export type IsoDate = string;

/** The calendar the API reads: years 0001 to 9999 (PostgreSQL's `date` has no year 0, and four digits end at 9999). */
export const FIRST_DATE: IsoDate = '0001-01-01';
export const LAST_DATE: IsoDate = '9999-12-31';

/** A real calendar date YYYY-MM-DD from 0001-01-01 to 9999-12-31 (no year 0000, no 30 February). */
export function isIsoDate(value: string): boolean {
  // Read digit by digit (every date cell of an import passes here): the shape of ISO, then the calendar.
  if (typeof value !== 'string' || value.length !== 10 || value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d) return false;
  const y = digits(value, 0, 4);
  const mo = digits(value, 5, 7);
  const d = digits(value, 8, 10);
  return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

/** The number the ASCII digits value[from, to) write, or -1 when one of them is not a digit 0–9. */
function digits(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = value.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days of a month of the Gregorian calendar (computed, not through Date.UTC, which reads years 0–99 as 1900–1999). */
export function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS[month - 1];
}

function toUtc(date: IsoDate): Date {
  return new Date(`${date}T00:00:00Z`);
}

function fromUtc(d: Date): IsoDate {
  return d.toISOString().slice(0, 10);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const d = toUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return fromUtc(d);
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: IsoDate): number {
  return toUtc(date).getUTCDay();
}

export function yearOf(date: IsoDate): number {
  return Number(date.slice(0, 4));
}

export function monthOf(date: IsoDate): number {
  return Number(date.slice(5, 7));
}

export function isoDate(year: number, month: number, day: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function firstDayOfMonth(year: number, month: number): IsoDate {
  return isoDate(year, month, 1);
}

export function lastDayOfMonth(year: number, month: number): IsoDate {
  return isoDate(year, month, daysInMonth(year, month));
}


/** Inclusive interval test; `until` null means open-ended. ISO strings compare as dates. */
export function within(date: IsoDate, from: IsoDate, until: IsoDate | null): boolean {
  return from <= date && (until === null || date <= until);
}

/** Calendar dates in Brazil as YYYY-MM-DD: made once (a formatter costs a hundred times a call to it). */
const BRAZIL_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' });

/** Today's calendar date in Brazil (America/Sao_Paulo), the default `asKnownOn`. */
export function today(now: Date = new Date()): IsoDate {
  return BRAZIL_DATE.format(now);
}

/**
 * The calendar date in Brazil (America/Sao_Paulo) of a date-time with its offset, as an NF-e
 * writes dhEmi (TDateTimeUTC, `2026-04-01T01:30:00+00:00` is 31 March in Brasília); a text
 * without an offset (a bare date, dEmi) is taken as written. A date-time naming no real instant
 * (30 February, 25 o'clock) is returned whole, no date, for the caller to refuse: JavaScript's
 * Date would roll it over into the next day or month.
 */
export function brazilDateOf(dateTime: string): IsoDate {
  const m = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-](0\d|1[0-4]):[0-5]\d)$/.exec(dateTime);
  if (m) return isIsoDate(m[1]) ? today(new Date(dateTime)) : dateTime;
  return /T.*(Z|[+-]\d{2}:?\d{2})$/.test(dateTime) ? dateTime : dateTime.slice(0, 10);
}
