import { CiviCrmEmulator } from '@checkin/civicrm-fake/emulator';
import { CiviCrmHttpClient } from '../src/app/crm/civicrm-http.client';
import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import { DOCUMENTED_GROUPS, defineSiteVarietySuite } from './support/site-variety-suite';
import { TEST_API_KEY } from './support/test-app';

/**
 * The site-variety suite (docs/testing.md, "Site variety") on the emulator: the shapes the real
 * CiviCRM suite builds (backend/test/civicrm/site-variety.real.spec.ts), from the same generator,
 * with a shorter long history so the fast suites stay fast.
 */
defineSiteVarietySuite({
  label: 'the emulator',
  longHistory: 120,
  start: async () => {
    const emulator = await CiviCrmEmulator.start({ apiKey: TEST_API_KEY, createModel: createDemoModel });
    const crm = new CiviCrmHttpClient({
      baseUrl: emulator.baseUrl,
      apiKey: TEST_API_KEY,
      urlStyle: 'standard',
      timeoutMs: 10_000,
      customGroups: DOCUMENTED_GROUPS,
    });
    return {
      crm,
      adminKey: TEST_API_KEY,
      url: emulator.baseUrl,
      groups: DOCUMENTED_GROUPS,
      serviceEnv: {
        CRM_API_KEY: TEST_API_KEY,
        CRM_FILE_ROUTE: '/civicrm/checkin-file?id={id}',
        FILE_LINK_KEY: 'site-variety-file-link-key-0123456789',
      },
      stop: async () => {
        await crm.onApplicationShutdown();
        await emulator.stop();
      },
    };
  },
});
