import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  createDemoModel,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
} from '../src/app/crm/in-memory/demo-data';
import { RateLimitService } from '../src/app/rate-limit/rate-limit.service';
import { freePort } from './reliability/support/built-service';
import { haveRedis, REDIS_SERVER, type RedisServer, startRedis } from './support/redis-server';
import { ownerQuery, startTestApp, TEST_ADMIN_KEY, type TestApp } from './support/test-app';
import { expectRefusedBeforeCrm } from './support/shared-app';

/** A wrong checksum of the shape CiviCRM issues, so the guess reaches the CRM's check. */
function civicrmShapedGuess(attempt: number): string {
  return `${attempt.toString(16).padStart(32, '0')}_1767225600_inf`;
}

const demoOwnerLink = {
  contactId: DEMO_PERSON_ID,
  orgId: DEMO_ORG_ID,
  cid: DEMO_PERSON_ID,
  cs: DEMO_CHECKSUM,
};
const adminHeaders = { 'X-Admin-Key': TEST_ADMIN_KEY };

/** Connections other than the test's own inspector. */
async function serviceConnections(redis: Redis): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((line) => line.trim() !== '' && !line.includes('name=test-inspector'))
    .length;
}

const redisSuite = haveRedis ? describe : describe.skip;
if (!haveRedis) {
  console.warn(
    `Skipping the shared rate limit tests: ${REDIS_SERVER} is not installed (apt-get install redis-server).`,
  );
}

redisSuite('rate limits shared through Redis by two instances (THROTTLE_REDIS_URL)', () => {
  let redis: RedisServer;
  let first: TestApp;
  let second: TestApp;

  async function startInstance(env: Record<string, string>): Promise<TestApp> {
    return startTestApp({
      emulator: { model: createDemoModel() },
      env: { THROTTLE_REDIS_URL: redis.url, ...env },
    });
  }

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    await redis.stop();
  });

  beforeEach(async () => {
    await redis.inspector.flushall();
  });

  afterEach(async () => {
    await first?.close();
    await second?.close();
  });

  async function expectRateLimited(response: Response): Promise<void> {
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await response.json()).toEqual({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'Too many requests. Please wait a moment and try again.',
    });
  }

  it('counts reads from one address on either instance against one limit', async () => {
    first = await startInstance({ RATE_LIMIT_READS_PER_MINUTE: '4' });
    second = await startInstance({ RATE_LIMIT_READS_PER_MINUTE: '4' });
    const statuses: number[] = [];
    for (const instance of [first, second, first, second])
      statuses.push((await instance.get('/api/health', adminHeaders)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);

    await expectRateLimited(await first.get('/api/health', adminHeaders));
    await expectRateLimited(await second.get('/api/health', adminHeaders));
  });

  it('refuses checksum guessing spread over both instances, before any further CRM call', async () => {
    first = await startInstance({ RATE_LIMIT_CHECKSUM_FAILURES: '4' });
    second = await startInstance({ RATE_LIMIT_CHECKSUM_FAILURES: '4' });
    const guess = (attempt: number) =>
      `/api/report?${ownerQuery({ cid: DEMO_PERSON_ID, cs: civicrmShapedGuess(attempt) })}`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      statuses.push((await (attempt % 2 === 0 ? first : second).get(guess(attempt))).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    first.emulator.clearCalls();
    second.emulator.clearCalls();

    await expectRateLimited(await first.get(guess(4)));
    await expectRateLimited(await second.get(guess(5)));
    expect(first.emulator.calls).toEqual([]);
    expect(second.emulator.calls).toEqual([]);
  });

  it('lets at most the limit of 100 concurrent guesses over both instances reach the CRM', async () => {
    first = await startInstance({ RATE_LIMIT_CHECKSUM_FAILURES: '10', RATE_LIMIT_READS_PER_MINUTE: '1000' });
    second = await startInstance({ RATE_LIMIT_CHECKSUM_FAILURES: '10', RATE_LIMIT_READS_PER_MINUTE: '1000' });
    first.emulator.clearCalls();
    second.emulator.clearCalls();
    const statuses = await Promise.all(
      Array.from({ length: 100 }, async (_, attempt) => {
        const instance = attempt % 2 === 0 ? first : second;
        const path = `/api/report?${ownerQuery({ cid: DEMO_PERSON_ID, cs: civicrmShapedGuess(attempt) })}`;
        return (await instance.get(path)).status;
      }),
    );
    const checks = [...first.emulator.calls, ...second.emulator.calls].filter(
      (call) => call.entity === 'Contact' && call.action === 'validateChecksum',
    );
    expect(checks.length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 401)).toHaveLength(checks.length);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - checks.length);
  });

  it('gives a successful check its attempt back in Redis', async () => {
    first = await startInstance({ RATE_LIMIT_CHECKSUM_FAILURES: '2', CHECKSUM_CACHE_SECONDS: '0' });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await first.get(`/api/report?${ownerQuery(demoOwnerLink)}`)).status).toBe(200);
    }
  });

  it('counts submissions per contact on either instance against one limit', async () => {
    first = await startInstance({ RATE_LIMIT_SUBMITS_PER_MINUTE: '3' });
    second = await startInstance({ RATE_LIMIT_SUBMITS_PER_MINUTE: '3' });
    const limits = [first, second].map((instance) => instance.app.get(RateLimitService));
    await limits[0]?.consumeSubmit(DEMO_PERSON_ID);
    await limits[1]?.consumeSubmit(DEMO_PERSON_ID);
    await limits[0]?.consumeSubmit(DEMO_PERSON_ID);
    await expect(limits[1]?.consumeSubmit(DEMO_PERSON_ID)).rejects.toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
    });
    // Another contact has its own count.
    await expect(limits[1]?.consumeSubmit(DEMO_PERSON_ID + 1)).resolves.toBeUndefined();
  });

  it('gives every counter an expiry and keeps contact ids and client addresses out of Redis', async () => {
    first = await startInstance({});
    await first.get('/api/health', adminHeaders);
    await first.app.get(RateLimitService).consumeUpload(DEMO_PERSON_ID);
    await first.get(`/api/report?${ownerQuery({ cid: DEMO_PERSON_ID, cs: 'wrong' })}`);
    const keys = await redis.inspector.keys('*');
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) {
      expect(await redis.inspector.pttl(key)).toBeGreaterThan(0);
      expect(key).not.toContain('127.0.0.1');
      expect(key).not.toMatch(new RegExp(`:${DEMO_PERSON_ID}$`));
    }
    const hashed = createHash('sha256').update(String(DEMO_PERSON_ID)).digest('hex');
    expect(keys).toEqual(expect.arrayContaining([`checkin:limits:upload:${hashed}`]));
    const kinds = keys.map((key) => key.replace(/:[0-9a-f]{64}$/, ''));
    expect(kinds).toEqual(
      expect.arrayContaining(['checkin:limits:upload', 'checkin:limits:checksum-failures']),
    );
  });

  it('reports Redis in readiness, and closes its connection when the instance shuts down', async () => {
    first = await startInstance({});
    const ready = await first.get('/api/health/ready');
    expect(await ready.json()).toEqual({
      status: 'ok',
      info: { crm: { status: 'up' }, deployment: { status: 'up' }, redis: { status: 'up' } },
      error: {},
      details: { crm: { status: 'up' }, deployment: { status: 'up' }, redis: { status: 'up' } },
    });
    expect(await serviceConnections(redis.inspector)).toBe(1);
    await first.close();
    expect(await serviceConnections(redis.inspector)).toBe(0);
  });
});

