import { CiviCrmEmulator } from '@checkin/civicrm-fake/emulator';
import fc from 'fast-check';
import { CiviCrmHttpClient } from '../src/app/crm/civicrm-http.client';
import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import { FIELD_KINDS, planSite } from './support/site-variety-plan';
import { DOCUMENTED_GROUPS, defineSiteVarietySuite } from './support/site-variety-suite';
import { TEST_API_KEY } from './support/test-app';

/**
 * The site-variety suite (docs/emulator.md, "Site variety") on the emulator: the shapes the real
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
        // The machine may be busy: the suite judges answers, not the emulator's speed.
        CRM_TIMEOUT_MS: '30000',
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

describe('the site-variety generator, for any seed', () => {
  const seeds = fc.integer({ min: 1, max: 2 ** 31 - 1 });

  it('plans every data type / html type pair in both groups, each name once', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const plan = planSite(seed, { longHistory: 10 });
        for (const group of ['activity', 'contact'] as const) {
          const kinds = plan.extraFields
            .filter((field) => field.group === group)
            .map((field) => field.kind.key);
          expect(kinds.sort()).toEqual(FIELD_KINDS.map((kind) => kind.key).sort());
        }
        const names = plan.extraFields.map((field) => field.apiKey);
        expect(new Set(names).size).toBe(names.length);
        expect(plan.changedFields.map((field) => field.change).sort()).toEqual([
          'disabled',
          'relabelled',
          'relabelled',
        ]);
      }),
      { numRuns: 200 },
    );
  });

  it('builds the same plan from the same seed, so a printed seed reproduces a failure', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const strip = (plan: ReturnType<typeof planSite>) => JSON.stringify({ ...plan, decorate: undefined });
        expect(strip(planSite(seed, { longHistory: 50 }))).toBe(strip(planSite(seed, { longHistory: 50 })));
      }),
      { numRuns: 100 },
    );
  });
});
