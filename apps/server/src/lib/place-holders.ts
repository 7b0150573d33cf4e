import crypto from 'node:crypto';
import type { Held, LimitStore, Place } from './limit-store.ts';

/**
 * Places taken in a limit store by this process's holders (a socket, an upload still arriving),
 * each named uniquely across processes, so a store shared by several (Redis) counts them all. A
 * place lapses `holdMs` after it was taken or last renewed: the holder's process renews it while
 * the holder lives, and a process that dies leaves places that stop counting.
 */
export class PlaceHolders {
  private readonly store: LimitStore;
  private readonly holdMs: number;
  private readonly process = crypto.randomBytes(6).toString('hex');
  private sequence = 0;

  constructor(store: LimitStore, holdMs: number) {
    this.store = store;
    this.holdMs = holdMs;
  }

  /**
   * Takes a place under every key for a new holder, or none when one key holds its cap. Answers
   * the hold (to renew) and the function that gives the places back, or undefined.
   */
  async take(places: readonly Place[]): Promise<{ held: Held; giveBack(): void } | undefined> {
    const holder = `${this.process}:${++this.sequence}`;
    if (!(await this.store.hold(places, holder, Date.now(), this.holdMs))) return undefined;
    const keys = places.map((place) => place.key);
    return {
      held: { holder, keys },
      // Not renewed any more, the places lapse anyway if this does not get through.
      giveBack: () => void this.store.unhold(keys, holder).catch(() => {}),
    };
  }

  /** Keeps these holders' places for another `holdMs`. */
  renew(holds: readonly Held[]): Promise<void> {
    return this.store.renew(holds, Date.now(), this.holdMs);
  }
}
