import {
  FieldNode,
  FragmentDefinitionNode,
  getArgumentValues,
  getNamedType,
  getVariableValues,
  GraphQLField,
  GraphQLObjectType,
  GraphQLSchema,
  isEnumType,
  isObjectType,
  Kind,
  OperationDefinitionNode,
} from 'graphql';
import { collectFields, collectSubfields } from 'graphql/execution/collectFields';
import { isIsoDate } from '../../law/dates';
import { Actor } from '../../services/actor';
import { decodeCursor, pageSize } from '../../services/pagination';
import { validateCursor } from '../../services/producer-pages';
import { visibleProducerId } from '../../services/scope';
import { authorize } from '../auth/protect';

/**
 * Read queries answered by one SQL statement that builds their JSON (DESIGN §2: the database does
 * the set work). graphql-js executes every field of a result (a page of 20 producers × 50
 * purchases is about 9,000 of them) and that, not the database, was the cost of such a page. For
 * the operations this file knows — `producers` and what lies under it down to purchases, their
 * farmers and municipalities — the whole response is translated into nested subqueries that
 * write its JSON text, with exactly the scoping, ordering, cursors, limits and scalar formats of
 * the resolvers, and exactly the text JSON.stringify gives: no spaces, keys in the order of the
 * selection, strings escaped by to_json (the same escapes), so that the server sends it as it is,
 * without parsing and serialising it again. Anything else (another field, an argument the resolvers
 * would refuse, a variable that does not coerce) makes `compileRead` return null and the
 * operation runs through graphql-js as before, which also gives its errors: this path never
 * answers differently, it only answers sooner (test/e2e/compiled-reads.test.ts compares the two
 * byte for byte).
 */

/** How a stored column is written in the response, as the GraphQL scalar or enum serialises it. */
type ColumnKind = 'id' | 'text' | 'int' | 'bool' | 'date' | 'decimal' | 'enum';

interface ColumnField { kind: 'column'; column: string; as: ColumnKind }
/** A to-one relation: the row of `type` whose `key` equals this row's `fk` (null when fk is null). */
interface OneField { kind: 'one'; type: string; fk: string; key: string }
/** Producer.purchases (src/services/producer-pages.ts, purchase page spec). */
interface PurchasesField { kind: 'purchases' }
type FieldSpec = ColumnField | OneField | PurchasesField;

interface TypeSpec { table: string; fields: Record<string, FieldSpec> }

const col = (column: string, as: ColumnKind): ColumnField => ({ kind: 'column', column, as });

/** The GraphQL scalar each column kind stands for (checked against the schema once). */
const SCALAR_OF: Record<ColumnKind, string | null> = {
  id: 'ID', text: null, int: 'Int', bool: 'Boolean', date: 'Date', decimal: 'Decimal', enum: null,
};
/** Scalars written as the stored text: String and the document scalars, whose serialize is String(v). */
const TEXT_SCALARS = new Set(['String', 'CNPJ', 'CPF']);

const TYPES: Record<string, TypeSpec> = {
  Producer: {
    table: 'producer',
    fields: {
      id: col('id', 'id'),
      cnpj: col('cnpj', 'text'),
      legalName: col('legal_name', 'text'),
      anpAuthorization: col('anp_authorization', 'text'),
      version: col('version', 'int'),
      plantMunicipality: { kind: 'one', type: 'Municipality', fk: 'plant_municipality_code', key: 'ibge_code' },
      purchases: { kind: 'purchases' },
    },
  },
  Purchase: {
    table: 'purchase',
    fields: {
      id: col('id', 'id'),
      purchasedOn: col('purchased_on', 'date'),
      consumedOn: col('consumed_on', 'date'),
      feedstock: col('feedstock', 'enum'),
      quantityKg: col('quantity_kg', 'decimal'),
      cost: col('cost', 'decimal'),
      supplierKind: col('supplier_kind', 'enum'),
      supplierName: col('supplier_name', 'text'),
      purpose: col('purpose', 'enum'),
      externalId: col('external_id', 'text'),
      familyFarmer: { kind: 'one', type: 'FamilyFarmer', fk: 'family_farmer_id', key: 'id' },
      originMunicipality: { kind: 'one', type: 'Municipality', fk: 'origin_municipality_code', key: 'ibge_code' },
      producer: { kind: 'one', type: 'Producer', fk: 'producer_id', key: 'id' },
    },
  },
  FamilyFarmer: {
    table: 'family_farmer',
    fields: {
      id: col('id', 'id'),
      cpf: col('cpf', 'text'),
      name: col('name', 'text'),
      municipality: { kind: 'one', type: 'Municipality', fk: 'municipality_code', key: 'ibge_code' },
    },
  },
  Municipality: {
    table: 'municipality',
    fields: {
      ibgeCode: col('ibge_code', 'text'),
      name: col('name', 'text'),
      state: col('state', 'text'),
      region: col('region', 'enum'),
      semiarid: col('semiarid', 'bool'),
      priorityRegion: col('priority_region', 'bool'),
    },
  },
};

