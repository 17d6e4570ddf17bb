import { SERVICE_VERSION } from '../src/app/release';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from './support/test-app';

describe("the release in the administrator's /api/health (docs/releasing.md)", () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp({
      env: { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://checkin.example.org' },
    });
  });

  afterAll(() => test.close());

  it('answers details.service.version to the admin key', async () => {
    const response = await test.get('/api/health', { 'X-Admin-Key': TEST_ADMIN_KEY });
    const body = (await response.json()) as { details: Record<string, Record<string, unknown>> };
    expect(body.details['service']).toEqual({ status: 'up', version: SERVICE_VERSION });
  });

  it('shows nothing without it', async () => {
    const response = await test.get('/api/health');
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain(SERVICE_VERSION);
  });
});
