import { Controller, Get, Header, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import type { Request } from 'express';
import { AdminKeyGuard } from '../auth/secret-key.guard';
import { READS_THROTTLER } from '../rate-limit/reads-throttler.guard';
import { MetricsService } from './metrics.service';

/**
 * The admin key, in `X-Admin-Key` or as Prometheus sends a credential
 * (`authorization: { credentials_file: … }` in the scrape job: `Authorization: Bearer <ADMIN_KEY>`);
 * wrong keys are counted like the admin key's anywhere (AdminKeyGuard).
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  constructor(private readonly adminKey: AdminKeyGuard) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const bearer = /^Bearer (.+)$/.exec(request.header('Authorization') ?? '')?.[1];
    await this.adminKey.authorize(request, request.header('X-Admin-Key') ?? bearer);
    return true;
  }
}

/** docs/operations.md, "Metrics": not public; a scrape every 15 s is not counted against the read limit. */
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @SkipThrottle({ [READS_THROTTLER]: true })
  @UseGuards(MetricsAccessGuard)
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.exposition();
  }
}
