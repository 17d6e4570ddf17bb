import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { DeploymentCheck } from '../health/deployment-check';
import { HealthModule } from '../health/health.module';
import { MetricsAccessGuard, MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** `GET /metrics` (docs/operations.md, "Metrics") and the one MetricsService the rest reports to. */
@Global()
@Module({
  imports: [HealthModule],
  controllers: [MetricsController],
  providers: [MetricsService, MetricsAccessGuard],
  exports: [MetricsService],
})
export class MetricsModule implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly deployment: DeploymentCheck,
  ) {}

  /** The self-check's findings, from its last report (it caches; a scrape never runs a check itself). */
  onModuleInit(): void {
    this.metrics.reportSelfCheckFindings(async () =>
      this.deployment.enabled ? (await this.deployment.current()).problems : [],
    );
  }
}
