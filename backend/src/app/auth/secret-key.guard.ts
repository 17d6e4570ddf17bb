import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { appConfig, type AppConfig } from '../config/app-config';
import { type AppError, Errors } from '../errors/app-error';

/**
 * Compares a presented key with the configured one in constant time. Both sides are hashed
 * first so the comparison never depends on (or reveals) the key's length.
 */
export function keysMatch(presented: string | undefined, expected: string | undefined): boolean {
  if (!presented || !expected) return false;
  const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

abstract class HeaderKeyGuard implements CanActivate {
  protected abstract readonly header: string;
  protected abstract expectedKey(): string | undefined;
  protected abstract refusal(): AppError;

  canActivate(context: ExecutionContext): boolean {
    const presented = context.switchToHttp().getRequest<Request>().header(this.header);
    if (!keysMatch(presented, this.expectedKey())) throw this.refusal();
    return true;
  }
}

/** Staff page and /api/staff/report: `X-Staff-Key` against STAFF_REPORT_KEY (decision 5). */
@Injectable()
export class StaffKeyGuard extends HeaderKeyGuard {
  protected readonly header = 'X-Staff-Key';

  constructor(@Inject(appConfig.KEY) private readonly config: AppConfig) {
    super();
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

  constructor(@Inject(appConfig.KEY) private readonly config: AppConfig) {
    super();
  }

  protected expectedKey(): string | undefined {
    return this.config.adminKey;
  }

  protected refusal(): AppError {
    return Errors.adminKeyInvalid();
  }
}
