import { Semaphore } from 'async-mutex';
import { stopIfAnswered } from '../request-context';

/**
 * Heavy computations of a process, so many at a time: a Selo year of many producers holds its
 * connection (a program year two) for seconds of both cores. Unbounded, the aliases of one request
 * began them all at once and took the whole pool from every other request. A turn is taken before
 * any connection; one whose request has been answered meanwhile (its timeout) is not begun.
 */
export class Turns {
  private readonly slots: Semaphore;

  constructor(atOnce: number) {
    this.slots = new Semaphore(atOnce);
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.slots.runExclusive(() => {
      stopIfAnswered();
      return work();
    });
  }
}