/** A connection's rows: a table, its order (the keyset), its cursor and filters. */
interface ConnectionSpec {
  table: string;
  node: string;
  /** Columns of the order, last one the id (keyset pagination, src/services/pagination.ts). */
  order: string[];
  /** SQL of the cursor of row `q`: encodeCursor's base64url of the JSON of the sort key. */
  cursor(q: string): string;
}

/** base64url without padding, as Buffer's 'base64url' (PostgreSQL's base64 pads and wraps lines). */
const base64url = (text: string) => `translate(encode(convert_to(${text}, 'UTF8'), 'base64'), E'+/=\\n', '-_')`;

const PRODUCERS: ConnectionSpec = {
  table: 'producer', node: 'Producer', order: ['id'],
  // ProducerService.list: [Number(p.id)] → "[5]".
  cursor: (q) => base64url(`'[' || ${q}.id || ']'`),
};
const PURCHASES: ConnectionSpec = {
  table: 'purchase', node: 'Purchase', order: ['consumed_on', 'id'],
  // pagesFor: [String(consumedOn), String(id)] → '["2025-03-01","17"]'.
  cursor: (q) => base64url(`'["' || to_char(${q}.consumed_on, 'YYYY-MM-DD') || '","' || ${q}.id || '"]'`),
};

/** Thrown inside the compiler when the operation is not one this path answers. */
class Decline extends Error {}

const RESPONSE_KEY = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** Keys of one object: a bound on the statement's size (wider selections execute normally). */
const MAX_KEYS = 50;

export interface CompiledRead {
  /** One row, one column `data`: the JSON text of the response's `data`. */
  sql: string;
  params: unknown[];
  /**
   * The operation's first root field that reads the database (response key and field nodes):
   * where graphql-js would place the error of a statement that cannot run.
   */
  firstRootField: { key: string; nodes: readonly FieldNode[] } | null;
}

/** Checks, once per schema, that every field above still has the type its column kind writes. */
const checked = new WeakSet<GraphQLSchema>();
export function checkReadSpecs(schema: GraphQLSchema): void {
  if (checked.has(schema)) return;
  for (const [typeName, spec] of Object.entries(TYPES)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`compiled reads: ${typeName} is not an object type`);
    for (const [fieldName, field] of Object.entries(spec.fields)) {
      const def = type.getFields()[fieldName];
      if (!def) throw new Error(`compiled reads: ${typeName}.${fieldName} is not in the schema`);
      const named = getNamedType(def.type);
      if (field.kind === 'column') {
        const expected = SCALAR_OF[field.as];
        const ok = field.as === 'enum'
          // Stored as the enum's name: every value's internal value is its name.
          ? isEnumType(named) && named.getValues().every((v) => v.value === v.name)
          : field.as === 'text' ? TEXT_SCALARS.has(named.name) : named.name === expected;
        if (!ok) throw new Error(`compiled reads: ${typeName}.${fieldName} is ${named.name}, not what column kind ${field.as} writes`);
      } else if (field.kind === 'one' && named.name !== field.type) {
        throw new Error(`compiled reads: ${typeName}.${fieldName} is ${named.name}, not ${field.type}`);
      }
    }
  }
  checked.add(schema);
}

