import { isKnownTimeZone } from '@checkin/contract';
import type { AppConfig } from '../config/app-config';
import { CrmError } from '../crm/crm-errors';
import { ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP } from '../crm/crm-names';
import type { CrmSiteInfo, CrmSiteService } from '../crm/crm-site.service';
import type { CrmSiteChecks } from '../crm/site-checks';
import type { CrmSiteGateway } from '../crm/site.gateway';
import { expectedGroups, nearMatchGroups, nearMatchReason } from './custom-groups';
import type { SiteFinding } from './finding';
import * as words from './findings';
import { probeLinkKeys } from './link-key-probe';
import { auditSettings } from './settings-audit';
import { compareVersions, isCiviCrm5, REQUIRED_EXTENSION_VERSION } from './versions';

/** What the audit reports: the site as the service sees it, and every finding. */
export interface SiteAudit {
  checkedAt: string;
  civicrmVersion: string | null;
  extensionVersion: string | null;
  /** The zone the service converts CiviCRM's local date-times with, for the life of the process. */
  timeZone: {
    inUse: string | null;
    source: CrmSiteInfo['timeZoneSource'] | null;
    /** What CiviCRM reported for the API user at this check (the extension's `timezone`). */
    crmReports: string | null;
    /** What it reported at the first check of this process. */
    crmReportedAtStart: string | null;
  };
  customGroups: { activity: string; contact: string };
  /** How staff file links are made. */
  fileLinks: string;
  /** The permissions the extension reported for the API user (absent: it did not say). */
  permissions: Record<string, boolean> | null;
  problems: SiteFinding[];
}

/** The reads the audit makes: each the smallest call of a kind an owner route makes. */
export interface SiteReads {
  site: Pick<
    CrmSiteGateway,
    'ping' | 'extensionInfo' | 'customGroupsNamed' | 'customGroups' | 'verifyLinkKeys'
  >;
  siteInfo: Pick<CrmSiteService, 'info'>;
  checks: Pick<CrmSiteChecks, 'readFiles' | 'readCustomFields'>;
}

/** What the audit remembers from one run to the next (the zone CiviCRM reported first). */
export interface AuditMemory {
  firstReportedZone: string | null;
}

/** The extension's file route, which signed staff links use when CRM_FILE_ROUTE names no other. */
const EXTENSION_FILE_LINK_ROUTE = '/civicrm/checkin-file?id={id}';

/** Custom groups listed at most when looking for near matches. */
const MAX_LISTED_GROUPS = 500;

/** docs/civicrm-setup.md, step 5: what each permission serves, for the finding naming it. */
const NEEDED_PERMISSIONS: ReadonlyArray<{ name: string; serves: string; blocksOwners: boolean }> = [
  { name: 'access CiviCRM', serves: 'every API call', blocksOwners: true },
  {
    name: 'edit all contacts',
    serves:
      "reading owners, co-ops and relationships, and saving a co-op's fields (every owner link answers 403 without it)",
    blocksOwners: true,
  },
  { name: 'access all custom data', serves: 'reading and writing the two custom groups', blocksOwners: true },
  { name: 'view all activities', serves: 'creating check-in activities', blocksOwners: true },
  { name: 'access uploaded files', serves: 'uploads and staff file links', blocksOwners: true },
  {
    name: 'delete activities',
    serves: 'removing a check-in whose values CiviCRM refused (else an empty one stays behind)',
    blocksOwners: false,
  },
];

const ADMINISTRATOR_ROLE_PERMISSION = 'all CiviCRM permissions and ACLs';

/**
 * The site audit (docs/architecture.md, "Site audit"): compares the CiviCRM site, and the
 * service's own settings, with what the service needs — credentials, each permission the routes
 * need, the extension and its version, the custom group names, the file-link route, both link keys
 * (a signed probe: no key is sent), the staff permission, the time zone, and the safe-defaults of
 * a production deployment. The start-up self-check and GET /api/health render its findings.
 */
