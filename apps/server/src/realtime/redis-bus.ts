import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Envelope, EventTransport } from './events.ts';

/** The two connections a process keeps: pub/sub needs one of its own, in subscriber mode. */
export interface RedisConnections {
  /** Publishing and plain commands (chat history). */
  commands: Redis;
  subscriber: Redis;
  /**
   * Calls `handler` each time one of the two connections is ready again after losing Redis:
   * meanwhile a publish failed (commands) or an event went by unheard (subscriber).
   */
  onResume(handler: () => void): void;
  close(): Promise<void>;
}

// Reconnect quickly at first, then every 2 s for as long as Redis stays away.
const retryStrategy = (times: number) => Math.min(times * 100, 2_000);

export function connectRedis(url: string, log: FastifyBaseLogger): RedisConnections {
  // Commands fail at once while Redis is unreachable instead of queueing in memory: a chat line
  // or a live push that cannot go out now is refused or logged, and the HTTP caller never waits.
  const commands = new Redis(url, {
    retryStrategy,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectionName: 'inkwell-commands',
  });
  // The subscriber keeps its SUBSCRIBE queued until Redis answers, and ioredis subscribes again
  // after every reconnect (autoResubscribe), so events resume by themselves when Redis returns.
  const subscriber = new Redis(url, {
    retryStrategy,
    maxRetriesPerRequest: null,
    autoResubscribe: true,
    connectionName: 'inkwell-subscriber',
  });
  const resumeHandlers = new Set<() => void>();
  const resumed = () => {
    for (const handler of resumeHandlers) handler();
  };
  for (const [name, client] of [
    ['commands', commands],
    ['subscriber', subscriber],
  ] as const) {
    watchOutages(client, name, log, resumed);
  }

  return {
    commands,
    subscriber,
    onResume(handler) {
      resumeHandlers.add(handler);
    },
    async close() {
      resumeHandlers.clear();
      await Promise.all([commands, subscriber].map((client) => closeClient(client)));
    },
  };
}

/**
 * Logs the start and the end of an outage once each, not every reconnect attempt, and calls
 * `resumed` when the connection is ready again after it closed.
 */
function watchOutages(client: Redis, name: string, log: FastifyBaseLogger, resumed: () => void) {
  let down = false;
  let closed = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn({ err: error, redis: name }, 'redis unreachable; retrying');
  });
  client.on('close', () => {
    closed = true;
  });
  client.on('ready', () => {
    if (down) log.info({ redis: name }, 'redis reachable again');
    down = false;
    if (!closed) return;
    closed = false;
    resumed();
  });
}

async function closeClient(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  // QUIT lets pending replies arrive; when Redis is away it would wait forever, so cap it.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.quit().catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, 1_000);
    }),
  ]);
  clearTimeout(timer);
  client.disconnect();
}

/** Redis pub/sub on one channel: every process of the deployment receives every envelope. */
export function createRedisTransport(
  redis: RedisConnections,
  channel: string,
  log: FastifyBaseLogger,
): EventTransport & { ready: Promise<void> } {
  const handlers = new Set<(envelope: Envelope) => void>();
  redis.subscriber.on('message', (from: string, raw: string) => {
    if (from !== channel) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch (error) {
      log.error({ err: error, channel }, 'unreadable event on the bus; ignored');
      return;
    }
    if (typeof envelope?.event?.type !== 'string') {
      log.error({ channel }, 'malformed event on the bus; ignored');
      return;
    }
    for (const handler of handlers) handler(envelope);
  });
  const subscribed = redis.subscriber.subscribe(channel).then(
    () => undefined,
    (error: unknown) =>
      log.error({ err: error, channel }, 'could not subscribe to the event channel'),
  );
  const resumeHandlers = new Set<() => void>();
  redis.onResume(() => {
    // Subscribed again (a no-op if ioredis's own resubscription came first) before telling
    // anyone: from then on every event reaches us, and what was missed is in the database.
    redis.subscriber.subscribe(channel).then(
      () => {
        for (const handler of resumeHandlers) handler();
      },
      (error: unknown) =>
        log.error({ err: error, channel }, 'could not subscribe again to the event channel'),
    );
  });
  const commandsReady =
    redis.commands.status === 'ready'
      ? Promise.resolve()
      : new Promise<void>((resolve) => redis.commands.once('ready', () => resolve()));

  return {
    /** Both connections are up and the channel is subscribed. */
    ready: Promise.all([subscribed, commandsReady]).then(() => undefined),
    async send(envelope) {
      await redis.commands.publish(channel, JSON.stringify(envelope));
    },
    onEnvelope(handler) {
      handlers.add(handler);
    },
    onResume(handler) {
      resumeHandlers.add(handler);
    },
    async close() {
      handlers.clear();
      resumeHandlers.clear();
    },
  };
}