/**
 * The SQL statement answering `operation`, or null when this path does not answer it (the
 * operation then runs through graphql-js). `variables` are the request's raw variables.
 */
export function compileRead(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
  actor: Actor | undefined,
): CompiledRead | null {
  if (operation.operation !== 'query' || !actor) return null;
  const queryType = schema.getQueryType();
  if (!queryType) return null;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 1 });
  if (coerced.errors) return null;
  try {
    const compiler = new Compiler(schema, fragments, coerced.coerced, actor);
    const root = collectFields(schema, fragments, coerced.coerced, queryType, operation.selectionSet);
    const sql = `SELECT ${compiler.object(queryType, root, '', [], (nodes, field) => {
      if (field.name !== 'producers') throw new Decline();
      return compiler.producers(nodes, field);
    })} AS data`;
    const first = [...root].find(([, nodes]) => nodes[0].name.value !== '__typename');
    return { sql, params: compiler.params, firstRootField: first ? { key: first[0], nodes: first[1] } : null };
  } catch (e) {
    if (e instanceof Decline) return null;
    throw e;
  }
}

type Root = (nodes: readonly FieldNode[], field: GraphQLField<unknown, unknown>) => string;

class Compiler {
  readonly params: unknown[] = [];
  private aliases = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Record<string, FragmentDefinitionNode>,
    private readonly variables: Record<string, unknown>,
    private readonly actor: Actor,
  ) {}

  private param(value: unknown, type: string): string {
    return `$${this.params.push(value)}::${type}`;
  }

  private alias(): string {
    return `t${this.aliases++}`;
  }

  private args(field: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> {
    try {
      return getArgumentValues(field, node, this.variables);
    } catch {
      throw new Decline();
    }
  }

  private subfields(type: GraphQLObjectType, nodes: readonly FieldNode[]) {
    return collectSubfields(this.schema, this.fragments, this.variables, type, nodes);
  }

  /**
   * The JSON text of an object with the response keys of `fields`, in their order, for row `q` of `type`;
   * to-one relations are LEFT JOINs of the row's source, added to `joins`; `root` answers the
   * fields of the Query type.
   */
  object(type: GraphQLObjectType, fields: Map<string, readonly FieldNode[]>, q: string, joins: string[], root?: Root): string {
    return keyed(type, fields, (_name, nodes) => this.field(type, nodes, q, joins, root));
  }

  private field(type: GraphQLObjectType, nodes: readonly FieldNode[], q: string, joins: string[], root?: Root): string {
    const name = nodes[0].name.value;
    const def = type.getFields()[name];
    if (!def) throw new Decline();
    if (root) return root(nodes, def);
    const spec = TYPES[type.name]?.fields[name];
    if (!spec) throw new Decline();
    if (spec.kind === 'column') return column(`${q}.${spec.column}`, spec.as);
    const target = getNamedType(def.type) as GraphQLObjectType;
    if (spec.kind === 'one') {
      // Joined after the page's LIMIT, one row per row (the key is the target's primary key): a
      // correlated sub-select per row would cost the database twice as much for a page.
      const t = this.alias();
      joins.push(`LEFT JOIN ${TYPES[spec.type].table} ${t} ON ${t}.${spec.key} = ${q}.${spec.fk}`);
      return `CASE WHEN ${t}.${spec.key} IS NULL THEN 'null' ELSE ${this.object(target, this.subfields(target, nodes), t, joins)} END`;
    }
    return this.purchases(nodes, def, q);
  }

  /** Query.producers: ProducerService.list (by id, a PRODUCER only its own). */
  producers(nodes: readonly FieldNode[], field: GraphQLField<unknown, unknown>): string {
    const args = this.args(field, nodes[0]);
    try {
      // The root field's rule (src/graphql/auth/rules.ts), as protect.ts checks it.
      authorize('Query', 'producers', this.actor, args);
    } catch {
      throw new Decline();
    }
    const { limit, after } = this.page(args, 1);
    if (after && !(typeof after[0] === 'number' || /^\d+$/.test(after[0]))) throw new Decline();
    const only = visibleProducerId(this.actor);
    const scope = (c: string) => (only === null ? [] : [`${c}.id = ${this.param(only, 'bigint')}`]);
    return this.connection(PRODUCERS, nodes, field, limit, after !== null,
      (c) => [...scope(c), ...(after ? [`${c}.id > ${this.param(String(after[0]), 'bigint')}`] : [])],
      (c) => scope(c));
  }

  /** Producer.purchases of producer row `p`: pagesFor with the purchase page spec. */
  private purchases(nodes: readonly FieldNode[], field: GraphQLField<unknown, unknown>, p: string): string {
    const args = this.args(field, nodes[0]);
    const { limit, after } = this.page(args, 2);
    try {
      validateCursor(after, true);
    } catch {
      throw new Decline();
    }
    const from = args.from as string | null | undefined;
    const to = args.to as string | null | undefined;
    if ((from != null && !isIsoDate(from)) || (to != null && !isIsoDate(to))) throw new Decline();
    const only = visibleProducerId(this.actor);
    const filters = (c: string) => [
      `${c}.producer_id = ${p}.id`,
      ...(only === null ? [] : [`${c}.producer_id = ${this.param(only, 'bigint')}`]),
      ...(from != null ? [`${c}.consumed_on >= ${this.param(from, 'date')}`] : []),
      ...(to != null ? [`${c}.consumed_on <= ${this.param(to, 'date')}`] : []),
    ];
    return this.connection(PURCHASES, nodes, field, limit, after !== null,
      (c) => [...filters(c), ...(after ? [`(${c}.consumed_on, ${c}.id) > (${this.param(String(after[0]), 'date')}, ${this.param(String(after[1]), 'bigint')})`] : [])],
      filters);
  }

  private page(args: Record<string, unknown>, arity: number) {
    try {
      return { limit: pageSize(args.first as number | null | undefined), after: decodeCursor(args.after as string | null | undefined, arity) };
    } catch {
      throw new Decline();
    }
  }

  /**
   * A connection (src/services/pagination.ts toConnection): the first limit + 1 rows after the
   * cursor, numbered; edges are the first `limit`, hasNextPage whether there was one more,
   * hasPreviousPage whether a cursor was given, totalCount the rows of `countWhere` (the filters,
   * not the cursor).
   */
  private connection(
    spec: ConnectionSpec,
    nodes: readonly FieldNode[],
    field: GraphQLField<unknown, unknown>,
    limit: number,
    afterGiven: boolean,
    where: (c: string) => string[],
    countWhere: (c: string) => string[],
  ): string {
    const type = getNamedType(field.type) as GraphQLObjectType;
    const q = this.alias();
    const order = (dir = '') => spec.order.map((c) => `${q}.${c}${dir}`).join(', ');
    const firstRows = `FILTER (WHERE ${q}._rn <= ${limit})`;
    // base64url: nothing to escape in the JSON string.
    const cursors = (dir: string) => `coalesce('"' || (array_agg(${spec.cursor(q)} ORDER BY ${q}._rn${dir}) ${firstRows})[1] || '"', 'null')`;
    const conditions = where(q);
    const joins: string[] = [];
    const body = keyed(type, this.subfields(type, nodes), (name, keyNodes) => {
      const def = type.getFields()[name];
      if (name === 'totalCount') {
        const c = this.alias();
        const count = countWhere(c);
        return `(SELECT count(*)::text FROM ${spec.table} ${c}${count.length ? ` WHERE ${count.join(' AND ')}` : ''})`;
      }
      if (name === 'edges') {
        const edgeType = getNamedType(def.type) as GraphQLObjectType;
        const edge = keyed(edgeType, this.subfields(edgeType, keyNodes), (edgeName, edgeNodes) => {
          if (edgeName === 'cursor') return `'"' || ${spec.cursor(q)} || '"'`;
          if (edgeName !== 'node') throw new Decline();
          const nodeType = this.schema.getType(spec.node) as GraphQLObjectType;
          return this.object(nodeType, this.subfields(nodeType, edgeNodes), q, joins);
        });
        return `'[' || coalesce(string_agg(${edge}, ',' ORDER BY ${q}._rn) ${firstRows}, '') || ']'`;
      }
      if (name === 'pageInfo') {
        const infoType = getNamedType(def.type) as GraphQLObjectType;
        return keyed(infoType, this.subfields(infoType, keyNodes), (infoName) => {
          const value = {
            hasNextPage: `CASE WHEN count(*) > ${limit} THEN 'true' ELSE 'false' END`,
            hasPreviousPage: afterGiven ? `'true'` : `'false'`,
            startCursor: cursors(''),
            endCursor: cursors(' DESC'),
          }[infoName];
          if (value === undefined) throw new Decline();
          return value;
        });
      }
      throw new Decline();
    });
    // The window numbers the limit + 1 rows only: the LIMIT stops the index scan first. GROUP BY ()
    // makes it one row even when no aggregate is selected (a connection asked for its totalCount only).
    return `(SELECT ${body}
       FROM (SELECT ${q}.*, row_number() OVER (ORDER BY ${order()}) AS _rn
               FROM (SELECT * FROM ${spec.table} ${q}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}
                      ORDER BY ${order()} LIMIT ${limit + 1}) ${q}) ${q}${joins.map((j) => `\n       ${j}`).join('')}
      GROUP BY ())`;
  }
}

