import { DataSource, In } from 'typeorm';
import { Municipality } from '../domain';
import { isPriorityRegion, municipalityFacts } from '../law/municipality';
import { Actor } from './actor';
import { BadInputError } from './errors';
import { assertAdmin } from './scope';
import { mutate } from './transaction';
import { message } from '../i18n';
import { Problems } from './problems';

export interface MunicipalityInput {
  ibgeCode: string;
  name: string;
  semiarid: boolean;
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

  /** Build the row for an input, or say which field is wrong. */
  static toRow(input: MunicipalityInput, field: string): Municipality {
    const facts = municipalityFacts(input.ibgeCode);
    if (!facts) throw new BadInputError(`${field}.ibgeCode`, message('municipality.ibgeCode', { code: String(input.ibgeCode) }));
    if (!input.name?.trim()) throw new BadInputError(`${field}.name`, message('input.empty', { field: 'name' }));
    return Object.assign(new Municipality(), {
      ibgeCode: input.ibgeCode,
      name: input.name.trim(),
      state: facts.state,
      region: facts.region,
      semiarid: input.semiarid,
      priorityRegion: isPriorityRegion({ region: facts.region, semiarid: input.semiarid }),
    });
  }

  /** Insert or update by IBGE code, all or nothing. */
  async upsert(actor: Actor, inputs: MunicipalityInput[]): Promise<Municipality[]> {
    assertAdmin(actor);
    // Every bad item is reported (Problems), not only the first; none is written.
    const problems = new Problems();
    const checked = inputs.map((input, i) => problems.check(() => MunicipalityService.toRow(input, `input[${i}]`)));
    const seen = new Set<string>();
    checked.forEach((r, i) => {
      if (!r) return;
      if (seen.has(r.ibgeCode)) problems.add(new BadInputError(`input[${i}].ibgeCode`, message('municipality.twiceInBatch', { code: r.ibgeCode })));
      seen.add(r.ibgeCode);
    });
    problems.throwIfAny();
    const rows = checked as Municipality[];
    return mutate(this.ds, actor, async (em) => {
      const before = await em.getRepository(Municipality).findBy({ ibgeCode: In([...seen]) });
      const beforeByCode = new Map(before.map((m) => [m.ibgeCode, m]));
      if (rows.length) await em.getRepository(Municipality).upsert(rows, ['ibgeCode']);
      return {
        result: rows,
        audit: rows.map((r) => ({ operation: 'upsertMunicipalities', entity: 'Municipality', entityId: r.ibgeCode, producerId: null, before: beforeByCode.get(r.ibgeCode), after: r })),
      };
    });
  }
}
