import { GraphQLError, GraphQLErrorOptions } from 'graphql';
import { Localized, Message, translate } from '../i18n';

/**
 * A GraphQL error whose text is a Message: its `message` is the English text, and the error
 * formatter (errors.ts) shows it in the caller's language — also when graphql-js wraps it in one
 * of its own (`Variable "$input" got invalid value …; <this message>`).
 */
export class LocalizedGraphQLError extends GraphQLError implements Localized {
  constructor(readonly text: Message, options?: GraphQLErrorOptions) {
    super(translate(text), options);
  }
}
