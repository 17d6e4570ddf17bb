import { Injectable } from '@nestjs/common';
import { type HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { failsHealth } from '../site-audit/finding';
import { DeploymentCheck, isOutageProblem } from './deployment-check';

/**
 * The deployment self-check as Terminus indicators. Readiness: down while a problem would make
 * owner routes fail, naming each (code and message; an outage is the `crm` check's to report).
 * Diagnostics: the whole report, down on any finding but a warning (drift included: a link key
 * or zone that no longer matches the extension's), with the exact setting or permission to change.
 */
@Injectable()
export class DeploymentIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly check: DeploymentCheck,
  ) {}

  get enabled(): boolean {
    return this.check.enabled;
  }

  async ownersServable(key = 'deployment'): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(key);
    const report = await this.check.current();
    const blocking = report.problems.filter((problem) => problem.blocksOwners && !isOutageProblem(problem));
    if (blocking.length === 0) return indicator.up();
    return indicator.down({
      problems: blocking.map(({ code, fix, message }) => ({ code, fix, message })),
    });
  }

  async report(key = 'deployment'): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(key);
    const report = await this.check.current();
    const failing = report.problems.some(failsHealth);
    return failing ? indicator.down({ ...report }) : indicator.up({ ...report });
  }
}
