import { join } from 'node:path';
import { authenticationHeaders } from '../src/app/crm/civicrm-http.client';
import { CiviCrmEmulator } from '@checkin/civicrm-fake/emulator';
import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import {
  type RouteRequest,
  routeRequest,
  UNLIMITED_RATE_ENV,
} from '../test/reliability/support/route-requests';
import { type LoadResult, runLoad } from '../test/reliability/support/run-load';
import { TEST_API_KEY } from '../test/support/test-app';
import { type BenchFigure, type BenchRow, reportBench, round } from './bench-output';
import { type BuiltProcess, cpuTimeMs, startBuiltService } from '../test/reliability/support/built-service';
import { CrmProxy } from './support/crm-proxy';
import { startReferenceService } from './support/reference-service';

/**
 * The service's own cost per GET /api/data: the built service runs as deployed (production
 * mode, JSON request logs written to a pipe) in its own process, against the CRM emulator behind
 * a proxy that replays the CRM's answers at once, so neither the CRM's time nor the
 * emulator's work counts. CPU time is read from /proc/<pid>/stat before and after a fixed
 * number of requests; throughput is autocannon's at 50 concurrent connections.
 *
 * The same load then runs against a reference (support/reference-service.mjs): a bare node:http
 * server making the same CRM calls and writing an answer of the same size. Its CPU time is this
 * machine's floor for the work, so the service's figure can be told apart from the machine's speed.
 */

const WARM_UP_REQUESTS = 500;
const MEASURED_REQUESTS = 2_000;
const CPU_CONNECTIONS = 10;
const THROUGHPUT_CONNECTIONS = 50;
const THROUGHPUT_SECONDS = 10;
const CPU_BUDGET_MS = 0.5;
/**
 * Issue 16 asked for 1.5× the floor measured in the same run; issue 27 retired that target (the
 * figure stays reported) and keeps this guard against a regression.
 */
const FLOOR_RATIO_BUDGET = 3;
/**
 * Issue 27: the owner's form rendered in the service with its data (docs/performance.md,
 * "Server-rendered owner pages"): CPU per page at most this many times the same floor. The one
 * run so far measured 35× (54 ms per page, on a busy machine): a guard against regressions with
 * room for the machine's noise, to be tightened from quiet runs.
 */
const RENDERED_PAGE_FLOOR_RATIO_BUDGET = 50;
/** Rendering costs tens of times a data answer: fewer requests measure it as well. */
const PAGE_WARM_UP_REQUESTS = 50;
const PAGE_MEASURED_REQUESTS = 300;
/**
 * The built front end (`npm run bench` builds it first), with its server entry: the rendered
 * pages are measured, not the reliability suites' one-page stand-in.
 */
const FRONTEND_DIST = join(__dirname, '..', '..', 'dist', 'frontend', 'browser');

