import { FieldNode, getNamedType, GraphQLObjectType, isObjectType } from 'graphql';
import type { EntityMetadata } from 'typeorm';
import { CursorValues, decodeKeysetCursor, Keyset, keysetAfterSql, keysetCursorSql, keysetOrderSql, pageSize } from '../../services/pagination';
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
    return { limit: pageSize(args.first as number | null | undefined), after: decodeKeysetCursor(keyset, args.after as string | null | undefined), from: from ?? null, to: to ?? null };
  } catch {
    throw new Decline();
  }
}

/**
 * A connection page: limit + 1 rows after the cursor (the extra one gives hasNextPage);
 * totalCount counts the filters' rows, not the cursor's.
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
  const from = page.from !== null ? build.param(page.from, 'date') : null;
  const to = page.to !== null ? build.param(page.to, 'date') : null;
  const filters = (c: string) => [
    ...parent(c),
    ...build.scope(meta, c),
    ...(from !== null ? [`${c}.${dateColumn} >= ${from}`] : []),
    ...(to !== null ? [`${c}.${dateColumn} <= ${to}`] : []),
  ];
  const conditions = [...filters(q), ...(page.after ? [keysetAfterSql(keyset, page.after, q, (v, t) => build.param(v, t))] : [])];
  const limit = build.param(page.limit, 'integer');
  const firstRows = `FILTER (WHERE ${q}._rn <= ${limit})`;
  const cursor = keysetCursorSql(keyset, q);
  const joins: string[] = [];
  const fields = build.subfields(type, nodes);
  if (fields.size > MAX_KEYS) throw new Decline();
  const parts: string[] = [];
  /** Each of the connection's fields: how its object gets it from its place in the array. */
  const setters: Array<(target: Record<string, unknown>, answers: Record<string, unknown>, value: unknown) => void> = [];
  for (const [key, keyNodes] of fields) {
    const name = keyNodes[0].name.value;
    if (name === '__typename') continue;
    const def = type.getFields()[name];
    if (!def) throw new Decline();
    if (name === 'totalCount') {
      const c = build.alias();
      const count = filters(c);
      parts.push(`(SELECT count(*) FROM ${meta.tableName} ${c}${count.length ? ` WHERE ${count.join(' AND ')}` : ''})`);
      setters.push((target, _answers, value) => { target.totalCount = Number(value); });
      continue;
    }
    const named = getNamedType(def.type);
    if (!isObjectType(named)) throw new Decline();
    if (name === 'edges') {
      const edge = edgePart(build, named, build.subfields(named, keyNodes), meta, q, cursor, joins);
      parts.push(`coalesce(json_agg(${edge.sql} ORDER BY ${q}._rn) ${firstRows}, '[]')`);
      setters.push((_target, answers, value) => { answers[key] = (value as unknown[]).map(edge.read); });
      continue;
    }
    if (name !== 'pageInfo') throw new Decline();
    const info = pageInfoPart(named, build.subfields(named, keyNodes), page, limit, (dir) => `(array_agg(${cursor} ORDER BY ${q}._rn${dir}) ${firstRows})[1]`);
    parts.push(info.sql);
    setters.push((_target, answers, value) => { answers[key] = info.read(value); });
  }
  const order = keysetOrderSql(keyset, q);
  // The window numbers the limit + 1 rows only: the LIMIT stops the index scan first. GROUP BY ()
  // makes it one row even when no aggregate is selected (a connection asked for its totalCount only).
  const sql = `(SELECT ${arraySql(parts)}
       FROM (SELECT ${q}.*, row_number() OVER (ORDER BY ${order}) AS _rn
               FROM (SELECT * FROM ${meta.tableName} ${q}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}
                      ORDER BY ${order} LIMIT ${limit} + 1) ${q}) ${q}${joinSql(joins)}
      GROUP BY ())`;
  return {
    sql,
    read: (json) => {
      const values = json as unknown[];
      const connection: Record<string, unknown> = {};
      const answers: Record<string, unknown> = {};
      setters.forEach((set, i) => set(connection, answers, values[i]));
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

/** A connection's pageInfo: plain properties (its fields take no arguments, so aliases agree). */
function pageInfoPart(type: GraphQLObjectType, fields: Map<string, readonly FieldNode[]>, page: Page, limit: string, cursorAt: (dir: string) => string): Part {
  const names = [...new Set([...fields.values()].map((nodes) => nodes[0].name.value))].filter((n) => n !== '__typename');
  const sql = names.map((name) => {
    if (!type.getFields()[name]) throw new Decline();
    const value = {
      hasNextPage: `count(*) > ${limit}`,
      hasPreviousPage: page.after ? 'true' : 'false',
      startCursor: cursorAt(''),
      endCursor: cursorAt(' DESC'),
    }[name];
    if (value === undefined) throw new Decline();
    return value;
  });
  return {
    sql: arraySql(sql),
    read: (json) => {
      const values = json as unknown[];
      const info: Record<string, unknown> = {};
      names.forEach((name, i) => { info[name] = values[i]; });
      return info;
    },
  };
}
