import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import type { RateLimitStore, WindowCount } from './rate-limit.store';
import { rateLimitsUnavailable } from './redis-connection';

const KEY_PREFIX = 'checkin:limits:';

/**
 * Counts a hit and answers [count, milliseconds left]. The window starts with the first hit
 * (PEXPIRE only then), and a key that somehow lost its expiry gets one, so no counter lives
 * for ever. One script, so two instances hitting the same key at once count both hits.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/** Takes one back from a live counter; never below zero, never on an expired key. */
const RELEASE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then return redis.call('DECR', KEYS[1]) end
return 0
`;

/**
 * Fixed-window counters in Redis, shared by every instance of the service: INCR, PEXPIRE on
 * the first hit, PTTL for the time left. A Redis failure refuses the request (503) instead of
 * letting it through unlimited.
 */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const reply = await this.guarded(() => this.redis.eval(HIT_SCRIPT, 1, redisKey(key), windowMs));
    const [count, ttl] = Array.isArray(reply) ? reply : [];
    if (typeof count !== 'number' || typeof ttl !== 'number') throw rateLimitsUnavailable();
    return { count, resetInMs: ttl };
  }

  async peek(key: string): Promise<WindowCount> {
    const [count, ttl] = await this.guarded(() =>
      Promise.all([this.redis.get(redisKey(key)), this.redis.pttl(redisKey(key))]),
    );
    if (count === null || ttl <= 0) return { count: 0, resetInMs: 0 };
    return { count: Number(count), resetInMs: ttl };
  }

  async release(key: string): Promise<void> {
    await this.guarded(() => this.redis.eval(RELEASE_SCRIPT, 1, redisKey(key)));
  }

  private async guarded<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch {
      throw rateLimitsUnavailable();
    }
  }
}

/**
 * `upload:102` becomes `checkin:limits:upload:<sha256 of 102>`: the kind of limit stays readable
 * for operators, the subject (a contact id or a client address) does not sit in Redis in clear.
 */
function redisKey(key: string): string {
  const separator = key.indexOf(':');
  const [kind, subject] =
    separator < 0 ? ['limit', key] : [key.slice(0, separator), key.slice(separator + 1)];
  return `${KEY_PREFIX}${kind}:${createHash('sha256').update(subject).digest('hex')}`;
}
