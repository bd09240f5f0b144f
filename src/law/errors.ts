import { Message, plain } from './message';

/**
 * Raised when no rule of the law is in force for the date asked (docs/LAW.md, §5): before the
 * first shipped version, or from 2027 when PIS/Pasep and Cofins are extinct. The GraphQL layer
 * maps it to the error code NO_RULE_IN_FORCE, its `text` rendered in the caller's language (src/i18n);
 * its `message` is the text as plain data (key and values), for logs.
 */
export class NoRuleInForceError extends Error {
  readonly code = 'NO_RULE_IN_FORCE';
  constructor(readonly text: Message, readonly legalBasis: string | null = null) {
    super(plain(text));
    this.name = 'NoRuleInForceError';
  }
}
