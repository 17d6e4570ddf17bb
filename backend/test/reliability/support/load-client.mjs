/**
 * Generates HTTP load with autocannon in a process of its own, so the load generator's CPU and
 * memory never count as the service's. Reads its options as JSON on stdin:
 *   {url, connections, duration?, amount?, timeoutSeconds?, requests: [{method, path, headers, body?, bodyBase64?}]}
 * and prints one JSON line of results on stdout. Used by load.spec.ts and the overhead benchmark
 * through run-load.ts.
 */
import autocannon from 'autocannon';

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function summarize(result) {
  const statusCounts = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, Number(stats.count)]),
  );
  return {
    durationSeconds: result.duration,
    total: Object.values(statusCounts).reduce((sum, count) => sum + count, 0),
    requestsPerSecond: result.requests.average,
    latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCounts,
  };
}

function decodeBody({ bodyBase64, ...request }) {
  return bodyBase64 === undefined ? request : { ...request, body: Buffer.from(bodyBase64, 'base64') };
}

const options = await readStdin();
const result = await autocannon({
  url: options.url,
  connections: options.connections,
  ...(options.amount ? { amount: options.amount } : { duration: options.duration }),
  timeout: options.timeoutSeconds ?? 10,
  requests: options.requests.map(decodeBody),
});
process.stdout.write(`${JSON.stringify(summarize(result))}\n`);
