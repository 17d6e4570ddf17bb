import { defineSiteVarietySuite } from '../support/site-variety-suite';
import { adminClient, serviceSettings, siteFromEnvironment } from './civicrm-site';

/**
 * The site-variety suite (docs/emulator.md, "Site variety") on a real CiviCRM: varied site shapes
 * built by the seeded generator (support/site-variety.ts) on the site tools/civicrm/real-suite.mjs
 * set up, every owner and staff route and page of the built service over them, the CRM traffic
 * counted on the wire. The shape's schema changes (extra fields, a disabled and relabelled
 * configured field) are put back in afterAll, so the other specs sharing the site see it as it was;
 * its contacts and check-ins are its own co-ops'.
 *
 * Runs on the two supported versions (VARIETY_TARGETS, default "6.14,5.81,external").
 */
const site = siteFromEnvironment();
const targets = (process.env['VARIETY_TARGETS'] ?? '6.14,5.81,external').split(',');

if (site && targets.includes(site.target)) {
  defineSiteVarietySuite({
    label: `CiviCRM ${site.target}`,
    longHistory: 300,
    start: async () => {
      const crm = adminClient(site);
      // The suite puts its counting proxy in front of site.url and sets CRM_BASE_URL to it.
      const serviceEnv = serviceSettings(site);
      return {
        crm,
        adminKey: site.adminKey,
        url: site.url,
        groups: site.groups,
        serviceEnv,
        stop: () => crm.close(),
      };
    },
  });
} else {
  describe.skip(`site variety (not run on ${site?.target ?? 'no CiviCRM'})`, () => {
    it('runs on the targets VARIETY_TARGETS names', () => undefined);
  });
}
