import fc from 'fast-check';
import { NFE_KEY, nfeKey, nfeKeyDigit, nfeKeyIssuer, nfeKeyProblem } from '../../src/formats/nfe-key';

/**
 * The NF-e key's check digit (Manual de Orientação do Contribuinte, "Chave de Acesso"): modulo 11
 * with weights 2 to 9 from the right; since NT Conjunta 2025.001 each character is valued at its
 * ASCII code − 48, so a digit keeps its value and the alphanumeric CNPJ's letters count A = 17 …
 */
test('the manual\'s own example: 52 0604 33009911002506 55 012 000000780 026730161 → digit 5', () => {
  // Weights from the right 2..9, 2..9, …: the products sum to 644; 644 = 11 × 58 + 6; 11 − 6 = 5.
  expect(nfeKeyDigit('5206043300991100250655012000000780026730161')).toBe(5);
});

test('an alphanumeric-CNPJ key, its digit worked by hand', () => {
  // UF 35, July 2026, CNPJ 12ABC34501DE35 (IN RFB 2.229/2024), model 55, series 001, number 123,
  // form 1, code 12345678. Weights (from the right, 2..9 cycling) and value × weight by part:
  //   35 ×(4,3) = 15 + 12 = 27;  2607 ×(2,9,8,7) = 4 + 54 + 0 + 49 = 107
  //   1 2 A B C 3 4 5 0 1 D E 3 5 (A = 'A'−48 = 17, B 18, C 19, D 20, E 21)
  //     ×(6,5,4,3,2,9,8,7,6,5,4,3,2,9) = 6+10+68+54+38+27+32+35+0+5+80+63+6+45 = 469
  //   55 ×(8,7) = 75;  001 ×(6,5,4) = 4;  000000123 ×(…,5,4,3) = 5 + 8 + 9 = 22;  1 ×2 = 2
  //   12345678 ×(9,8,7,6,5,4,3,2) = 9+16+21+24+25+24+21+16 = 156
  // Sum 862 = 11 × 78 + 4, so the digit is 11 − 4 = 7.
  const first43 = '35260712ABC34501DE3555001000000123112345678';
  expect(nfeKeyDigit(first43)).toBe(7);
  const key = `${first43}7`;
  expect(nfeKeyProblem(key)).toBeNull();
  expect(nfeKeyIssuer(key)).toBe('12ABC34501DE35');
  expect(nfeKeyProblem(`${first43}8`)).toBe('digit');
  // Lower case is not the layout's (the CNPJ's letters are upper case).
  expect(nfeKeyProblem(key.toLowerCase())).toBe('shape');
});

test('a remainder of 0 or 1 gives digit 0; anything else 11 − remainder', () => {
  // 42 zeros then one digit: only the last position counts, at weight 2.
  expect(nfeKeyDigit(`${'0'.repeat(42)}0`)).toBe(0); // 0: remainder 0
  expect(nfeKeyDigit(`${'0'.repeat(42)}6`)).toBe(0); // 12: remainder 1
  expect(nfeKeyDigit(`${'0'.repeat(42)}5`)).toBe(1); // 10: remainder 10 → 11 − 10
  expect(nfeKeyDigit(`${'0'.repeat(42)}1`)).toBe(9); // 2: remainder 2 → 11 − 2
});

test('shape: anchored at both ends, 44 positions, letters only in the CNPJ\'s first 12', () => {
  const good = nfeKey('11222333000181', 5);
  expect(nfeKeyProblem(good)).toBeNull();
  expect(nfeKeyProblem(`${good}1`)).toBe('shape');
  expect(nfeKeyProblem(good.slice(1))).toBe('shape');
  expect(nfeKeyProblem(`${good}\n`)).toBe('shape');
  expect(nfeKeyProblem(`A${good.slice(1)}`)).toBe('shape');
  expect(nfeKeyProblem(`${good.slice(0, 18)}A${good.slice(19)}`)).toBe('shape'); // the CNPJ's check digits are numeric
  expect(NFE_KEY.test(`${good.slice(0, 6)}12ABC34501DE35${good.slice(20)}`)).toBe(true);
});

test('model: only 55', () => {
  const first43 = nfeKey('11222333000181', 5).slice(0, 43).replace(/^(.{20})55/, '$165');
  expect(nfeKeyProblem(`${first43}${nfeKeyDigit(first43)}`)).toBe('model');
});

test('any single character changed in a valid key is caught (seed fixed)', () => {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  fc.assert(fc.property(fc.integer({ min: 0, max: 42 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 99999999 }), (at, delta, n) => {
    const key = nfeKey('12ABC34501DE35', n);
    const digitsOnly = at < 6 || at >= 18;
    const set = digitsOnly ? '0123456789' : alphabet;
    const c = set[(set.indexOf(key[at]) + delta) % set.length];
    const changed = `${key.slice(0, at)}${c}${key.slice(at + 1)}`;
    // A change of value v at weight w (2..9) moves the sum by v × w, which escapes modulo 11 only
    // when v ≡ 0 (mod 11) — between a digit and a letter 11 apart ('6' = 6 and 'A' = 17) in the
    // alphanumeric CNPJ — or when it moves the remainder between 0 and 1, which both give 0.
    const shift = (((c.charCodeAt(0) - key.charCodeAt(at)) * (2 + ((42 - at) % 8))) % 11 + 11) % 11;
    const blind = shift === 0 || (key[43] === '0' && (shift === 1 || shift === 10));
    return blind || nfeKeyProblem(changed) !== null;
  }), { seed: 31, numRuns: 2000 });
});
