import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DomainEvent, Envelope, EventBus, EventHandler, EventTransport } from './events.ts';

export interface EventBusOptions {
  transport: EventTransport;
  /**
   * Runs once per event, on the publishing process only, before the event leaves it; whatever
   * it answers travels in the envelope. The notification inbox is written here, which is what
   * makes "one inbox row per recipient" hold however many processes receive the event.
   */
  beforeSend?: (event: DomainEvent) => Promise<Pick<Envelope, 'recipients'> | undefined>;
  log: FastifyBaseLogger;
}

export function createEventBus({ transport, beforeSend, log }: EventBusOptions): EventBus {
  const origin = crypto.randomUUID();
  const handlers = new Set<EventHandler>();
  const observers = new Set<(event: DomainEvent) => void>();
  const resumeHandlers = new Set<() => void>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  transport.onEnvelope((envelope) => {
    for (const handler of handlers) {
      try {
        handler(envelope.event, envelope);
      } catch (error) {
        // One failing subscriber must not starve the others.
        log.error({ err: error, event: envelope.event.type }, 'event handler failed');
      }
    }
  });

  transport.onResume?.(() => {
    log.info('event bus delivering again; events sent during the outage are lost');
    for (const handler of resumeHandlers) handler();
  });

  async function deliver(event: DomainEvent): Promise<void> {
    try {
      const extra = beforeSend ? await beforeSend(event) : undefined;
      await transport.send({ origin, event, ...extra, sentAt: Date.now() });
    } catch (error) {
      log.error({ err: error, event: event.type }, 'event not delivered');
    }
  }

  return {
    origin,
    publish(event) {
      if (closed) {
        log.warn({ event: event.type }, 'event published after the bus closed; dropped');
        return Promise.resolve();
      }
      for (const observer of observers) {
        try {
          observer(event);
        } catch (error) {
          log.error({ err: error, event: event.type }, 'event observer failed');
        }
      }
      const task = deliver(event);
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
      return task;
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    observe(handler) {
      observers.add(handler);
      return () => observers.delete(handler);
    },
    onResume(handler) {
      resumeHandlers.add(handler);
      return () => resumeHandlers.delete(handler);
    },
    async close() {
      closed = true;
      // A shutdown must not lose an inbox write that a request already started.
      await Promise.all(inFlight);
      handlers.clear();
      observers.clear();
      resumeHandlers.clear();
      await transport.close();
    },
  };
}
