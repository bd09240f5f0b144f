import { Message, plain } from './message';

/**
 * No rule in force on the date (before the first version, or PIS/Cofins from 2027): mapped to
 * NO_RULE_IN_FORCE, `text` rendered in the caller's language, `message` plain data for logs.
 */
export class NoRuleInForceError extends Error {
  readonly code = 'NO_RULE_IN_FORCE';
  constructor(readonly text: Message, readonly legalBasis: string | null = null) {
    super(plain(text));
    this.name = 'NoRuleInForceError';
  }
}
