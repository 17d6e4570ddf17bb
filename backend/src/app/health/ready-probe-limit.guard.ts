import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { clientAddress } from '../auth/owner-access.guard';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Errors } from '../errors/app-error';
import { retryAfterSeconds } from '../rate-limit/rate-limit.service';

/**
 * /api/health/ready is open (load balancers carry no key), so it gets its own per-address limit:
 * RATE_LIMIT_READY_PROBES_PER_MINUTE (120 by default) is far above any platform's probing (one
 * every few seconds) and far below a flood. Counted in this process, never in Redis: readiness
 * is this instance's own, and must still answer (saying Redis is down) when Redis is.
 */
@Injectable()
export class ReadyProbeLimitGuard implements CanActivate {
  // Counts without refusing: the limit is the config's, which only the constructor receives.
  private readonly counts = new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: 60 });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const address = clientAddress(context.switchToHttp().getRequest<Request>());
    const window = await this.counts.consume(address);
    if (window.consumedPoints > this.config.rateLimits.readyProbesPerMinute) {
      throw Errors.rateLimited(retryAfterSeconds(window.msBeforeNext));
    }
    return true;
  }
}
