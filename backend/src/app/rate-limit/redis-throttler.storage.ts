import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';
import { rateLimitsUnavailable } from './redis-connection';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The read throttler's counters in the shared Redis (@nest-lab/throttler-storage-redis), with
 * one change: a Redis failure answers 503 with the error body instead of an unexplained 500.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly storage: ThrottlerStorageRedisService;

  constructor(redis: Redis) {
    this.storage = new ThrottlerStorageRedisService(redis);
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    try {
      return await this.storage.increment(key, ttl, limit, blockDuration, throttlerName);
    } catch {
      throw rateLimitsUnavailable();
    }
  }
}