export async function auditSite(
  reads: SiteReads,
  config: AppConfig,
  memory: AuditMemory,
): Promise<SiteAudit> {
  const crm = config.crm;
  const customGroups = crm?.customGroups ?? {
    activity: ACTIVITY_CUSTOM_GROUP,
    contact: CONTACT_CUSTOM_GROUP,
  };
  const report: SiteAudit = {
    checkedAt: new Date().toISOString(),
    civicrmVersion: null,
    extensionVersion: null,
    timeZone: { inUse: null, source: null, crmReports: null, crmReportedAtStart: null },
    customGroups,
    fileLinks: crm?.fileLinkKey
      ? `the extension's route, signed with FILE_LINK_KEY (${crm.fileRoute ?? EXTENSION_FILE_LINK_ROUTE})`
      : crm?.fileRoute
        ? `the route in CRM_FILE_ROUTE (${crm.fileRoute})`
        : "CiviCRM's signed links (APIv4 File.get url)",
    permissions: null,
    problems: auditSettings(config),
  };
  if (!crm) return report;
  const problems = report.problems;
  try {
    await reads.site.ping();
  } catch (error) {
    problems.push(credentialFinding(error));
    return report;
  }
  const info = await extension(reads, report, config);
  await customGroupsOf(reads, report);
  await fileAccess(reads, report);
  fileLinks(report, config);
  await timeZone(reads, report, info, config, memory);
  return report;
}

/** The extension's info: its version, CiviCRM's, the zone, the API user's permissions and the link keys. */
async function extension(
  reads: SiteReads,
  report: SiteAudit,
  config: AppConfig,
): Promise<Record<string, unknown> | undefined> {
  let row: Record<string, unknown> | undefined;
  try {
    row = await reads.site.extensionInfo();
  } catch (error) {
    const forbidden = error instanceof CrmError && error.failure === 'forbidden';
    if (forbidden) {
      report.problems.push(words.permissionMissing('access CiviCRM', 'every API call', true));
    } else if (error instanceof CrmError && !isOutage(error)) {
      report.problems.push(words.extensionMissing());
    } else {
      report.problems.push(checkFailed('the extension', error));
    }
    return undefined;
  }
  const version = typeof row?.['extension_version'] === 'string' ? row['extension_version'] : null;
  report.extensionVersion = version ?? 'unknown';
  report.civicrmVersion = typeof row?.['civicrm_version'] === 'string' ? row['civicrm_version'] : null;
  const outdated = version === null || compareVersions(version, REQUIRED_EXTENSION_VERSION) < 0;
  if (outdated) {
    report.problems.push(words.extensionOutdated(version, REQUIRED_EXTENSION_VERSION));
  }
  permissionsOf(row, report, config);
  if (!outdated) await linkKeys(reads, report, config);
  staffPermission(row, report, config);
  return row;
}

function permissionsOf(row: Record<string, unknown> | undefined, report: SiteAudit, config: AppConfig): void {
  const permissions = row?.['permissions'];
  if (!permissions || typeof permissions !== 'object' || Array.isArray(permissions)) return;
  report.permissions = Object.fromEntries(
    Object.entries(permissions).map(([name, granted]) => [name, granted === true]),
  );
  for (const needed of NEEDED_PERMISSIONS) {
    if (report.permissions[needed.name] === false) {
      report.problems.push(words.permissionMissing(needed.name, needed.serves, needed.blocksOwners));
    }
  }
  const civicrm5 = isCiviCrm5(report.civicrmVersion);
  if (civicrm5 && report.permissions['administer CiviCRM'] === false) {
    report.problems.push(
      words.permissionMissing(
        'administer CiviCRM',
        'reading custom field metadata on CiviCRM 5.x (the form, report and staff report answer 502 without it)',
        true,
      ),
    );
  }
  if (!config.production) return;
  // The administrator's own key: warned, not refused, so that an upgrade never stops a running
  // deployment (docs/decisions.md, "The administrator's key").
  if (report.permissions[ADMINISTRATOR_ROLE_PERMISSION] === true) {
    report.problems.push(words.crmKeyIsAdministrator(ADMINISTRATOR_ROLE_PERMISSION, civicrm5));
  } else if (!civicrm5 && report.permissions['administer CiviCRM'] === true) {
    report.problems.push(words.crmKeyIsAdministrator('administer CiviCRM', civicrm5));
  }
}

