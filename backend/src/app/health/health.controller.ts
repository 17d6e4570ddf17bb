import { Controller, Get, Query, UseFilters, UseGuards } from '@nestjs/common';
import {
  HealthCheck,
  type HealthCheckResult,
  HealthCheckService,
  type HealthIndicatorFunction,
} from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import { READS_THROTTLER } from '../rate-limit/reads-throttler.guard';
import { CrmDiagnosticsIndicator } from './crm-diagnostics.health';
import { CrmHealthIndicator } from './crm.health';
import { DeploymentIndicator } from './deployment.health';
import { DiagnosticsAccessGuard } from './diagnostics-access.guard';
import { ReadyProbeLimitGuard } from './ready-probe-limit.guard';
import { DiagnosticsQuery } from './diagnostics.query';
import { HealthCheckFailureFilter } from './health-check-failure.filter';
import { RedisHealthIndicator } from './redis.health';
import { SERVICE_VERSION } from '../release';

/**
 * docs/decisions.md, "Health". `live`: the process answers (no CRM call, so a CRM outage never restarts it).
 * `ready`: the CRM (and Redis, when configured) answer and the deployment self-check found
 * nothing that makes owner routes fail (health/deployment-check.ts), so a load balancer sends
 * traffic only to instances that can serve it. The bare route: the diagnostics of docs/product-rules.md, "Health", behind the admin key
 * whenever a CRM is configured. Every answer is Terminus's body; 503 when something is down.
 * Probes are not counted against the read limit, so a load balancer never locks itself out;
 * `ready` has its own, far higher, per-address limit and shares one CRM probe between callers.
 */
@Controller('api/health')
@UseFilters(HealthCheckFailureFilter)
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly crm: CrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly diagnostics: CrmDiagnosticsIndicator,
    private readonly deployment: DeploymentIndicator,
  ) {}

  @Get('live')
  @SkipThrottle({ [READS_THROTTLER]: true })
  @HealthCheck()
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  @Get('ready')
  @SkipThrottle({ [READS_THROTTLER]: true })
  @UseGuards(ReadyProbeLimitGuard)
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    return this.health.check([
      () => this.crm.sharedReachability(),
      ...this.redisCheck(),
      ...(this.deployment.enabled ? [() => this.deployment.ownersServable()] : []),
    ]);
  }

  @Get()
  @UseGuards(DiagnosticsAccessGuard)
  @HealthCheck()
  diagnose(@Query() query: DiagnosticsQuery): Promise<HealthCheckResult> {
    const { contactId } = query;
    return this.health.check([
      ...this.readinessChecks(),
      ...(this.deployment.enabled ? [() => this.deployment.report()] : []),
      () => this.diagnostics.customGroups(),
      () => this.diagnostics.stageOptions(),
      () => this.diagnostics.primaryContactType(),
      ...(contactId === undefined ? [] : [() => this.diagnostics.contactRelationships(contactId)]),
      // The release that answers (docs/releasing.md): `details.service.version`.
      () => ({ service: { status: 'up', version: SERVICE_VERSION } }),
    ]);
  }

  private readinessChecks(): HealthIndicatorFunction[] {
    return [() => this.crm.isReachable(), ...this.redisCheck()];
  }

  private redisCheck(): HealthIndicatorFunction[] {
    return this.redis.configured ? [() => this.redis.isReachable()] : [];
  }
}
