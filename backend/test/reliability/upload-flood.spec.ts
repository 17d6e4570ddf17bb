import { request as httpRequest } from 'node:http';
import { LINGER_MS } from '../../src/app/upload/upload-form';
import { processMemory, resetPeakMemory, useBuiltServiceWithEmulator } from './support/built-service';
import {
  DEMO_LINK,
  multipartBody,
  routeRequest,
  samplePdf,
  send,
  UNLIMITED_RATE_ENV,
} from './support/route-requests';

/** Wrong, but of CiviCRM's shape: each upload's checksum is asked of the CRM, as a guessed one would be. */
const WRONG_CIVICRM_CHECKSUM = `${'0'.repeat(32)}_1767225600_inf`;

/**
 * Issue 14.1's attack on the built service: bursts of concurrent 5 MiB uploads that carry a
 * wrong checksum. Rate limits are lifted, so what is measured is the upload route itself (the
 * checksum checked before a file byte is kept, the cap on uploads in flight), not the limits
 * that would refuse most of a burst anyway. A burst may raise the service's peak resident
 * memory by less than 150 MiB, and the service must be back within 20% of its baseline soon
 * after. (Before the fix, 500 such uploads took it from 170 MiB to 1.63 GiB, and 875 MiB was
 * still held 25 s later.)
 *
 * The first burst leaves about 30 MiB of V8 heap and allocator slack that the process keeps and
 * reuses (later bursts never add to it), so the baseline is taken after a first burst: what is
 * judged is whether a burst makes the service hold memory.
 */

const CONCURRENT_UPLOADS = 250;
const FILE_BYTES = 5 * 1024 * 1024;
const MAX_PEAK_GROWTH_MIB = 150;
const MAX_SETTLED_GROWTH = 0.2;
const SETTLE_WITHIN_MS = 15_000;

interface Outcome {
  status?: number;
  error?: string;
}

/** One upload written in full (the same bytes for every request), answered or cut off. */
function attack(url: string, body: Buffer, contentType: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = httpRequest(`${url}/api/upload`, {
      method: 'POST',
      headers: { 'Content-Type': contentType, 'Content-Length': String(body.byteLength) },
      // A connection of its own: the service closes it while the body is still being written.
      agent: false,
    });
    // Writes still under way when the service closes the connection fail after the answer.
    request.on('socket', (socket) => socket.on('error', () => undefined));
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode }));
      response.on('error', () => resolve({ status: response.statusCode }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end(body);
  });
}

function burst(url: string, body: Buffer, contentType: string): Promise<Outcome[]> {
  return Promise.all(Array.from({ length: CONCURRENT_UPLOADS }, () => attack(url, body, contentType)));
}

/** The median of `samples` readings 100 ms apart: one reading moves with the collector's sawtooth. */
function medianRss(pid: number, samples: number): Promise<number> {
  return new Promise((resolve) => {
    const values: number[] = [];
    const timer = setInterval(() => {
      values.push(processMemory(pid).rssMiB);
      if (values.length < samples) return;
      clearInterval(timer);
      values.sort((a, b) => a - b);
      resolve(values[Math.floor(values.length / 2)] ?? NaN);
    }, 100);
  });
}

describe('a flood of bad-checksum uploads', () => {
  const built = useBuiltServiceWithEmulator({ ...UNLIMITED_RATE_ENV });

  it(`holds the service's memory through ${CONCURRENT_UPLOADS} concurrent 5 MiB uploads with a wrong checksum`, async () => {
    const { body, contentType } = multipartBody(
      { cid: String(DEMO_LINK.cid), cs: WRONG_CIVICRM_CHECKSUM, fieldRef: 'Certificate_of_Incorporation' },
      { name: 'file', filename: 'flood.pdf', contentType: 'application/pdf', bytes: samplePdf(FILE_BYTES) },
    );
    expect((await send(built.service.url, routeRequest('upload'))).status).toBe(201);
    for (let i = 0; i < 5; i += 1) await send(built.service.url, routeRequest('data'));
    const cold = await medianRss(built.service.pid, 10);
    resetPeakMemory(built.service.pid);
    await burst(built.service.url, body, contentType);
    const firstPeak = processMemory(built.service.pid).peakMiB;
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS + 1_000));
    const baseline = await medianRss(built.service.pid, 10);
    resetPeakMemory(built.service.pid);

    const started = Date.now();
    const outcomes = await burst(built.service.url, body, contentType);
    const burstMs = Date.now() - started;
    const peak = processMemory(built.service.pid).peakMiB;

    // Settling as in service: a load balancer's probes keep arriving meanwhile.
    let settled = processMemory(built.service.pid).rssMiB;
    const settleDeadline = Date.now() + SETTLE_WITHIN_MS;
    while (settled > baseline * (1 + MAX_SETTLED_GROWTH) && Date.now() < settleDeadline) {
      for (let probe = 0; probe < 5; probe += 1) {
        await send(built.service.url, { method: 'GET', path: '/api/health/live', headers: {} });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      settled = await medianRss(built.service.pid, 5);
    }

    const answers = new Map<string, number>();
    for (const outcome of outcomes) {
      const key = outcome.status === undefined ? `error ${outcome.error}` : String(outcome.status);
      answers.set(key, (answers.get(key) ?? 0) + 1);
    }
    const mib = (value: number) => `${value.toFixed(0)} MiB`;
    process.stdout.write(
      `\nupload flood: ${CONCURRENT_UPLOADS} × 5 MiB in ${burstMs} ms, answers ${JSON.stringify(Object.fromEntries(answers))}; ` +
        `RSS baseline ${mib(baseline)}, peak ${mib(peak)} (+${mib(peak - baseline)}), settled ${mib(settled)}; ` +
        `first burst from cold ${mib(cold)}: peak ${mib(firstPeak)}\n`,
    );

    // Refused, every one: wrong checksum (401) or no place in flight (429); none stored.
    for (const outcome of outcomes) {
      if (outcome.status !== undefined) expect([401, 429]).toContain(outcome.status);
    }
    // Known defect, left open (CHANGELOG.md, 1.0.0, "Known issues"): since each request's checksum
    // check is its own CRM request, a flood keeps uploads in flight longer, and on a busy machine
    // 20–35% of the refused senders meet a reset (EPIPE) before reading their 401 or 429, despite
    // the lingering close. None gets anything else; none is stored.
    for (const outcome of outcomes) {
      if (outcome.status === undefined) expect(['EPIPE', 'ECONNRESET']).toContain(outcome.error);
    }
    expect(outcomes.filter((outcome) => outcome.status !== undefined).length).toBeGreaterThan(
      CONCURRENT_UPLOADS * 0.5,
    );
    expect(firstPeak - cold).toBeLessThan(MAX_PEAK_GROWTH_MIB);
    expect(peak - baseline).toBeLessThan(MAX_PEAK_GROWTH_MIB);
    expect(settled).toBeLessThanOrEqual(baseline * (1 + MAX_SETTLED_GROWTH));
    // And it still serves an owner's upload.
    expect((await send(built.service.url, routeRequest('upload'))).status).toBe(201);
  }, 60_000);
});
