import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';

/** How long one Redis command may take before the request is refused rather than kept waiting. */
const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;
/** ioredis waits this long for a socket that never opened to report closing; nothing is lost by not waiting. */
const DISCONNECT_TIMEOUT_MS = 200;

/**
 * The one Redis connection every instance's rate limits share when THROTTLE_REDIS_URL is set
 * (the read throttler and the per-contact and checksum-failure counters); absent otherwise.
 * It is closed after the HTTP server has finished its in-flight requests, never before.
 * The URL can hold a password, so it is never logged.
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly client: Redis | undefined;
  private readonly logger = new Logger('Redis');
  private failing = false;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const url = config.rateLimits.redisUrl;
    this.client = url ? this.connect(url) : undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.client) return;
    if (this.client.status !== 'ready') {
      // Never connected or reconnecting: nothing to flush, and QUIT would wait for a connection.
      this.client.disconnect(false);
      return;
    }
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect(false);
    }
  }

  private connect(url: string): Redis {
    const client = new Redis(url, {
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      disconnectTimeout: DISCONNECT_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
    });
    // ioredis reports every failed reconnection: log an outage once and its end once.
    client.on('error', (error: Error) => {
      if (this.failing) return;
      this.failing = true;
      this.logger.warn(`Rate limit store unavailable: ${error.message}`);
    });
    client.on('ready', () => {
      if (!this.failing) return;
      this.failing = false;
      this.logger.log('Rate limit store reachable again.');
    });
    return client;
  }
}

/** Limits that cannot be checked are not waived: the request is refused until Redis answers. */
export function rateLimitsUnavailable(): AppError {
  return new AppError(
    503,
    'NOT_READY',
    'The service cannot check its rate limits right now. Please try again in a minute.',
  );
}
