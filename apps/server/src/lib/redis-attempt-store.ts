import type { Redis } from 'ioredis';
import type { Acquired, AttemptStore, BackoffPolicy } from './failure-limiter.ts';
import { redisScript, type RedisScript } from './redis-script.ts';

/**
 * The rules of `MemoryAttemptStore` (failure-limiter.ts), in Lua, so that each operation reads
 * and changes a key in one atomic step on Redis, whichever process asks. Keep the two in step:
 * `test/unit/attempt-stores.test.ts` runs one table of cases against both.
 *
 * A key is a hash: `failures`, `failedAt`, `touchedAt`, and one field `a:<attempt>` per attempt
 * in flight, whose value is when it lapses. Times are the callers' (epoch ms), as in memory.
 * Redis forgets the whole key `forgetMs` after its last use, as the memory store does; since
 * the times are the callers' and not Redis's clock, the script also keeps `touchedAt` to forget a
 * key whose expiry a caller with a later clock has not reached yet (the memory store's map does
 * that itself).
 */
const LUA = `
local key, op, attempt, now = KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3])
local free, baseMs, maxMs = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local forgetMs, inFlightMs = tonumber(ARGV[7]), tonumber(ARGV[8])

-- backoffMs() of failure-limiter.ts
local function backoff(failures)
  if failures < free then return 0 end
  return math.min(maxMs, baseMs * 2 ^ math.min(failures - free, 40))
end

-- The key's state, and its attempts in flight (name -> when it lapses).
local function read()
  local state, inFlight, count = { failures = 0, failedAt = 0 }, {}, 0
  local fields = redis.call('HGETALL', key)
  for i = 1, #fields, 2 do
    local name, value = fields[i], tonumber(fields[i + 1])
    if string.sub(name, 1, 2) == 'a:' then
      inFlight[name] = value
      count = count + 1
    else
      state[name] = value
    end
  end
  return state, inFlight, count
end

-- ExpiringMap.get(): a key unused for longer than forgetMs is gone.
local function live()
  local state, inFlight, count = read()
  if state.touchedAt and now > state.touchedAt + forgetMs then
    redis.call('DEL', key)
    return { failures = 0, failedAt = 0 }, {}, 0
  end
  return state, inFlight, count
end

local function touch()
  redis.call('HSET', key, 'touchedAt', now)
  redis.call('PEXPIRE', key, forgetMs + 1)
end

if op == 'acquire' then
  local state, inFlight, count = live()
  for name, lapsesAt in pairs(inFlight) do
    if lapsesAt <= now then
      redis.call('HDEL', key, name)
      count = count - 1
    end
  end
  local wait = state.failedAt + backoff(state.failures) - now
  if state.failures > 0 and wait > 0 then return wait end
  if count > 0 and state.failures + count >= free then return -1 end
  redis.call('HSET', key, 'a:' .. attempt, now + inFlightMs)
  touch()
  return 0
elseif op == 'fail' then
  live()
  redis.call('HDEL', key, 'a:' .. attempt)
  redis.call('HINCRBY', key, 'failures', 1)
  redis.call('HSET', key, 'failedAt', now)
  touch()
  return 0
elseif op == 'release' then
  redis.call('HDEL', key, 'a:' .. attempt)
  local state, _, count = read()
  if count == 0 and state.failures == 0 then redis.call('DEL', key) end
  return 0
elseif op == 'reset' then
  local _, _, count = read()
  if count == 0 then redis.call('DEL', key) else redis.call('HSET', key, 'failures', 0) end
  return 0
end
return redis.error_reply('unknown op ' .. tostring(op))
`;

/** Attempts counted in Redis, shared by every process using it; keys under `prefix`. */
export class RedisAttemptStore implements AttemptStore {
  private readonly script: RedisScript;
  private readonly prefix: string;
  private readonly policy: BackoffPolicy;

  constructor(redis: Redis, prefix: string, policy: BackoffPolicy) {
    this.prefix = prefix;
    this.policy = policy;
    this.script = redisScript(redis, LUA);
  }

  async acquire(key: string, attempt: string, now: number): Promise<Acquired> {
    const answer = Number(await this.run('acquire', key, attempt, now));
    if (answer === 0) return { admitted: true };
    return answer < 0 ? { busy: true } : { waitMs: answer };
  }

  async fail(key: string, attempt: string, now: number): Promise<void> {
    await this.run('fail', key, attempt, now);
  }

  async release(key: string, attempt: string): Promise<void> {
    await this.run('release', key, attempt, 0);
  }

  async reset(key: string): Promise<void> {
    await this.run('reset', key, '', 0);
  }

  private run(op: string, key: string, attempt: string, now: number) {
    const { free, baseMs, maxMs, forgetMs, inFlightMs } = this.policy;
    return this.script(
      [`${this.prefix}:${key}`],
      [op, attempt, now, free, baseMs, maxMs, forgetMs, inFlightMs],
    );
  }
}
