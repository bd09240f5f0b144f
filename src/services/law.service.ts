import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { LawParameterVersion, SealEvent, SealGrant } from '../domain';
import { Version } from '../law/dated';
import { IsoDate } from '../law/dates';
import { Decimal } from '../law/decimal';
import { Finding, finding } from '../law/findings';
import { GrantFacts, sealStanding, Standing } from '../law/seal-standing';
import { CoefficientRuleValue, createLawBook, LawBook, LawVersionRecord, PARAMETERS, ParameterName, versionProblems } from '../law/law-book';
import { CATEGORY_BASIS, rateCategory } from '../law/rate-category';
import { SHIPPED_LAW } from '../law/shipped-law';
import { Feedstock, RateCategory, Region } from '../law/types';
import { semiaridOnSql } from './facts/priority-region.sql';
import { Actor } from './actor';
import { BadInputError } from './errors';
import { assertAdmin } from './scope';
import { mutate } from './transaction';
import { message } from '../i18n';

/** Idempotent by stable key; ADMIN publications are left as they are. */
export async function loadShippedLaw(ds: DataSource | EntityManager): Promise<number> {
  const params: unknown[] = [];
  const rows = SHIPPED_LAW.map((v) => {
    const values = [v.key, v.parameter, v.scope, JSON.stringify(v.value), v.validFrom, v.validUntil, v.publishedOn, v.legalBasis, v.note ?? null];
    return `(${values.map((x) => `$${params.push(x)}`).join(', ')}, true)`;
  });
  const inserted: unknown[] = await ds.query(
    `INSERT INTO law_parameter_version (key, parameter, scope, value, valid_from, valid_until, published_on, legal_basis, note, shipped)
     VALUES ${rows.join(', ')} ON CONFLICT (key) DO NOTHING RETURNING id`,
    params,
  );
  return inserted.length;
}

const SHIPPED_BY_KEY = new Map(SHIPPED_LAW.map((v) => [v.key, v]));

export function toRecord(row: LawParameterVersion): LawVersionRecord {
  return {
    id: row.id, parameter: row.parameter, scope: row.scope, value: row.value, validFrom: row.validFrom, validUntil: row.validUntil,
    publishedOn: row.publishedOn, legalBasis: row.legalBasis, note: row.note,
    // The mark lives in the data file (docs/LAW.md): a shipped row takes it by its key; an
    // ADMIN's publication states its own date.
    ...(row.shipped && SHIPPED_BY_KEY.get(row.key)?.publicationDateOpen ? { publicationDateOpen: true } : {}),
    // Same-day publications: the later recorded wins.
    seq: Number(row.id),
  };
}

export interface PublishCoefficientRuleInput {
  category: RateCategory;
  coefficient: Decimal;
  pisPerM3: Decimal;
  cofinsPerM3: Decimal;
  validFrom: IsoDate;
  validUntil?: IsoDate | null;
  publishedOn: IsoDate;
  legalBasis: string;
}

export interface PublishLawParameterInput {
  parameter: string;
  scope?: string | null;
  values: Array<{ name: string; value: Decimal }>;
  validFrom: IsoDate;
  validUntil?: IsoDate | null;
  publishedOn: IsoDate;
  legalBasis: string;
  note?: string | null;
}

export interface RateQuestion {
  on: IsoDate;
  feedstock: Feedstock;
  originMunicipalityCode: string;
  /** The priority region is judged on it. */
  acquiredOn?: IsoDate | null;
  familyFarming: boolean;
  sealRegular: boolean;
  imported?: boolean | null;
  asKnownOn: IsoDate;
}

export interface CoefficientRuleView extends CoefficientRuleValue {
  id: string;
  validFrom: IsoDate;
  validUntil: IsoDate | null;
  publishedOn: IsoDate;
  legalBasis: string;
  note: string | null;
}

export function ruleView(v: Version<CoefficientRuleValue>): CoefficientRuleView {
  return {
    ...v.value, id: v.id ?? '', validFrom: v.validFrom, validUntil: v.validUntil, publishedOn: v.publishedOn, legalBasis: v.legalBasis, note: v.note ?? null,
  };
}

