/**
 * The NF-e access key (Ajuste SINIEF 07/2005, cláusula terceira; Manual de Orientação do
 * Contribuinte): 44 digits — UF (2), year and month of issue (4), the issuer's CNPJ (14), model
 * (2), series (3), number (9), form of issue (1), numeric code (8), check digit (1).
 */
export const NFE_KEY = /^\d{44}$/;

/** The issuing establishment's CNPJ a key names: its positions 7 to 20. */
export function nfeKeyIssuer(key: string): string {
  return key.slice(6, 20);
}

/** The same in SQL, for a key in `ref`. */
export function nfeKeyIssuerSql(ref: string): string {
  return `substr(${ref}, 7, 14)`;
}

/**
 * A key with the invoice number `n` issued by `cnpj` (UF 26, March 2026, model 55, series 1,
 * check digit 0): the keys of the reliability run, the benchmark and the tests.
 */
export function nfeKey(cnpj: string, n: number): string {
  return `262603${cnpj}55001${String(n).padStart(9, '0')}1${String(n % 1e8).padStart(8, '0')}0`;
}
