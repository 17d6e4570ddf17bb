import { Global, Module } from '@nestjs/common';
import { RateLimitService } from './rate-limit.service';
import { RedisConnection } from './redis-connection';

/**
 * the per-contact and checksum-failure counters of docs/decisions.md, "Limits", and the Redis connection they share
 * with the read throttler: in Redis when THROTTLE_REDIS_URL is set, so limits hold across
 * instances, in process memory otherwise.
 */
@Global()
@Module({
  providers: [RedisConnection, RateLimitService],
  exports: [RedisConnection, RateLimitService],
})
export class RateLimitModule {}
