import { isIsoDate } from '../law/dates';
import { BadInputError } from './errors';
import { message } from '../i18n';

/** Relay connection arguments (docs/API.md "Pagination": `first` 0 to 100, default 20). */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * `first: 0` is a page of no rows (Relay allows it): its totalCount and pageInfo still answer,
 * hasNextPage telling whether any row follows the cursor.
 */
export function pageSize(first: number | null | undefined): number {
  if (first == null) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE) {
    throw new BadInputError('first', message('input.pageSize', { field: 'first', min: 0, max: MAX_PAGE_SIZE }));
  }
  return first;
}

export type CursorValues = (string | number)[];

/** Opaque cursor: the sort key of the row it points at (keyset pagination). */
export function encodeCursor(values: CursorValues): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

function isCursorValue(v: unknown): boolean {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0;
  return typeof v === 'string' && (/^\d{1,18}$/.test(v) || isIsoDate(v));
}

export function decodeCursor(cursor: string | null | undefined, arity: number): CursorValues | null {
  if (cursor == null) return null;
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    // Every cursor this API hands out holds ids and calendar dates only; anything else (a number
    // beyond bigint, a word) would reach SQL and fail there as an internal error.
    if (Array.isArray(values) && values.length === arity && values.every(isCursorValue)) {
      return values;
    }
  } catch {
    // fall through
  }
  throw new BadInputError('after', message('input.cursor', { field: 'after' }));
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

/** An edge whose cursor is encoded only when read (most pages of a nested query never ask for it). */
class LazyEdge<T> implements Edge<T> {
  constructor(readonly node: T, private readonly cursorOf: (row: T) => CursorValues) {}

  get cursor(): string {
    return encodeCursor(this.cursorOf(this.node));
  }
}

/** Build a connection from up to `limit + 1` rows fetched after the cursor. */
export function toConnection<T>(rows: T[], limit: number, cursorOf: (row: T) => CursorValues, totalCount: number, afterGiven: boolean): Connection<T> {
  const page = rows.slice(0, limit);
  const edges: Edge<T>[] = page.map((node) => new LazyEdge(node, cursorOf));
  return {
    edges,
    pageInfo: {
      hasNextPage: rows.length > limit,
      hasPreviousPage: afterGiven,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
    totalCount,
  };
}

/**
 * A page's order and cursor, one definition shared by the services and the compiled reads, so a
 * cursor one path gives the other accepts.
 */
export interface Keyset {
  table: string;
  columns: ReadonlyArray<KeyColumn>;
  /** Newest first (the audit log). */
  descending?: boolean;
}

export interface KeyColumn {
  column: string;
  property: string;
  /** 'id' a bigint id written as a number, 'idText' as a string, 'date' a YYYY-MM-DD string. */
  kind: 'id' | 'idText' | 'date';
}

/** The sort key of `row` as its cursor holds it. */
export function cursorValues(keyset: Keyset, row: object): CursorValues {
  return keyset.columns.map((c) => {
    const value = String((row as Record<string, unknown>)[c.property]);
    return c.kind === 'id' ? Number(value) : value;
  });
}

/** The cursor `after` decoded for `keyset`: BAD_USER_INPUT unless it is one this page hands out. */
export function decodeKeysetCursor(keyset: Keyset, after: string | null | undefined): CursorValues | null {
  const values = decodeCursor(after, keyset.columns.length);
  if (values && !keyset.columns.every((c, i) => (c.kind === 'date' ? isIsoDate(String(values[i])) : /^\d{1,18}$/.test(String(values[i]))))) {
    throw new BadInputError('after', message('input.cursor', { field: 'after' }));
  }
  return values;
}

/** SQL type of a key column, for its parameter. */
const SQL_TYPE: Record<KeyColumn['kind'], string> = { id: 'bigint', idText: 'bigint', date: 'date' };

/**
 * The SQL condition "after the cursor" on rows aliased `q`; `param` binds a value of an SQL type
 * and returns its placeholder.
 */
export function keysetAfterSql(keyset: Keyset, after: CursorValues, q: string, param: (value: string, type: string) => string): string {
  const columns = keyset.columns.map((c) => `${q}.${c.column}`);
  const values = keyset.columns.map((c, i) => param(String(after[i]), SQL_TYPE[c.kind]));
  const op = keyset.descending ? '<' : '>';
  return columns.length === 1 ? `${columns[0]} ${op} ${values[0]}` : `(${columns.join(', ')}) ${op} (${values.join(', ')})`;
}

/** The SQL ORDER BY list of the keyset on rows aliased `q`. */
export function keysetOrderSql(keyset: Keyset, q: string): string {
  return keyset.columns.map((c) => `${q}.${c.column}${keyset.descending ? ' DESC' : ''}`).join(', ');
}

/**
 * The SQL expression of the cursor of row `q`, exactly as encodeCursor(cursorValues(...)) writes
 * it: base64url (no padding) of the JSON array of the sort key.
 */
export function keysetCursorSql(keyset: Keyset, q: string): string {
  const parts = keyset.columns.map((c) => {
    if (c.kind === 'id') return `${q}.${c.column}::text`;
    if (c.kind === 'date') return `'"' || to_char(${q}.${c.column}, 'YYYY-MM-DD') || '"'`;
    return `'"' || ${q}.${c.column}::text || '"'`;
  });
  const json = `'[' || ${parts.join(` || ',' || `)} || ']'`;
  // PostgreSQL's base64 pads and wraps lines; Buffer's base64url does neither.
  return `translate(encode(convert_to(${json}, 'UTF8'), 'base64'), E'+/=\\n', '-_')`;
}
