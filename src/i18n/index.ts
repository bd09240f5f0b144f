import i18next from 'i18next';
import { en, MessageKey } from './en';
import { ptBR } from './pt-BR';
import type { Message, MessageParam, MessageParams } from '../law/message';

// Messages in English and Brazilian Portuguese via i18next: every layer says a key and values, and
// the answering edge renders them in the caller's language (`Accept-Language`).

export type { MessageKey } from './en';

export const LOCALES = ['en', 'pt-BR'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

// The shape of a message is the law's (src/law/message.ts: a key and its values, no words); the
// catalogues here give it words. Outside the law a message is made with a key checked against them.
export type { Message, MessageParam, MessageParams } from '../law/message';

export function message(key: MessageKey, params?: MessageParams): Message {
  return params ? { key, params } : { key };
}

export const CATALOGS: Readonly<Record<Locale, Readonly<Record<MessageKey, string>>>> = { en, 'pt-BR': ptBR };

const i18n = i18next.createInstance();
void i18n.init({
  resources: { en: { translation: en }, 'pt-BR': { translation: ptBR } },
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  initAsync: false,
  // Keys are flat ('input.notPositive'); messages are plain text, never HTML.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
});

function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && 'key' in value && typeof (value as Message).key === 'string';
}

/** The text of a message in a locale (English by default); nested messages in the same locale. */
export function translate(m: Message, locale: Locale = DEFAULT_LOCALE): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(m.params ?? {})) {
    values[name] = Array.isArray(value)
      ? value.map((v: Message) => translate(v, locale)).join(', ')
      : isMessage(value) ? translate(value, locale) : (value as string | number);
  }
  const text = i18n.t(m.key, { ...values, lng: locale });
  const lead = `${values.field} `;
  return m.fieldNamedApart && (CATALOGS[locale][m.key as MessageKey] ?? '').startsWith('{{field}} ') && text.startsWith(lead) ? text.slice(lead.length) : text;
}

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(en, key);
}

/**
 * The locale for a language tag or an Accept-Language value as negotiated elsewhere: any
 * Portuguese (`pt`, `pt-BR`, `pt-PT`) is pt-BR, anything else English.
 */
export function localeOf(tag: string | null | undefined): Locale {
  return tag && /^pt(-|$)/i.test(tag.trim()) ? 'pt-BR' : DEFAULT_LOCALE;
}

/**
 * An error whose text is a Message, so that it can be shown in the caller's language; its
 * `message` is the English text (logs, and callers that do not ask for another language).
 */
export interface Localized {
  readonly text: Message;
}

export function isLocalized(e: unknown): e is Localized {
  return typeof e === 'object' && e !== null && 'text' in e && isMessage((e as Localized).text);
}

/** The English templates as patterns, most specific first. */
const TEMPLATES = (Object.keys(en) as MessageKey[])
  .map((key) => {
    const names: string[] = [];
    const source = en[key]
      .split(/(\{\{\w+\}\})/)
      .map((part) => {
        const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
        if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return name === 'detail' ? '([\\s\\S]+)' : '([\\s\\S]+?)';
      })
      .join('');
    return { key, names, pattern: new RegExp(`^${source}$`), literal: en[key].replace(/\{\{\w+\}\}/g, '').length };
  })
  .sort((a, b) => b.literal - a.literal);

/** Other libraries' messages (`graphql.*`): graphql-js's and Apollo Server's. */
const OTHERS = TEMPLATES.filter((t) => t.key.startsWith('graphql.'));

/**
 * A message of graphql-js or Apollo Server (English text) as a Message, when it is one of the
 * `graphql.*` templates — or, with `anyKey`, any message of the catalogue (an error raised with
 * its English text); its `detail`, if any, recognised in turn (or kept as it is).
 */
export function recognise(text: string, anyKey = false): Message | null {
  for (const { key, names, pattern } of anyKey ? TEMPLATES : OTHERS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const params: Record<string, MessageParam> = {};
    names.forEach((name, i) => {
      params[name] = name === 'detail' ? (recognise(match[i + 1], anyKey) ?? match[i + 1]) : match[i + 1];
    });
    return message(key, params);
  }
  return null;
}
