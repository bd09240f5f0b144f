import { FieldNode, getNamedType, GraphQLObjectType, isObjectType } from 'graphql';
import type { EntityMetadata } from 'typeorm';
import { CursorValues, Keyset, keysetAfterSql, keysetAtOrBeforeSql, keysetCursorSql, keysetOrderSql, PageArgs, pageAsked } from '../../services/pagination';
import { isIsoDate } from '../../law/dates';
import type { Build } from './build';
import { setAnswers } from './answers';
import { arraySql, Decline, joinSql, MAX_KEYS, Part } from './statement';

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
    return { ...pageAsked(keyset, args as PageArgs), from: from ?? null, to: to ?? null };
  } catch {
    throw new Decline();
  }
}

/**
 * A connection page: limit + 1 rows after the cursor, in an array whose length gives hasNextPage;
 * totalCount counts the filters' rows, not the cursor's; hasPreviousPage is whether one of them is
 * at or before the cursor (one EXISTS, written only when asked after a cursor).
 */
export function connectionPart(
  build: Build,
  type: GraphQLObjectType,
  nodes: readonly FieldNode[],
  meta: EntityMetadata,
  keyset: Keyset,
  page: Page,
  parent: (c: string) => string[],
): Part {
  const q = build.alias();
  const dateColumn = keyset.columns[0].kind === 'date' ? keyset.columns[0].column : null;
  const from = page.from !== null ? build.paramOnUse(page.from, 'date') : null;
  const to = page.to !== null ? build.paramOnUse(page.to, 'date') : null;
  const filters = (c: string) => [
    ...parent(c),
    ...build.scope(meta, c),
    ...(from !== null ? [`${c}.${dateColumn} >= ${from()}`] : []),
    ...(to !== null ? [`${c}.${dateColumn} <= ${to()}`] : []),
  ];
  const joins: string[] = [];
  const fields = build.subfields(type, nodes);
  if (fields.size > MAX_KEYS) throw new Decline();
  const parts: string[] = [];
  /** What each row of the page holds: its cursor when pageInfo asks for one, then each edges field's edge. */
  const rowParts: string[] = [];
  let cursorAt: number | null = null;
  /** Whether the rows are read for their number alone (hasNextPage). */
  let rowsCounted = false;
  const cursorSlot = () => (cursorAt ??= rowParts.push(keysetCursorSql(keyset, q)) - 1);
  /** Where the connection's values hold whether a row of the list is at or before the cursor. */
  let previousAt: number | null = null;
  const previousSlot = (after: CursorValues) => {
    if (previousAt === null) {
      const b = build.alias();
      const before = [...filters(b), keysetAtOrBeforeSql(keyset, after, b, (v, t) => build.param(v, t))];
      previousAt = parts.push(`EXISTS (SELECT 1 FROM ${meta.tableName} ${b} WHERE ${before.join(' AND ')})`) - 1;
    }
    return previousAt;
  };
  /** Each of the connection's fields: how its object gets it from the statement's values and the page's rows. */
  const setters: Array<(target: Record<string, unknown>, answers: Record<string, unknown>, values: unknown[], rows: unknown[][]) => void> = [];
  for (const [key, keyNodes] of fields) {
    const name = keyNodes[0].name.value;
    if (name === '__typename') continue;
    const def = type.getFields()[name];
    if (!def) throw new Decline();
    if (name === 'totalCount') {
      const c = build.alias();
      const count = filters(c);
      const at = parts.push(`(SELECT count(*) FROM ${meta.tableName} ${c}${count.length ? ` WHERE ${count.join(' AND ')}` : ''})`) - 1;
      setters.push((target, _answers, values) => { target.totalCount = Number(values[at]); });
      continue;
    }
    const named = getNamedType(def.type);
    if (!isObjectType(named)) throw new Decline();
    if (name === 'edges') {
      const edge = edgePart(build, named, build.subfields(named, keyNodes), meta, q, keysetCursorSql(keyset, q), joins);
      const at = rowParts.push(edge.sql) - 1;
      setters.push((_target, answers, _values, rows) => { answers[key] = rows.slice(0, page.limit).map((row) => edge.read(row[at])); });
      continue;
    }
    if (name !== 'pageInfo') throw new Decline();
    const info = pageInfoPart(named, build.subfields(named, keyNodes), page, cursorSlot, () => { rowsCounted = true; }, previousSlot);
    setters.push((_target, answers, values, rows) => { answers[key] = info.read(rows, values); });
  }
  // The rows are one array: the joins and the LIMIT in one sub-select let PostgreSQL stop the
  // index scan after limit + 1 rows and probe each joined row by its key. The rows numbered by a
  // window and aggregated, with the joins after the LIMIT, cost PostgreSQL 1.2 to 2 times as much.
  let rowsAt: number | null = null;
  if (rowParts.length > 0 || rowsCounted) {
    // Here, not before: the cursor's values are bound only for the text that names them.
    const conditions = [...filters(q), ...(page.after ? [keysetAfterSql(keyset, page.after, q, (v, t) => build.param(v, t))] : [])];
    rowsAt = parts.push(`array_to_json(ARRAY(SELECT ${arraySql(rowParts)} FROM ${meta.tableName} ${q}${joinSql(joins)}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}
                      ORDER BY ${keysetOrderSql(keyset, q)} LIMIT ${build.param(page.limit, 'integer')} + 1))`) - 1;
  }
  return {
    sql: arraySql(parts),
    read: (json) => {
      const values = json as unknown[];
      const rows = rowsAt === null ? [] : values[rowsAt] as unknown[][];
      const connection: Record<string, unknown> = {};
      const answers: Record<string, unknown> = {};
      for (const set of setters) set(connection, answers, values, rows);
      setAnswers(connection, answers);
      return connection;
    },
  };
}

