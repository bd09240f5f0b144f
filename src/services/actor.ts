import { Role } from '../law/types';

/** Who is calling: the verified token's claims (the access rules, README "Tokens") and the request it came with. */
export interface Actor {
  sub: string;
  role: Role;
  /** Set for PRODUCER: the only producer whose records it may read and write. */
  producerId: string | null;
  requestId: string | null;
}

/** Internal work (start-up loading, seeding, imports run by an operator). */
export const SYSTEM_ACTOR: Actor = { sub: 'system', role: Role.ADMIN, producerId: null, requestId: null };
