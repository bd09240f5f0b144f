import { isIsoDate } from '../law/dates';
import { BadInputError } from './errors';

/** Relay connection arguments (DESIGN §2: `first` defaults to 20, at most 100). */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export function pageSize(first: number | null | undefined): number {
  if (first == null) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw new BadInputError('first', `first must be between 1 and ${MAX_PAGE_SIZE}`);
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
  throw new BadInputError('after', 'after is not a cursor returned by this API');
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
