import {
  FieldNode,
  FragmentDefinitionNode,
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLSkipDirective,
  isAbstractType,
  Kind,
  SelectionSetNode,
  typeFromAST,
  FragmentSpreadNode,
  InlineFragmentNode,
} from 'graphql';

/**
 * A selection's fields by response key in execution order (GraphQL spec, CollectFields), over
 * graphql-js's public functions only.
 */
export function collectFields(
  schema: GraphQLSchema,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: Readonly<Record<string, unknown>>,
  type: GraphQLObjectType,
  selectionSets: ReadonlyArray<SelectionSetNode | undefined>,
): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const collect = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (!included(selection, variables)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const list = fields.get(key);
        if (list) list.push(selection);
        else fields.set(key, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!applies(schema, selection.typeCondition ? selection.typeCondition : undefined, type)) continue;
        collect(selection.selectionSet);
      } else {
        const name = selection.name.value;
        if (visited.has(name)) continue;
        visited.add(name);
        const fragment = fragments[name];
        if (!fragment || !applies(schema, fragment.typeCondition, type)) continue;
        collect(fragment.selectionSet);
      }
    }
  };
  for (const set of selectionSets) if (set) collect(set);
  return fields;
}

/** The fields under the field nodes of one response key, on an object of `type`. */
export function collectSubfields(
  schema: GraphQLSchema,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: Readonly<Record<string, unknown>>,
  type: GraphQLObjectType,
  nodes: ReadonlyArray<FieldNode>,
): Map<string, FieldNode[]> {
  return collectFields(schema, fragments, variables, type, nodes.map((n) => n.selectionSet));
}

function included(node: FieldNode | FragmentSpreadNode | InlineFragmentNode, variables: Readonly<Record<string, unknown>>): boolean {
  if (!node.directives?.length) return true;
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  if (getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if === false) return false;
  return true;
}

function applies(schema: GraphQLSchema, condition: Parameters<typeof typeFromAST>[1] | undefined, type: GraphQLObjectType): boolean {
  if (!condition) return true;
  const conditionType = typeFromAST(schema, condition);
  if (conditionType === type) return true;
  return conditionType !== undefined && isAbstractType(conditionType) && schema.isSubType(conditionType, type);
}
