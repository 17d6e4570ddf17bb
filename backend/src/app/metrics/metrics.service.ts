import { Injectable } from '@nestjs/common';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CrmCallObserver } from '../crm/crm-call-observer';
import { SERVICE_VERSION } from '../release';

/** One finding of the deployment self-check, as much of it as the metrics need. */
export interface SelfCheckFinding {
  code: string;
}

/** Seconds: from a cached read (a few ms) to CRM_TIMEOUT_MS's ceiling (120 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/**
 * The service's Prometheus metrics (docs/operations.md, "Metrics"), in a registry of its own per
 * application, served by `GET /metrics` behind the admin key. Labels are bounded: routes are
 * the routes' patterns (never an address with its query), CRM calls their entity and action.
 */
@Injectable()
export class MetricsService implements CrmCallObserver {
  readonly registry = new Registry();

  private readonly requests = new Counter({
    name: 'checkin_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  private readonly requestSeconds = new Histogram({
    name: 'checkin_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  private readonly rateLimitRefusals = new Counter({
    name: 'checkin_rate_limit_refusals_total',
    help: 'Requests refused with 429 by a rate limit, by route pattern',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  private readonly crmCalls = new Counter({
    name: 'checkin_crm_calls_total',
    help: 'Calls to CiviCRM by entity, action and outcome (ok, or the failure: timeout, unreachable, unauthorized, forbidden, rejected, malformed, …)',
    labelNames: ['entity', 'action', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly crmSeconds = new Histogram({
    name: 'checkin_crm_call_duration_seconds',
    help: 'Time a call to CiviCRM took, waiting for a connection included, by entity and action (a batch counts for each call in it)',
    labelNames: ['entity', 'action'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  private readonly crmWaits = new Counter({
    name: 'checkin_crm_connection_waits_total',
    help: 'Calls to CiviCRM that found every connection busy (CRM_MAX_CONNECTIONS) and waited for one',
    registers: [this.registry],
  });

  private crmWaiting: () => number = () => 0;

  private selfCheck: () => Promise<readonly SelfCheckFinding[]> | readonly SelfCheckFinding[] = () => [];

  constructor() {
    const waiting = () => this.crmWaiting();
    const findings = () => this.selfCheck();
    new Gauge({
      name: 'checkin_crm_calls_waiting',
      help: 'Calls to CiviCRM waiting for a free connection now',
      registers: [this.registry],
      collect() {
        this.set(waiting());
      },
    });
    new Gauge({
      name: 'checkin_self_check_findings',
      help: 'Problems the deployment self-check found in its last run (0: none), by code',
      labelNames: ['code'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const found = await findings();
        this.set({ code: 'all' }, found.length);
        for (const { code } of found) this.inc({ code });
      },
    });
    new Gauge({
      name: 'checkin_build_info',
      help: 'Always 1; the release that answers in its label',
      labelNames: ['version'] as const,
      registers: [this.registry],
    }).set({ version: SERVICE_VERSION }, 1);
    collectDefaultMetrics({ register: this.registry, prefix: 'checkin_' });
  }

  /**
   * Where `checkin_self_check_findings` reads the self-check's last findings, asked at each
   * scrape: a function answering the current list (cached by the self-check itself, so a scrape
   * never runs a check of its own).
   */
  reportSelfCheckFindings(
    source: () => Promise<readonly SelfCheckFinding[]> | readonly SelfCheckFinding[],
  ): void {
    this.selfCheck = source;
  }

  requestAnswered(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.requestSeconds.observe({ route, method }, seconds);
    if (status === 429) this.rateLimitRefusals.inc({ route });
  }

  crmCallFinished(call: string, seconds: number, outcome: string): void {
    for (const { entity, action } of callsIn(call)) {
      this.crmCalls.inc({ entity, action, outcome });
      this.crmSeconds.observe({ entity, action }, seconds);
    }
  }

  crmConnectionWaited(): void {
    this.crmWaits.inc();
  }

  watchCrmConnections(waiting: () => number): void {
    this.crmWaiting = waiting;
  }

  /** The text Prometheus scrapes. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }
}

/** `Contact.get`, `v3 Attachment.get` (action `v3.get`) and `batch(A.get, B.get)` (each call). */
export function callsIn(call: string): { entity: string; action: string }[] {
  const batch = /^batch\((.*)\)$/.exec(call);
  const labels = batch ? (batch[1] ?? '').split(', ') : [call];
  return labels.map((label) => {
    const v3 = label.startsWith('v3 ');
    const [entity = 'unknown', action = 'unknown'] = (v3 ? label.slice(3) : label).split('.');
    return { entity, action: v3 ? `v3.${action}` : action };
  });
}
