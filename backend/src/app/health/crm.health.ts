import { Inject, Injectable, Logger } from '@nestjs/common';
import { type HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CrmSiteGateway } from '../crm/site.gateway';
import { crmDown } from './dependency-failure';

/**
 * Readiness of the CRM: one cheap authenticated read (`Contact.get`, id only, limit 1), so a
 * wrong API key shows as down just like an outage. Changes of state are logged once, not on
 * every probe of the load balancer.
 */
@Injectable()
export class CrmHealthIndicator {
  private readonly logger = new Logger('Health');
  private lastStatus?: 'up' | 'down';
  private sharedProbe?: { result: Promise<HealthIndicatorResult>; at: number };

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly site: CrmSiteGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Readiness as every caller within READY_PROBE_CACHE_MS shares it: one CRM call however many
   * probes (or attackers) ask, and probes arriving while it runs wait for the same answer.
   */
  sharedReachability(): Promise<HealthIndicatorResult> {
    if (this.config.readyProbeCacheMs <= 0) return this.isReachable();
    const now = Date.now();
    const shared = this.sharedProbe;
    if (shared && now - shared.at < this.config.readyProbeCacheMs) return shared.result;
    const result = this.isReachable();
    this.sharedProbe = { result, at: now };
    return result;
  }

  async isReachable(key = 'crm'): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(key);
    try {
      await this.site.ping();
    } catch (error) {
      const down = crmDown(error);
      this.noteStatus('down', down.message);
      return indicator.down(down);
    }
    this.noteStatus('up', 'The CRM answers again.');
    return indicator.up();
  }

  private noteStatus(status: 'up' | 'down', message: string): void {
    const changed = this.lastStatus !== status;
    const firstAndUp = this.lastStatus === undefined && status === 'up';
    this.lastStatus = status;
    if (!changed || firstAndUp) return;
    if (status === 'down') this.logger.warn(`Not ready: ${message}`);
    else this.logger.log(message);
  }
}
