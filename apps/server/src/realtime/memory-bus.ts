import type { DomainEvent, EventBus, EventHandler } from './events.ts';

/** The single-process bus: handlers run on the next tick so publishers never wait on delivery. */
export function createMemoryBus(): EventBus {
  const handlers = new Set<EventHandler>();
  return {
    async publish(event: DomainEvent) {
      queueMicrotask(() => {
        for (const handler of handlers) handler(event);
      });
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      handlers.clear();
    },
  };
}
