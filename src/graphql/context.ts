import { IsoDate } from '../law/dates';
import { Actor } from '../services/actor';
import { Services } from '../services';
import { Loaders } from './loaders';

/** What every resolver receives: who calls, the use cases, this request's loaders and day. */
export interface Context {
  actor: Actor;
  requestId: string;
  services: Services;
  loaders: Loaders;
  /** Today in Brazil (America/Sao_Paulo) when the request came: every field of it defaults to the law of one day. */
  today: IsoDate;
  /** What the response may still list of the long lists (listed.ts); LIMITS.maxListed when absent. */
  listed?: { left: number; max: number };
}

/**
 * The `asKnownOn` a field answers with: its argument (a Date, already checked by the scalar) or the
 * request's day. The one place the default is taken; services and loader keys get the date.
 */
export function knownOn(ctx: Pick<Context, 'today'>, asked: IsoDate | null | undefined): IsoDate {
  return asked ?? ctx.today;
}
