import { Inject, Injectable } from '@nestjs/common';
import { appConfig, type AppConfig } from '../config/app-config';
import { Errors } from '../errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit.store';

const MINUTE_MS = 60_000;

/**
 * The per-contact and per-address limits of decision 15 that depend on who the caller is
 * (known only after the checksum or the multipart body is read). The plain per-address read
 * limit is @nestjs/throttler's guard.
 */
@Injectable()
export class RateLimitService {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  async consumeSubmit(contactId: number): Promise<void> {
    await this.consume(`submit:${contactId}`, this.config.rateLimits.submitsPerMinute, MINUTE_MS);
  }

  async consumeUpload(contactId: number): Promise<void> {
    await this.consume(`upload:${contactId}`, this.config.rateLimits.uploadsPerMinute, MINUTE_MS);
  }

  /** Refuses a checksum check from an address that failed too often (guessing). */
  async assertChecksumAttemptsLeft(clientAddress: string): Promise<void> {
    const { checksumFailures } = this.config.rateLimits;
    const window = await this.store.peek(`checksum-failures:${clientAddress}`);
    if (window.count >= checksumFailures) throw Errors.rateLimited(retryAfterSeconds(window.resetInMs));
  }

  async recordChecksumFailure(clientAddress: string): Promise<void> {
    await this.store.hit(`checksum-failures:${clientAddress}`, this.config.rateLimits.checksumWindowMs);
  }

  private async consume(key: string, limit: number, windowMs: number): Promise<void> {
    const window = await this.store.hit(key, windowMs);
    if (window.count > limit) throw Errors.rateLimited(retryAfterSeconds(window.resetInMs));
  }
}

function retryAfterSeconds(resetInMs: number): number {
  return Math.max(1, Math.ceil(resetInMs / 1000));
}
