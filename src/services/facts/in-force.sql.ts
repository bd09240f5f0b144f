/**
 * The version in force on a date as known on a date, in SQL: published last by `asKnownOn` among
 * those covering `on`, ties by highest id. Pure twin: `inForce` (src/law/dated.ts), parity-tested.
 */
export interface InForceQuery {
  table: string;
  /** The alias of the versions' rows. */
  alias: string;
  /** The primary key column (the order of recording). */
  key: string;
  /** The columns one version is chosen per (e.g. the feedstock and the scope of a minimum price). */
  per: string | readonly string[];
  validFrom: string;
  validUntil: string;
  publishedOn: string;
  /** SQL expressions (bound parameters) of the two dates. */
  on: string;
  asKnownOn: string;
  /** Further conditions on the versions' rows. */
  where?: readonly string[];
}

/** `SELECT` of the keys of the versions in force, one per value of `per` (a column or several). */
export function inForceSql(q: InForceQuery): string {
  const v = q.alias;
  const found = [
    ...(q.where ?? []),
    `${v}.${q.publishedOn} <= ${q.asKnownOn}`,
    `${v}.${q.validFrom} <= ${q.on}`,
    `(${v}.${q.validUntil} IS NULL OR ${q.on} <= ${v}.${q.validUntil})`,
  ];
  // DISTINCT ON holds nulls equal: a null scope (nationwide) is one group, as in the pure twin's keys.
  const per = (typeof q.per === 'string' ? [q.per] : q.per).map((c) => `${v}.${c}`).join(', ');
  return `SELECT DISTINCT ON (${per}) ${v}.${q.key} FROM ${q.table} ${v} WHERE ${found.join(' AND ')} ORDER BY ${per}, ${v}.${q.publishedOn} DESC, ${v}.${q.key} DESC`;
}