/**
 * The JSON text of a column as its GraphQL type serialises it (src/graphql/scalars.ts), `null`
 * when the column is null.
 */
function column(ref: string, as: ColumnKind): string {
  switch (as) {
    // bigint identity: ids are strings (ID); digits only, nothing to escape.
    case 'id': return `coalesce('"' || ${ref}::text || '"', 'null')`;
    // PostgreSQL writes a date in JSON as YYYY-MM-DD whatever DateStyle is (DateScalar's format).
    case 'date': return `coalesce(to_json(${ref})::text, 'null')`;
    // DecimalScalar writes Decimal#toFixed(): no exponent, no trailing zeros ("2675.20" → "2675.2").
    case 'decimal': return `coalesce('"' || trim_scale(${ref})::text || '"', 'null')`;
    case 'int':
    case 'bool': return `coalesce(${ref}::text, 'null')`;
    // Text and char(n) as stored, enums stored by name. to_json escapes as JSON.stringify does:
    // quote, backslash, \b \f \n \r \t, other control characters as \u00xx; the rest as it is.
    default: return `coalesce(to_json(${ref})::text, 'null')`;
  }
}

/**
 * The JSON text of an object of `type` with the response keys of `fields`, in their order:
 * __typename is the type's name, every other field the JSON text `value` gives for it (which
 * declines what it does not know).
 */
