import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import type { AppConfig } from '../config/app-config';
import { Errors } from '../errors/app-error';
import type { RedisConnection } from './redis-connection';
import { RedisThrottlerStorage } from './redis-throttler.storage';

const READ_METHODS = new Set(['GET', 'HEAD']);

/** The read limit's name, for `@SkipThrottle({ [READS_THROTTLER]: true })`. */
export const READS_THROTTLER = 'reads';

/**
 * the read limit of docs/decisions.md, "Limits": RATE_LIMIT_READS_PER_MINUTE per client address across every read
 * route together (not per route), in Redis when THROTTLE_REDIS_URL is set. Writes are limited
 * per contact by RateLimitService instead.
 */
export function throttlerOptions(config: AppConfig, redis: RedisConnection): ThrottlerModuleOptions {
  return {
    throttlers: [
      {
        name: READS_THROTTLER,
        ttl: 60_000,
        limit: config.rateLimits.readsPerMinute,
        skipIf: (context) =>
          !READ_METHODS.has(context.switchToHttp().getRequest<{ method: string }>().method),
        // Retry-After comes with the error body (global filter), not as `Retry-After-reads`.
        setHeaders: false,
      },
    ],
    ...(redis.client ? { storage: new RedisThrottlerStorage(redis.client) } : {}),
  };
}

/**
 * @nestjs/throttler's guard with the service's answer: 429 with `Retry-After` and the error body
 * like every other limit, and one counter per address for all read routes. Addresses are
 * hashed so Redis holds no client address.
 */
@Injectable()
export class ReadsThrottlerGuard extends ThrottlerGuard {
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `checkin:${throttlerName}:${createHash('sha256').update(tracker).digest('hex')}`;
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw Errors.rateLimited(Math.max(1, detail.timeToBlockExpire));
  }
}
