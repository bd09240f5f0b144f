import { FieldNode, getNamedType, GraphQLObjectType, isObjectType } from 'graphql';
import type { EntityMetadata } from 'typeorm';
import { CursorValues, decodeKeysetCursor, Keyset, keysetAfterSql, keysetCursorSql, keysetOrderSql, pageSize } from '../../services/pagination';
import { isIsoDate } from '../../law/dates';
import type { Build } from './build';
import { Decline, joinSql, keyed } from './statement';

/** The page a connection's arguments ask for. */
export interface Page {
  limit: number;
  after: CursorValues | null;
  from: string | null;
  to: string | null;
}

/**
 * A connection's arguments as its service reads them (`first`, `after`; `from` and `to` on a
 * parent's dated connection): any other argument, or one the service would refuse, declines.
 */
export function pageOf(args: Readonly<Record<string, unknown>>, keyset: Keyset, bounded: boolean): Page {
  const known = new Set(['first', 'after', ...(bounded ? ['from', 'to'] : [])]);
  if (Object.keys(args).some((k) => !known.has(k))) throw new Decline();
  const from = args.from as string | null | undefined;
  const to = args.to as string | null | undefined;
  if ((from != null || to != null) && keyset.columns[0].kind !== 'date') throw new Decline();
  if ((from != null && !isIsoDate(from)) || (to != null && !isIsoDate(to))) throw new Decline();
  try {
    return { limit: pageSize(args.first as number | null | undefined), after: decodeKeysetCursor(keyset, args.after as string | null | undefined), from: from ?? null, to: to ?? null };
  } catch {
    throw new Decline();
  }
}

/**
 * A connection (src/services/pagination.ts toConnection): the first limit + 1 rows after the
 * cursor, numbered; edges are the first `limit`, hasNextPage whether there was one more,
 * hasPreviousPage whether a cursor was given, totalCount the rows of the filters (not the cursor).
 */
export function connectionSql(
  build: Build,
  type: GraphQLObjectType,
  nodes: readonly FieldNode[],
  meta: EntityMetadata,
  keyset: Keyset,
  page: Page,
  parent: (c: string) => string[],
): string {
  const q = build.alias();
  const dateColumn = keyset.columns[0].kind === 'date' ? keyset.columns[0].column : null;
  const filters = (c: string) => [
    ...parent(c),
    ...build.scope(meta, c),
    ...(page.from !== null ? [`${c}.${dateColumn} >= ${build.literal(page.from, 'date')}`] : []),
    ...(page.to !== null ? [`${c}.${dateColumn} <= ${build.literal(page.to, 'date')}`] : []),
  ];
  const conditions = [...filters(q), ...(page.after ? [keysetAfterSql(keyset, page.after, q, (v, t) => build.literal(v, t))] : [])];
  const firstRows = `FILTER (WHERE ${q}._rn <= ${page.limit})`;
  // base64url: nothing to escape in the JSON string.
  const cursor = keysetCursorSql(keyset, q);
  const cursors = (dir: string) => `coalesce('"' || (array_agg(${cursor} ORDER BY ${q}._rn${dir}) ${firstRows})[1] || '"', 'null')`;
  const joins: string[] = [];
  const body = keyed(type, build.subfields(type, nodes), (name, keyNodes) => {
    const def = type.getFields()[name];
    if (!def) throw new Decline();
    if (name === 'totalCount') {
      const c = build.alias();
      const count = filters(c);
      return `(SELECT count(*)::text FROM ${meta.tableName} ${c}${count.length ? ` WHERE ${count.join(' AND ')}` : ''})`;
    }
    const named = getNamedType(def.type);
    if (!isObjectType(named)) throw new Decline();
    if (name === 'edges') {
      const edge = keyed(named, build.subfields(named, keyNodes), (edgeName, edgeNodes) => {
        if (edgeName === 'cursor') return `'"' || ${cursor} || '"'`;
        if (edgeName !== 'node') throw new Decline();
        const nodeType = getNamedType(named.getFields().node.type) as GraphQLObjectType;
        return build.object(nodeType, meta, build.subfields(nodeType, edgeNodes), q, joins);
      });
      return `'[' || coalesce(string_agg(${edge}, ',' ORDER BY ${q}._rn) ${firstRows}, '') || ']'`;
    }
    if (name === 'pageInfo') {
      return keyed(named, build.subfields(named, keyNodes), (infoName) => {
        const value = {
          hasNextPage: `CASE WHEN count(*) > ${page.limit} THEN 'true' ELSE 'false' END`,
          hasPreviousPage: page.after ? `'true'` : `'false'`,
          startCursor: cursors(''),
          endCursor: cursors(' DESC'),
        }[infoName];
        if (value === undefined) throw new Decline();
        return value;
      });
    }
    throw new Decline();
  });
  const order = keysetOrderSql(keyset, q);
  // The window numbers the limit + 1 rows only: the LIMIT stops the index scan first. GROUP BY ()
  // makes it one row even when no aggregate is selected (a connection asked for its totalCount only).
  return `(SELECT ${body}
       FROM (SELECT ${q}.*, row_number() OVER (ORDER BY ${order}) AS _rn
               FROM (SELECT * FROM ${meta.tableName} ${q}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}
                      ORDER BY ${order} LIMIT ${page.limit + 1}) ${q}) ${q}${joinSql(joins)}
      GROUP BY ())`;
}
