import { adminClient } from './civicrm/civicrm-site';
import { runContractScenarios } from './civicrm/contract-scenarios';
import { startTestApp, TEST_API_KEY, type TestApp, type TestAppOptions } from './support/test-app';

/**
 * The contract scenarios (the ones the real-CiviCRM suite also runs and compares) against the
 * emulator's imitation of each supported CiviCRM version, and of a CRM in another time zone:
 * the service must answer the same on each.
 */
const DOCUMENTED_GROUPS = { activity: 'Check_in_data__organizing_', contact: 'Food_Co_op_Organizing' };

async function answersOn(emulator: TestAppOptions['emulator']) {
  let app: TestApp | undefined;
  const crm = { close: () => Promise.resolve() };
  try {
    app = await startTestApp({ emulator, env: { RATE_LIMIT_READS_PER_MINUTE: '10000' } });
    const admin = adminClient({
      url: app.emulator.baseUrl,
      adminKey: TEST_API_KEY,
      groups: DOCUMENTED_GROUPS,
    });
    crm.close = admin.close;
    return await runContractScenarios(app, admin);
  } finally {
    await crm.close();
    await app?.close();
  }
}

describe('the same answers on every CiviCRM the product supports (emulated)', () => {
  it('answers on 5.81 and in America/Chicago exactly as on 6.14 in UTC', async () => {
    const reference = await answersOn({ civicrmVersion: '6.14' });
    expect(reference['submit']?.status).toBe(201);
    expect(reference['upload with a space in its name']).toMatchObject({
      status: 201,
      body: { file_name: 'market_study.pdf' },
    });
    expect(await answersOn({ civicrmVersion: '5.81' })).toEqual(reference);
    expect(await answersOn({ civicrmVersion: '6.14', timeZone: 'America/Chicago' })).toEqual(reference);
  });
});
