import { EntityManager } from 'typeorm';
import { Role } from '../law/types';
import { Actor } from './actor';

/**
 * The second wall: a PRODUCER's transaction runs as role `selo_producer` with `selo.producer_id`
 * set locally, so row-level security limits it to its rows whatever the use case does.
 */
export async function enterProducerScope(em: EntityManager, actor: Actor): Promise<void> {
  if (actor.role !== Role.PRODUCER) return;
  await em.query(`SELECT set_config('role', 'selo_producer', true), set_config('selo.producer_id', $1, true)`, [actor.producerId ?? '-1']);
}
