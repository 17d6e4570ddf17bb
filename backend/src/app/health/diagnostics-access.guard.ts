import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AdminKeyGuard } from '../auth/secret-key.guard';
import { appConfig, type AppConfig } from '../config/app-config';

/**
 * Decision 17: in production the diagnostic route shows the CRM's configuration and a
 * contact's relationships only to a caller with `X-Admin-Key`; elsewhere it is open.
 */
@Injectable()
export class DiagnosticsAccessGuard implements CanActivate {
  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly adminKey: AdminKeyGuard,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    return !this.config.production || this.adminKey.canActivate(context);
  }
}
