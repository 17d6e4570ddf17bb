import type { EmulatorFault } from '@checkin/civicrm-fake/emulator';
import { createDemoModel, DEMO_PERSON_ID } from '../src/app/crm/in-memory/demo-data';
import { startTestApp, TEST_ADMIN_KEY, TEST_API_KEY } from './support/test-app';
import { ADMIN_KEY_INVALID, expectRefusedBeforeCrm, sharedTestApp } from './support/shared-app';

const UP = { status: 'up' };

describe('health routes (live mode against the CRM emulator)', () => {
  const test = sharedTestApp({ emulator: { model: createDemoModel() } });

  describe('GET /api/health/live', () => {
    it('answers the Terminus body without calling the CRM', async () => {
      const response = await test.get('/api/health/live');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', info: {}, error: {}, details: {} });
      expect(test.emulator.calls).toEqual([]);
    });

    it('stays up while the CRM is down', async () => {
      test.emulator.injectFault({ kind: 'down' });
      const response = await test.get('/api/health/live');
      expect(response.status).toBe(200);
    });
  });

  describe('GET /api/health/ready', () => {
    it('is up when one authenticated read reaches the CRM', async () => {
      const response = await test.get('/api/health/ready');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate');
      expect(await response.json()).toEqual({
        status: 'ok',
        info: { crm: UP, deployment: UP },
        error: {},
        details: { crm: UP, deployment: UP },
      });
      expect(test.emulator.calls).toHaveLength(1);
      const [call] = test.emulator.calls;
      expect(call).toMatchObject({ entity: 'Contact', action: 'get', method: 'GET', status: 200 });
      expect(call?.params).toEqual({ select: ['id'], limit: 1 });
      expect(call?.headers['x-civi-auth']).toBe(`Bearer ${TEST_API_KEY}`);
    });

    it.each<[EmulatorFault['kind'], string, string]>([
      ['down', 'unreachable', 'The CRM could not be reached.'],
      [
        'http401',
        'unauthorized',
        "The CRM refused the service's credentials. Fix: CiviCRM knows no user with the key in CRM_API_KEY (HTTP 401 'Invalid credential'): set CRM_API_KEY to the API user's key (CiviCRM keeps at most 32 characters of a key).",
      ],
      ['http500', 'failed', 'The CRM answered with an error.'],
      ['malformed', 'malformed', 'The CRM answered with something other than its API envelope.'],
    ])('is down with 503 when the CRM fails (%s)', async (kind, failure, message) => {
      test.emulator.injectFault({ kind });
      const response = await test.get('/api/health/ready');
      expect(response.status).toBe(503);
      const down = { status: 'down', failure, message };
      expect(await response.json()).toEqual({
        status: 'error',
        info: { deployment: UP },
        error: { crm: down },
        details: { crm: down, deployment: UP },
      });
    });

    it('is down when the CRM does not answer within CRM_TIMEOUT_MS', async () => {
      test.emulator.injectFault({ kind: 'slow', delayMs: 5_000 });
      const started = Date.now();
      const response = await test.get('/api/health/ready');
      expect(response.status).toBe(503);
      const down = { status: 'down', failure: 'timeout', message: 'The CRM did not answer in time.' };
      expect(await response.json()).toEqual({
        status: 'error',
        info: { deployment: UP },
        error: { crm: down },
        details: { crm: down, deployment: UP },
      });
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it('logs when readiness is lost and when it returns, once each, without the CRM address', async () => {
      const healthLines = () => test.logs.filter((line) => line.includes('"context":"Health"'));
      await test.get('/api/health/ready');
      const before = healthLines().length;
      test.emulator.injectFault({ kind: 'http500' });
      await test.get('/api/health/ready');
      await test.get('/api/health/ready');
      test.emulator.clearFaults();
      await test.get('/api/health/ready');
      await test.get('/api/health/ready');
      const lines = healthLines().slice(before);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain('Not ready: The CRM answered with an error.');
      expect(lines[1]).toContain('The CRM answers again.');
      expect(lines.join('')).not.toContain(test.emulator.baseUrl);
    });

    it('is not counted against the read limit, so probes never lock a load balancer out', async () => {
      const probe = await startTestApp({
        emulator: { model: createDemoModel() },
        env: { RATE_LIMIT_READS_PER_MINUTE: '2' },
      });
      try {
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 5; attempt++) {
          statuses.push(
            (await probe.get('/api/health/ready')).status,
            (await probe.get('/api/health/live')).status,
          );
        }
        expect(statuses.every((status) => status === 200)).toBe(true);
      } finally {
        await probe.close();
      }
    });

    it('shares one CRM probe between concurrent callers and limits a flood per address', async () => {
      const probe = await startTestApp({
        emulator: { model: createDemoModel() },
        env: { READY_PROBE_CACHE_MS: '5000', RATE_LIMIT_READY_PROBES_PER_MINUTE: '150' },
      });
      try {
        const first = await Promise.all(
          Array.from({ length: 100 }, async () => (await probe.get('/api/health/ready')).status),
        );
        expect(first.every((status) => status === 200)).toBe(true);
        expect(probe.emulator.calls).toHaveLength(1);

        const flood = await Promise.all(
          Array.from({ length: 120 }, async () => probe.get('/api/health/ready')),
        );
        const limited = flood.filter((response) => response.status === 429);
        expect(limited).toHaveLength(100 + 120 - 150);
        expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await limited[0]?.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
        expect(probe.emulator.calls).toHaveLength(1);
      } finally {
        await probe.close();
      }
    });
  });
});

describe('diagnostics outside production', () => {
  it('needs the admin key against a CRM, whatever NODE_ENV says', async () => {
    const live = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { NODE_ENV: 'development' },
    });
    try {
      const response = await live.get(`/api/health?contactId=${DEMO_PERSON_ID}`);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'ADMIN_KEY_INVALID' });
      expect(live.emulator.calls).toEqual([]);
      const allowed = await live.get(`/api/health?contactId=${DEMO_PERSON_ID}`, {
        'X-Admin-Key': TEST_ADMIN_KEY,
      });
      expect(allowed.status).toBe(200);
    } finally {
      await live.close();
    }
  });

  it('stays open in stub mode, which holds only demo data', async () => {
    const stub = await startTestApp({ stub: true, env: { NODE_ENV: 'development' } });
    try {
      expect((await stub.get(`/api/health?contactId=${DEMO_PERSON_ID}`)).status).toBe(200);
    } finally {
      await stub.close();
    }
  });

  it('limits wrong admin keys per address like wrong checksums', async () => {
    const live = await startTestApp({ emulator: { model: createDemoModel() } });
    try {
      const statuses = await Promise.all(
        Array.from(
          { length: 40 },
          async () => (await live.get('/api/health', { 'X-Admin-Key': 'not-the-admin-key-000' })).status,
        ),
      );
      expect(statuses.filter((status) => status === 401)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    } finally {
      await live.close();
    }
  });
});

describe('health routes in production', () => {
  const test = sharedTestApp({
    emulator: { model: createDemoModel() },
    env: { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://checkin.example.org' },
  });

  it.each([
    ['no key', {}],
    ['a wrong key', { 'X-Admin-Key': `${TEST_ADMIN_KEY}-wrong` }],
  ])('keeps the diagnostics behind the admin key (%s): 401 and no CRM call', async (_case, headers) => {
    const response = await test.get(`/api/health?contactId=${DEMO_PERSON_ID}`, headers);
    await expectRefusedBeforeCrm(test, response, ADMIN_KEY_INVALID);
  });

  it('shows the diagnostics with the admin key', async () => {
    const response = await test.get(`/api/health?contactId=${DEMO_PERSON_ID}`, {
      'X-Admin-Key': TEST_ADMIN_KEY,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', error: {} });
  });

  it('leaves liveness and readiness open for the platform', async () => {
    expect((await test.get('/api/health/live')).status).toBe(200);
    expect((await test.get('/api/health/ready')).status).toBe(200);
  });
});
