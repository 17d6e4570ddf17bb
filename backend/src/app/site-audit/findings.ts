import { finding, type SiteFinding } from './finding';

/**
 * Every finding of the site audit in its words, written once: the start-up self-check, GET
 * /api/health and the schema installer (`npm run crm:schema`) all say what they find through
 * these. Each says what is wrong, what it breaks, and the fix (docs/civicrm-setup.md names the steps).
 */

const SETUP_STEP_5 = 'docs/civicrm-setup.md, step 5';
const EXTENSION_FIX =
  "install and enable the CiviCRM extension 'checkin_middleware' (docs/civicrm-setup.md, step 2)";

export function permissionMissing(permission: string, serves: string, blocksOwners: boolean): SiteFinding {
  return finding(
    'PERMISSION_MISSING',
    blocksOwners ? 'refuses-start' : 'warning',
    { permission },
    `The API user lacks the CiviCRM permission '${permission}', needed for ${serves}. ` +
      `Fix: give the API user's role the permission '${permission}' (${SETUP_STEP_5}).`,
  );
}

const AUTH_CODES = {
  'invalid-key': 'CRM_KEY_INVALID',
  'not-permitted': 'CRM_KEY_NOT_PERMITTED',
  blocked: 'CRM_USER_BLOCKED',
  other: 'CRM_CREDENTIALS_REFUSED',
} as const;

/** CiviCRM refused the credentials; `detail` is the refusal's own fix (crm/crm-errors.ts). */
export function credentialsRefused(refusal: keyof typeof AUTH_CODES, detail: string): SiteFinding {
  const fix =
    refusal === 'not-permitted'
      ? { permission: 'authenticate with api key' }
      : { setting: refusal === 'other' ? 'CRM_BASIC_AUTH_USER' : 'CRM_API_KEY' };
  return finding(
    AUTH_CODES[refusal],
    'refuses-start',
    fix,
    `CiviCRM refused the service's credentials: ${detail}.`,
  );
}

/** An outage is not a configuration mistake: the service starts and becomes ready when CiviCRM answers. */
export function crmUnreachable(failure: string): SiteFinding {
  return finding(
    'CRM_UNREACHABLE',
    'blocks-owners',
    { setting: 'CRM_BASE_URL' },
    `CiviCRM at CRM_BASE_URL did not answer (${failure}); the other checks wait for it. ` +
      "Fix: check that CRM_BASE_URL is CiviCRM's address and that CiviCRM is up.",
  );
}

export function checkFailed(what: string, failure: string, call: string): SiteFinding {
  const outage = failure === 'unreachable' || failure === 'timeout';
  return {
    ...finding(
      'CHECK_FAILED',
      'blocks-owners',
      { setting: 'CRM_BASE_URL' },
      `Checking ${what} failed: CiviCRM answered ${failure} to ${call}. It is checked again shortly.`,
    ),
    ...(outage ? { code: 'CRM_UNREACHABLE' as const } : {}),
  };
}

export function extensionMissing(): SiteFinding {
  return finding(
    'EXTENSION_MISSING',
    'refuses-start',
    { action: EXTENSION_FIX },
    "CiviCRM does not answer the check-in extension's API (CheckinMiddleware.info): the extension " +
      "'checkin_middleware' is not installed or is disabled. Uploads are refused and staff file links " +
      `fail without it. Fix: ${EXTENSION_FIX}.`,
  );
}

/**
 * The extension is older than the service needs: `version` below `required`, null (it did not
 * say), or `missing` names the API it lacks although its version says otherwise.
 */
export function extensionOutdated(version: string | null, required: string, missing?: string): SiteFinding {
  const state =
    missing !== undefined
      ? `version ${version ?? 'unknown'} but has no ${missing}, which this service needs`
      : version === null
        ? `of a version that does not report itself; this service expects ${required} or later`
        : `version ${version}; this service expects ${required} or later`;
  return finding(
    'EXTENSION_OUTDATED',
    'drift',
    {
      action: `upgrade the CiviCRM extension 'checkin_middleware' to ${required} (civicrm-extension/ of this repository)`,
    },
    `The check-in extension is ${state}: the link keys and the staff permission go unchecked. Fix: install the ` +
      'extension of this repository over it (docs/civicrm-setup.md, step 2); GET /api/health then checks again.',
  );
}

/**
 * A custom group the service is configured with is missing or disabled. `nearMatches`: groups
 * that may be it, each with the setting that selects it (the installer's group among them). The
 * self-check states it as a finding; the diagnostics' `customGroups` as `diagnosticsLine`.
 */
