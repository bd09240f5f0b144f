import { Role } from '../law/types';
import { Actor } from './actor';
import { ForbiddenError, NotFoundError, RecordName } from './errors';
import { message } from '../i18n';

/**
 * Producer scoping (the access rules, README "Tokens"), in one place: every read and write of a producer's records asks
 * here. A PRODUCER sees only its own producer; another producer's record is reported exactly as
 * a missing one (NOT_FOUND), so nothing leaks through an error either.
 */

/** The producer ids the actor may see: null = every producer. */
export function visibleProducerId(actor: Actor): string | null {
  return actor.role === Role.PRODUCER ? (actor.producerId ?? '-1') : null;
}

/** Whether the actor may see records of `producerId`. */
export function canSee(actor: Actor, producerId: string): boolean {
  const only = visibleProducerId(actor);
  return only === null || only === String(producerId);
}

/** A record of `producerId` the actor asked for by id: NOT_FOUND when outside its scope. */
export function assertVisible(actor: Actor, entity: RecordName, id: string, producerId: string): void {
  if (!canSee(actor, producerId)) throw new NotFoundError(entity, id);
}

/** Writing a producer's records: ADMIN any, PRODUCER its own, AUDITOR none. */
export function assertCanWriteFor(actor: Actor, entity: RecordName, producerId: string): void {
  if (actor.role === Role.AUDITOR) throw new ForbiddenError(message('auth.auditorWritesNothing'));
  if (!canSee(actor, producerId)) throw new NotFoundError(entity, producerId);
}

/** Reference data and the law: ADMIN only (the access rules, README "Tokens"). */
export function assertAdmin(actor: Actor): void {
  if (actor.role !== Role.ADMIN) throw new ForbiddenError(message('auth.adminOnly'));
}
