/**
 * The upgrade run's CiviCRM site (tools/civicrm/upgrade-run.mjs): `/tmp/checkin-civicrm-<slot>-upgrade`
 * on port 8770 + 100 × slot. The real-CiviCRM suite starts it with its other sites, in the
 * background, and the upgrade run then finds it up.
 */
import { siteEnvironment } from '../harness/civicrm-sites.mjs';

export const UPGRADE_PACKS = {
  6.14: 'civicrm-standalone-6.14-code.tar.gz',
  5.81: 'civicrm-standalone-5.81.1-code.tar.gz',
};

/** civicrm.sh's settings for the upgrade run's site of `version` in REAL_SUITE_SLOT `slot`. */
export function upgradeSite({ slot, version }) {
  const port = 8770 + slot * 100;
  return {
    port,
    env: siteEnvironment({
      base: `/tmp/checkin-civicrm-${slot}-upgrade`,
      port,
      pack: UPGRADE_PACKS[version],
    }),
  };
}
