import { isIsoDate } from '../law/dates';
import { BadInputError } from './errors';
import { isId } from './record-batch';
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

/** A page's size and cursor read from its arguments (BAD_USER_INPUT naming `first`, then `after`). */
export function pageAsked(keyset: Keyset, args: PageArgs): { limit: number; after: CursorValues | null } {
  return { limit: pageSize(args.first), after: decodeKeysetCursor(keyset, args.after) };
}

/** The longest page of a long computed list (SealCompliance.excluded and countedItems, a month's credits.purchases). */
export const MAX_LIST_PAGE = 1000;

/** A page of a long computed list: `first` 1 to `max` (absent: all of it), `offset` 0 or more. */
export function checkListPage(first: number | null | undefined, offset: number, max = MAX_LIST_PAGE): void {
  if (first != null && (!Number.isInteger(first) || first < 1 || first > max)) {
    throw new BadInputError('first', message('input.pageSize', { field: 'first', min: 1, max }));
  }
  if (!Number.isInteger(offset) || offset < 0) throw new BadInputError('offset', message('input.negative', { field: 'offset' }));
}

/**
 * Opaque cursor: base64url (no padding) of the JSON array of the connection's tag and the sort key
 * of the row it points at (keyset pagination).
 */
export function encodeCursor(keyset: Keyset, values: CursorValues): string {
  return Buffer.from(JSON.stringify([keyset.tag, ...values])).toString('base64url');
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
class LazyEdge<T extends object> implements Edge<T> {
  constructor(readonly node: T, private readonly keyset: Keyset) {}

  get cursor(): string {
    return encodeCursor(this.keyset, cursorValues(this.keyset, this.node));
  }
}

/**
 * Build a connection from up to `limit + 1` rows of `keyset` fetched after the cursor;
 * `hasPreviousPage` is whether a row of the list is at or before it (keysetAtOrBeforeSql).
 */
export function toConnection<T extends object>(rows: T[], limit: number, keyset: Keyset, totalCount: number, hasPreviousPage: boolean): Connection<T> {
  const page = rows.slice(0, limit);
  const edges: Edge<T>[] = page.map((node) => new LazyEdge(node, keyset));
  return {
    edges,
    pageInfo: {
      hasNextPage: rows.length > limit,
      hasPreviousPage,
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
  /**
   * The connection's name in its cursors (lowercase letters): a cursor of one connection is not
   * one of another's, even where their sort keys look alike (purchases and sales).
   */
  tag: string;
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
function cursorValues(keyset: Keyset, row: object): CursorValues {
  return keyset.columns.map((c) => {
    const value = String((row as Record<string, unknown>)[c.property]);
    return c.kind === 'id' ? Number(value) : value;
  });
}

/** Whether `value` is a sort key value of a column of `kind` as a cursor of ours holds it. */
function isKeyValue(kind: KeyColumn['kind'], value: unknown): boolean {
  if (kind === 'id') return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
  return typeof value === 'string' && (kind === 'date' ? isIsoDate(value) : isId(value));
}

/**
 * The cursor `after` decoded for `keyset`: BAD_USER_INPUT unless it is one this connection hands
 * out — its tag, ids and calendar dates only (anything else would reach SQL and fail there), and
 * written exactly as we write it: base64 decoding skips blanks and padding, JSON reads `1.0` as 1,
 * so a cursor is taken only when encoding what it holds gives back the very text.
 */
export function decodeKeysetCursor(keyset: Keyset, after: string | null | undefined): CursorValues | null {
  if (after == null) return null;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && decoded.length === keyset.columns.length + 1 && decoded[0] === keyset.tag) {
      const values = decoded.slice(1) as CursorValues;
      if (keyset.columns.every((c, i) => isKeyValue(c.kind, values[i])) && encodeCursor(keyset, values) === after) return values;
    }
  } catch {
    // not JSON: not ours
  }
  throw new BadInputError('after', message('input.cursor', { field: 'after' }));
}

/** SQL type of a key column, for its parameter. */
const SQL_TYPE: Record<KeyColumn['kind'], string> = { id: 'bigint', idText: 'bigint', date: 'date' };

/**
 * The SQL condition "after the cursor" on rows aliased `q`; `param` binds a value of an SQL type
 * and returns its placeholder.
 */
export function keysetAfterSql(keyset: Keyset, after: CursorValues, q: string, param: (value: string, type: string) => string): string {
  return keysetCompareSql(keyset, after, q, param, keyset.descending ? '<' : '>');
}

/**
 * The SQL condition "at or before the cursor": the rows of the list that come before the page
 * after it (the first row of that page is the first row after the cursor, so nothing of the list
 * lies between). hasPreviousPage is whether one of them exists under the page's filters: a cursor
 * before a `from` bound, or of a row the filters leave out, has none (and no cursor, none).
 */
export function keysetAtOrBeforeSql(keyset: Keyset, after: CursorValues, q: string, param: (value: string, type: string) => string): string {
  return keysetCompareSql(keyset, after, q, param, keyset.descending ? '>=' : '<=');
}

function keysetCompareSql(keyset: Keyset, after: CursorValues, q: string, param: (value: string, type: string) => string, op: string): string {
  const columns = keyset.columns.map((c) => `${q}.${c.column}`);
  const values = keyset.columns.map((c, i) => param(String(after[i]), SQL_TYPE[c.kind]));
  return columns.length === 1 ? `${columns[0]} ${op} ${values[0]}` : `(${columns.join(', ')}) ${op} (${values.join(', ')})`;
}

/** The SQL ORDER BY list of the keyset on rows aliased `q`. */
export function keysetOrderSql(keyset: Keyset, q: string): string {
  return keyset.columns.map((c) => `${q}.${c.column}${keyset.descending ? ' DESC' : ''}`).join(', ');
}

/**
 * The SQL expression of the cursor of row `q`, exactly as encodeCursor(cursorValues(...)) writes
 * it: base64url (no padding) of the JSON array of the tag and the sort key.
 */
export function keysetCursorSql(keyset: Keyset, q: string): string {
  if (!/^[a-z]+$/.test(keyset.tag)) throw new Error(`keyset ${keyset.table}: its tag must be lowercase letters`);
  const parts = [`'"${keyset.tag}"'`, ...keyset.columns.map((c) => {
    if (c.kind === 'id') return `${q}.${c.column}::text`;
    if (c.kind === 'date') return `'"' || to_char(${q}.${c.column}, 'YYYY-MM-DD') || '"'`;
    return `'"' || ${q}.${c.column}::text || '"'`;
  })];
  const json = `'[' || ${parts.join(` || ',' || `)} || ']'`;
  // PostgreSQL's base64 pads and wraps lines; Buffer's base64url does neither.
  return `translate(encode(convert_to(${json}, 'UTF8'), 'base64'), E'+/=\\n', '-_')`;
}