/** An edge: its cursor (a stored property), its node (an answer by response key). */
function edgePart(build: Build, type: GraphQLObjectType, fields: Map<string, readonly FieldNode[]>, meta: EntityMetadata, q: string, cursor: string, joins: string[]): Part {
  if (fields.size > MAX_KEYS) throw new Decline();
  const parts: string[] = [];
  const setters: Array<(edge: Record<string, unknown>, answers: Record<string, unknown>, value: unknown) => void> = [];
  for (const [key, nodes] of fields) {
    const name = nodes[0].name.value;
    if (name === '__typename') continue;
    if (name === 'cursor') {
      parts.push(cursor);
      setters.push((edge, _answers, value) => { edge.cursor = value; });
      continue;
    }
    if (name !== 'node') throw new Decline();
    const nodeType = getNamedType(type.getFields().node.type) as GraphQLObjectType;
    const node = build.object(nodeType, meta, build.subfields(nodeType, nodes), q, joins);
    parts.push(node.sql);
    setters.push((_edge, answers, value) => { answers[key] = node.read(value); });
  }
  return {
    sql: arraySql(parts),
    read: (json) => {
      const values = json as unknown[];
      const edge: Record<string, unknown> = {};
      const answers: Record<string, unknown> = {};
      setters.forEach((set, i) => set(edge, answers, values[i]));
      setAnswers(edge, answers);
      return edge;
    },
  };
}

/**
 * A connection's pageInfo, from the page's rows and the connection's values (its fields take no
 * arguments, so aliases agree).
 */
function pageInfoPart(
  type: GraphQLObjectType,
  fields: Map<string, readonly FieldNode[]>,
  page: Page,
  cursorSlot: () => number,
  counted: () => void,
  previousSlot: (after: CursorValues) => number,
): { read(rows: unknown[][], connection: unknown[]): unknown } {
  const names = [...new Set([...fields.values()].map((nodes) => nodes[0].name.value))].filter((n) => n !== '__typename');
  const shown = (rows: unknown[][]) => Math.min(rows.length, page.limit);
  const values = names.map((name): [string, (rows: unknown[][], connection: unknown[]) => unknown] => {
    if (!type.getFields()[name]) throw new Decline();
    switch (name) {
      case 'hasNextPage': counted(); return [name, (rows) => rows.length > page.limit];
      // From the start, nothing precedes the page.
      case 'hasPreviousPage': {
        if (page.after === null) return [name, () => false];
        const at = previousSlot(page.after);
        return [name, (_rows, connection) => connection[at] === true];
      }
      // The cursors of the first and last rows shown (the limit + 1st only tells that more follow).
      case 'startCursor': { const at = cursorSlot(); return [name, (rows) => (shown(rows) > 0 ? rows[0][at] : null)]; }
      case 'endCursor': { const at = cursorSlot(); return [name, (rows) => (shown(rows) > 0 ? rows[shown(rows) - 1][at] : null)]; }
      default: throw new Decline();
    }
  });
  return {
    read: (rows, connection) => {
      const info: Record<string, unknown> = {};
      for (const [name, value] of values) info[name] = value(rows, connection);
      return info;
    },
  };
}
