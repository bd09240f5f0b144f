import { EntityManager } from 'typeorm';
import { Role } from '../law/types';
import { Actor } from './actor';

/**
 * The second wall of producer scoping (the access rules, README "Tokens"): inside a mutation made with a PRODUCER token,
 * switch the transaction to the database role `selo_producer` and set `selo.producer_id`, so
 * that PostgreSQL's row-level security (migration ProducerRowSecurity1765100000000) lets the
 * transaction see and write only that producer's rows, whatever the use case does. Both settings
 * are local to the transaction. ADMIN, AUDITOR and start-up work are not switched.
 */
export async function enterProducerScope(em: EntityManager, actor: Actor): Promise<void> {
  if (actor.role !== Role.PRODUCER) return;
  await em.query(`SELECT set_config('role', 'selo_producer', true), set_config('selo.producer_id', $1, true)`, [actor.producerId ?? '-1']);
}
