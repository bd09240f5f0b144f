/** U+2212 is a minus sign spreadsheets read as one. */
const FORMULA_START = /^\s*[=+\-@\u2212]|^[\t\r]/;

/** NFKC too, as spreadsheets fold the full-width `＝` into `=`. */
function formulaLike(text: string): boolean {
  return FORMULA_START.test(text) || FORMULA_START.test(text.normalize('NFKC'));
}

/**
 * Whether a text is written after a `'`: one a spreadsheet would take for a formula, or one that
 * already begins with `'`s before such a text (so that `restored` gives every text back whole).
 */
function quoted(text: string): boolean {
  return formulaLike(text.replace(/^'+/, ''));
}

/**
 * CSV injection: opening a CSV file must never run anything, so a text a spreadsheet would take
 * for a formula is written after a `'`. Numbers and dates are not text cells and keep their sign.
 */
export function neutralised(text: string): string {
  return quoted(text) ? `'${text}` : text;
}

/** A text cell of an imported file as it was before `neutralised`: the one `'` it added taken off. */
export function restored(text: string): string {
  return text.startsWith("'") && quoted(text.slice(1)) ? text.slice(1) : text;
}

/**
 * A text as a workbook's string cell, which never runs as a formula: as it is, except that one the
 * import would take for neutralised (`'=1`) gets its `'` too, so that it imports back whole.
 */
export function workbookText(text: string): string {
  return text.startsWith("'") ? neutralised(text) : text;
}
