// No text takes C0/C1 controls, DEL, line/paragraph separators or bidi embeddings, overrides and
// isolates: a line break forges a record in line-based files, an override reorders what is shown.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

// Half a character: a UTF-16 surrogate without its other half (JSON can escape one, "\ud800");
// PostgreSQL's text and jsonb hold none.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The first lone surrogate of `text`, as `U+D800`; null when there is none. */
export function firstLoneSurrogate(text: string): string | null {
  const found = LONE_SURROGATE.exec(text);
  return found ? codePoint(found[0]) : null;
}

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
