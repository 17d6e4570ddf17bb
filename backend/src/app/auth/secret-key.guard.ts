import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  Logger,
  type Type,
} from '@nestjs/common';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type AppError, Errors } from '../errors/app-error';
import { RateLimitService, type SecretKind } from '../rate-limit/rate-limit.service';
import { clientAddress } from './owner-access.guard';
import { looksLikeStaffLink, verifyStaffLinkWithRotation } from './staff-link-token';

/**
 * Compares a presented key with the configured one in constant time. Both sides are hashed
 * first so the comparison never depends on (or reveals) the key's length.
 */
export function keysMatch(presented: string | undefined, expected: string | undefined): boolean {
  if (!presented || !expected) return false;
  const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** A key guard answers once the attempt is counted: always a promise. */
export interface KeyGuard extends CanActivate {
  canActivate(context: ExecutionContext): Promise<boolean>;
  /**
   * The same check for a key that arrived another way than its header (the staff page's address,
   * on the load the service renders): resolves when accepted, rejects with the guard's refusal.
   */
  authorize(request: Request, presented: string | undefined): Promise<void>;
}

/** What tells one key guard from another. */
export interface SecretKeySpec {
  header: string;
  kind: SecretKind;
  expectedKey(config: AppConfig): string | undefined;
  refusal(): AppError;
  /**
   * Another credential the header may carry in place of the key (staff link tokens). Asked only
   * when the key does not match.
   */
  alternative?(presented: string, request: Request, config: AppConfig, logger: Logger): boolean;
}

/**
 * A guard for a key in a header, compared in constant time; a named class extends it (as
 * `class StaffKeyGuard extends secretKeyGuard(...) {}`) so that it can be injected by type. Every attempt is counted against the
 * caller's address before the comparison and given back when the key is right, so wrong keys are
 * limited like wrong checksums (RATE_LIMIT_CHECKSUM_FAILURES per window), concurrent ones included.
 */
export function secretKeyGuard(name: string, spec: SecretKeySpec): Type<KeyGuard> {
  @Injectable()
  class SecretKeyGuard implements KeyGuard {
    private readonly logger = new Logger(name);

    constructor(
      @Inject(APP_CONFIG) private readonly config: AppConfig,
      private readonly rateLimits: RateLimitService,
    ) {}

    async canActivate(context: ExecutionContext): Promise<boolean> {
      const request = context.switchToHttp().getRequest<Request>();
      await this.authorize(request, request.header(spec.header));
      return true;
    }

    async authorize(request: Request, presented: string | undefined): Promise<void> {
      const address = clientAddress(request);
      await this.rateLimits.reserveAttempt(spec.kind, address);
      const accepted =
        keysMatch(presented, spec.expectedKey(this.config)) ||
        (presented !== undefined &&
          spec.alternative?.(presented, request, this.config, this.logger) === true);
      if (!accepted) throw spec.refusal();
      await this.rateLimits.releaseAttempt(spec.kind, address);
    }
  }
  return SecretKeyGuard;
}

/**
 * A staff link token from the CiviCRM extension, for the organization the request names only
 * (auth/staff-link-token.ts). Logs who opened which report, never the token.
 */
function staffLinkAccepted(presented: string, request: Request, config: AppConfig, logger: Logger): boolean {
  if (!config.staffLinkKey || !looksLikeStaffLink(presented)) return false;
  const verdict = verifyStaffLinkWithRotation(
    presented,
    config.staffLinkKey,
    config.staffLinkPreviousKey,
    new Date(),
  );
  const asked = request.query['orgId'];
  // Only digits reach the log: the query is the caller's text.
  const orgId = typeof asked === 'string' && /^\d{1,15}$/.test(asked.trim()) ? asked.trim() : undefined;
  if (!verdict.accepted) {
    logger.warn(`staff link refused (${verdict.reason}) for organization ${orgId ?? '(none)'}`);
    return false;
  }
  const { staffContactId, orgId: linkOrgId } = verdict.claims;
  if (orgId !== String(linkOrgId)) {
    logger.warn(
      `staff link of contact ${staffContactId} for organization ${linkOrgId} refused for organization ${orgId ?? '(none)'}`,
    );
    return false;
  }
  logger.log(
    `staff report of organization ${linkOrgId} opened by CiviCRM contact ${staffContactId} (staff link)`,
  );
  return true;
}

/**
 * Staff page and /api/staff/report: `X-Staff-Key` against STAFF_REPORT_KEY (docs/decisions.md,
 * "Staff page"), or a staff link token signed with STAFF_LINK_KEY for the requested orgId.
 */
@Injectable()
export class StaffKeyGuard extends secretKeyGuard('StaffKeyGuard', {
  header: 'X-Staff-Key',
  kind: 'staff-key',
  expectedKey: (config) => config.staffReportKey,
  refusal: () => Errors.staffKeyInvalid(),
  alternative: staffLinkAccepted,
}) {}

/** Admin routes (preview links, production diagnostics): `X-Admin-Key` against ADMIN_KEY. */
@Injectable()
export class AdminKeyGuard extends secretKeyGuard('AdminKeyGuard', {
  header: 'X-Admin-Key',
  kind: 'admin-key',
  expectedKey: (config) => config.adminKey,
  refusal: () => Errors.adminKeyInvalid(),
}) {}