/** Both link keys against the extension's settings, by a value each signs (the keys never leave). */
async function linkKeys(reads: SiteReads, report: SiteAudit, config: AppConfig): Promise<void> {
  const keys = { FILE_LINK_KEY: config.crm?.fileLinkKey, STAFF_LINK_KEY: config.staffLinkKey };
  try {
    for (const [setting, state] of await probeLinkKeys(reads.site, keys)) {
      if (state !== 'match') report.problems.push(words.linkKeyDiffers(setting, state));
    }
  } catch (error) {
    if (error instanceof CrmError && error.failure === 'rejected') {
      report.problems.push(
        words.extensionOutdated(
          report.extensionVersion,
          REQUIRED_EXTENSION_VERSION,
          'CheckinMiddleware.verifyKeys',
        ),
      );
    } else {
      report.problems.push(checkFailed('the link keys', error));
    }
  }
}

/**
 * The roles holding *open check-in staff report*, as the extension lists them (null: the CMS
 * gives no list). Named only when staff links are in use (STAFF_LINK_KEY set).
 */
function staffPermission(
  row: Record<string, unknown> | undefined,
  report: SiteAudit,
  config: AppConfig,
): void {
  const roles = row?.['staff_permission_roles'];
  if (!config.staffLinkKey || !Array.isArray(roles)) return;
  if (roles.length === 0) report.problems.push(words.staffPermissionUngranted());
}

async function customGroupsOf(reads: SiteReads, report: SiteAudit): Promise<void> {
  let found: Record<string, unknown>[];
  try {
    found = await reads.site.customGroupsNamed([ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP]);
  } catch (error) {
    report.problems.push(refusalOrFailure('the custom groups', error));
    return;
  }
  const seesCustomData = report.permissions?.['access all custom data'] !== false;
  let all: Record<string, unknown>[] | undefined;
  for (const group of expectedGroups(report.customGroups)) {
    const row = found.find((candidate) => candidate['name'] === group.codeName);
    if (row && row['is_active'] !== false) continue;
    if (!seesCustomData) continue; // named already: without the permission CiviCRM shows no group
    all ??= await reads.site.customGroups(MAX_LISTED_GROUPS).catch(() => []);
    const nearMatches = row
      ? []
      : nearMatchGroups(group, all, null).map((match) => ({
          name: String(match['name']),
          why: nearMatchReason(group, match),
        }));
    const { finding } = words.customGroupMissing(group, row ? 'is disabled' : 'does not exist', nearMatches);
    report.problems.push(finding);
  }
  const ids = found.map((row) => row['id']);
  if (ids.length === 0) return;
  try {
    await reads.checks.readCustomFields(ids);
  } catch (error) {
    report.problems.push(refusalOrFailure('the custom fields', error, report.civicrmVersion));
  }
}

async function fileAccess(reads: SiteReads, report: SiteAudit): Promise<void> {
  if (report.permissions && 'access uploaded files' in report.permissions) return; // reported above
  try {
    await reads.checks.readFiles();
  } catch (error) {
    report.problems.push(refusalOrFailure('uploaded files', error));
  }
}

/**
 * 5.x signs no file links itself: staff links need the extension's route, which the service
 * uses, signed, whenever FILE_LINK_KEY is set (docs/decisions.md, "Staff file links, signed"), or a route the
 * administrator named in CRM_FILE_ROUTE. Only with neither do links fail.
 */
