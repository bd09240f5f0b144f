import { cnpj as cnpjLib, cpf as cpfLib } from 'cpf-cnpj-validator';
import { GraphQLError, GraphQLScalarType, Kind, ValueNode } from 'graphql';
import { GraphQLDateTime, GraphQLJSON } from 'graphql-scalars';
import { Decimal } from '../law/decimal';
import { isIsoDate } from '../law/dates';
import { message, Message } from '../i18n';
import { LocalizedGraphQLError } from './localized-error';

/**
 * How a scalar's value is written as JSON text by PostgreSQL from a column `ref` (the compiled
 * reads, src/graphql/compiled/): exactly what JSON.stringify writes of `serialize`'s result, `null`
 * for SQL NULL. Kept beside `serialize` so that the two change together; the compiled reads
 * test compares them byte for byte.
 */
export const SQL_JSON = 'sqlJson';
export type SqlJson = (ref: string) => string;

/** Text as stored: to_json escapes as JSON.stringify does (quote, backslash, control characters as \u00xx). */
export const textJson: SqlJson = (ref) => `coalesce(to_json(${ref})::text, 'null')`;

function invalid(text: Message): GraphQLError {
  return new LocalizedGraphQLError(text, { extensions: { code: 'BAD_USER_INPUT' } });
}

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function parseDecimal(value: unknown): Decimal {
  if (typeof value === 'string') {
    const text = value.trim();
    if (!DECIMAL_TEXT.test(text)) throw invalid(message('scalar.decimalText', { value }));
    return new Decimal(text);
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return new Decimal(value);
  if (typeof value === 'number') throw invalid(message('scalar.decimalFloat'));
  throw invalid(message('scalar.decimalNotString'));
}

/** Exact decimal number on the wire as a string; strings and integers in, strings out. */
export const DecimalScalar = new GraphQLScalarType<Decimal, string>({
  name: 'Decimal',
  description: 'Exact decimal number on the wire as a string, e.g. "26.41". Never a Float: integers and strings are accepted as input, a float literal is rejected.',
  serialize(value) {
    if (value instanceof Decimal) return value.toFixed();
    if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return new Decimal(value).toFixed();
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    throw new GraphQLError(`Decimal cannot represent ${String(value)}`);
  },
  // Decimal#toFixed(): no exponent, no trailing zeros after the point ("2675.20" → "2675.2").
  extensions: { [SQL_JSON]: ((ref) => `coalesce('"' || trim_scale(${ref})::text || '"', 'null')`) satisfies SqlJson },
  parseValue: parseDecimal,
  parseLiteral(ast: ValueNode) {
    if (ast.kind === Kind.STRING) return parseDecimal(ast.value);
    if (ast.kind === Kind.INT) return new Decimal(ast.value);
    if (ast.kind === Kind.FLOAT) throw invalid(message('scalar.decimalFloatLiteral'));
    throw invalid(message('scalar.decimalNotString'));
  },
});

function parseDate(value: unknown): string {
  if (typeof value !== 'string' || !isIsoDate(value)) throw invalid(message('scalar.date', { value: String(JSON.stringify(value)) }));
  return value;
}

/** Calendar date, ISO 8601 YYYY-MM-DD, without time or zone. */
export const DateScalar = new GraphQLScalarType<string, string>({
  name: 'Date',
  description: 'Calendar date, ISO 8601 YYYY-MM-DD, from 0001-01-01 to 9999-12-31 (a real date: 2025-02-30 and the year 0000 are rejected).',
  serialize(value) {
    if (typeof value === 'string' && isIsoDate(value)) return value;
    throw new GraphQLError(`Date cannot represent ${String(value)}`);
  },
  // PostgreSQL writes a date in JSON as YYYY-MM-DD whatever DateStyle is.
  extensions: { [SQL_JSON]: textJson },
  parseValue: parseDate,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw invalid(message('scalar.dateNotString'));
    return parseDate(ast.value);
  },
});

/** Accepts masked or bare input; returns the bare form, upper case. */
export function normaliseCnpj(value: unknown): string {
  if (typeof value !== 'string') throw invalid(message('scalar.notString', { name: 'CNPJ' }));
  const bare = value.trim().replace(/[./\-\s]/g, '').toUpperCase();
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(bare) || !cnpjLib.isValid(bare)) throw invalid(message('scalar.cnpj', { value }));
  return bare;
}

export function normaliseCpf(value: unknown): string {
  if (typeof value !== 'string') throw invalid(message('scalar.notString', { name: 'CPF' }));
  const bare = value.trim().replace(/[.\-\s]/g, '');
  if (!/^\d{11}$/.test(bare) || !cpfLib.isValid(bare)) throw invalid(message('scalar.cpf', { value }));
  return bare;
}

function stringScalar(name: string, description: string, normalise: (v: unknown) => string) {
  return new GraphQLScalarType<string, string>({
    name,
    description,
    serialize: (v) => String(v),
    extensions: { [SQL_JSON]: textJson },
    parseValue: normalise,
    parseLiteral(ast) {
      if (ast.kind !== Kind.STRING) throw invalid(message('scalar.notString', { name }));
      return normalise(ast.value);
    },
  });
}

export const CnpjScalar = stringScalar(
  'CNPJ',
  'CNPJ. Input masked or bare, numeric or alphanumeric (IN RFB 2.229/2024), check digits verified; output bare, 14 characters, upper case.',
  normaliseCnpj,
);

export const CpfScalar = stringScalar('CPF', 'CPF. Input masked or bare, check digits verified, repeated-digit numbers rejected; output 11 digits.', normaliseCpf);

export const DateTimeScalar = GraphQLDateTime;
export const JsonScalar = GraphQLJSON;
