import { EntityManager } from 'typeorm';

/**
 * The demo dataset's means (demo-data.ts): a seeded PRNG, CPFs and CNPJs with valid check digits,
 * calendar arithmetic on ISO dates, and the insert of a table's rows in one statement
 * (json_to_recordset).
 */

/** mulberry32: small, fast and deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function checkDigit(digits: number[], weights: number[]): number {
  const sum = digits.reduce((s, d, i) => s + d * weights[i], 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** A CNPJ (matriz 0001) with valid check digits from an 8-digit base. */
export function cnpjFrom(base: number): string {
  const d = `${String(base).padStart(8, '0')}0001`.split('').map(Number);
  const d1 = checkDigit(d, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit([...d, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${d.join('')}${d1}${d2}`;
}

/** A CPF with valid check digits from a 9-digit base. */
export function cpfFrom(base: number): string {
  const d = String(base).padStart(9, '0').split('').map(Number);
  const d1 = (d.reduce((s, x, i) => s + x * (10 - i), 0) * 10) % 11 % 10;
  const d2 = ([...d, d1].reduce((s, x, i) => s + x * (11 - i), 0) * 10) % 11 % 10;
  return `${d.join('')}${d1}${d2}`;
}

export function addDays(date: string, days: number): string {
  const t = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

export function monthDays(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

export interface Row {
  [column: string]: string | number | boolean | null;
}

/** Insert rows in one statement (INSERT … SELECT FROM json_to_recordset), returning `returning` of each. */
export async function insertRows(em: EntityManager, table: string, columns: Array<[string, string]>, rows: Row[], returning?: string): Promise<Array<Record<string, string>>> {
  if (rows.length === 0) return [];
  const names = columns.map(([n]) => n).join(', ');
  const defs = columns.map(([n, t]) => `${n} ${t}`).join(', ');
  return em.query(
    `INSERT INTO ${table} (${names}) SELECT ${names} FROM json_to_recordset($1::json) AS x(${defs})${returning ? ` RETURNING ${returning}` : ''}`,
    [JSON.stringify(rows)],
  );
}
