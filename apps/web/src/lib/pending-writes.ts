/**
 * Writes on their way that the session must outlive: an editor's last save, sent as the author
 * leaves it (perhaps by clicking Log Out). Logging out waits for them, so the session is not
 * ended under a save that would then be refused and its text left only on this device.
 */
const pending = new Set<Promise<void>>();

/** Keeps the session until `write` ends, however it ends. */
export function keepSessionFor(write: Promise<unknown>): void {
  const tracked = write.then(
    () => undefined,
    () => undefined,
  );
  pending.add(tracked);
  void tracked.then(() => pending.delete(tracked));
}

/** Resolves once every write kept so far has ended, or after `timeoutMs` whatever they do. */
export function pendingWritesEnded(timeoutMs = 10_000): Promise<void> {
  if (pending.size === 0) return Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    Promise.all([...pending]).then(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]).finally(() => clearTimeout(timer));
}