function rowRuleView(row: LawParameterVersion): CoefficientRuleView {
  return {
    id: row.id, category: row.scope as RateCategory, coefficient: new Decimal(row.value.coefficient), pisPerM3: new Decimal(row.value.pisPerM3),
    cofinsPerM3: new Decimal(row.value.cofinsPerM3), validFrom: row.validFrom, validUntil: row.validUntil, publishedOn: row.publishedOn,
    legalBasis: row.legalBasis, note: row.note,
  };
}

export interface RateAnswer {
  category: RateCategory;
  coefficient: Decimal;
  pisPerM3: Decimal;
  cofinsPerM3: Decimal;
  legalBasis: string;
  reasons: Finding[];
  rule: CoefficientRuleView;
}

/** Versions are never updated or deleted (docs/LAW.md). */
export class LawService {
  private cache: { revision: string; book: LawBook } | null = null;

  constructor(private readonly ds: DataSource) {}

  /** One cheap statement, and other replicas' publications are seen at once. */
  async lawBook(): Promise<LawBook> {
    const [{ revision }] = (await this.ds.query('SELECT revision::text AS revision FROM law_revision')) as Array<{ revision: string }>;
    if (this.cache && this.cache.revision === revision) return this.cache.book;
    const rows = await this.ds.getRepository(LawParameterVersion).find({ order: { id: 'ASC' } });
    const book = createLawBook(rows.map(toRecord));
    this.cache = { revision, book };
    return book;
  }

  async coefficientRules(on: IsoDate, asKnownOn: IsoDate): Promise<CoefficientRuleView[]> {
    const rules = (await this.lawBook()).coefficientRules(on, asKnownOn);
    return Object.values(RateCategory).map((c) => ruleView(rules[c]));
  }

  /** Decreto 10.527/2020 arts. 5º–6º. */
  async rate(question: RateQuestion): Promise<RateAnswer> {
    const [municipality]: Array<{ region: Region; semiarid: boolean }> = await this.ds.query(
      `SELECT region, ${semiaridOnSql('ibge_code', '$2::date')} AS semiarid FROM municipality WHERE ibge_code = $1`,
      [question.originMunicipalityCode, question.acquiredOn ?? question.on],
    );
    if (!municipality) {
      throw new BadInputError('question.originMunicipalityCode', message('input.unknownMunicipality', { code: question.originMunicipalityCode }));
    }
    const decision = rateCategory({
      feedstock: question.feedstock,
      origin: { region: municipality.region, semiarid: municipality.semiarid },
      familyFarmingOrigin: question.familyFarming,
      sealRegular: question.sealRegular,
      imported: question.imported ?? false,
    });
    const book = await this.lawBook();
    const rule = book.coefficientRules(question.on, question.asKnownOn)[decision.category];
    // The category's provision, and the version's own where it differs (e.g. the 2026 zero window).
    const legalBasis = rule.legalBasis === CATEGORY_BASIS[decision.category] ? decision.legalBasis : `${decision.legalBasis}; amounts: ${rule.legalBasis}`;
    // Before 2017-12-05 the delimitation is not in our sources: said.
    const day = question.acquiredOn ?? question.on;
    const open = book.semiaridDelimitationOpen(day, question.asKnownOn);
    const reasons = open
      ? [...decision.reasons, finding('SEMIARID_DELIMITATION_OPEN', message('finding.SEMIARID_DELIMITATION_OPEN.days', { from: day, to: day, legalBasis: open.legalBasis }), open.legalBasis)]
      : decision.reasons;
    return { ...rule.value, category: decision.category, legalBasis, reasons, rule: ruleView(rule) };
  }

  /** Decreto 10.527/2020, arts. 5º and 6º — a new version of one category's rule (ADMIN). */
  async publishCoefficientRule(actor: Actor, input: PublishCoefficientRuleInput): Promise<CoefficientRuleView> {
    assertAdmin(actor);
    const record: LawVersionRecord = {
      parameter: 'coefficient-rule',
      scope: input.category,
      value: { coefficient: plain(input.coefficient), pisPerM3: plain(input.pisPerM3), cofinsPerM3: plain(input.cofinsPerM3) },
      validFrom: input.validFrom,
      validUntil: input.validUntil ?? null,
      publishedOn: input.publishedOn,
      legalBasis: input.legalBasis?.trim(),
    };
    const problems = versionProblems(record);
    if (problems.length) {
      const [field, message] = problems[0];
      throw new BadInputError(`input.${field === 'scope' ? 'category' : field.replace(/^value\./, '')}`, message);
    }
    return rowRuleView(await this.insert(actor, record, 'publishCoefficientRule'));
  }

