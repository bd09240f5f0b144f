import {
  defaultFieldResolver, DocumentNode, FieldNode, FragmentDefinitionNode, FragmentSpreadNode, getArgumentValues, getDirectiveValues, getNamedType, getVariableValues, GraphQLField,
  GraphQLIncludeDirective, GraphQLNamedType, GraphQLSchema, GraphQLSkipDirective, InlineFragmentNode, isAbstractType, isObjectType, Kind, OperationDefinitionNode, SelectionSetNode,
} from 'graphql';
import { Extensions } from 'type-graphql';
import { AppError } from '../services/errors';
import { authorize } from './auth/protect';
import { Context } from './context';
import { LocalizedGraphQLError } from './localized-error';
import type { PerRequest, RequestHooks } from './request-hooks';

/**
 * A field's check of its own arguments' values (a year's bounds, a month, a page's `first` and
 * cursor), throwing the field's BAD_USER_INPUT. It reads no record and no law: what depends on
 * data (a producer not found, NO_RULE_IN_FORCE) is the field's to say when it runs.
 */
export type ArgumentCheck<A = Record<string, unknown>> = (args: A) => unknown;

const CHECK = 'checkArguments';

type Checked = { readonly extensions?: Readonly<Record<string, unknown>> | null };

/** The field checks its arguments with `check` first (checkArgumentsFirst), and a mutation asking it checks them before it writes (checkMutationArguments). */
export function ChecksArguments<A>(check: ArgumentCheck<A>): MethodDecorator {
  return Extensions({ [CHECK]: check }) as MethodDecorator;
}

function checkOf(field: Checked): ArgumentCheck | undefined {
  return field.extensions?.[CHECK] as ArgumentCheck | undefined;
}

/** The resolver of every field with a check runs the check first: the one place its rule is applied to the arguments. */
export function checkArgumentsFirst(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const check = checkOf(field);
      if (!check) continue;
      const inner = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        check(args);
        return inner(source, args, context, info);
      };
    }
  }
  return schema;
}

/**
 * A mutation writes before its selection is read: a bad argument found there (`recordPurchases(…)
 * { producer { regime(year: 1999) } }`) would answer its error, `data: null`, over a committed
 * write. So every field of a mutation checks its arguments, with the operation's variables, before
 * the first root field runs; the first refusal refuses the whole operation with the field's own
 * error (code, field, message), status 400, and nothing is written. A root field its caller may not
 * run is left to refuse itself (FORBIDDEN, NOT_FOUND) as it would; its selection never runs.
 * Queries keep their partial answers (a bad field is null beside the others): mutations only.
 */
const mutationArguments: RequestHooks<Context> = {
  didResolveOperation({ schema, document, operation, request, contextValue }) {
    if (operation?.operation !== 'mutation' || !asksCheckedField(schema, document, operation)) return;
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
    // Variables that do not coerce are refused by the execution, naming the variable.
    if (coerced.errors) return;
    const walk = new Walk(schema, document, coerced.coerced, contextValue);
    try {
      walk.selections(operation.selectionSet, schema.getMutationType()!, true);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new LocalizedGraphQLError(error.text, { extensions: { code: error.code, ...error.extensions(), http: { status: 400 } } });
    }
  },
};
export const checkMutationArguments: PerRequest<Context> = () => mutationArguments;

class Walk {
  private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  private readonly seen = new Set<string>();

  constructor(private readonly schema: GraphQLSchema, document: DocumentNode, private readonly variables: Record<string, unknown>, private readonly context: Context) {
    this.fragments = fragmentsOf(document);
  }

  /** Each fragment once: its fields' arguments are the same wherever it is spread. */
  selections(set: SelectionSetNode, type: GraphQLNamedType, root: boolean): void {
    for (const s of set.selections) {
      if (!included(s, this.variables)) continue;
      if (s.kind === Kind.FIELD) this.field(s, type, root);
      else if (s.kind === Kind.INLINE_FRAGMENT) this.selections(s.selectionSet, (s.typeCondition && this.schema.getType(s.typeCondition.name.value)) || type, root);
      else if (!this.seen.has(s.name.value)) {
        this.seen.add(s.name.value);
        const fragment = this.fragments.get(s.name.value);
        if (fragment) this.selections(fragment.selectionSet, this.schema.getType(fragment.typeCondition.name.value) ?? type, root);
      }
    }
  }

  private field(node: FieldNode, type: GraphQLNamedType, root: boolean): void {
    for (const field of fieldsNamed(this.schema, type, node.name.value)) {
      let args: Record<string, unknown>;
      try {
        args = getArgumentValues(field, node, this.variables);
      } catch {
        // An argument the execution refuses itself.
        continue;
      }
      if (root && !this.mayRun(field.name, args)) continue;
      checkOf(field)?.(args);
      if (node.selectionSet) this.selections(node.selectionSet, getNamedType(field.type), false);
    }
  }

  private mayRun(name: string, args: Record<string, unknown>): boolean {
    try {
      authorize('Mutation', name, this.context.actor, args);
      return true;
    } catch {
      return false;
    }
  }
}

/** The definitions of a field asked on `type` (each possible type's, on an interface or a union); none for `__typename`. */
function fieldsNamed(schema: GraphQLSchema, type: GraphQLNamedType, name: string): Array<GraphQLField<unknown, unknown>> {
  const types = isObjectType(type) ? [type] : isAbstractType(type) ? schema.getPossibleTypes(type) : [];
  return types.map((t) => t.getFields()[name]).filter((f) => f !== undefined);
}

/** As graphql-js includes a selection: not `@skip(if: true)`, not `@include(if: false)`. */
function included(node: FieldNode | InlineFragmentNode | FragmentSpreadNode, variables: Record<string, unknown>): boolean {
  if (!node.directives?.length) return true;
  return getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true && getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
}

/** Whether a mutation asks any field with a check (once per parsed document: Apollo keeps them); most ask none and cost nothing more. */
const ASKS_CHECKED = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, boolean>>();

function asksCheckedField(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  let known = ASKS_CHECKED.get(schema);
  if (!known) ASKS_CHECKED.set(schema, (known = new WeakMap()));
  const cached = known.get(operation);
  if (cached !== undefined) return cached;
  const fragments = fragmentsOf(document);
  const seen = new Set<string>();
  const asks = (set: SelectionSetNode, type: GraphQLNamedType): boolean => set.selections.some((s) => {
    if (s.kind === Kind.INLINE_FRAGMENT) return asks(s.selectionSet, (s.typeCondition && schema.getType(s.typeCondition.name.value)) || type);
    if (s.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments.get(s.name.value);
      if (!fragment || seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      return asks(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? type);
    }
    return fieldsNamed(schema, type, s.name.value).some((f) => checkOf(f) !== undefined || (s.selectionSet !== undefined && asks(s.selectionSet, getNamedType(f.type))));
  });
  const result = asks(operation.selectionSet, schema.getMutationType()!);
  known.set(operation, result);
  return result;
}
