import { CHAT_LIMITS } from '@inkwell/contract';
import type { Redis } from 'ioredis';

/** A stored chat line: the broadcast {user, message} plus the id that lets joiners skip repeats. */
export interface ChatLine {
  id: string;
  user: string;
  /** Who said it, so that a mute hides the line whatever the speaker is called now (absent
   * on lines stored before it was kept). */
  userId?: number;
  message: string;
}

/** The last lines of each room, replayed to whoever joins. Only members' lines are kept, not join/leave notes. */
export interface ChatHistory {
  append(room: string, line: ChatLine): Promise<void>;
  /** Oldest first, at most CHAT_LIMITS.historySize. */
  recent(room: string): Promise<ChatLine[]>;
}

const SIZE = CHAT_LIMITS.historySize;

/** One process, no Redis: the history lives as long as the process. */
export function createMemoryChatHistory(): ChatHistory {
  const rooms = new Map<string, ChatLine[]>();
  return {
    async append(room, line) {
      const lines = rooms.get(room) ?? [];
      lines.push(line);
      if (lines.length > SIZE) lines.splice(0, lines.length - SIZE);
      rooms.set(room, lines);
    },
    async recent(room) {
      return [...(rooms.get(room) ?? [])];
    },
  };
}

/** A room nobody spoke in for this long loses its history, so abandoned rooms do not pile up. */
const IDLE_ROOM_SECONDS = 30 * 24 * 60 * 60;

/** Several processes: a capped Redis list per room (newest at the head), shared by all of them. */
export function createRedisChatHistory(redis: Redis, prefix: string): ChatHistory {
  const key = (room: string) => `${prefix}:chat:${room}`;
  return {
    async append(room, line) {
      const results = await redis
        .multi()
        .lpush(key(room), JSON.stringify(line))
        .ltrim(key(room), 0, SIZE - 1)
        .expire(key(room), IDLE_ROOM_SECONDS)
        .exec();
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error('chat history write was aborted');
    },
    async recent(room) {
      const raw = await redis.lrange(key(room), 0, SIZE - 1);
      return raw.reverse().flatMap((text) => {
        try {
          return [JSON.parse(text) as ChatLine];
        } catch {
          return [];
        }
      });
    },
  };
}
