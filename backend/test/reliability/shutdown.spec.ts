import { CiviCrmEmulator } from '@checkin/civicrm-fake/emulator';
import { createDemoModel } from '../../src/app/crm/in-memory/demo-data';
import { DEMO_LINK, ownerQuery, TEST_API_KEY } from '../support/test-app';
import { startBuiltService } from './support/built-service';

describe('graceful shutdown of the built service', () => {
  let emulator: CiviCrmEmulator;

  beforeAll(async () => {
    emulator = await CiviCrmEmulator.start({ apiKey: TEST_API_KEY, model: createDemoModel() });
  });

  afterAll(() => emulator.stop());

  it('finishes the request in flight, then exits 0 on SIGTERM', async () => {
    const service = await startBuiltService({ baseUrl: emulator.baseUrl, apiKey: TEST_API_KEY });
    // The start-up self-check has already called the CRM: wait for the report's own first call.
    emulator.clearCalls();
    emulator.setLatency(500);
    const inFlight = fetch(`${service.url}/api/report?${ownerQuery(DEMO_LINK)}`).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as unknown,
    }));
    while (emulator.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));

    service.child.kill('SIGTERM');
    const [answer, exitCode] = await Promise.all([inFlight, service.exitCode]);

    expect(answer).toEqual({ status: 200, body: expect.objectContaining({ orgName: expect.any(String) }) });
    expect(exitCode).toBe(0);
    await expect(fetch(`${service.url}/api/health/live`)).rejects.toThrow();
  }, 30_000);
});
