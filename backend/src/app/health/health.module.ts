import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CrmDiagnosticsIndicator } from './crm-diagnostics.health';
import { CrmSiteChecks } from '../crm/site-checks';
import { CrmHealthIndicator } from './crm.health';
import { DeploymentCheck } from './deployment-check';
import { DeploymentIndicator } from './deployment.health';
import { DiagnosticsAccessGuard } from './diagnostics-access.guard';
import { HealthController } from './health.controller';
import { ReadyProbeLimitGuard } from './ready-probe-limit.guard';
import { RedisHealthIndicator } from './redis.health';

/**
 * /api/health/live, /api/health/ready and the diagnostic /api/health (docs/decisions.md, "Health"), with
 * @nestjs/terminus. Its own failure log is off: it would print every probe's details (a
 * contact's relationships among them); the indicators log changes of state instead.
 */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [
    CrmHealthIndicator,
    CrmDiagnosticsIndicator,
    RedisHealthIndicator,
    DiagnosticsAccessGuard,
    ReadyProbeLimitGuard,
    CrmSiteChecks,
    DeploymentCheck,
    DeploymentIndicator,
  ],
  exports: [DeploymentCheck],
})
export class HealthModule {}
