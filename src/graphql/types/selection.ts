import { FieldNode, GraphQLResolveInfo, Kind, SelectionSetNode } from 'graphql';

/**
 * Whether the field selects `names` below it (through fragments), so a connection skips work
 * nobody asked for (a totalCount) or joins what will be asked.
 */
export function selectsPath(info: GraphQLResolveInfo, names: string[]): boolean {
  const find = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>): boolean => {
    if (!set) return false;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD && s.name.value === names[depth]) {
        if (depth === names.length - 1 || find(s.selectionSet, depth + 1, new Set())) return true;
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        if (find(s.selectionSet, depth, seen)) return true;
      } else if (s.kind === Kind.FRAGMENT_SPREAD && !seen.has(s.name.value)) {
        seen.add(s.name.value);
        if (find(info.fragments[s.name.value]?.selectionSet, depth, seen)) return true;
      }
    }
    return false;
  };
  return info.fieldNodes.some((node: FieldNode) => find(node.selectionSet, 0, new Set()));
}

export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  return selectsPath(info, [name]);
}

/** Whether a connection's pageInfo asks hasPreviousPage: looked up (one EXISTS) only then. */
export function selectsPreviousPage(info: GraphQLResolveInfo): boolean {
  return selectsPath(info, ['pageInfo', 'hasPreviousPage']);
}

/** The relations of `relations` that the query selects under edges.node of this connection. */
export function selectedNodeRelations(info: GraphQLResolveInfo, relations: string[]): string[] {
  return relations.filter((r) => selectsPath(info, ['edges', 'node', r]));
}
