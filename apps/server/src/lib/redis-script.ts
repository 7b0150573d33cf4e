import crypto from 'node:crypto';
import type { Redis } from 'ioredis';

export type RedisScript = (
  keys: readonly string[],
  args: readonly (string | number)[],
) => Promise<unknown>;

/**
 * A Lua script run atomically by Redis in one round trip: by its SHA1 (EVALSHA), or with its
 * text (EVAL) when this Redis does not know it yet (first use, or after a restart or SCRIPT
 * FLUSH); Redis then keeps it, and the next call goes by SHA1 again.
 */
export function redisScript(redis: Redis, lua: string): RedisScript {
  const sha = crypto.createHash('sha1').update(lua).digest('hex');
  return async (keys, args) => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(lua, keys.length, ...keys, ...args);
    }
  };
}
