/**
 * How much a finding matters, from the most to the least:
 * - `refuses-start`: plainly wrong set-up; production refuses to start, readiness answers 503.
 * - `blocks-owners`: owner routes would fail while it lasts; readiness answers 503.
 * - `drift`: the site no longer matches the service (links refused, times written off); owners are
 *   still served, but GET /api/health answers 503 naming it.
 * - `warning`: logged and listed; nothing answers 503 for it.
 */
export type Severity = 'refuses-start' | 'blocks-owners' | 'drift' | 'warning';

export type FindingCode =
  | 'CRM_UNREACHABLE'
  | 'CRM_KEY_INVALID'
  | 'CRM_KEY_NOT_PERMITTED'
  | 'CRM_USER_BLOCKED'
  | 'CRM_CREDENTIALS_REFUSED'
  | 'CRM_KEY_IS_ADMINISTRATOR'
  | 'PERMISSION_MISSING'
  | 'EXTENSION_MISSING'
  | 'EXTENSION_OUTDATED'
  | 'CUSTOM_GROUP_MISSING'
  | 'FILE_ROUTE_UNSET'
  | 'FILE_LINK_KEY_MISSING'
  | 'LINK_KEY_DIFFERS'
  | 'STAFF_PERMISSION_UNGRANTED'
  | 'TIME_ZONE_NOT_PINNED'
  | 'TIME_ZONE_MISMATCH'
  | 'TIME_ZONE_CHANGED'
  | 'PUBLIC_URL_NOT_HTTPS'
  | 'LISTENS_ON_ALL_INTERFACES'
  | 'CHECK_FAILED';

/**
 * One difference between the CiviCRM site (or the service's own settings) and what the service
 * needs, in the words an administrator acts on. `fatal` and `blocksOwners` are the severity as
 * GET /api/health has always shown it.
 */
export interface SiteFinding {
  code: FindingCode;
  /** The setting to change, by its exact name, when a setting is the fix. */
  setting?: string;
  /** What to change: the setting or the CiviCRM permission by its exact name, else the step to take. */
  fix: string;
  /** What is wrong, what it breaks, and `Fix: …`. */
  message: string;
  severity: Severity;
  fatal: boolean;
  blocksOwners: boolean;
}

export function finding(
  code: FindingCode,
  severity: Severity,
  fix: { setting: string } | { permission: string } | { action: string },
  message: string,
): SiteFinding {
  return {
    code,
    ...('setting' in fix ? { setting: fix.setting } : {}),
    fix: 'setting' in fix ? fix.setting : 'permission' in fix ? fix.permission : fix.action,
    message,
    severity,
    fatal: severity === 'refuses-start',
    blocksOwners: severity === 'refuses-start' || severity === 'blocks-owners',
  };
}

/** Outages, not set-up mistakes: the CRM reachability check reports those. */
export function isOutage(found: SiteFinding): boolean {
  return found.code === 'CRM_UNREACHABLE' || found.code === 'CHECK_FAILED';
}

/** Whether GET /api/health answers 503 for it. */
export function failsHealth(found: SiteFinding): boolean {
  return found.severity !== 'warning';
}
