import { MigrationInterface, QueryRunner } from 'typeorm';
import { MARKED_SHARED, NOT_MARKED } from './1766450000000-record-mark';

/** Whom a supplier mark names: a family farmer, or a cooperative or association. */
export type SupplierMarkKind = 'FAMILY_FARMER' | 'ORGANIZATION';

/** The tables of one supplier's records, by the column naming it: a write marks that supplier. */
export const MARKED_BY_SUPPLIER: ReadonlyArray<readonly [table: string, column: string, kind: SupplierMarkKind]> = [
  ['family_farmer', 'id', 'FAMILY_FARMER'], ['family_farmer_registration', 'family_farmer_id', 'FAMILY_FARMER'],
  ['family_farming_organization', 'id', 'ORGANIZATION'], ['organization_registration', 'organization_id', 'ORGANIZATION'],
  ['organization_membership', 'organization_id', 'ORGANIZATION'],
];
/** Selo events: each belongs to one grant, and marks the grant's producer. */
export const MARKED_BY_GRANT: readonly string[] = ['seal_event'];
/** The records every producer's figures may still read (mark 0). */
export const MARKED_SHARED_NOW: readonly string[] = MARKED_SHARED.filter((t) => !MARKED_BY_SUPPLIER.some(([s]) => s === t) && !MARKED_BY_GRANT.includes(t));
/** Not records a figure is computed from: those of RecordMark1766450000000, and the supplier marks. */
export const NOT_MARKED_NOW: readonly string[] = [...NOT_MARKED, 'record_mark_supplier'];

/**
 * A supplier's records and the Selo events no longer mark every producer (mark 0): a farmer's CAF
 * written made the next overview compute the whole program (10–15 s a national year) where only
 * the few producers dealing with that farmer read it.
 *
 * Supplier marks are rows of their own, one per supplier and writing transaction, with the
 * transaction's id (`xid`): a part of the program records the snapshot it was computed in, and is
 * stale when a mark it did not see names a supplier its producer's records name
 * (program-parts.ts). A mark's place in a sequence would not do: ids are taken in the order
 * written, not committed, so a mark written before a snapshot and committed after it would hide
 * below the snapshot's highest id. Marked by statement, from the rows the statement changed: a
 * per-transaction setting per supplier (as record_mark_add keeps per producer) costs quadratic time
 * past a few thousand names in PostgreSQL 15, and an import writes 100,000 farmers at once.
 * `merged`: the marks of a supplier summed up (program-parts.ts, compactSupplierMarks); such a row
 * was seen by a snapshot whose xmin is at least its `xid`.
 */
