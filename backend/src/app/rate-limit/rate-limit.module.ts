import { Global, Module } from '@nestjs/common';
import { RateLimitService } from './rate-limit.service';
import { MemoryRateLimitStore, RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit.store';
import { RedisConnection } from './redis-connection';
import { RedisRateLimitStore } from './redis-rate-limit.store';

/**
 * the per-contact and checksum-failure counters of docs/decisions.md, "Limits", and the Redis connection they share
 * with the read throttler: in Redis when THROTTLE_REDIS_URL is set, so limits hold across
 * instances, in process memory otherwise.
 */
@Global()
@Module({
  providers: [
    RedisConnection,
    {
      provide: RATE_LIMIT_STORE,
      inject: [RedisConnection],
      useFactory: (redis: RedisConnection): RateLimitStore =>
        redis.client ? new RedisRateLimitStore(redis.client) : new MemoryRateLimitStore(),
    },
    RateLimitService,
  ],
  exports: [RedisConnection, RATE_LIMIT_STORE, RateLimitService],
})
export class RateLimitModule {}
