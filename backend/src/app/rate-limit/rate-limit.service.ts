import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Errors } from '../errors/app-error';
import { RedisConnection, rateLimitsUnavailable } from './redis-connection';

const MINUTE_MS = 60_000;

/**
 * The per-contact and per-address limits of docs/decisions.md, "Limits" that depend on who the caller is
 * (known only after the checksum or the multipart body is read). The plain per-address read
 * limit is @nestjs/throttler's guard. Fixed windows that open with the first hit, in Redis when
 * THROTTLE_REDIS_URL is set, so every instance counts against the same limits, in process memory
 * otherwise.
 */
@Injectable()
export class RateLimitService {
  private readonly submits: RateLimiterAbstract;
  private readonly uploads: RateLimiterAbstract;
  private readonly uploadRequests: RateLimiterAbstract;
  private readonly attempts: RateLimiterAbstract;

  constructor(redis: RedisConnection, @Inject(APP_CONFIG) config: AppConfig) {
    const {
      submitsPerMinute,
      uploadsPerMinute,
      uploadRequestsPerMinute,
      checksumFailures,
      checksumWindowMs,
    } = config.rateLimits;
    this.submits = fixedWindow(redis, 'submit', submitsPerMinute, MINUTE_MS);
    this.uploads = fixedWindow(redis, 'upload', uploadsPerMinute, MINUTE_MS);
    this.uploadRequests = fixedWindow(redis, 'upload-requests', uploadRequestsPerMinute, MINUTE_MS);
    this.attempts = fixedWindow(redis, undefined, checksumFailures, checksumWindowMs);
  }

  async consumeSubmit(contactId: number): Promise<void> {
    await consume(this.submits, subjectKey(String(contactId)));
  }

  async consumeUpload(contactId: number): Promise<void> {
    await consume(this.uploads, subjectKey(String(contactId)));
  }

  /** Upload requests per client address, counted before a byte of the body is read. */
  async consumeUploadRequest(clientAddress: string): Promise<void> {
    await consume(this.uploadRequests, subjectKey(clientAddress));
  }

  /**
   * Counts an attempt at a secret (a checksum, the staff or the admin key) from an address
   * before it is checked, and refuses it once the address has used up its failures. Counting
   * first means concurrent guesses cannot all pass a check made before any of them failed;
   * the caller gives the attempt back with releaseAttempt when it succeeds.
   */
  async reserveAttempt(kind: SecretKind, clientAddress: string): Promise<void> {
    await consume(this.attempts, attemptKey(kind, clientAddress));
  }

  /** The reserved attempt was no guess (it succeeded, or the CRM could not say). */
  async releaseAttempt(kind: SecretKind, clientAddress: string): Promise<void> {
    const key = attemptKey(kind, clientAddress);
    try {
      // Only a live window gets its attempt back: a reward on an expired one would open the
      // next window below zero, one guess richer.
      const window = await this.attempts.get(key);
      if (window && window.consumedPoints > 0) await this.attempts.reward(key);
    } catch {
      throw rateLimitsUnavailable();
    }
  }
}

/**
 * Secrets whose failures are counted per address, each on its own counter: an admin making
 * preview links must not be locked out by owners' mistakes on a shared address, nor owners by
 * the admin's.
 */
export type SecretKind = 'checksum' | 'preview-checksum' | 'staff-key' | 'admin-key';

/**
 * Keys read `checkin:limits:<kind>:<sha256 of the subject>`: the kind of limit stays readable for
 * operators, the subject (a contact id or a client address) does not sit in Redis in clear.
 */
const KEY_PREFIX = 'checkin:limits';

function fixedWindow(
  redis: RedisConnection,
  kind: string | undefined,
  points: number,
  windowMs: number,
): RateLimiterAbstract {
  const options = {
    keyPrefix: kind ? `${KEY_PREFIX}:${kind}` : KEY_PREFIX,
    points,
    duration: windowMs / 1000,
  };
  return redis.client
    ? new RateLimiterRedis({ ...options, storeClient: redis.client })
    : new RateLimiterMemory(options);
}

/** A hit over the limit answers 429 with Retry-After; a store that cannot count answers 503. */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) throw Errors.rateLimited(retryAfterSeconds(refusal.msBeforeNext));
    throw rateLimitsUnavailable();
  }
}

function subjectKey(subject: string): string {
  return createHash('sha256').update(subject).digest('hex');
}

function attemptKey(kind: SecretKind, clientAddress: string): string {
  return `${kind}-failures:${subjectKey(clientAddress)}`;
}

export function retryAfterSeconds(resetInMs: number): number {
  return Math.max(1, Math.ceil(resetInMs / 1000));
}
