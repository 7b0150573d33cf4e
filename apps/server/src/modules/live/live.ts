import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/kysely.ts';
import {
  createMemoryChatHistory,
  createRedisChatHistory,
  type ChatHistory,
} from '../chat/chat-history.ts';
import { storeNotifications } from '../notifications/notifications.service.ts';
import { createEventBus } from '../../realtime/bus.ts';
import type { EventBus } from '../../realtime/events.ts';
import { createMemoryTransport } from '../../realtime/memory-bus.ts';
import { connectRedis, createRedisTransport } from '../../realtime/redis-bus.ts';

/** How long a starting process waits for Redis before serving anyway (events flow once it is up). */
const REDIS_STARTUP_WAIT_MS = 5_000;

/** The shared state of live features: the event bus and the chat history, in memory or in Redis. */
export interface Live {
  bus: EventBus;
  chatHistory: ChatHistory;
  /** Resolves when the bus can carry events (at once in memory), or after a bounded wait. */
  ready(): Promise<void>;
  /** The Redis commands connection, for other state processes share (rate limits); null without Redis. */
  redis: Redis | null;
  /** Rejects when the shared transport is unreachable (Redis PING); for the readiness probe. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createLive({
  config,
  db,
  log,
}: {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
}): Live {
  const beforeSend = (event: Parameters<typeof storeNotifications>[1]) =>
    storeNotifications({ db }, event);

  if (!config.REDIS_URL) {
    const bus = createEventBus({ transport: createMemoryTransport(), beforeSend, log });
    return {
      bus,
      chatHistory: createMemoryChatHistory(),
      redis: null,
      ready: async () => {},
      ping: async () => {},
      close: () => bus.close(),
    };
  }

  const redis = connectRedis(config.REDIS_URL, log);
  const transport = createRedisTransport(redis, `${config.REDIS_PREFIX}:events`, log);
  const bus = createEventBus({ transport, beforeSend, log });
  return {
    bus,
    chatHistory: createRedisChatHistory(redis.commands, config.REDIS_PREFIX),
    redis: redis.commands,
    async ready() {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), REDIS_STARTUP_WAIT_MS);
      });
      if (await Promise.race([transport.ready.then(() => false), gaveUp])) {
        log.warn('redis is not reachable yet; serving without live events until it is');
      }
      clearTimeout(timer);
    },
    async ping() {
      await redis.commands.ping();
    },
    async close() {
      await bus.close();
      await redis.close();
    },
  };
}
