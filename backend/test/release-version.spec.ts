import { SERVICE_VERSION } from '../src/app/release';
import { TEST_ADMIN_KEY } from './support/test-app';
import { sharedTestApp } from './support/shared-app';

describe("the release in the administrator's /api/health (docs/releasing.md)", () => {
  const test = sharedTestApp(
    {
      env: { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://checkin.example.org' },
    },
    { resetEmulator: false },
  );

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
