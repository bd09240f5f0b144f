import type { Finding } from '../law/findings';
import { isMessageKey, Locale, message, translate } from './index';

/**
 * What a finding says in a locale: its text, or — a finding stored before its text was kept (a
 * month closed earlier) — its code's general description in that locale, else its English words.
 */
export function findingMessage(finding: Finding, locale: Locale = 'en'): string {
  if (finding.text) return translate(finding.text, locale);
  const general = `finding.${finding.code}`;
  if (locale !== 'en' && isMessageKey(general)) return translate(message(general), locale);
  return finding.message ?? (isMessageKey(general) ? translate(message(general), locale) : finding.code);
}
