import { SelectQueryBuilder, ObjectLiteral } from 'typeorm';
import { Connection, CursorValues, Keyset, keysetAfterSql, keysetAtOrBeforeSql, PageArgs, pageAsked, toConnection } from './pagination';

/**
 * The order and cursor of every page the API hands out, used by the services' pages and by the
 * compiled reads (src/graphql/compiled/) alike. The registers' and producers' cursors have always
 * held their id as a number, the producer records' as strings: a cursor keeps its form. Each tag
 * is the connection's own: a cursor of one is refused by the others.
 */
export const PRODUCER_KEYSET: Keyset = { tag: 'producer', table: 'producer', columns: [{ column: 'id', property: 'id', kind: 'id' }] };
export const FAMILY_FARMER_KEYSET: Keyset = { tag: 'farmer', table: 'family_farmer', columns: [{ column: 'id', property: 'id', kind: 'id' }] };
export const ORGANIZATION_KEYSET: Keyset = { tag: 'organization', table: 'family_farming_organization', columns: [{ column: 'id', property: 'id', kind: 'id' }] };
export const CONTRACT_KEYSET: Keyset = { tag: 'contract', table: 'contract', columns: [{ column: 'id', property: 'id', kind: 'idText' }] };
export const PURCHASE_KEYSET: Keyset = {
  tag: 'purchase',
  table: 'purchase',
  columns: [{ column: 'consumed_on', property: 'consumedOn', kind: 'date' }, { column: 'id', property: 'id', kind: 'idText' }],
};
export const SALE_KEYSET: Keyset = {
  tag: 'sale',
  table: 'sale',
  columns: [{ column: 'sold_on', property: 'soldOn', kind: 'date' }, { column: 'id', property: 'id', kind: 'idText' }],
};
export const IMPORT_KEYSET: Keyset = {
  tag: 'import',
  table: 'biodiesel_import',
  columns: [{ column: 'cleared_on', property: 'clearedOn', kind: 'date' }, { column: 'id', property: 'id', kind: 'idText' }],
};
export const AUDIT_KEYSET: Keyset = { tag: 'audit', table: 'audit_entry', columns: [{ column: 'id', property: 'id', kind: 'idText' }], descending: true };

/** The condition `sql` writes on the query builder's alias, its values bound as named parameters. */
function whereKeyset<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, sql: typeof keysetAfterSql, keyset: Keyset, after: CursorValues): SelectQueryBuilder<T> {
  const params: Record<string, string> = {};
  return qb.andWhere(sql(keyset, after, qb.alias, (value, type) => {
    const name = `after${Object.keys(params).length}`;
    params[name] = value;
    return `CAST(:${name} AS ${type})`;
  }), params);
}

/** A query builder's rows after the cursor, in the keyset's order, `limit` of them. */
export function pageAfter<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, keyset: Keyset, after: CursorValues | null, limit: number): SelectQueryBuilder<T> {
  const alias = qb.alias;
  if (after) whereKeyset(qb, keysetAfterSql, keyset, after);
  for (const [i, c] of keyset.columns.entries()) {
    const key = `${alias}.${c.column}`;
    const dir = keyset.descending ? 'DESC' : 'ASC';
    if (i === 0) qb.orderBy(key, dir);
    else qb.addOrderBy(key, dir);
  }
  return qb.take(limit);
}

/**
 * hasPreviousPage of the page after the cursor: whether a row of the query builder's list (its
 * filters and scope) is at or before it. One EXISTS, only when there is a cursor.
 */
export async function hasRowsBefore<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, keyset: Keyset, after: CursorValues | null): Promise<boolean> {
  return after !== null && whereKeyset(qb.clone(), keysetAtOrBeforeSql, keyset, after).getExists();
}

/**
 * The page of a query builder's list that `args` ask for, in the keyset's order: totalCount counted
 * only when `withTotal`, hasPreviousPage looked up only when `withPrevious` (each when selected).
 */
export async function keysetPage<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, keyset: Keyset, args: PageArgs, { withTotal = true, withPrevious = true } = {}): Promise<Connection<T>> {
  const { limit, after } = pageAsked(keyset, args);
  const totalCount = withTotal ? await qb.clone().getCount() : 0;
  const hasPrevious = withPrevious && await hasRowsBefore(qb, keyset, after);
  const rows = await pageAfter(qb, keyset, after, limit + 1).getMany();
  return toConnection(rows, limit, keyset, totalCount, hasPrevious);
}