function keyed(type: GraphQLObjectType, fields: Map<string, readonly FieldNode[]>, value: (name: string, nodes: readonly FieldNode[]) => string): string {
  if (fields.size > MAX_KEYS) throw new Decline();
  const pairs: Array<[string, string]> = [];
  for (const [key, nodes] of fields) {
    if (!RESPONSE_KEY.test(key)) throw new Decline();
    const name = nodes[0].name.value;
    pairs.push([key, name === '__typename' ? typename(type.name) : value(name, nodes)]);
  }
  return jsonObject(pairs);
}

/** A __typename's JSON text (type names are GraphQL names: nothing to escape). */
const typename = (name: string) => `'"${name}"'`;

/**
 * The JSON text of an object from [response key, value's JSON text] pairs, as JSON.stringify
 * writes it: no spaces. Keys are GraphQL names (RESPONSE_KEY), nothing to escape.
 */
function jsonObject(pairs: Array<[string, string]>): string {
  if (pairs.length === 0) return `'{}'`;
  return pairs.map(([key, value], i) => `'${i === 0 ? '{' : ','}"${key}":' || ${value}`).join(' || ') + ` || '}'`;
}

/** The fragments of a document by name. */
export function fragmentsOf(definitions: readonly { kind: string }[]): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[(d as FragmentDefinitionNode).name.value] = d as FragmentDefinitionNode;
  }
  return fragments;
}
