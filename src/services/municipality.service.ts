import { DataSource, In } from 'typeorm';
import { Municipality } from '../domain';
import { IsoDate, LAST_DATE } from '../law/dates';
import { municipalityFacts, SemiaridInterval } from '../law/municipality';
import { Actor } from './actor';
import { BadInputError } from './errors';
import { priorityRegionOnSql, semiaridOnSql } from './facts/priority-region.sql';
import { assertAdmin } from './scope';
import { mutate } from './transaction';
import { message } from '../i18n';
import { Problems } from './problems';
import { optionalText, requireDate } from './record-batch';
import { isBlank } from './validation';
import { applySemiaridFlags, FIRST_STATED_DAY, SemiaridFlag, semiaridIntervals } from './semiarid-membership';

export interface MunicipalityInput {
  ibgeCode: string;
  name: string;
  semiarid: boolean;
  /** The day the flag holds from (inclusive); absent: an undated flag (semiarid-membership.ts). */
  semiaridFrom?: IsoDate | null;
  /** The act the flag cites (default: the municipality record). */
  semiaridAct?: string | null;
}

/**
 * A municipality's region facts as SQL of its row aliased `q` on the day `day` (an SQL
 * expression): what the compiled reads write for Municipality.semiarid and priorityRegion.
 */
export const municipalityRegionSql = {
  semiarid: (q: string, day: string) => semiaridOnSql(`${q}.ibge_code`, day),
  priorityRegion: (q: string, day: string) => priorityRegionOnSql(`${q}.ibge_code`, day),
};

/** A municipality as written, with its Semiárido statement. */
export interface MunicipalityRow {
  municipality: Municipality;
  flag: SemiaridFlag;
}

/** Municipalities: reference data, readable by all, written by an ADMIN (or an operator's import). */
export class MunicipalityService {
  constructor(private readonly ds: DataSource) {}

  findByCodes(codes: readonly string[]): Promise<Municipality[]> {
    return this.ds.getRepository(Municipality).findBy({ ibgeCode: In([...codes]) });
  }

  async get(ibgeCode: string): Promise<Municipality | null> {
    return this.ds.getRepository(Municipality).findOneBy({ ibgeCode });
  }

  /**
   * Whether each (code, date) lies in the Semiárido and in the priority region on that date
   * (src/services/facts/priority-region.sql.ts), in the order of `keys`.
   */
  async regionsOn(keys: ReadonlyArray<{ code: string; on: IsoDate }>): Promise<Array<{ semiarid: boolean; priorityRegion: boolean }>> {
    const rows: Array<{ semiarid: boolean; priority: boolean }> = await this.ds.query(
      `SELECT ${semiaridOnSql('k.code', 'k.day')} AS semiarid, ${priorityRegionOnSql('k.code', 'k.day')} AS priority
         FROM unnest($1::text[], $2::date[]) WITH ORDINALITY AS k(code, day, n) ORDER BY n`,
      [keys.map((k) => k.code), keys.map((k) => k.on)],
    );
    return rows.map((r) => ({ semiarid: r.semiarid, priorityRegion: r.priority }));
  }

  /** The Semiárido intervals of each municipality, with their acts, in date order. */
  async semiaridMemberships(codes: readonly string[]): Promise<SemiaridInterval[][]> {
    const map = await semiaridIntervals(this.ds.manager, codes);
    return codes.map((c) => map.get(c) ?? []);
  }

  /** Build the row for an input, or say which field is wrong. */
  static toRow(input: MunicipalityInput, field: string): MunicipalityRow {
    const facts = municipalityFacts(input.ibgeCode);
    if (!facts) throw new BadInputError(`${field}.ibgeCode`, message('municipality.ibgeCode', { code: String(input.ibgeCode) }));
    if (input.name == null || isBlank(input.name)) throw new BadInputError(`${field}.name`, message('input.empty', { field: 'name' }));
    const from = input.semiaridFrom == null ? null : requireDate(input.semiaridFrom, `${field}.semiaridFrom`);
    if (from !== null && from < FIRST_STATED_DAY) {
      throw new BadInputError(`${field}.semiaridFrom`, message('input.semiaridDay', { field: 'semiaridFrom', min: FIRST_STATED_DAY, max: LAST_DATE }));
    }
    const municipality = Object.assign(new Municipality(), { ibgeCode: input.ibgeCode, name: input.name.trim(), state: facts.state, region: facts.region });
    return { municipality, flag: { code: input.ibgeCode, member: input.semiarid, from, act: optionalText(input.semiaridAct) } };
  }

  /** Insert or update by IBGE code, all or nothing; the Semiárido flags as semiarid-membership.ts applies them. */
  async upsert(actor: Actor, inputs: MunicipalityInput[]): Promise<Municipality[]> {
    assertAdmin(actor);
    // Every bad item is reported (Problems), not only the first; none is written.
    const problems = new Problems();
    const checked = inputs.map((input, i) => problems.check(() => MunicipalityService.toRow(input, `input[${i}]`)));
    const seen = new Set<string>();
    checked.forEach((r, i) => {
      if (!r) return;
      if (seen.has(r.municipality.ibgeCode)) problems.add(new BadInputError(`input[${i}].ibgeCode`, message('municipality.twiceInBatch', { code: r.municipality.ibgeCode })));
      seen.add(r.municipality.ibgeCode);
    });
    problems.throwIfAny();
    const rows = checked as MunicipalityRow[];
    return mutate(this.ds, actor, async (em) => {
      const codes = [...seen];
      const before = await em.getRepository(Municipality).findBy({ ibgeCode: In(codes) });
      const beforeByCode = new Map(before.map((m) => [m.ibgeCode, m]));
      const intervalsBefore = await semiaridIntervals(em, codes);
      if (rows.length) await em.getRepository(Municipality).upsert(rows.map((r) => r.municipality), ['ibgeCode']);
      await applySemiaridFlags(em, rows.map((r) => r.flag));
      const intervalsAfter = await semiaridIntervals(em, codes);
      return {
        result: rows.map((r) => r.municipality),
        audit: rows.map(({ municipality: m }) => {
          const was = beforeByCode.get(m.ibgeCode);
          return {
            operation: 'upsertMunicipalities', entity: 'Municipality', entityId: m.ibgeCode, producerId: null,
            before: was && { ...was, semiaridMemberships: intervalsBefore.get(m.ibgeCode) ?? [] },
            after: { ...m, semiaridMemberships: intervalsAfter.get(m.ibgeCode) ?? [] },
          };
        }),
      };
    });
  }
}
