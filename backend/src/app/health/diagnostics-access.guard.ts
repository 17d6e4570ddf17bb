import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AdminKeyGuard } from '../auth/secret-key.guard';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * docs/decisions.md, "Health": the diagnostic route shows the CRM's configuration and a contact's
 * relationships only to a caller with `X-Admin-Key` whenever the service runs against a CRM
 * (production or not: a development instance pointed at a real CRM holds real people). Stub
 * mode, with only demo data, stays open.
 */
@Injectable()
export class DiagnosticsAccessGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adminKey: AdminKeyGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    return this.config.stubMode || this.adminKey.canActivate(context);
  }
}
