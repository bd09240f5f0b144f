import { cnpj as cnpjLib, cpf as cpfLib } from 'cpf-cnpj-validator';
import { defaultFieldResolver, GraphQLError, GraphQLFieldResolver, GraphQLScalarType, GraphQLSchema, isObjectType, Kind, ValueNode } from 'graphql';
import { GraphQLDateTime, GraphQLJSON } from 'graphql-scalars';
import { Extensions } from 'type-graphql';
import { Decimal } from '../law/decimal';
import { isIsoDate } from '../law/dates';
import { message, Message } from '../i18n';
import { LocalizedGraphQLError } from './localized-error';

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

interface FieldWithExtensions {
  readonly extensions?: Readonly<Record<string, unknown>> | null;
}

/**
 * The scale of a Decimal field: the decimals it is always written with, at the least. R$ keep 2
 * (`"30120.50"`, not `"30120.5"`), m³ and kg 3 (`"12.000"`), whatever scale the value was typed,
 * stored or computed with. Never a rounding: a value with more decimals keeps them all.
 */
export const DECIMAL_SCALE = 'decimalScale';
export const MONEY_SCALE = 2;
export const QUANTITY_SCALE = 3;

/** An amount in reais (or reais per kg or per m³): at least 2 decimals. */
export const Money = (): MethodDecorator & PropertyDecorator => Extensions({ [DECIMAL_SCALE]: MONEY_SCALE }) as MethodDecorator & PropertyDecorator;
/** A quantity in m³ or kg: at least 3 decimals. */
export const Quantity = (): MethodDecorator & PropertyDecorator => Extensions({ [DECIMAL_SCALE]: QUANTITY_SCALE }) as MethodDecorator & PropertyDecorator;

/** The scale a field declares (Money, Quantity), if any. */
export function scaleOf(field: FieldWithExtensions): number | undefined {
  return field.extensions?.[DECIMAL_SCALE] as number | undefined;
}

/** `value` with at least `scale` decimals: 30120.5 at 2 is "30120.50"; 1.2345 at 3 stays "1.2345". */
export function decimalText(value: Decimal, scale: number): string {
  return value.toFixed(Math.max(scale, value.decimalPlaces()));
}

/**
 * The SQL text of a numeric `ref` as the API writes it (the benchmark's hand-written servers):
 * without trailing zeros, or at least `scale` decimals. round() to a scale no smaller than the
 * value's own (min_scale: its decimals without trailing zeros) only writes the zeros.
 */
export function decimalSql(ref: string, scale?: number): string {
  return scale === undefined ? `trim_scale(${ref})::text` : `round(${ref}, greatest(min_scale(${ref}), ${scale}))::text`;
}

/** A Decimal already written at its field's scale, which `serialize` passes on as it is. */
export class ScaledDecimal {
  constructor(readonly text: string) {}
}

/**
 * The value a field's resolver gave, at the field's scale: Decimals (and decimal strings, as pg
 * gives `numeric`) become ScaledDecimal; anything else (null, an error) is left to the scalar.
 */
function toScale(value: unknown, scale: number): unknown {
  if (value instanceof Decimal) return new ScaledDecimal(decimalText(value, scale));
  if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return new ScaledDecimal(decimalText(new Decimal(value), scale));
  return value;
}

/** The resolvers scaleDecimals gave to stored properties (fields that had none of their own). */
const propertyReaders = new WeakSet<GraphQLFieldResolver<unknown, unknown>>();

/**
 * Decimal fields with a scale (Money, Quantity) answer their value at that scale: their resolver's
 * Decimal becomes the text the scalar writes (`"30120.50"`). Only those fields are wrapped; the
 * compiled reads' objects are read by the same wrapped resolvers.
 */
export function scaleDecimals(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const scale = scaleOf(field);
      if (scale === undefined) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      const scaled: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
        const value = resolve(source, args, context, info);
        return value instanceof Promise ? value.then((v) => toScale(v, scale)) : toScale(value, scale);
      };
      if (!field.resolve) propertyReaders.add(scaled);
      field.resolve = scaled;
    }
  }
  return schema;
}

/** Marks `reader`, a wrapper of `inner`, as a reader of a stored property when `inner` is one. */
export function wrapsPropertyReader(reader: GraphQLFieldResolver<unknown, unknown>, inner: GraphQLFieldResolver<unknown, unknown> | undefined): void {
  if (inner && propertyReaders.has(inner)) propertyReaders.add(reader);
}

/** Whether a field's resolver is its own, not only the reading of a stored property at its scale. */
export function hasOwnResolver(field: { resolve?: GraphQLFieldResolver<unknown, unknown> }): boolean {
  return field.resolve !== undefined && !propertyReaders.has(field.resolve);
}

function invalid(text: Message): GraphQLError {
  return new LocalizedGraphQLError(text, { extensions: { code: 'BAD_USER_INPUT' } });
}

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
  description: 'Exact decimal number on the wire as a string, e.g. "26.41". Amounts in reais keep at least 2 decimals ("30120.50"), m³ and kg at least 3 ("12.000"); other figures are written without trailing zeros. Never a Float: integers and strings are accepted as input, a float literal is rejected.',
  serialize(value) {
    if (value instanceof ScaledDecimal) return value.text;
    if (value instanceof Decimal) return value.toFixed();
    if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return new Decimal(value).toFixed();
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    throw new GraphQLError(`Decimal cannot represent ${String(value)}`);
  },
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

/** graphql-scalars' DateTime (a Date serialises as itself; JSON.stringify writes toISOString(): UTC, milliseconds, Z). */
export const DateTimeScalar = GraphQLDateTime;
export const JsonScalar = GraphQLJSON;
