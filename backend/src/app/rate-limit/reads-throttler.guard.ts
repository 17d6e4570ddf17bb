import { type ExecutionContext, Injectable } from '@nestjs/common';
import type { INestApplicationContext } from '@nestjs/common';
import {
  getStorageToken,
  normalizeIp,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request } from 'express';
import { createHash } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Errors } from '../errors/app-error';
import type { RedisConnection } from './redis-connection';
import { RedisThrottlerStorage } from './redis-throttler.storage';

const READ_METHODS = new Set(['GET', 'HEAD']);
const READS_WINDOW_MS = 60_000;

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
        ttl: READS_WINDOW_MS,
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
    return readsCounterKey(tracker, throttlerName);
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw Errors.rateLimited(Math.max(1, detail.timeToBlockExpire));
  }
}

/** One counter per client address (hashed: Redis holds no address), shared by every read. */
function readsCounterKey(tracker: string, throttlerName: string): string {
  return `checkin:${throttlerName}:${createHash('sha256').update(tracker).digest('hex')}`;
}

/** Counts one read of the request's client address; throws the 429 AppError when over the limit. */
export type PageReadLimiter = (request: Request) => Promise<void>;

/**
 * The read limit for the owner pages the service renders with their data (pages/): such a
 * page load reads what `GET /api/data` or `GET /api/report` would, and costs more CPU, so it
 * counts against the same per-address counter, in the same storage (memory or Redis), with the
 * same limit, window and address (ThrottlerGuard's own tracker: the client address Express
 * derives under `trust proxy`, IPv6 by its /64). Those pages are answered before Nest's router,
 * where the guard does not run (docs/performance.md, "Server-rendered owner pages").
 */
export function pageReadLimiter(app: INestApplicationContext): PageReadLimiter {
  const storage = app.get<ThrottlerStorage>(getStorageToken(), { strict: false });
  const limit = app.get<AppConfig>(APP_CONFIG, { strict: false }).rateLimits.readsPerMinute;
  return async (request) => {
    const tracker = normalizeIp(request.ip ?? '');
    const record = await storage.increment(
      readsCounterKey(tracker, READS_THROTTLER),
      READS_WINDOW_MS,
      limit,
      READS_WINDOW_MS,
      READS_THROTTLER,
    );
    if (record.isBlocked) throw Errors.rateLimited(Math.max(1, record.timeToBlockExpire));
  };
}
