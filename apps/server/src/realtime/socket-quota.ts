/**
 * Caps the sockets this process holds per user and per client address (0: no cap), so that one
 * account or one machine cannot hold thousands of connections (and the memory, heartbeats and
 * fan-out work each costs). Counted per process: behind a load balancer each process caps its own.
 */
export class SocketQuota {
  private readonly byUser = new Map<number, number>();
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly limits: { perUser: number; perAddress: number }) {}

  /** Takes a place for a new socket; false (and nothing taken) when either cap is reached. */
  acquire(userId: number, address: string): boolean {
    const users = this.byUser.get(userId) ?? 0;
    const addresses = this.byAddress.get(address) ?? 0;
    if (this.limits.perUser > 0 && users >= this.limits.perUser) return false;
    if (this.limits.perAddress > 0 && addresses >= this.limits.perAddress) return false;
    this.byUser.set(userId, users + 1);
    this.byAddress.set(address, addresses + 1);
    return true;
  }

  release(userId: number, address: string): void {
    decrement(this.byUser, userId);
    decrement(this.byAddress, address);
  }
}

function decrement<K>(counts: Map<K, number>, key: K): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