export class RecordMarkSupplier1766520000000 implements MigrationInterface {
  name = 'RecordMarkSupplier1766520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE record_mark_supplier (
        xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        merged boolean NOT NULL DEFAULT false,
        kind text NOT NULL CHECK (kind IN ('FAMILY_FARMER', 'ORGANIZATION')),
        supplier_id bigint NOT NULL,
        weight bigint NOT NULL DEFAULT 1 CHECK (weight > 0)
      );
      -- One mark per supplier and transaction (ON CONFLICT DO NOTHING); read from an xid on.
      CREATE UNIQUE INDEX record_mark_supplier_once ON record_mark_supplier (xid, merged, kind, supplier_id);
      -- The marks not yet summed up, counted before each overview.
      CREATE INDEX record_mark_supplier_fresh ON record_mark_supplier (xid) WHERE NOT merged;
      -- SECURITY DEFINER: a PRODUCER's role writes farmers' records, never the marks themselves.
      -- Every name is qualified (no search_path of the caller's). TG_ARGV: the kind, the column.
      CREATE FUNCTION record_mark_supplier_add() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO public.record_mark_supplier (kind, supplier_id)
            SELECT DISTINCT TG_ARGV[0], (pg_catalog.to_jsonb(r) ->> TG_ARGV[1])::bigint FROM new_rows r ON CONFLICT DO NOTHING;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          INSERT INTO public.record_mark_supplier (kind, supplier_id)
            SELECT DISTINCT TG_ARGV[0], (pg_catalog.to_jsonb(r) ->> TG_ARGV[1])::bigint FROM old_rows r ON CONFLICT DO NOTHING;
        END IF;
        RETURN NULL;
      END
      $$;
      -- A Selo event marks its grant's producer, once per transaction as record_mark_add does (the
      -- same settings); a grant not found (deleted in the same transaction) marks every producer.
      CREATE FUNCTION record_mark_grant_add() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
      DECLARE
        ids bigint[] := '{}';
        id bigint;
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          ids := ids || coalesce((SELECT g.producer_id FROM public.seal_grant g WHERE g.id = NEW.grant_id), 0);
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          ids := ids || coalesce((SELECT g.producer_id FROM public.seal_grant g WHERE g.id = OLD.grant_id), 0);
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
      REVOKE ALL ON record_mark_supplier FROM PUBLIC;
      REVOKE ALL ON record_mark_supplier FROM selo_producer;
      REVOKE ALL ON FUNCTION record_mark_supplier_add() FROM PUBLIC;
      REVOKE ALL ON FUNCTION record_mark_grant_add() FROM PUBLIC;
    `);
    // The TRUNCATE triggers stay: a truncated table names no one, and marks every producer.
    for (const [table, column, kind] of MARKED_BY_SUPPLIER) {
      await q.query(`${dropRowTriggers(table)}
        CREATE TRIGGER ${table}_mark_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows
          FOR EACH STATEMENT EXECUTE FUNCTION record_mark_supplier_add('${kind}', '${column}');
        CREATE TRIGGER ${table}_mark_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
          FOR EACH STATEMENT EXECUTE FUNCTION record_mark_supplier_add('${kind}', '${column}');
        CREATE TRIGGER ${table}_mark_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows
          FOR EACH STATEMENT EXECUTE FUNCTION record_mark_supplier_add('${kind}', '${column}');
        ${enableAlways(table)}`);
    }
    for (const table of MARKED_BY_GRANT) {
      await q.query(`${dropRowTriggers(table)}
        ${EVENTS.map((e) => `CREATE TRIGGER ${table}_mark_${e} BEFORE ${e.toUpperCase()} ON ${table} FOR EACH ROW EXECUTE FUNCTION record_mark_grant_add();`).join('\n')}
        ${enableAlways(table)}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    // Back to mark 0, as RecordMark1766450000000 made them.
    const unmarked = `current_setting('selo.mark_' || 0, true) IS DISTINCT FROM 'y'`;
    for (const table of [...MARKED_BY_SUPPLIER.map(([t]) => t), ...MARKED_BY_GRANT]) {
      await q.query(`${dropRowTriggers(table)}
        CREATE TRIGGER ${table}_mark_insert BEFORE INSERT ON ${table} FOR EACH ROW WHEN (${unmarked}) EXECUTE FUNCTION record_mark_add();
        CREATE TRIGGER ${table}_mark_update BEFORE UPDATE ON ${table} FOR EACH ROW WHEN (${unmarked}) EXECUTE FUNCTION record_mark_add();
        CREATE TRIGGER ${table}_mark_delete BEFORE DELETE ON ${table} FOR EACH ROW WHEN (${unmarked}) EXECUTE FUNCTION record_mark_add();
        ${enableAlways(table)}`);
    }
    await q.query('DROP FUNCTION record_mark_supplier_add(); DROP FUNCTION record_mark_grant_add(); DROP TABLE record_mark_supplier;');
  }
}

const EVENTS = ['insert', 'update', 'delete'] as const;

function dropRowTriggers(table: string): string {
  return EVENTS.map((e) => `DROP TRIGGER ${table}_mark_${e} ON ${table};`).join('\n');
}

/** ALWAYS: also under session_replication_role = replica, which a bulk import sets (import/kinds/common.ts). */
function enableAlways(table: string): string {
  return EVENTS.map((e) => `ALTER TABLE ${table} ENABLE ALWAYS TRIGGER ${table}_mark_${e};`).join('\n');
}
