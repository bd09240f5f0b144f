import { Decimal } from '../law/decimal';

/**
 * A SPED field's text (Guia Prático v1.35, 2.1 a and e–g): controls, line separators, bidirectional
 * overrides and `|` become a space, characters outside ISO-8859-1 lose their accents or become `?`.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f|\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g;

export function sped(text: string): string {
  const clean = text.normalize('NFC').replace(UNSAFE, ' ').replace(/ {2,}/g, ' ').trim();
  return [...clean].map((c) => (c.codePointAt(0)! <= 0xff ? c : [...c.normalize('NFD').replace(/[\u0300-\u036f]/g, '')].map((x) => (x.codePointAt(0)! <= 0xff ? x : '?')).join(''))).join('');
}

/** 0000 NOME (field 08): without accents, and only the characters its validation accepts. */
export function spedName(text: string, max = 100): string {
  return text.normalize('NFC').replace(UNSAFE, ' ').normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-zA-Z0-9 /,.\-@:&*+_<>()!?'$%]/g, ' ').replace(/ {2,}/g, ' ').trim().slice(0, max);
}

/** A SPED number: decimal comma, no thousands separator, the field's decimals. */
export function spedNumber(value: Decimal, places: number): string {
  return value.toFixed(places, Decimal.ROUND_HALF_EVEN).replace('.', ',');
}

/** A SPED date: DDMMAAAA. */
export function spedDate(iso: string): string {
  return `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(0, 4)}`;
}