export function customGroupMissing(
  group: { name: string; setting: string },
  state: 'is disabled' | 'does not exist',
  nearMatches: ReadonlyArray<{ name: string; why: string }>,
): { finding: SiteFinding; diagnosticsLine: string } {
  const create = 'create the schema: npm run crm:schema -- --apply (docs/civicrm-setup.md)';
  const pointAt = nearMatches.map(
    (match) => `'${match.name}' (${match.why}): set ${group.setting}=${match.name}`,
  );
  const advice =
    nearMatches.length === 0
      ? ''
      : ` If it is ${nearMatches.length === 1 ? 'this one' : 'one of these'}, point the setting at it: ${pointAt.join('; ')}.`;
  const fix =
    state === 'is disabled'
      ? `enable it in CiviCRM (Administer > Customize Data and Screens > Custom Fields), or ${create}`
      : nearMatches.length > 0
        ? `set ${group.setting}=${nearMatches[0]?.name ?? ''}, or ${create}`
        : `set ${group.setting} to the name \`npm run crm:schema\` prints, or ${create}`;
  return {
    finding: finding(
      'CUSTOM_GROUP_MISSING',
      'refuses-start',
      { setting: group.setting },
      `The custom group '${group.name}' (${group.setting}) ${state} in CiviCRM, so every owner form fails.${advice} ` +
        `Fix: ${fix}.`,
    ),
    diagnosticsLine:
      state === 'is disabled'
        ? `The custom group '${group.name}' (${group.setting}) is disabled.`
        : `No custom group is named '${group.name}' (${group.setting}).${advice} ` +
          `${nearMatches.length > 0 ? 'Or create it' : 'Create it'}: npm run crm:schema -- --apply (docs/civicrm-setup.md).`,
  };
}

export function customGroupOnWrongEntity(
  group: { name: string; setting: string },
  holds: string,
  needs: string,
): string {
  return (
    `The custom group '${group.name}' (${group.setting}) extends ${holds}, not ${needs}; CiviCRM cannot change ` +
    `that. Rename or delete it, or point ${group.setting} at a group on ${needs}.`
  );
}

export function customFieldWrongType(label: string, holds: string, needs: string): string {
  return `The custom field '${label}' holds ${holds}; the service needs ${needs}.`;
}

export function customFieldDisabled(label: string): string {
  return `The custom field '${label}' is disabled.`;
}

export function customFieldMissing(label: string, nearMatches: readonly string[]): string {
  const near = nearMatches.length ? ` Near matches: ${nearMatches.join(', ')}.` : '';
  return `The custom field '${label}' is missing.${near} Create it: npm run crm:schema -- --apply.`;
}

export function relationshipTypeDisabled(name: string): string {
  return `The relationship type '${name}' is disabled.`;
}

/** Whether a relationship type's two sides are a person and an organization, in either order. */
export function tiesPersonToOrganization(sides: readonly [unknown, unknown]): boolean {
  return sides.map(String).sort().join(' and ') === 'Individual and Organization';
}

export function relationshipTypeSides(name: string, sideA: string | null, sideB: string | null): string {
  return (
    `The relationship type '${name}' should tie an Individual to an Organization; ` +
    `it ties ${sideA ?? 'any contact'} (side A) to ${sideB ?? 'any contact'} (side B).`
  );
}

export function fileLinkKeyMissing(route: string): SiteFinding {
  return finding(
    'FILE_LINK_KEY_MISSING',
    'warning',
    { setting: 'FILE_LINK_KEY' },
    `CRM_FILE_ROUTE (${route}) is the check-in extension's file route, but FILE_LINK_KEY is not set: ` +
      'the extension opens only links signed with its key, so every staff file link will be refused. ' +
      "Fix: set FILE_LINK_KEY (32 characters or more) and the same value in the extension's setting " +
      'checkin_middleware_file_link_key (docs/civicrm-setup.md, step 6).',
  );
}

export function fileRouteUnset(civicrmVersion: string): SiteFinding {
  return finding(
    'FILE_ROUTE_UNSET',
    'warning',
    { setting: 'FILE_LINK_KEY' },
    `CiviCRM ${civicrmVersion} gives no signed file links (APIv4 File.get url is null), and ` +
      'FILE_LINK_KEY is not set: staff file links will not open. Fix: set FILE_LINK_KEY (32 characters or more) ' +
      "and the same value in the extension's setting checkin_middleware_file_link_key, so links use the " +
      "extension's route.",
  );
}

/** What each link key signs, and the extension's setting that must hold the same value. */
export const LINK_KEYS = {
  FILE_LINK_KEY: {
    extensionSetting: 'checkin_middleware_file_link_key',
    breaks: 'every staff file link is refused',
    guide: 'docs/civicrm-setup.md, step 6',
  },
  STAFF_LINK_KEY: {
    extensionSetting: 'checkin_middleware_staff_link_key',
    breaks:
      'every "Check-in staff report" link from a contact record is refused (staff read "That staff key was not accepted")',
    guide: 'docs/civicrm-setup.md, "Organizer tools in CiviCRM"',
  },
} as const;

export type LinkKeySetting = keyof typeof LINK_KEYS;

