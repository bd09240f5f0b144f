import { EntityManager, In } from 'typeorm';
import { Municipality } from '../domain';
import { Decimal } from '../law/decimal';
import { BadInputError } from './errors';
import { firstControlCharacter, firstLoneSurrogate } from '../formats/control-characters';
import { message, Message } from '../i18n';
import { Problems } from './problems';

/** Input checks shared by the use cases; each names the offending field (docs/API.md "Errors"). */

/**
 * Longest texts in UTF-16 units (docs/API.md, "Text lengths"): names 500, long texts 2000, others
 * 255 — under a btree entry's limit even in four-byte characters.
 */
export const TEXT_MAX = { id: 255, name: 500, long: 2000 } as const;
const NAME_FIELDS = new Set(['name', 'legalName', 'supplierName']);
const LONG_FIELDS = new Set(['legalBasis', 'note', 'reason', 'description', 'source']);

/** The longest text the field at `path` takes (`input[2].supplierName` → 500): by the path's last name. */
export function textLimit(path: string): number {
  // The last name of the path, its indexes dropped (called for every text of an input or a file).
  let name = path.slice(path.lastIndexOf('.') + 1);
  if (name.includes('[')) name = name.replace(/\[\d+\]/g, '');
  if (NAME_FIELDS.has(name)) return TEXT_MAX.name;
  if (LONG_FIELDS.has(name)) return TEXT_MAX.long;
  return TEXT_MAX.id;
}

/**
 * Whether a text cannot be taken for the field at `path`: a NUL character (PostgreSQL text holds
 * none), another control character or a direction override (src/formats/control-characters.ts), or
 * too long. The GraphQL input and every import kind's cells are checked by it.
 */
export function textProblem(text: string, path: string): boolean {
  return textRefused(text, textLimit(path));
}

/** The same with the field's limit known (an import's column). */
export function textRefused(text: string, limit: number): boolean {
  return text.length > limit || firstControlCharacter(text) !== null || firstLoneSurrogate(text) !== null;
}

/** Why a refused text is refused, first reason first: a NUL, another control character (`U+000D`), half a character (`U+D800`), or its length. */
export function textRefusal(text: string): { nul: true } | { control: string } | { surrogate: string } | { tooLong: true } {
  if (text.includes('\u0000')) return { nul: true };
  const control = firstControlCharacter(text);
  if (control !== null) return { control };
  const surrogate = firstLoneSurrogate(text);
  return surrogate !== null ? { surrogate } : { tooLong: true };
}

/**
 * The refusal of a text for `field` in the GraphQL input's words (`input.controlCharacter` naming the
 * character, `input.tooLong`…), or null when it is taken: the words of every text refused outside a
 * file's cells (the GraphQL input, the NF-e's texts).
 */
export function refusedText(text: string, field: string, limit: number = textLimit(field)): Message | null {
  if (!textRefused(text, limit)) return null;
  const why = textRefusal(text);
  return 'nul' in why ? message('http.nulCharacter', { field })
    : 'control' in why ? message('input.controlCharacter', { field, character: why.control })
      : 'surrogate' in why ? message('input.loneSurrogate', { field, character: why.surrogate })
        : message('input.tooLong', { field, max: limit, length: text.length });
}

// Something shown: neither whitespace (Unicode White_Space) nor an invisible format character
// (Cf: the zero-width space U+200B, the word joiner U+2060, the byte-order mark U+FEFF, …).
const VISIBLE = /[^\p{White_Space}\p{Cf}]/u;

/** A text that shows nothing: empty, or only whitespace and format characters. */
export function isBlank(text: string): boolean {
  return !VISIBLE.test(text);
}

export function requireText(value: string | null | undefined, field: string): string {
  if (value == null || isBlank(value)) throw new BadInputError(field, message('input.empty', { field }));
  return value.trim();
}

export function requirePositive(value: Decimal, field: string): Decimal {
  if (!value.isFinite() || value.lte(0)) throw new BadInputError(field, message('input.notPositive', { field }));
  return value;
}

/** The years a month, a Selo year, a regime or the program is asked for. */
export const FIRST_YEAR = 2000;
export const LAST_YEAR = 9999;

/** A calendar year from FIRST_YEAR to LAST_YEAR, else BAD_USER_INPUT naming `field` and the bounds. */
export function requireYear(year: unknown, field: string): number {
  if (typeof year !== 'number' || !Number.isInteger(year) || year < FIRST_YEAR || year > LAST_YEAR) {
    throw new BadInputError(field, message('input.year', { field, min: FIRST_YEAR, max: LAST_YEAR }));
  }
  return year;
}

/** A calendar month, 1 to 12, else BAD_USER_INPUT naming `field`. */
export function requireMonth(month: unknown, field: string): number {
  if (typeof month !== 'number' || !Number.isInteger(month) || month < 1 || month > 12) throw new BadInputError(field, message('input.month', { field }));
  return month;
}

/** A tax period's year and month (BAD_USER_INPUT naming the argument or input field of each). */
export function checkMonth(year: number, month: number, yearField = 'year', monthField = 'month'): void {
  requireYear(year, yearField);
  requireMonth(month, monthField);
}

export function requireOrder(from: string, until: string, field: string, text: Message = message('input.notBefore', { field, other: 'validFrom' })): void {
  if (until < from) throw new BadInputError(field, text);
}

/**
 * Every municipality code named in the input must exist (reference data is loaded first).
 * `wanted` maps each input field to the code it names. With `problems`, every unknown one is
 * added there; without, the first is thrown.
 */
export async function requireMunicipalities(em: EntityManager, wanted: Array<{ field: string; code: string }>, problems?: Problems): Promise<void> {
  if (wanted.length === 0) return;
  const codes = [...new Set(wanted.map((w) => w.code))];
  const found = await em.getRepository(Municipality).find({ select: { ibgeCode: true }, where: { ibgeCode: In(codes) } });
  const known = new Set(found.map((m) => m.ibgeCode));
  for (const missing of wanted.filter((w) => !known.has(w.code))) {
    const error = new BadInputError(missing.field, message('input.unknownMunicipality', { code: missing.code }));
    if (!problems) throw error;
    problems.add(error);
  }
}