function fileLinks(report: SiteAudit, config: AppConfig): void {
  const crm = config.crm;
  if (!crm?.fileLinkKey && crm?.fileRoute && isExtensionFileRoute(crm.fileRoute)) {
    // The extension serves a file only through a link signed with its key: unsigned links to
    // its route are refused on every CiviCRM version (civicrm-extension/README.md, "The file route").
    report.problems.push(words.fileLinkKeyMissing(crm.fileRoute));
    return;
  }
  if (crm?.fileLinkKey || crm?.fileRoute || !isCiviCrm5(report.civicrmVersion)) return;
  report.problems.push(words.fileRouteUnset(report.civicrmVersion ?? ''));
}

/**
 * The zone in use is the one the service learned first (CrmSiteService caches it for the life
 * of the process); CiviCRM's zone is asked again at every check, and a change is reported, never
 * applied to check-ins already stored (docs/decisions.md, "The CRM's time zone is pinned").
 */
async function timeZone(
  reads: SiteReads,
  report: SiteAudit,
  info: Record<string, unknown> | undefined,
  config: AppConfig,
  memory: AuditMemory,
): Promise<void> {
  const reported =
    typeof info?.['timezone'] === 'string' && isKnownTimeZone(info['timezone']) ? info['timezone'] : null;
  try {
    const inUse = await reads.siteInfo.info();
    report.timeZone.inUse = inUse.timeZone;
    report.timeZone.source = inUse.timeZoneSource;
  } catch (error) {
    report.problems.push(checkFailed('the time zone', error));
    return;
  }
  report.timeZone.crmReports = reported;
  if (reported !== null && memory.firstReportedZone === null) memory.firstReportedZone = reported;
  report.timeZone.crmReportedAtStart = memory.firstReportedZone;
  const inUse = report.timeZone.inUse;
  const configured = config.crm?.timeZone;
  if (reported !== null && memory.firstReportedZone !== null && reported !== memory.firstReportedZone) {
    report.problems.push(words.timeZoneChanged(memory.firstReportedZone, reported, inUse));
  } else if (configured && reported !== null && reported !== configured) {
    report.problems.push(words.timeZoneMismatch(configured, reported));
  }
  if (!configured && config.production) {
    report.problems.push(words.timeZoneNotPinned(inUse, inUse === reported));
  }
}

function isOutage(error: CrmError): boolean {
  return error.failure === 'unreachable' || error.failure === 'timeout';
}

/**
 * Whether a CRM_FILE_ROUTE names the extension's route `civicrm/checkin-file`, in any of CiviCRM's
 * URL forms (`/civicrm/checkin-file?id={id}`, `?q=civicrm/checkin-file&id={id}`, WordPress's
 * `?page=CiviCRM&q=civicrm/checkin-file&id={id}`).
 */
export function isExtensionFileRoute(route: string): boolean {
  return /(^|[/=])civicrm\/checkin-file(?=$|[?&/#])/.test(route.trim());
}

function credentialFinding(error: unknown): SiteFinding {
  if (error instanceof CrmError && error.failure === 'unauthorized') {
    return words.credentialsRefused(error.authRefusal ?? 'other', error.fix ?? '');
  }
  if (error instanceof CrmError && error.failure === 'forbidden') {
    return words.permissionMissing('access CiviCRM', 'every API call', true);
  }
  if (error instanceof CrmError && isOutage(error)) return words.crmUnreachable(error.failure);
  return checkFailed('the credentials', error);
}

function refusalOrFailure(what: string, error: unknown, civicrmVersion: string | null = null): SiteFinding {
  if (error instanceof CrmError && error.failure === 'forbidden') {
    const permission =
      error.call === 'CustomField.get' && isCiviCrm5(civicrmVersion)
        ? 'administer CiviCRM'
        : (error.permission ?? 'access CiviCRM');
    return words.permissionMissing(permission, `reading ${what}`, true);
  }
  return checkFailed(what, error);
}

function checkFailed(what: string, error: unknown): SiteFinding {
  if (!(error instanceof CrmError)) throw error;
  return words.checkFailed(what, error.failure, error.call);
}