redisSuite('rate limits when Redis cannot be reached', () => {
  let test: TestApp;

  beforeAll(async () => {
    const closedPort = await freePort();
    test = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { THROTTLE_REDIS_URL: `redis://127.0.0.1:${closedPort}` },
    });
  });

  afterAll(() => test.close());

  it('refuses rate-limited requests with 503 and the error body instead of letting them through', async () => {
    const response = await test.get('/api/health', adminHeaders);
    await expectRefusedBeforeCrm(test, response, {
      status: 503,
      code: 'NOT_READY',
      message: 'The service cannot check its rate limits right now. Please try again in a minute.',
    });
  });

  it('refuses the per-contact and checksum-failure limits with the same 503 instead of waiving them', async () => {
    const limits = test.app.get(RateLimitService);
    const unavailable = { statusCode: 503, code: 'NOT_READY' };
    await expect(limits.consumeSubmit(DEMO_PERSON_ID)).rejects.toMatchObject(unavailable);
    await expect(limits.consumeUpload(DEMO_PERSON_ID)).rejects.toMatchObject(unavailable);
    await expect(limits.consumeUploadRequest('127.0.0.1')).rejects.toMatchObject(unavailable);
    await expect(limits.reserveAttempt('checksum', '127.0.0.1')).rejects.toMatchObject(unavailable);
    const guess = await test.get(`/api/report?${ownerQuery({ cid: DEMO_PERSON_ID, cs: 'guess' })}`);
    expect(guess.status).toBe(503);
    expect(test.emulator.calls).toEqual([]);
  });

  it('is not ready, so a load balancer stops sending it traffic', async () => {
    const response = await test.get('/api/health/ready');
    expect(response.status).toBe(503);
    const redisDown = {
      status: 'down',
      failure: 'unreachable',
      message: 'The rate limit store could not be reached.',
    };
    expect(await response.json()).toEqual({
      status: 'error',
      info: { crm: { status: 'up' }, deployment: { status: 'up' } },
      error: { redis: redisDown },
      details: { crm: { status: 'up' }, deployment: { status: 'up' }, redis: redisDown },
    });
  });
});
