import { Actor } from '../services/actor';
import { Services } from '../services';
import { Loaders } from './loaders';

/** What every resolver receives: who calls, the use cases, this request's loaders. */
export interface Context {
  actor: Actor;
  requestId: string;
  services: Services;
  loaders: Loaders;
}
