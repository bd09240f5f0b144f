import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables of one producer's records, by the column naming it. */
export const MARKED_BY_PRODUCER: ReadonlyArray<readonly [table: string, column: string]> = [
  ['producer', 'id'], ['seal_grant', 'producer_id'], ['seal_evaluation', 'producer_id'], ['regime_election', 'producer_id'],
  ['incidence_election', 'producer_id'], ['contract', 'producer_id'], ['purchase', 'producer_id'], ['sale', 'producer_id'],
  ['record_return', 'producer_id'], ['fomento_expense', 'producer_id'], ['biodiesel_import', 'producer_id'], ['tax_period', 'producer_id'],
  ['credit_apportionment_election', 'producer_id'], ['credit_claim', 'producer_id'],
];
/** The records every producer's figures may read (mark 0). */
export const MARKED_SHARED: readonly string[] = [
  'municipality', 'semiarid_membership', 'family_farmer', 'family_farmer_registration', 'family_farming_organization',
  'organization_registration', 'organization_membership', 'minimum_price', 'law_parameter_version', 'seal_event',
];
/**
 * Not records a figure is computed from: the log of changes, the law book's counter
 * (law_parameter_version marks), the marks, the program's computed parts (read by their marks) and
 * the years asked of it, the migrations.
 */
export const NOT_MARKED: readonly string[] = ['audit_entry', 'law_revision', 'record_mark', 'program_year_part', 'program_year_asked', 'migrations'];

/**
 * Marks of change, one per producer and writing transaction (the trigger's WHEN reads a local
 * setting): a figure is reused while a later snapshot sums the same weights (program-overview).
 * Rows are only added, so writers never queue; statement triggers doubled a 1M-line INSERT.
 */
export class RecordMark1766450000000 implements MigrationInterface {
  name = 'RecordMark1766450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE record_mark (
        id bigserial PRIMARY KEY,
        producer_id bigint NOT NULL,
        weight bigint NOT NULL DEFAULT 1 CHECK (weight > 0)
      );
      CREATE INDEX record_mark_producer ON record_mark (producer_id, weight);
      -- SECURITY DEFINER: a PRODUCER's role writes its records, never the marks themselves. No SET
      -- clause (it would scope the settings below to the call): every name is qualified instead.
      CREATE FUNCTION record_mark_add() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
      DECLARE
        ids bigint[] := '{}';
        id bigint;
      BEGIN
        -- TG_ARGV[0]: the column naming the producer; none for shared records (mark 0).
        IF TG_NARGS = 0 OR TG_OP = 'TRUNCATE' THEN
          ids := ARRAY[0::bigint];
        ELSE
          IF TG_OP IN ('INSERT', 'UPDATE') THEN ids := ids || (pg_catalog.to_jsonb(NEW) ->> TG_ARGV[0])::bigint; END IF;
          IF TG_OP IN ('UPDATE', 'DELETE') THEN ids := ids || (pg_catalog.to_jsonb(OLD) ->> TG_ARGV[0])::bigint; END IF;
        END IF;
        FOREACH id IN ARRAY ids LOOP
          IF pg_catalog.current_setting('selo.mark_' || id, true) IS DISTINCT FROM 'y' THEN
            INSERT INTO public.record_mark (producer_id) VALUES (id);
            PERFORM pg_catalog.set_config('selo.mark_' || id, 'y', true);
          END IF;
        END LOOP;
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
      END
      $$;
      REVOKE ALL ON record_mark FROM PUBLIC;
      REVOKE ALL ON record_mark FROM selo_producer;
    `);
    for (const [table, column] of MARKED_BY_PRODUCER) await q.query(triggers(table, column));
    for (const table of MARKED_SHARED) await q.query(triggers(table, null));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [...MARKED_BY_PRODUCER.map(([t]) => t), ...MARKED_SHARED]) {
      await q.query(['insert', 'update', 'delete', 'truncate'].map((e) => `DROP TRIGGER ${table}_mark_${e} ON ${table};`).join('\n'));
    }
    await q.query('DROP FUNCTION record_mark_add(); DROP TABLE record_mark;');
  }
}

/** A table's four triggers; `column`: the one naming the producer, null for shared records (mark 0). */
function triggers(table: string, column: string | null): string {
  // Runs only while this transaction has not yet marked the producer (a setting reverts with it).
  const unmarked = (row: 'NEW' | 'OLD') => `current_setting('selo.mark_' || ${column ? `${row}.${column}` : '0'}, true) IS DISTINCT FROM 'y'`;
  const rows = (event: string, when: string) =>
    `CREATE TRIGGER ${table}_mark_${event} BEFORE ${event.toUpperCase()} ON ${table} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION record_mark_add(${column ? `'${column}'` : ''});`;
  return [
    rows('insert', unmarked('NEW')),
    rows('update', `${unmarked('NEW')} OR ${unmarked('OLD')}`),
    rows('delete', unmarked('OLD')),
    // A truncated table names no producer: it marks every producer's figures (mark 0).
    `CREATE TRIGGER ${table}_mark_truncate AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION record_mark_add();`,
    // ALWAYS: also under session_replication_role = replica, which a bulk import sets to skip the
    // foreign-key triggers of references it already checked (import/kinds/common.ts).
    ...['insert', 'update', 'delete', 'truncate'].map((e) => `ALTER TABLE ${table} ENABLE ALWAYS TRIGGER ${table}_mark_${e};`),
  ].join('\n');
}
