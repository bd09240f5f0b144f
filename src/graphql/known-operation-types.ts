import { ASTVisitor, ValidationContext } from 'graphql';
import { message } from '../i18n';
import { LocalizedGraphQLError } from './localized-error';

/**
 * An operation whose root type the schema lacks (a subscription: it has none) is refused when the
 * document is validated, as any other field it does not have. graphql-js 16 validates it and only
 * refuses it at execution, which Apollo answered 200 with INTERNAL_SERVER_ERROR and an error logged
 * (the specification makes it a validation rule, "Operation Type Existence"; graphql-js 17 does too).
 */
export function knownOperationTypes(ctx: ValidationContext): ASTVisitor {
  const schema = ctx.getSchema();
  return {
    OperationDefinition(operation) {
      if (schema.getRootType(operation.operation)) return;
      ctx.reportError(new LocalizedGraphQLError(message('graphql.operationTypeNotServed', { operation: operation.operation }), { nodes: operation }));
    },
  };
}