export function linkKeyDiffers(setting: LinkKeySetting, extensionHas: 'differs' | 'unset'): SiteFinding {
  const { extensionSetting, breaks, guide } = LINK_KEYS[setting];
  const state =
    extensionHas === 'unset'
      ? `is set here, but the extension's setting ${extensionSetting} is empty (or shorter than 32 characters)`
      : `differs from the extension's setting ${extensionSetting} (a value signed with ${setting} does not verify there)`;
  return finding(
    'LINK_KEY_DIFFERS',
    'drift',
    { setting },
    `${setting} ${state}: ${breaks}. Fix: set the same value in both: ${setting} in the service's settings ` +
      `(then restart it) and ${extensionSetting} in CiviCRM (APIv4 Setting.set, or ` +
      `cv api4 Setting.set +v ${extensionSetting}=…; ${guide}).`,
  );
}

/** The extension's permission (civicrm-extension/checkin_middleware.php), labelled 'CiviCRM: open check-in staff report'. */
export const STAFF_PERMISSION = 'open check-in staff report';

export function staffPermissionUngranted(): SiteFinding {
  return finding(
    'STAFF_PERMISSION_UNGRANTED',
    'drift',
    { permission: STAFF_PERMISSION },
    `No CiviCRM role holds the permission 'CiviCRM: ${STAFF_PERMISSION}' (disabling and re-enabling the extension removes ` +
      'it): no staff member sees "Check-in staff report" on a co-op\'s record, and STAFF_LINK_KEY is unused. ' +
      `Fix: give the staff role the permission 'CiviCRM: ${STAFF_PERMISSION}' (docs/civicrm-setup.md, "Organizer tools in CiviCRM").`,
  );
}

export function timeZoneChanged(atStart: string, now: string, inUse: string | null): SiteFinding {
  return finding(
    'TIME_ZONE_CHANGED',
    'warning',
    { setting: 'CRM_TIMEZONE' },
    `CiviCRM's time zone for the API user changed from ${atStart} (when this service started) ` +
      `to ${now}. Check-ins are still read and written as ${inUse}, so stored ones keep their times; ` +
      `CiviCRM now shows new entries of its own users in ${now}. Fix: set the API user's time zone ` +
      `back to ${atStart} in CiviCRM, and pin it with CRM_TIMEZONE=${inUse}.`,
  );
}

export function timeZoneMismatch(configured: string, reported: string): SiteFinding {
  return finding(
    'TIME_ZONE_MISMATCH',
    'drift',
    { setting: 'CRM_TIMEZONE' },
    `CRM_TIMEZONE is ${configured} but CiviCRM reports ${reported} for the API user. Check-ins are read and ` +
      `written as ${configured}, so CiviCRM shows them hours off. Fix: set the API user's time zone in CiviCRM to ` +
      `${configured}, or, if every date in CiviCRM is in ${reported}, set CRM_TIMEZONE=${reported}.`,
  );
}

export function timeZoneNotPinned(inUse: string | null, fromExtension: boolean): SiteFinding {
  return finding(
    'TIME_ZONE_NOT_PINNED',
    'warning',
    { setting: 'CRM_TIMEZONE' },
    `CRM_TIMEZONE is not set: this process uses ${inUse} (${fromExtension ? "the API user's zone, reported by the extension" : 'the default'}), ` +
      "and a restart after someone changes the API user's zone in CiviCRM would read every stored check-in " +
      `in the new zone. Fix: set CRM_TIMEZONE=${inUse}.`,
  );
}

/** Production only: the service acts as CiviCRM's administrator. */
export function crmKeyIsAdministrator(holds: string, civicrm5: boolean): SiteFinding {
  const needed = civicrm5
    ? "CiviCRM 5.x needs 'administer CiviCRM' for reading custom field metadata, never the administrator's role"
    : "the service needs neither 'administer CiviCRM' nor the administrator's role";
  return finding(
    'CRM_KEY_IS_ADMINISTRATOR',
    'warning',
    { setting: 'CRM_API_KEY' },
    `CRM_API_KEY belongs to a CiviCRM user holding '${holds}': a leaked key would give away the whole CRM, and ` +
      `${needed}. Fix: create the API user of ${SETUP_STEP_5} and set CRM_API_KEY to its key.`,
  );
}

/** Production only: owner links carry their checksum in the address. */
export function publicUrlNotHttps(url: string): SiteFinding {
  return finding(
    'PUBLIC_URL_NOT_HTTPS',
    'refuses-start',
    { setting: 'PUBLIC_BASE_URL' },
    `PUBLIC_BASE_URL (${url}) is plain http:// on a host that is not this machine: owners' personal links ` +
      'and the staff key would cross the network unencrypted. Fix: serve the service over https behind the ' +
      'proxy of docs/civicrm-setup.md and set PUBLIC_BASE_URL=https://….',
  );
}

/** Production only, behind a proxy (TRUST_PROXY_HOPS): the proxy's limits and TLS can be walked around. */
export function listensOnAllInterfaces(port: number): SiteFinding {
  return finding(
    'LISTENS_ON_ALL_INTERFACES',
    'warning',
    { setting: 'HOST' },
    `The service listens on every interface (port ${port}) although TRUST_PROXY_HOPS says it sits behind a proxy: ` +
      'anyone who reaches the port directly bypasses the proxy and its TLS. Fix: set HOST=127.0.0.1 (or the ' +
      'address the proxy connects to).',
  );
}
