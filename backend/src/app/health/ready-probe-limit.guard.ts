import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { clientAddress } from '../auth/owner-access.guard';
import { RateLimitService } from '../rate-limit/rate-limit.service';

/**
 * /api/health/ready is open (load balancers carry no key), so it gets its own per-address limit:
 * RATE_LIMIT_READY_PROBES_PER_MINUTE (120 by default) is far above any platform's probing (one
 * every few seconds) and far below a flood.
 */
@Injectable()
export class ReadyProbeLimitGuard implements CanActivate {
  constructor(private readonly rateLimits: RateLimitService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.rateLimits.consumeReadyProbe(clientAddress(context.switchToHttp().getRequest<Request>()));
    return true;
  }
}
