import { Injectable } from '@nestjs/common';
import { type HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { RedisConnection } from '../rate-limit/redis-connection';

/**
 * Readiness of the shared rate-limit store when THROTTLE_REDIS_URL is set: without it the
 * instance refuses every rate-limited request, so it must not receive traffic.
 */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly redis: RedisConnection,
  ) {}

  get configured(): boolean {
    return this.redis.client !== undefined;
  }

  async isReachable(key = 'redis'): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(key);
    try {
      await this.redis.client?.ping();
      return indicator.up();
    } catch {
      return indicator.down({
        failure: 'unreachable',
        message: 'The rate limit store could not be reached.',
      });
    }
  }
}
