import { DataSource } from 'typeorm';
import { FomentoExpense } from '../domain';
import { Decimal } from '../law/decimal';
import { FomentoKind } from '../law/types';
import { Actor } from './actor';
import { BadInputError } from './errors';
import { assertWritable, insertInChunks, optionalText, requireDate, requirePositiveDecimal, requireRecords, requireWritableProducers } from './record-batch';
import { mutate } from './transaction';
import { requireMunicipalities } from './validation';
import { message } from '../i18n';
import { Problems } from './problems';

export interface RecordFomentoInput {
  producerId: string;
  spentOn: string;
  kind: FomentoKind;
  amount: Decimal;
  municipalityCode: string;
  organizationId?: string | null;
  description?: string | null;
}

/**
 * Fomento spending: technical assistance, donations, investment for family farmers
 * (Decreto 10.527/2020, art. 2º VII; counted by art. 3º §2 I c in the priority region).
 * Recorded in batches, all or nothing.
 */
export class FomentoService {
  constructor(private readonly ds: DataSource) {}

  async record(actor: Actor, inputs: RecordFomentoInput[]): Promise<FomentoExpense[]> {
    assertWritable(actor, inputs.map((f, i) => ({ field: `input[${i}].producerId`, id: f.producerId })));
    // Every bad item is reported (Problems), not only the first; none is written.
    const problems = new Problems();
    const checked = inputs.map((input, i) => problems.check(() => FomentoService.toRow(input, `input[${i}]`)));
    if (inputs.length === 0) return [];
    return mutate(this.ds, actor, async (em) => {
      const items = checked.flatMap((r, i) => (r ? [{ r, i }] : []));
      await requireWritableProducers(em, actor, items.map(({ r, i }) => ({ field: `input[${i}].producerId`, id: r.producerId })), problems);
      await requireMunicipalities(em, items.map(({ r, i }) => ({ field: `input[${i}].municipalityCode`, code: r.municipalityCode })), problems);
      const orgs = items.flatMap(({ r, i }) => (r.organizationId === null ? [] : [{ field: `input[${i}].organizationId`, id: r.organizationId }]));
      await requireRecords(em, 'family_farming_organization', 'FamilyFarmingOrganization', orgs, ['id'], problems);
      problems.throwIfAny();
      const rows = checked as FomentoExpense[];
      await insertInChunks(em, FomentoExpense, rows);
      return {
        result: rows,
        audit: rows.map((r) => ({ operation: 'recordFomento', entity: 'FomentoExpense', entityId: r.id, producerId: r.producerId, after: r })),
      };
    });
  }

  /** The checks one item needs no database for (docs/API.md "Errors"), naming the offending field. */
  static toRow(input: RecordFomentoInput, at: string): FomentoExpense {
    const spentOn = requireDate(input.spentOn, `${at}.spentOn`);
    if (!Object.values(FomentoKind).includes(input.kind)) throw new BadInputError(`${at}.kind`, message('input.unknownValue', { what: 'kind', value: String(input.kind) }));
    const amount = requirePositiveDecimal(input.amount, `${at}.amount`);
    return Object.assign(new FomentoExpense(), {
      producerId: input.producerId,
      spentOn,
      kind: input.kind,
      amount,
      municipalityCode: input.municipalityCode,
      organizationId: input.organizationId ?? null,
      description: optionalText(input.description),
    });
  }
}
