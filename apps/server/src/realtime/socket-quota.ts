import type { Held, LimitStore, Place } from '../lib/limit-store.ts';
import { PlaceHolders } from '../lib/place-holders.ts';

/** Each socket's place lapses after this many heartbeats without being renewed. */
const HEARTBEATS_PER_HOLD = 3;

/**
 * Caps the sockets open per user and per client address (0: no cap), so that one account or one
 * machine cannot hold thousands of connections (and the memory, heartbeats and fan-out work each
 * costs). Counted in the limit store: across every process when it is Redis.
 *
 * Each socket holds a place under its user's key and its address's key, named after the socket.
 * A place lapses unless renewed: this process renews all of its sockets' places on every
 * heartbeat (`renew`), so the places of a process that died without closing its sockets stop
 * counting a few heartbeats later, while those of live processes never lapse.
 */
export class SocketQuota {
  /** This process's sockets' places, by holder: what each heartbeat renews. */
  private readonly mine = new Map<string, Held>();
  private readonly holders: PlaceHolders;
  private readonly store: LimitStore;
  private readonly limits: { perUser: number; perAddress: number; heartbeatMs: number };

  constructor(
    store: LimitStore,
    limits: { perUser: number; perAddress: number; heartbeatMs: number },
  ) {
    this.store = store;
    this.limits = limits;
    this.holders = new PlaceHolders(store, HEARTBEATS_PER_HOLD * limits.heartbeatMs);
  }

  /** Whether the address holds its cap of sockets: a cheap look, before any work for a new one. */
  addressFull(address: string): Promise<boolean> {
    return this.full(addressKey(address), this.limits.perAddress);
  }

  /** Whether the user holds their cap of sockets. */
  userFull(userId: number): Promise<boolean> {
    return this.full(userKey(userId), this.limits.perUser);
  }

  /**
   * Takes a place for a new socket under both caps at once, or none when either is reached.
   * Answers the function that gives it back (call it once the socket has closed), or undefined.
   */
  async acquire(userId: number, address: string): Promise<(() => void) | undefined> {
    const places: Place[] = [
      { key: userKey(userId), cap: this.limits.perUser },
      { key: addressKey(address), cap: this.limits.perAddress },
    ].filter((place) => place.cap > 0);
    if (places.length === 0) return () => {};
    const taken = await this.holders.take(places);
    if (!taken) return undefined;
    const { held, giveBack } = taken;
    this.mine.set(held.holder, held);
    return () => {
      if (this.mine.delete(held.holder)) giveBack();
    };
  }

  /** Keeps this process's sockets' places: call it every heartbeat. */
  async renew(): Promise<void> {
    if (this.mine.size === 0) return;
    await this.holders.renew([...this.mine.values()]);
  }

  private async full(key: string, cap: number): Promise<boolean> {
    return cap > 0 && (await this.store.held(key, Date.now())) >= cap;
  }
}

const userKey = (userId: number) => `sockets:user:${userId}`;
const addressKey = (address: string) => `sockets:address:${address}`;
