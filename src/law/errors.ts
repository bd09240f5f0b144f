import { Localized, Message, translate } from '../i18n';

/**
 * Raised when no rule of the law is in force for the date asked (DESIGN §1.2, §5): before the
 * first shipped version, or from 2027 when PIS/Pasep and Cofins are extinct. The GraphQL layer
 * maps it to the error code NO_RULE_IN_FORCE.
 */
export class NoRuleInForceError extends Error implements Localized {
  readonly code = 'NO_RULE_IN_FORCE';
  constructor(readonly text: Message, readonly legalBasis: string | null = null) {
    super(translate(text));
    this.name = 'NoRuleInForceError';
  }
}