describe('service overhead per request', () => {
  let emulator: CiviCrmEmulator;
  let proxy: CrmProxy;
  let service: BuiltProcess;

  beforeAll(async () => {
    emulator = await CiviCrmEmulator.start({ apiKey: TEST_API_KEY, createModel: createDemoModel });
    proxy = await CrmProxy.start(emulator.baseUrl, { replayReads: true });
    // BENCH_CPU_PROFILE_DIR=<folder>: the service writes a V8 CPU profile there when it stops
    // (tools/bench/cpu-profile-summary.mjs sums it by function and by package).
    const profileDir = process.env['BENCH_CPU_PROFILE_DIR'];
    service = await startBuiltService(
      { baseUrl: proxy.url, apiKey: TEST_API_KEY },
      {
        ...UNLIMITED_RATE_ENV,
        FRONTEND_DIST,
        ...(profileDir
          ? {
              NODE_OPTIONS: `--require ${join(__dirname, 'support', 'cpu-profile.cjs')}`,
              CPU_PROFILE_DIR: profileDir,
            }
          : {}),
      },
    );
  }, 180_000);

  afterAll(async () => {
    await service?.stop();
    await proxy?.stop();
    await emulator?.stop();
  });

  function load(
    connections: number,
    extent: { amount: number } | { duration: number },
    target: { url: string; request: RouteRequest } = { url: service.url, request: routeRequest('data') },
  ): Promise<LoadResult> {
    return runLoad({ url: target.url, connections, ...extent, requests: [target.request] });
  }

  /** CPU time per request of `target`'s process, after a warm-up. */
  async function cpuPerRequest(
    target: BuiltProcess,
    request: RouteRequest,
    amounts = { warmUp: WARM_UP_REQUESTS, measured: MEASURED_REQUESTS },
  ): Promise<number> {
    const url = target.url;
    expectOnlySuccess(await load(CPU_CONNECTIONS, { amount: amounts.warmUp }, { url, request }));
    const cpuBefore = cpuTimeMs(target.pid);
    const measured = await load(CPU_CONNECTIONS, { amount: amounts.measured }, { url, request });
    const cpuMs = cpuTimeMs(target.pid) - cpuBefore;
    expectOnlySuccess(measured);
    return cpuMs / measured.total;
  }

  /** The reference server, making the CRM calls the service made for one form load. */
  async function startReference(): Promise<{ reference: BuiltProcess; crmCalls: number }> {
    const dataRequest = routeRequest('data');
    await untilQuiet(proxy);
    const callsBefore = proxy.calls.length;
    const response = await fetch(`${service.url}${dataRequest.path}`);
    const answerBytes = (await response.arrayBuffer()).byteLength;
    await untilQuiet(proxy);
    const crmCalls = proxy.calls
      .slice(callsBefore)
      .map(({ url, method, body }) => ({ url: `${proxy.url}${url}`, method, ...(body ? { body } : {}) }));
    const crmHeaders = authenticationHeaders({ apiKey: TEST_API_KEY });
    const reference = await startReferenceService({ crmCalls, crmHeaders, answerBytes });
    return { reference, crmCalls: crmCalls.length };
  }

  /** The page is rendered with its data (Angular's transfer state), or its figure would mean nothing. */
  async function expectRenderedPage(request: RouteRequest): Promise<void> {
    const page = await fetch(`${service.url}${request.path}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="ng-state"');
  }

  function expectOnlySuccess(result: LoadResult): void {
    expect({ statuses: result.statusCounts, errors: result.errors }).toEqual({
      statuses: { '200': result.total },
      errors: 0,
    });
  }

  it('measures CPU time per GET /api/data and throughput at 50 connections', async () => {
    const cpuPerRequestMs = await cpuPerRequest(service, routeRequest('data'));
    // The form page as an owner's phone asks for it: rendered with its data, Brotli-compressed.
    const dataRequest = routeRequest('data');
    const pageRequest: RouteRequest = {
      method: 'GET',
      path: dataRequest.path.replace('/api/data', '/'),
      headers: { 'accept-encoding': 'br' },
    };
    const pageAmounts = { warmUp: PAGE_WARM_UP_REQUESTS, measured: PAGE_MEASURED_REQUESTS };
    await expectRenderedPage(pageRequest);
    const cpuPerPageMs = await cpuPerRequest(service, pageRequest, pageAmounts);
    // The staff page opened from its link: rendered with the staff report (docs/performance.md,
    // "The staff page rendered from its link").
    const staffRequest = routeRequest('staffReport');
    const staffKey = staffRequest.headers['X-Staff-Key'] ?? '';
    const staffPageRequest: RouteRequest = {
      method: 'GET',
      path: `${staffRequest.path.replace('/api/staff/report', '/staff')}&key=${encodeURIComponent(staffKey)}`,
      headers: { 'accept-encoding': 'br' },
    };
    await expectRenderedPage(staffPageRequest);
    const cpuPerStaffPageMs = await cpuPerRequest(service, staffPageRequest, pageAmounts);

    const throughput = await load(THROUGHPUT_CONNECTIONS, { duration: THROUGHPUT_SECONDS });
    expectOnlySuccess(throughput);
    const replayed = proxy.calls.filter((call) => call.replayed).length;

    const { reference, crmCalls } = await startReference();
    let floorMs: number;
    try {
      floorMs = await cpuPerRequest(reference, { method: 'GET', path: '/', headers: {} });
    } finally {
      await reference.stop();
    }

    const figures: BenchFigure[] = [
      {
        figure: 'CPU time of the service per GET /api/data',
        value: round(cpuPerRequestMs, 3),
        unit: 'ms',
        target: { max: CPU_BUDGET_MS },
      },
      {
        figure: 'CPU per GET /api/data ÷ the bare node:http floor of the same run',
        value: round(cpuPerRequestMs / floorMs, 2),
        unit: '×',
        target: { max: FLOOR_RATIO_BUDGET },
      },
      ...renderedPageFigures('form', 'GET / with the link', cpuPerPageMs, floorMs),
      ...renderedPageFigures('staff', 'GET /staff with the link', cpuPerStaffPageMs, floorMs),
      {
        figure: `Floor: bare node:http server making the same ${crmCalls} CRM calls`,
        value: round(floorMs, 3),
        unit: 'ms',
        target: {},
      },
      {
        figure: `Throughput of GET /api/data at ${THROUGHPUT_CONNECTIONS} connections`,
        value: Math.round(throughput.requestsPerSecond),
        unit: 'requests/s',
        target: {},
      },
    ];
    reportBench(
      'overhead',
      [
        {
          measurement: `CPU per request (${MEASURED_REQUESTS} requests, ${CPU_CONNECTIONS} connections)`,
          value: round(cpuPerRequestMs, 3),
          unit: 'ms',
          target: `≤ ${CPU_BUDGET_MS}`,
          result: cpuPerRequestMs <= CPU_BUDGET_MS ? 'PASS' : 'MISS',
        },
        {
          measurement: `floor: bare node:http server, same ${crmCalls} CRM calls, same answer size`,
          value: round(floorMs, 3),
          unit: 'ms',
          target: '',
          result: '',
        },
        {
          measurement: 'service ÷ floor',
          value: round(cpuPerRequestMs / floorMs, 2),
          unit: '×',
          target: `≤ ${FLOOR_RATIO_BUDGET}`,
          result: cpuPerRequestMs / floorMs <= FLOOR_RATIO_BUDGET ? 'PASS' : 'MISS',
        },
        {
          measurement: 'service minus floor (Nest, Express, guards, logging, prefill)',
          value: round(cpuPerRequestMs - floorMs, 3),
          unit: 'ms',
          target: '',
          result: '',
        },
        ...renderedPageRows('form', cpuPerPageMs, floorMs),
        ...renderedPageRows('staff', cpuPerStaffPageMs, floorMs),
        {
          measurement: `throughput (${THROUGHPUT_CONNECTIONS} connections, ${THROUGHPUT_SECONDS} s)`,
          value: Math.round(throughput.requestsPerSecond),
          unit: 'requests/s',
          target: '',
          result: '',
        },
        { measurement: 'latency p50', value: throughput.latency.p50, unit: 'ms', target: '', result: '' },
        { measurement: 'latency p99', value: throughput.latency.p99, unit: 'ms', target: '', result: '' },
        {
          measurement: 'errors and non-2xx',
          value: throughput.errors + throughput.non2xx,
          unit: '',
          target: '0',
          result: '',
        },
      ],
      {
        setup: 'built service, NODE_ENV=production, request logging on; CRM reads replayed by a proxy',
        crmCallsReplayed: replayed,
        crmCallsPerFormLoad: crmCalls,
        floorCpuPerRequestMs: floorMs,
        cpuPerRenderedPageMs: cpuPerPageMs,
        cpuPerRenderedStaffPageMs: cpuPerStaffPageMs,
        throughput,
        figures,
      },
    );
  }, 180_000);
});

/** A rendered page's CPU and its ratio to the floor, as summary figures. */
function renderedPageFigures(page: string, request: string, cpuMs: number, floorMs: number): BenchFigure[] {
  return [
    {
      figure: `CPU time of the service per rendered ${page} page (${request}, Brotli)`,
      value: round(cpuMs, 2),
      unit: 'ms',
      target: {},
    },
    {
      figure: `CPU per rendered ${page} page ÷ the bare node:http floor of the same run`,
      value: round(cpuMs / floorMs, 1),
      unit: '×',
      target: { max: RENDERED_PAGE_FLOOR_RATIO_BUDGET },
    },
  ];
}

/** The same, as the bench's table rows. */
function renderedPageRows(page: string, cpuMs: number, floorMs: number): BenchRow[] {
  const ratio = cpuMs / floorMs;
  return [
    {
      measurement: `CPU per rendered ${page} page (${PAGE_MEASURED_REQUESTS} requests)`,
      value: round(cpuMs, 2),
      unit: 'ms',
      target: '',
      result: '',
    },
    {
      measurement: `rendered ${page} page ÷ floor`,
      value: round(ratio, 1),
      unit: '×',
      target: `≤ ${RENDERED_PAGE_FLOOR_RATIO_BUDGET}`,
      result: ratio <= RENDERED_PAGE_FLOOR_RATIO_BUDGET ? 'PASS' : 'MISS',
    },
  ];
}

/** Waits until the proxy has seen no new call for a while: requests of an ended load may still be finishing. */
async function untilQuiet(proxy: CrmProxy): Promise<void> {
  let seen = -1;
  while (seen !== proxy.calls.length) {
    seen = proxy.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
