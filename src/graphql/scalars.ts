import { cnpj as cnpjLib, cpf as cpfLib } from 'cpf-cnpj-validator';
import { defaultFieldResolver, GraphQLError, GraphQLFieldResolver, GraphQLScalarType, GraphQLSchema, isObjectType, Kind, ValueNode } from 'graphql';
import { GraphQLDateTime, GraphQLJSON } from 'graphql-scalars';
import { Extensions } from 'type-graphql';
import { Decimal, outOfInputBounds, shownNumber } from '../law/decimal';
import { isIsoDate } from '../law/dates';
import { message, Message } from '../i18n';
import { LocalizedGraphQLError } from './localized-error';

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

interface FieldWithExtensions {
  readonly extensions?: Readonly<Record<string, unknown>> | null;
}

/** The least decimals written; never a rounding. */
export const DECIMAL_SCALE = 'decimalScale';
export const MONEY_SCALE = 2;
export const QUANTITY_SCALE = 3;

export const Money = (): MethodDecorator & PropertyDecorator => Extensions({ [DECIMAL_SCALE]: MONEY_SCALE }) as MethodDecorator & PropertyDecorator;
export const Quantity = (): MethodDecorator & PropertyDecorator => Extensions({ [DECIMAL_SCALE]: QUANTITY_SCALE }) as MethodDecorator & PropertyDecorator;

export function scaleOf(field: FieldWithExtensions): number | undefined {
  return field.extensions?.[DECIMAL_SCALE] as number | undefined;
}

export function decimalText(value: Decimal, scale: number): string {
  return value.toFixed(Math.max(scale, value.decimalPlaces()));
}

/** For the benchmark's servers; round() to at least min_scale only writes zeros. */
export function decimalSql(ref: string, scale?: number): string {
  return scale === undefined ? `trim_scale(${ref})::text` : `round(${ref}, greatest(min_scale(${ref}), ${scale}))::text`;
}

export class ScaledDecimal {
  constructor(readonly text: string) {}
}

/** pg gives `numeric` as a string. */
function toScale(value: unknown, scale: number): unknown {
  if (value instanceof Decimal) return new ScaledDecimal(decimalText(value, scale));
  if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return new ScaledDecimal(decimalText(new Decimal(value), scale));
  return value;
}

const propertyReaders = new WeakSet<GraphQLFieldResolver<unknown, unknown>>();

/** Only scaled fields are wrapped; compiled reads use the same wrapped resolvers. */
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

export function wrapsPropertyReader(reader: GraphQLFieldResolver<unknown, unknown>, inner: GraphQLFieldResolver<unknown, unknown> | undefined): void {
  if (inner && propertyReaders.has(inner)) propertyReaders.add(reader);
}

export function hasOwnResolver(field: { resolve?: GraphQLFieldResolver<unknown, unknown> }): boolean {
  return field.resolve !== undefined && !propertyReaders.has(field.resolve);
}

function invalid(text: Message): GraphQLError {
  return new LocalizedGraphQLError(text, { extensions: { code: 'BAD_USER_INPUT' } });
}

function parseDecimal(value: unknown): Decimal {
  if (typeof value === 'string') {
    const text = value.trim();
    if (!DECIMAL_TEXT.test(text)) throw invalid(message('scalar.decimalText', { value: shownNumber(text) }));
    return bounded(text);
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return bounded(String(value));
  if (typeof value === 'number') throw invalid(message('scalar.decimalFloat'));
  throw invalid(message('scalar.decimalNotString'));
}

function bounded(text: string): Decimal {
  if (outOfInputBounds(text)) throw invalid(message('scalar.decimalBounds', { value: shownNumber(text) }));
  return new Decimal(text);
}

/** Exact decimal number on the wire as a string; strings and integers in, strings out. */
export const DecimalScalar = new GraphQLScalarType<Decimal, string>({
  name: 'Decimal',
  description: 'Exact decimal number on the wire as a string, e.g. "26.41". Amounts in reais keep at least 2 decimals ("30120.50"), m³ and kg at least 3 ("12.000"); other figures are written without trailing zeros. Never a Float: integers and strings are accepted as input, a float literal is rejected. An input is below 1000000000000000 (15 digits) with at most 10 decimals (the widest an NF-e writes); a wider one is BAD_USER_INPUT, as every computation stays exact within it.',
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
    if (ast.kind === Kind.INT) return bounded(ast.value);
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

/** JSON.stringify writes toISOString(). */
export const DateTimeScalar = GraphQLDateTime;
export const JsonScalar = GraphQLJSON;
