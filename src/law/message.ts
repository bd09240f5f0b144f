// What the law says, as data: a catalogue key and its values. src/i18n renders it at the edge,
// so the law imports nothing but itself and decimal.js (keys checked by test/i18n/catalog.test.ts).

/** The catalogues the law speaks through: findings, the law book's own checks, words and dates of input. */
export type LawMessageKey = `${'finding' | 'law' | 'word' | 'input'}.${string}`;

/** A value inside a message: text, a number, or another message (rendered in the same language). */
export type MessageParam = string | number | Message | readonly Message[];
export type MessageParams = Readonly<Record<string, MessageParam>>;

/** What a message says, independent of its language. */
export interface Message {
  readonly key: string;
  readonly params?: MessageParams;
  /**
   * Set where the field is named beside the message (a CSV error's column): a text that opens
   * with the field (`{{field}} must …`) leaves it out (`column quantityKg: must …`).
   */
  readonly fieldNamedApart?: boolean;
}

export function message(key: LawMessageKey, params?: MessageParams): Message {
  return params ? { key, params } : { key };
}

/**
 * A message as plain data in one line (its key and values), for the text of an error the law
 * throws: the words in a language are the catalogue's, given where the error is answered.
 */
export function plain(m: Message): string {
  const values = Object.entries(m.params ?? {}).map(([name, v]) => `${name}=${typeof v === 'object' ? (Array.isArray(v) ? `[${v.map(plain).join(', ')}]` : plain(v as Message)) : v}`);
  return values.length ? `${m.key} (${values.join('; ')})` : m.key;
}
