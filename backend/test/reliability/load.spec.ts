import { processMemory, useBuiltServiceWithEmulator } from './support/built-service';
import { routeRequest, UNLIMITED_RATE_ENV } from './support/route-requests';
import { runLoad } from './support/run-load';

/**
 * Sustained load: 60 s at 100 concurrent connections over the read routes (form data, report,
 * staff report, both health probes). The built service, the built CRM emulator and autocannon
 * each run in a process of their own, so none slows the others' event loop and the service's
 * memory is its own. Every answer must be a 200, and the service's resident memory over the last
 * 10 s may be at most 20% above what it was 10 s in (after start-up and warm-up). Each is the
 * median of a 10 s window of samples: the heap's collection sawtooth moves a single sample by
 * tens of MiB either way.
 */

const DURATION_SECONDS = 60;
const CONNECTIONS = 100;
const WARM_SECONDS = 10;
const WINDOW_SECONDS = 10;
const MAX_MEMORY_GROWTH = 0.2;
/** Far above any answer time seen: only a request that hangs counts as a timeout. */
const CLIENT_TIMEOUT_SECONDS = 30;

interface MemorySample {
  atSeconds: number;
  rssMiB: number;
}

describe('sustained load', () => {
  const built = useBuiltServiceWithEmulator({ ...UNLIMITED_RATE_ENV });

  it(
    `answers ${CONNECTIONS} concurrent connections for ${DURATION_SECONDS} s with 200s only, and its memory levels off`,
    async () => {
      const started = performance.now();
      const samples: MemorySample[] = [];
      const sampler = setInterval(() => {
        samples.push({
          atSeconds: (performance.now() - started) / 1000,
          ...processMemory(built.service.pid),
        });
      }, 1_000);

      const result = await runLoad({
        url: built.service.url,
        connections: CONNECTIONS,
        duration: DURATION_SECONDS,
        timeoutSeconds: CLIENT_TIMEOUT_SECONDS,
        requests: [
          routeRequest('data'),
          routeRequest('report'),
          routeRequest('staffReport'),
          { method: 'GET', path: '/api/health/live', headers: {} },
          routeRequest('ready'),
        ],
      }).finally(() => clearInterval(sampler));

      const lastSecond = samples.at(-1)?.atSeconds ?? 0;
      const warm = medianRss(samples, WARM_SECONDS, WARM_SECONDS + WINDOW_SECONDS);
      const end = medianRss(samples, lastSecond - WINDOW_SECONDS, lastSecond);
      const rssGrowth = (end - warm) / warm;
      process.stdout.write(
        `\nload: ${result.total} requests, ${Math.round(result.requestsPerSecond)}/s, ` +
          `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; service RSS ` +
          `${warm.toFixed(0)} → ${end.toFixed(0)} MiB (${(rssGrowth * 100).toFixed(1)}%)\n`,
      );

      expect(result.total).toBeGreaterThan(0);
      expect({ statuses: result.statusCounts, errors: result.errors, timeouts: result.timeouts }).toEqual({
        statuses: { '200': result.total },
        errors: 0,
        timeouts: 0,
      });
      expect(rssGrowth).toBeLessThan(MAX_MEMORY_GROWTH);
      expect((await fetch(`${built.service.url}/api/health/live`)).status).toBe(200);
    },
    (DURATION_SECONDS + 60) * 1_000,
  );
});

/** Median resident memory of the samples taken from `fromSeconds` to `toSeconds`. */
function medianRss(samples: readonly MemorySample[], fromSeconds: number, toSeconds: number): number {
  const window = samples
    .filter((sample) => sample.atSeconds >= fromSeconds && sample.atSeconds <= toSeconds)
    .map((sample) => sample.rssMiB)
    .sort((a, b) => a - b);
  if (window.length === 0) throw new Error(`no memory samples between ${fromSeconds} s and ${toSeconds} s`);
  return window[Math.floor(window.length / 2)] as number;
}