  /** The way to publish a value confirmed later. */
  async publishLawParameter(actor: Actor, input: PublishLawParameterInput): Promise<LawParameterVersion> {
    assertAdmin(actor);
    // Own keys only: `__proto__` is refused as unknown.
    const value: Record<string, string> = Object.create(null) as Record<string, string>;
    input.values.forEach((v, i) => {
      if (Object.hasOwn(value, v.name)) throw new BadInputError(`input.values[${i}].name`, message('input.givenTwice', { name: v.name }));
      value[v.name] = plain(v.value);
    });
    const record: LawVersionRecord = {
      parameter: input.parameter,
      scope: input.scope ?? null,
      value,
      validFrom: input.validFrom,
      validUntil: input.validUntil ?? null,
      publishedOn: input.publishedOn,
      legalBasis: input.legalBasis?.trim(),
      note: input.note?.trim() || null,
    };
    const problems = versionProblems(record);
    if (problems.length) {
      const [field, message] = problems[0];
      throw new BadInputError(inputField(field, input), message);
    }
    return this.insert(actor, record, 'publishLawParameter');
  }

  versions(parameter?: string | null): Promise<LawParameterVersion[]> {
    const qb = this.ds.getRepository(LawParameterVersion).createQueryBuilder('v').orderBy('v.id', 'ASC');
    if (parameter) qb.where('v.parameter = :parameter', { parameter });
    return qb.getMany();
  }

  catalogue(): Array<{ name: ParameterName; scopes: string[]; values: string[] }> {
    return (Object.keys(PARAMETERS) as ParameterName[]).map((name) => ({
      name,
      scopes: [...((PARAMETERS[name].scopes as readonly string[] | null) ?? [])],
      values: Object.keys(PARAMETERS[name].values),
    }));
  }

  private async insert(actor: Actor, record: LawVersionRecord, operation: string): Promise<LawParameterVersion> {
    const row = await mutate(this.ds, actor, async (em) => {
      const repo = em.getRepository(LawParameterVersion);
      const saved = await repo.save(repo.create({
        key: `published/${randomUUID()}`, parameter: record.parameter, scope: record.scope, value: record.value,
        validFrom: record.validFrom, validUntil: record.validUntil, publishedOn: record.publishedOn,
        legalBasis: record.legalBasis, note: record.note ?? null, shipped: false,
      }));
      const stored = await repo.findOneByOrFail({ id: saved.id });
      return { result: stored, audit: [{ operation, entity: 'LawParameterVersion', entityId: stored.id, producerId: null, after: stored }] };
    });
    this.cache = null;
    return row;
  }
}

function plain(d: Decimal): string {
  return d.toFixed();
}

function inputField(field: string, input: PublishLawParameterInput): string {
  if (!field.startsWith('value.')) return `input.${field}`;
  const name = field.slice('value.'.length);
  const index = input.values.findIndex((v) => v.name === name);
  if (index < 0) return 'input.values';
  const known = Object.keys((PARAMETERS as Record<string, { values: object }>)[input.parameter]?.values ?? {});
  return known.includes(name) ? `input.values[${index}].value` : `input.values[${index}].name`;
}

/** Decreto 10.527/2020, art. 6º §2º; docs/LAW.md. */
export function standingOf(grants: readonly SealGrant[], eventsByGrant: ReadonlyArray<readonly SealEvent[]>, on: IsoDate): Standing & { grant: SealGrant | null } {
  const facts: GrantFacts[] = grants.map((g, i) => ({
    id: g.id,
    grantedOn: g.grantedOn,
    validUntil: g.validUntil,
    events: [...(eventsByGrant[i] ?? [])]
      .sort((a, b) => Number(a.id) - Number(b.id))
      .map((e) => ({ kind: e.kind, effectiveOn: e.effectiveOn, validUntil: e.validUntil, reason: e.reason })),
  }));
  const standing = sealStanding(facts, on);
  return { ...standing, grant: grants.find((g) => g.id === standing.grantId) ?? null };
}
