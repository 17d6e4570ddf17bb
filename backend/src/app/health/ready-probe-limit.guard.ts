import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { clientAddress } from '../auth/owner-access.guard';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Errors } from '../errors/app-error';
import { MemoryRateLimitStore } from '../rate-limit/rate-limit.store';

const MINUTE_MS = 60_000;

/**
 * /api/health/ready is open (load balancers carry no key), so it gets its own per-address limit:
 * RATE_LIMIT_READY_PROBES_PER_MINUTE (120 by default) is far above any platform's probing (one
 * every few seconds) and far below a flood. Counted in this process, never in Redis: readiness
 * is this instance's own, and must still answer (saying Redis is down) when Redis is.
 */
@Injectable()
export class ReadyProbeLimitGuard implements CanActivate {
  private readonly counts = new MemoryRateLimitStore();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const address = clientAddress(context.switchToHttp().getRequest<Request>());
    const window = await this.counts.hit(address, MINUTE_MS);
    if (window.count > this.config.rateLimits.readyProbesPerMinute) {
      throw Errors.rateLimited(Math.max(1, Math.ceil(window.resetInMs / 1000)));
    }
    return true;
  }
}
