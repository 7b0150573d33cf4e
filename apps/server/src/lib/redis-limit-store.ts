import type { Redis } from 'ioredis';
import type { Held, LimitStore, Place, Spent } from './limit-store.ts';
import { redisScript, type RedisScript } from './redis-script.ts';
import { fillMs, type TokenRate } from './token-bucket.ts';

/**
 * The rules of `MemoryLimitStore` (limit-store.ts) in Lua, one atomic round trip per operation,
 * shared by every process using the Redis. Keep the two in step: `test/unit/limit-stores.test.ts`
 * runs one table of cases against both.
 *
 * - A bucket is a hash {tokens, at}, forgotten once it would have filled again (it is full then).
 * - A key's places are a sorted set: each member a holder, its score when its place lapses. A
 *   lapsed member is dropped before anything counts them; the set goes with its last member.
 */
const LUA = `
local op, now = ARGV[1], tonumber(ARGV[2])

-- Drops the key's lapsed places; answers how many are left.
local function live(key)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  return redis.call('ZCARD', key)
end

if op == 'spend' then
  -- spendToken() of token-bucket.ts
  local key, burst, perSecond, fill = KEYS[1], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
  local saved = redis.call('HMGET', key, 'tokens', 'at')
  local tokens, at = burst, now
  if saved[2] then
    local savedAt = tonumber(saved[2])
    tokens = math.min(burst, tonumber(saved[1]) + math.max(0, now - savedAt) / 1000 * perSecond)
    at = math.max(now, savedAt)
  end
  local wait = 0
  if tokens < 1 then wait = math.ceil((1 - tokens) / perSecond * 1000) else tokens = tokens - 1 end
  redis.call('HSET', key, 'tokens', tokens, 'at', at)
  redis.call('PEXPIRE', key, at - now + fill + 1)
  return wait
elseif op == 'hold' then
  local holder, holdMs = ARGV[3], tonumber(ARGV[4])
  for i, key in ipairs(KEYS) do
    if not redis.call('ZSCORE', key, holder) and live(key) >= tonumber(ARGV[4 + i]) then return 0 end
  end
  for _, key in ipairs(KEYS) do
    redis.call('ZADD', key, now + holdMs, holder)
    redis.call('PEXPIRE', key, holdMs)
  end
  return 1
elseif op == 'held' then
  return live(KEYS[1])
elseif op == 'renew' then
  local holdMs = tonumber(ARGV[3])
  for i, key in ipairs(KEYS) do
    redis.call('ZADD', key, now + holdMs, ARGV[3 + i])
    redis.call('PEXPIRE', key, holdMs)
  end
  return 0
elseif op == 'unhold' then
  for _, key in ipairs(KEYS) do redis.call('ZREM', key, ARGV[3]) end
  return 0
end
return redis.error_reply('unknown op ' .. tostring(op))
`;

/** Holds renewed per round trip at most: a script runs alone on Redis, so keep each one short. */
const RENEW_CHUNK = 500;

/** Limits counted in Redis, shared by every process using it; keys under `prefix`. */
export class RedisLimitStore implements LimitStore {
  private readonly script: RedisScript;
  private readonly prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.prefix = prefix;
    this.script = redisScript(redis, LUA);
  }

  async spend(key: string, rate: TokenRate, now: number): Promise<Spent> {
    const wait = Number(
      await this.script(
        [this.named(key)],
        ['spend', now, rate.burst, rate.perSecond, fillMs(rate)],
      ),
    );
    return wait === 0 ? { allowed: true } : { allowed: false, retryAfterMs: wait };
  }

  async hold(
    places: readonly Place[],
    holder: string,
    now: number,
    holdMs: number,
  ): Promise<boolean> {
    const answer = await this.script(
      places.map((place) => this.named(place.key)),
      ['hold', now, holder, holdMs, ...places.map((place) => place.cap)],
    );
    return Number(answer) === 1;
  }

  async held(key: string, now: number): Promise<number> {
    return Number(await this.script([this.named(key)], ['held', now]));
  }

  async renew(holds: readonly Held[], now: number, holdMs: number): Promise<void> {
    const pairs = holds.flatMap(({ holder, keys }) => keys.map((key) => [key, holder] as const));
    const chunks: Array<typeof pairs> = [];
    for (let start = 0; start < pairs.length; start += RENEW_CHUNK)
      chunks.push(pairs.slice(start, start + RENEW_CHUNK));
    // Sent together (the connection pipelines them): one round trip for the whole heartbeat, so
    // a process with many sockets renews well within the fall-back's time limit.
    await Promise.all(
      chunks.map((chunk) =>
        this.script(
          chunk.map(([key]) => this.named(key)),
          ['renew', now, holdMs, ...chunk.map(([, holder]) => holder)],
        ),
      ),
    );
  }

  async unhold(keys: readonly string[], holder: string): Promise<void> {
    await this.script(
      keys.map((key) => this.named(key)),
      ['unhold', 0, holder],
    );
  }

  private named(key: string): string {
    return `${this.prefix}:${key}`;
  }
}
