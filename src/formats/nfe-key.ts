/**
 * NF-e access key (Ajuste SINIEF 07/2005, cl. 3ª): UF, AAMM, issuer CNPJ (alphanumeric since NT
 * 2025.001, IN RFB 2.229/2024), model, series, number, form, code, check digit — 44 positions.
 */
export const NFE_KEY = /^\d{6}[0-9A-Z]{12}\d{2}\d{24}$/;

/** The model an NF-e key names (positions 21–22): 55 is the NF-e (65, the NFC-e, is not ours). */
export const NFE_MODEL = '55';

/**
 * The check digit of the key's first 43 positions: modulo 11 with weights 2 to 9 from the right,
 * each character valued at its ASCII code − 48 (a digit its value, 'A' 17 … 'Z' 42, as NT
 * Conjunta 2025.001 extends the rule to the alphanumeric CNPJ); a remainder of 0 or 1 gives 0.
 */
export function nfeKeyDigit(first43: string): number {
  let sum = 0;
  for (let i = first43.length - 1, weight = 2; i >= 0; i--, weight = weight === 9 ? 2 : weight + 1) {
    sum += (first43.charCodeAt(i) - 48) * weight;
  }
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** What is wrong with a key, or null: its shape, its model, or its check digit. */
export type NfeKeyProblem = 'shape' | 'model' | 'digit';

export function nfeKeyProblem(key: string): NfeKeyProblem | null {
  if (!NFE_KEY.test(key)) return 'shape';
  if (key.slice(20, 22) !== NFE_MODEL) return 'model';
  if (nfeKeyDigit(key.slice(0, 43)) !== Number(key[43])) return 'digit';
  return null;
}

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
 * its check digit): the keys of the reliability run, the benchmark and the tests.
 */
export function nfeKey(cnpj: string, n: number, issued = '2603'): string {
  const first43 = `26${issued}${cnpj}55001${String(n).padStart(9, '0')}1${String(n % 1e8).padStart(8, '0')}`;
  return `${first43}${nfeKeyDigit(first43)}`;
}
