import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CrmSiteService } from '../crm/crm-site.service';
import { CrmSiteChecks } from '../crm/site-checks';
import { CrmSiteGateway } from '../crm/site.gateway';
import { type AuditMemory, auditSite, type SiteAudit } from '../site-audit/audit';
import { isOutage, type SiteFinding } from '../site-audit/finding';

/** The self-check's report and its problems: the site audit's (site-audit/). */
export type DeploymentReport = SiteAudit;
export type DeploymentProblem = SiteFinding;

export function isOutageProblem(problem: DeploymentProblem): boolean {
  return isOutage(problem);
}

/**
 * The deployment self-check (docs/civicrm-setup.md, "Check it all"): the site audit
 * (site-audit/audit.ts) when the application starts (before it listens: main.ts refuses to start
 * in production on a fatal finding) and then every SELF_CHECK_INTERVAL_SECONDS; readiness and
 * /api/health answer from the last report, never running it per probe (a report holding an
 * outage is not kept: the next caller asks again). Each problem is logged once when it appears
 * and once when it is gone.
 */
@Injectable()
export class DeploymentCheck implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SelfCheck');
  private last?: { report: Promise<DeploymentReport>; at: number; outage: boolean };
  private logged = new Map<string, DeploymentProblem>();
  private readonly memory: AuditMemory = { firstReportedZone: null };
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly site: CrmSiteGateway,
    private readonly siteInfo: CrmSiteService,
    private readonly checks: CrmSiteChecks,
  ) {}

  /** Live mode only: stub mode's in-memory CRM is the demo data, set up by the code itself. */
  get enabled(): boolean {
    return this.config.crm !== null;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.enabled) await this.start();
  }

  /** The first check, awaited; then one every interval (the timer does not keep the process up). */
  async start(): Promise<DeploymentReport> {
    const report = await this.current(true);
    this.stop();
    const interval = this.config.selfCheckIntervalMs;
    if (interval > 0) {
      this.timer = setInterval(() => void this.current(true).catch(() => undefined), interval);
      this.timer.unref();
    }
    return report;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  onModuleDestroy(): void {
    this.stop();
  }

  /** The last report when younger than the interval, else a new one (shared by concurrent callers). */
  current(fresh = false): Promise<DeploymentReport> {
    const now = Date.now();
    const last = this.last;
    if (!fresh && last && !last.outage && now - last.at < this.config.selfCheckIntervalMs) return last.report;
    const report = this.run();
    const entry = { report, at: now, outage: false };
    this.last = entry;
    report.then(
      (done) => {
        entry.outage = done.problems.some(isOutageProblem);
      },
      () => {
        if (this.last === entry) this.last = undefined;
      },
    );
    return report;
  }

  private async run(): Promise<DeploymentReport> {
    const reads = { site: this.site, siteInfo: this.siteInfo, checks: this.checks };
    const report = await auditSite(reads, this.config, this.memory);
    if (this.enabled) this.logChanges(report.problems);
    return report;
  }

  /** Logs each problem once when it appears (fatal and blocking ones as errors) and once when it is gone. */
  private logChanges(problems: DeploymentProblem[]): void {
    const current = new Map(problems.map((problem) => [`${problem.code} ${problem.fix}`, problem]));
    for (const [key, problem] of current) {
      if (this.logged.has(key)) continue;
      const line = `${problem.code}: ${problem.message}`;
      if (problem.fatal || problem.blocksOwners) this.logger.error(line);
      else this.logger.warn(line);
    }
    for (const [key, problem] of this.logged) {
      if (!current.has(key)) this.logger.log(`Resolved: ${problem.code} (${problem.fix}).`);
    }
    this.logged = current;
  }
}
