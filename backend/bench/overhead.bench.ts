import { CiviCrmEmulator } from '../src/app/crm/emulator/civicrm-emulator';
import { routeRequest, UNLIMITED_RATE_ENV } from '../test/reliability/support/route-requests';
import { type LoadResult, runLoad } from '../test/reliability/support/run-load';
import { TEST_API_KEY } from '../test/support/test-app';
import { type BenchFigure, reportBench, round } from './bench-output';
import { type BuiltProcess, cpuTimeMs, startBuiltService } from '../test/reliability/support/built-service';
import { CrmProxy } from './support/crm-proxy';

/**
 * The service's own cost per GET /api/data: the built service runs as deployed (production
 * mode, JSON request logs written to a pipe) in its own process, against the CRM emulator behind
 * a proxy that replays the CRM's answers at once, so neither the CRM's time nor the
 * emulator's work counts. CPU time is read from /proc/<pid>/stat before and after a fixed
 * number of requests; throughput is autocannon's at 50 concurrent connections.
 */

const WARM_UP_REQUESTS = 500;
const MEASURED_REQUESTS = 2_000;
const CPU_CONNECTIONS = 10;
const THROUGHPUT_CONNECTIONS = 50;
const THROUGHPUT_SECONDS = 10;
const CPU_BUDGET_MS = 0.5;

describe('service overhead per request', () => {
  let emulator: CiviCrmEmulator;
  let proxy: CrmProxy;
  let service: BuiltProcess;

  beforeAll(async () => {
    emulator = await CiviCrmEmulator.start({ apiKey: TEST_API_KEY });
    proxy = await CrmProxy.start(emulator.baseUrl, { replayReads: true });
    service = await startBuiltService(
      { baseUrl: proxy.url, apiKey: TEST_API_KEY },
      { ...UNLIMITED_RATE_ENV },
    );
  }, 180_000);

  afterAll(async () => {
    await service?.stop();
    await proxy?.stop();
    await emulator?.stop();
  });

  function load(connections: number, extent: { amount: number } | { duration: number }): Promise<LoadResult> {
    return runLoad({ url: service.url, connections, ...extent, requests: [routeRequest('data')] });
  }

  function expectOnlySuccess(result: LoadResult): void {
    expect({ statuses: result.statusCounts, errors: result.errors }).toEqual({
      statuses: { '200': result.total },
      errors: 0,
    });
  }

  it('measures CPU time per GET /api/data and throughput at 50 connections', async () => {
    expectOnlySuccess(await load(CPU_CONNECTIONS, { amount: WARM_UP_REQUESTS }));

    const cpuBefore = cpuTimeMs(service.pid);
    const measured = await load(CPU_CONNECTIONS, { amount: MEASURED_REQUESTS });
    const cpuPerRequestMs = (cpuTimeMs(service.pid) - cpuBefore) / measured.total;
    expectOnlySuccess(measured);

    const throughput = await load(THROUGHPUT_CONNECTIONS, { duration: THROUGHPUT_SECONDS });
    expectOnlySuccess(throughput);
    const replayed = proxy.calls.filter((call) => call.replayed).length;

    const figures: BenchFigure[] = [
      {
        figure: 'CPU time of the service per GET /api/data',
        value: round(cpuPerRequestMs, 3),
        unit: 'ms',
        target: { max: CPU_BUDGET_MS },
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
          measurement: `CPU per request (${measured.total} requests, ${CPU_CONNECTIONS} connections)`,
          value: round(cpuPerRequestMs, 3),
          unit: 'ms',
          target: `≤ ${CPU_BUDGET_MS}`,
          result: cpuPerRequestMs <= CPU_BUDGET_MS ? 'PASS' : 'MISS',
        },
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
        throughput,
        figures,
      },
    );
  }, 180_000);
});
