import { CiviCrmEmulator } from '@checkin/civicrm-fake/emulator';
import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import { MAX_UPLOAD_BYTES } from '../src/app/check-ins/upload-policy';
import {
  DEMO_LINK,
  routeRequest,
  type RouteRequest,
  samplePdf,
  UNLIMITED_RATE_ENV,
  uploadRequest,
} from '../test/reliability/support/route-requests';
import { type LoadResult, runLoad } from '../test/reliability/support/run-load';
import { TEST_API_KEY } from '../test/support/test-app';
import { type BenchFigure, percentile, reportBench, round } from './bench-output';
import {
  type BuiltProcess,
  processMemory,
  resetPeakMemory,
  startBuiltService,
} from '../test/reliability/support/built-service';
import { CrmProxy } from './support/crm-proxy';

/**
 * A 5 MiB upload (the largest allowed) against the built service in its own process, sent by
 * autocannon from another process (so the sender's own work is not counted): how far the
 * service's resident memory peaks above where it stood before (VmHWM, reset first, against
 * VmRSS), and how much time the service adds to the CRM's. The CRM's time is the File.create
 * call as the service sees it, timed by a proxy in front of the emulator.
 */

const UPLOADS = 8;
const MEMORY_BUDGET_MIB = 60;
const ADDED_TIME_BUDGET_MS = 100;
const FILE_CREATE_PATH = '/civicrm/ajax/api4/File/create';

interface UploadSample {
  totalMs: number;
  crmMs: number;
  peakGrowthMiB: number;
}

describe('a 5 MiB upload', () => {
  let emulator: CiviCrmEmulator;
  let proxy: CrmProxy;
  let service: BuiltProcess;

  beforeAll(async () => {
    emulator = await CiviCrmEmulator.start({ apiKey: TEST_API_KEY, createModel: createDemoModel });
    proxy = await CrmProxy.start(emulator.baseUrl, { replayReads: false });
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

  function upload(request: RouteRequest): Promise<LoadResult> {
    return runLoad({ url: service.url, connections: 1, amount: 1, requests: [request] });
  }

  /** One upload: its time as the sender saw it, the CRM's part of it, the memory it took. */
  async function measureUpload(request: RouteRequest): Promise<UploadSample> {
    const before = processMemory(service.pid).rssMiB;
    resetPeakMemory(service.pid);
    proxy.calls.length = 0;
    const result = await upload(request);
    // RSS may fall during the request (a collection): that is no growth.
    const peakGrowthMiB = Math.max(0, processMemory(service.pid).peakMiB - before);
    expect(result.statusCounts).toEqual({ '201': 1 });
    const fileCreate = proxy.calls.filter((call) => call.path === FILE_CREATE_PATH);
    expect(fileCreate).toHaveLength(1);
    return { totalMs: result.latency.max, crmMs: fileCreate[0]?.ms ?? NaN, peakGrowthMiB };
  }

  it('keeps peak memory growth and the added time within budget', async () => {
    const pdf = samplePdf(MAX_UPLOAD_BYTES);
    const request = uploadRequest(DEMO_LINK, pdf);
    // Warm up: the checksum grant, the file-type module, the JIT.
    expect((await upload(routeRequest('upload'))).statusCounts).toEqual({ '201': 1 });
    await measureUpload(request);

    const samples: UploadSample[] = [];
    for (let index = 0; index < UPLOADS; index += 1) samples.push(await measureUpload(request));

    const added = samples.map((sample) => sample.totalMs - sample.crmMs).sort((a, b) => a - b);
    const addedP50 = percentile(added, 50);
    const worstGrowth = Math.max(...samples.map((sample) => sample.peakGrowthMiB));
    const figures: BenchFigure[] = [
      {
        figure: 'Upload of 5 MiB: peak memory growth (worst upload)',
        value: round(worstGrowth, 1),
        unit: 'MiB',
        target: { max: MEMORY_BUDGET_MIB },
      },
      {
        figure: 'Upload of 5 MiB: time added beyond the CRM (p50)',
        value: round(addedP50, 1),
        unit: 'ms',
        target: { max: ADDED_TIME_BUDGET_MS },
      },
    ];
    reportBench(
      'upload',
      samples.map((sample, index) => ({
        upload: index + 1,
        'total ms': round(sample.totalMs, 1),
        'CRM ms': round(sample.crmMs, 1),
        'added ms': round(sample.totalMs - sample.crmMs, 1),
        'peak growth MiB': round(sample.peakGrowthMiB, 1),
      })),
      {
        fileBytes: pdf.byteLength,
        addedP50Ms: round(addedP50, 1),
        worstPeakGrowthMiB: round(worstGrowth, 1),
        figures,
      },
    );
  }, 180_000);
});
