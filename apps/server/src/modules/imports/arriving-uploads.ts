import crypto from 'node:crypto';
import type { LimitStore } from '../../lib/limit-store.ts';

/** A place lapses this long after its last renewal: the upload's process died without giving it back. */
const HOLD_MS = 30_000;

/**
 * Import uploads still arriving, per user, on every process when the limit store is Redis (issue
 * 22): an upload is not a job yet and may buffer 20 MB, so it counts against the user's import
 * limit from its first byte. Each holds a place under the user's key, renewed while it arrives,
 * given back once its job exists (or it failed); a process that dies leaves places that lapse.
 */
export class ArrivingUploads {
  private readonly store: LimitStore;
  private readonly process = crypto.randomBytes(6).toString('hex');
  private sequence = 0;

  constructor(store: LimitStore) {
    this.store = store;
  }

  /**
   * Takes a place for one more of the user's uploads if fewer than `room` are arriving; answers
   * the function that gives it back, or undefined when there is no room.
   */
  async take(userId: number, room: number): Promise<(() => void) | undefined> {
    if (room <= 0) return undefined;
    const keys = [`imports:arriving:user:${userId}`];
    const holder = `${this.process}:${++this.sequence}`;
    const places = [{ key: keys[0]!, cap: room }];
    if (!(await this.store.hold(places, holder, Date.now(), HOLD_MS))) return undefined;
    const renewal = setInterval(() => {
      this.store.renew([{ holder, keys }], Date.now(), HOLD_MS).catch(() => {});
    }, HOLD_MS / 3);
    renewal.unref();
    return () => {
      clearInterval(renewal);
      // Not renewed any more, the place lapses anyway if this does not get through.
      this.store.unhold(keys, holder).catch(() => {});
    };
  }
}
