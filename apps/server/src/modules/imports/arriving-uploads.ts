import type { LimitStore } from '../../lib/limit-store.ts';
import { PlaceHolders } from '../../lib/place-holders.ts';

/** A place lapses this long after its last renewal: the upload's process died without giving it back. */
const HOLD_MS = 30_000;

/**
 * Import uploads still arriving, per user, on every process when the limit store is Redis (issue
 * 22): an upload is not a job yet and may buffer 20 MB, so it counts against the user's import
 * limit from its first byte. Each holds a place under the user's key, renewed while it arrives,
 * given back once its job exists (or it failed); a process that dies leaves places that lapse.
 */
export class ArrivingUploads {
  private readonly holders: PlaceHolders;

  constructor(store: LimitStore) {
    this.holders = new PlaceHolders(store, HOLD_MS);
  }

  /**
   * Takes a place for one more of the user's uploads if fewer than `room` are arriving; answers
   * the function that gives it back, or undefined when there is no room.
   */
  async take(userId: number, room: number): Promise<(() => void) | undefined> {
    if (room <= 0) return undefined;
    const taken = await this.holders.take([{ key: `imports:arriving:user:${userId}`, cap: room }]);
    if (!taken) return undefined;
    const renewal = setInterval(() => {
      this.holders.renew([taken.held]).catch(() => {});
    }, HOLD_MS / 3);
    renewal.unref();
    return () => {
      clearInterval(renewal);
      taken.giveBack();
    };
  }
}
