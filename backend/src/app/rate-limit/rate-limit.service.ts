import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Errors } from '../errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit.store';

const MINUTE_MS = 60_000;

/**
 * The per-contact and per-address limits of docs/decisions.md, "Limits" that depend on who the caller is
 * (known only after the checksum or the multipart body is read). The plain per-address read
 * limit is @nestjs/throttler's guard.
 */
@Injectable()
export class RateLimitService {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async consumeSubmit(contactId: number): Promise<void> {
    await this.consume(`submit:${contactId}`, this.config.rateLimits.submitsPerMinute, MINUTE_MS);
  }

  async consumeUpload(contactId: number): Promise<void> {
    await this.consume(`upload:${contactId}`, this.config.rateLimits.uploadsPerMinute, MINUTE_MS);
  }

  /** Upload requests per client address, counted before a byte of the body is read. */
  async consumeUploadRequest(clientAddress: string): Promise<void> {
    await this.consume(
      `upload-requests:${clientAddress}`,
      this.config.rateLimits.uploadRequestsPerMinute,
      MINUTE_MS,
    );
  }

  /**
   * Counts an attempt at a secret (a checksum, the staff or the admin key) from an address
   * before it is checked, and refuses it once the address has used up its failures. Counting
   * first means concurrent guesses cannot all pass a check made before any of them failed;
   * the caller gives the attempt back with releaseAttempt when it succeeds.
   */
  async reserveAttempt(kind: SecretKind, clientAddress: string): Promise<void> {
    const { checksumFailures, checksumWindowMs } = this.config.rateLimits;
    const window = await this.store.hit(attemptKey(kind, clientAddress), checksumWindowMs);
    if (window.count > checksumFailures) throw Errors.rateLimited(retryAfterSeconds(window.resetInMs));
  }

  /** The reserved attempt was no guess (it succeeded, or the CRM could not say). */
  async releaseAttempt(kind: SecretKind, clientAddress: string): Promise<void> {
    await this.store.release(attemptKey(kind, clientAddress));
  }

  private async consume(key: string, limit: number, windowMs: number): Promise<void> {
    const window = await this.store.hit(key, windowMs);
    if (window.count > limit) throw Errors.rateLimited(retryAfterSeconds(window.resetInMs));
  }
}

/**
 * Secrets whose failures are counted per address, each on its own counter: an admin making
 * preview links must not be locked out by owners' mistakes on a shared address, nor owners by
 * the admin's.
 */
export type SecretKind = 'checksum' | 'preview-checksum' | 'staff-key' | 'admin-key';

function attemptKey(kind: SecretKind, clientAddress: string): string {
  return kind === 'checksum' ? `checksum-failures:${clientAddress}` : `${kind}-failures:${clientAddress}`;
}

function retryAfterSeconds(resetInMs: number): number {
  return Math.max(1, Math.ceil(resetInMs / 1000));
}
