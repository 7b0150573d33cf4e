import { KeyedCounter } from '../lib/keyed-counter.ts';

/**
 * Caps the sockets this process holds per user and per client address (0: no cap), so that one
 * account or one machine cannot hold thousands of connections (and the memory, heartbeats and
 * fan-out work each costs). Counted per process: behind a load balancer each process caps its own.
 */
export class SocketQuota {
  private readonly byUser = new KeyedCounter<number>();
  private readonly byAddress = new KeyedCounter<string>();

  constructor(private readonly limits: { perUser: number; perAddress: number }) {}

  /** Whether the address holds its cap of sockets: a cheap look, before any work for a new one. */
  addressFull(address: string): boolean {
    return this.limits.perAddress > 0 && this.byAddress.count(address) >= this.limits.perAddress;
  }

  /** Whether the user holds their cap of sockets. */
  userFull(userId: number): boolean {
    return this.limits.perUser > 0 && this.byUser.count(userId) >= this.limits.perUser;
  }

  /** Takes a place for a new socket; false (and nothing taken) when either cap is reached. */
  acquire(userId: number, address: string): boolean {
    if (this.userFull(userId) || this.addressFull(address)) return false;
    this.byUser.increment(userId);
    this.byAddress.increment(address);
    return true;
  }

  release(userId: number, address: string): void {
    this.byUser.decrement(userId);
    this.byAddress.decrement(address);
  }
}
