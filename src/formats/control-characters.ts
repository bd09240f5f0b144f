/**
 * The characters no text of the API takes: the C0 controls (line breaks and tabs among them), DEL
 * and the C1 controls, the line and paragraph separators, and the bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069). A line break in a name would start a
 * record of its own in a line-based file (the EFD draft, a CSV, a terminal); an override shows a
 * person text in another order than the one stored.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

/** The first such character of `text`, as `U+000D`; null when there is none. */
export function firstControlCharacter(text: string): string | null {
  const found = CONTROL.exec(text);
  return found ? codePoint(found[0]) : null;
}

/** `text` with each such character written as visible text (`<U+000D>`), for a file or a terminal. */
export function escapeControlCharacters(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, (c) => `<${codePoint(c)}>`) : text;
}

function codePoint(c: string): string {
  return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
