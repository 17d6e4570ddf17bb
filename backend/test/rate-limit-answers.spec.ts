import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import { haveRedis, type RedisServer, startRedis } from './support/redis-server';
import { ownerQuery, startTestApp, type TestApp, DEMO_LINK } from './support/test-app';

const SAMPLE_PDF = readFileSync(join(__dirname, 'fixtures/files/sample.pdf'));
const RATE_LIMITED_BODY = {
  statusCode: 429,
  code: 'RATE_LIMITED',
  message: 'Too many requests. Please wait a moment and try again.',
};

/**
 * The submit, upload, upload-request and checksum-failure limits of docs/decisions.md, "Limits",
 * over HTTP, with the counters in process memory and in Redis alike: exactly the configured
 * number of requests pass, the next one gets the error body and a Retry-After within the window.
 */
const stores = haveRedis ? (['memory', 'Redis'] as const) : (['memory'] as const);

describe.each(stores)('the per-contact and per-address limits, counted in %s', (store) => {
  let redis: RedisServer | undefined;
  let test: TestApp | undefined;

  beforeAll(async () => {
    if (store === 'Redis') redis = await startRedis();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  afterEach(async () => {
    await test?.close();
    test = undefined;
    await redis?.inspector.flushall();
  });

  async function start(env: Record<string, string>): Promise<TestApp> {
    test = await startTestApp({
      emulator: { model: createDemoModel() },
      env: {
        RATE_LIMIT_READS_PER_MINUTE: '1000',
        ...env,
        ...(redis ? { THROTTLE_REDIS_URL: redis.url } : {}),
      },
    });
    return test;
  }

  async function expectRefused(response: Response, windowSeconds: number): Promise<void> {
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(windowSeconds - 10);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    expect(await response.json()).toEqual(RATE_LIMITED_BODY);
  }

  function upload(service: TestApp): Promise<Response> {
    const form = new FormData();
    for (const [key, value] of Object.entries(DEMO_LINK)) form.set(key, String(value));
    form.set('fieldRef', 'Business_plan');
    form.set('file', new Blob([SAMPLE_PDF], { type: 'application/pdf' }), 'plan.pdf');
    return fetch(`${service.url}/api/upload`, { method: 'POST', body: form });
  }

  it('lets RATE_LIMIT_SUBMITS_PER_MINUTE submissions of a person through a minute', async () => {
    const service = await start({ RATE_LIMIT_SUBMITS_PER_MINUTE: '3' });
    const submit = () =>
      service.post('/api/submit', { ...DEMO_LINK, submissionId: randomUUID(), values: {} });
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await submit()).status).toBe(201);
    await expectRefused(await submit(), 60);
    await expectRefused(await submit(), 60);
  });

  it('lets RATE_LIMIT_UPLOADS_PER_MINUTE uploads of a person through a minute', async () => {
    const service = await start({ RATE_LIMIT_UPLOADS_PER_MINUTE: '2' });
    for (let attempt = 0; attempt < 2; attempt += 1) expect((await upload(service)).status).toBe(201);
    await expectRefused(await upload(service), 60);
  });

  it('lets RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE upload requests of an address through a minute', async () => {
    const service = await start({ RATE_LIMIT_UPLOAD_REQUESTS_PER_MINUTE: '3' });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await service.post('/api/upload', { not: 'multipart' })).status).toBe(400);
    }
    await expectRefused(await service.post('/api/upload', { not: 'multipart' }), 60);
  });

  it('refuses an address after RATE_LIMIT_CHECKSUM_FAILURES wrong checksums for the window', async () => {
    const service = await start({
      RATE_LIMIT_CHECKSUM_FAILURES: '3',
      RATE_LIMIT_CHECKSUM_WINDOW_MINUTES: '2',
    });
    const guess = (attempt: number) =>
      service.get(`/api/report?${ownerQuery({ ...DEMO_LINK, cs: `guess-${attempt}` })}`);
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await guess(attempt)).status).toBe(401);
    await expectRefused(await guess(3), 120);
    await expectRefused(await service.get(`/api/report?${ownerQuery(DEMO_LINK)}`), 120);
  });

  it('gives a successful check its attempt back, so right checksums never use up the failures', async () => {
    const service = await start({ RATE_LIMIT_CHECKSUM_FAILURES: '2', CHECKSUM_CACHE_SECONDS: '0' });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await service.get(`/api/report?${ownerQuery(DEMO_LINK)}`)).status).toBe(200);
    }
    expect((await service.get(`/api/report?${ownerQuery({ ...DEMO_LINK, cs: 'wrong' })}`)).status).toBe(401);
    expect((await service.get(`/api/report?${ownerQuery({ ...DEMO_LINK, cs: 'wrong' })}`)).status).toBe(401);
    await expectRefused(await service.get(`/api/report?${ownerQuery(DEMO_LINK)}`), 600);
  });
});
