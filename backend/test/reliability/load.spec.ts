import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuTimeMs, processMemory, useBuiltServiceWithEmulator } from './support/built-service';
import { routeRequest, UNLIMITED_RATE_ENV } from './support/route-requests';
import { type LoadResult, runLoad } from './support/run-load';

/**
 * Sustained load: 100 concurrent connections over the read routes (form data, report, staff
 * report, both health probes), for a warm-up of 3,000 requests and 45 s more. The built service,
 * the built CRM emulator and autocannon each run in a process of their own, so none slows the
 * others' event loop and the service's memory is its own. Every answer must be a 200.
 *
 * Memory must level off: the heap that survives a full garbage collection (support/heap-probe.cjs)
 * may grow by at most 3 MiB between the end of the warm-up and the end of the 45 s, whatever the
 * machine's load. Both reads wait until the service is idle: when the load client stops, up to 100
 * requests still wait for the CRM, each holding its answer's data, and a busy machine read them
 * as 5-6 MiB of growth. Idle, the heap moved by 0.4-0.5 MiB, quiet or beside two CPU hogs; a
 * service made to keep a string per request grew it by 6.9 MiB over 20,000 requests. Resident
 * memory is printed, not judged: on a busy machine more requests wait at once, V8 grows the heap
 * to hold them and keeps the pages, and it rose by half without an object leaking.
 */

const WARM_UP_REQUESTS = 3_000;
const SUSTAINED_SECONDS = 45;
const CONNECTIONS = 100;
const MAX_HEAP_GROWTH_MIB = 3;
/** Far above any answer time seen: only a request that hangs counts as a timeout. */
const CLIENT_TIMEOUT_SECONDS = 30;
const MIB = 1024 * 1024;

const probeDir = mkdtempSync(join(tmpdir(), 'heap-probe-'));
const probeFile = join(probeDir, 'heap.json');

describe('sustained load', () => {
  const built = useBuiltServiceWithEmulator({
    ...UNLIMITED_RATE_ENV,
    NODE_OPTIONS: `--require "${join(__dirname, 'support', 'heap-probe.cjs')}"`,
    HEAP_PROBE_FILE: probeFile,
  });
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }));

  it(
    `answers ${CONNECTIONS} concurrent connections with 200s only through a warm-up and ${SUSTAINED_SECONDS} s more, and its memory levels off`,
    async () => {
      const load = (length: { amount: number } | { duration: number }) =>
        runLoad({
          url: built.service.url,
          connections: CONNECTIONS,
          ...length,
          timeoutSeconds: CLIENT_TIMEOUT_SECONDS,
          requests: [
            routeRequest('data'),
            routeRequest('report'),
            routeRequest('staffReport'),
            { method: 'GET', path: '/api/health/live', headers: {} },
            routeRequest('ready'),
          ],
        });

      const warmUp = await load({ amount: WARM_UP_REQUESTS });
      const warmHeap = await heapAfterFullCollection(built.service.pid);
      const warmRss = processMemory(built.service.pid).rssMiB;
      const sustained = await load({ duration: SUSTAINED_SECONDS });
      const endHeap = await heapAfterFullCollection(built.service.pid);
      const { rssMiB: endRss, peakMiB } = processMemory(built.service.pid);

      process.stdout.write(
        `\nload: ${describeLoad(warmUp)} warming up, then ${describeLoad(sustained)}; ` +
          `heap after a full collection ${warmHeap.toFixed(1)} → ${endHeap.toFixed(1)} MiB; ` +
          `RSS ${warmRss.toFixed(0)} → ${endRss.toFixed(0)} MiB (peak ${peakMiB.toFixed(0)})\n`,
      );

      for (const result of [warmUp, sustained]) {
        expect(result.total).toBeGreaterThan(0);
        expect({ statuses: result.statusCounts, errors: result.errors, timeouts: result.timeouts }).toEqual({
          statuses: { '200': result.total },
          errors: 0,
          timeouts: 0,
        });
      }
      expect(endHeap - warmHeap).toBeLessThan(MAX_HEAP_GROWTH_MIB);
      expect((await fetch(`${built.service.url}/api/health/live`)).status).toBe(200);
    },
    // The warm-up takes 15-20 s on a quiet machine and up to a minute on a busy one.
    (SUSTAINED_SECONDS + 120) * 1_000,
  );
});

function describeLoad(result: LoadResult): string {
  return (
    `${result.total} requests (${Math.round(result.requestsPerSecond)}/s, p50 ${result.latency.p50} ms, ` +
    `p99 ${result.latency.p99} ms, max ${result.latency.max} ms)`
  );
}

/** The service's heap in use, MiB, after the probe's full collections, once the service is idle. */
async function heapAfterFullCollection(pid: number): Promise<number> {
  await untilIdle(pid);
  rmSync(probeFile, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!existsSync(probeFile)) {
    if (Date.now() > deadline) throw new Error('the service did not answer the heap probe within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { heapUsedBytes } = JSON.parse(readFileSync(probeFile, 'utf8')) as { heapUsedBytes: number };
  return heapUsedBytes / MIB;
}

const IDLE_CPU_MS_PER_HALF_SECOND = 10;

/** Resolves once the process used under 2% of a core for half a second (or after 30 s). */
async function untilIdle(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let before = cpuTimeMs(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuTimeMs(pid);
    if (now - before < IDLE_CPU_MS_PER_HALF_SECOND) return;
    before = now;
  }
}
