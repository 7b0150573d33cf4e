import type { Envelope, EventTransport } from './events.ts';

/** The single-process transport: handlers run on a microtask so publishers never wait on delivery. */
export function createMemoryTransport(): EventTransport {
  const handlers = new Set<(envelope: Envelope) => void>();
  return {
    async send(envelope) {
      queueMicrotask(() => {
        for (const handler of handlers) handler(envelope);
      });
    },
    onEnvelope(handler) {
      handlers.add(handler);
    },
    async close() {
      handlers.clear();
    },
  };
}
