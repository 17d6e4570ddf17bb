import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type AppError, Errors } from '../errors/app-error';
import { RateLimitService, type SecretKind } from '../rate-limit/rate-limit.service';
import { clientAddress } from './owner-access.guard';

/**
 * Compares a presented key with the configured one in constant time. Both sides are hashed
 * first so the comparison never depends on (or reveals) the key's length.
 */
export function keysMatch(presented: string | undefined, expected: string | undefined): boolean {
  if (!presented || !expected) return false;
  const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * A key in a header, compared in constant time. Every attempt is counted against the caller's
 * address before the comparison and given back when the key is right, so wrong keys are limited
 * like wrong checksums (RATE_LIMIT_CHECKSUM_FAILURES per window), concurrent ones included.
 */
abstract class HeaderKeyGuard implements CanActivate {
  protected abstract readonly header: string;
  protected abstract readonly kind: SecretKind;
  protected abstract expectedKey(): string | undefined;
  protected abstract refusal(): AppError;

  constructor(private readonly rateLimits: RateLimitService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const address = clientAddress(request);
    await this.rateLimits.reserveAttempt(this.kind, address);
    if (!keysMatch(request.header(this.header), this.expectedKey())) throw this.refusal();
    await this.rateLimits.releaseAttempt(this.kind, address);
    return true;
  }
}

/** Staff page and /api/staff/report: `X-Staff-Key` against STAFF_REPORT_KEY (docs/decisions.md, "Staff page"). */
@Injectable()
export class StaffKeyGuard extends HeaderKeyGuard {
  protected readonly header = 'X-Staff-Key';
  protected readonly kind = 'staff-key';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    rateLimits: RateLimitService,
  ) {
    super(rateLimits);
  }

  protected expectedKey(): string | undefined {
    return this.config.staffReportKey;
  }

  protected refusal(): AppError {
    return Errors.staffKeyInvalid();
  }
}

/** Admin routes (preview links, production diagnostics): `X-Admin-Key` against ADMIN_KEY. */
@Injectable()
export class AdminKeyGuard extends HeaderKeyGuard {
  protected readonly header = 'X-Admin-Key';
  protected readonly kind = 'admin-key';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    rateLimits: RateLimitService,
  ) {
    super(rateLimits);
  }

  protected expectedKey(): string | undefined {
    return this.config.adminKey;
  }

  protected refusal(): AppError {
    return Errors.adminKeyInvalid();
  }
}
