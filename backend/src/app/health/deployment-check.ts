import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { isKnownTimeZone } from '@checkin/contract';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CrmError } from '../crm/crm-errors';
import { ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP } from '../crm/crm-names';
import { type CrmSiteInfo, CrmSiteService } from '../crm/crm-site.service';
import { CrmSiteChecks } from '../crm/site-checks';
import { CrmSiteGateway } from '../crm/site.gateway';

/**
 * What an administrator must change. `fatal`: production refuses to start with it (a setting or
 * permission that is plainly wrong); `blocksOwners`: readiness answers 503 while it lasts, because
 * owner routes would fail. Neither: a warning, shown and logged.
 */
export interface DeploymentProblem {
  code: DeploymentProblemCode;
  /** The setting or the CiviCRM permission to change, by its exact name. */
  fix: string;
  message: string;
  fatal: boolean;
  blocksOwners: boolean;
}

export type DeploymentProblemCode =
  | 'CRM_UNREACHABLE'
  | 'CRM_KEY_INVALID'
  | 'CRM_KEY_NOT_PERMITTED'
  | 'CRM_USER_BLOCKED'
  | 'CRM_CREDENTIALS_REFUSED'
  | 'PERMISSION_MISSING'
  | 'EXTENSION_MISSING'
  | 'EXTENSION_OUTDATED'
  | 'CUSTOM_GROUP_MISSING'
  | 'FILE_ROUTE_UNSET'
  | 'FILE_LINK_KEY_MISSING'
  | 'TIME_ZONE_NOT_PINNED'
  | 'TIME_ZONE_MISMATCH'
  | 'TIME_ZONE_CHANGED'
  | 'CHECK_FAILED';

export interface DeploymentReport {
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
  problems: DeploymentProblem[];
}

/** The extension version this service's checks rely on (civicrm-extension/info.xml). */
export const REQUIRED_EXTENSION_VERSION = '1.1.0';

/** The extension's file route, which signed staff links use when CRM_FILE_ROUTE names no other. */
const EXTENSION_FILE_LINK_ROUTE = '/civicrm/checkin-file?id={id}';

/** docs/civicrm-setup.md, step 5: what each permission serves, for the message naming it. */
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

const EXTENSION_FIX =
  "install and enable the CiviCRM extension 'checkin_middleware' (docs/civicrm-setup.md, step 2)";

/** Problems that are an outage, not a set-up mistake: the CRM reachability check reports those. */
const OUTAGE_CODES: ReadonlySet<DeploymentProblemCode> = new Set(['CRM_UNREACHABLE', 'CHECK_FAILED']);

export function isOutageProblem(problem: DeploymentProblem): boolean {
  return OUTAGE_CODES.has(problem.code);
}

/**
 * The deployment self-check (docs/civicrm-setup.md, "Check it all"): credentials, each permission
 * the routes need, the extension and its version, the custom group names, the file-link route and
 * the time zone. It runs when the application starts (before it listens: main.ts refuses to start
 * in production on a fatal problem) and then every SELF_CHECK_INTERVAL_SECONDS; readiness and
 * /api/health answer from the last report, never running it per probe (a report holding an
 * outage is not kept: the next caller asks again). Each problem is logged once when it appears
 * and once when it is gone.
 */
@Injectable()
export class DeploymentCheck implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SelfCheck');
  private last?: { report: Promise<DeploymentReport>; at: number; outage: boolean };
  private logged = new Map<string, DeploymentProblem>();
  private firstReportedZone: string | null = null;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly site: CrmSiteGateway,
    private readonly siteInfo: CrmSiteService,
    private readonly checks: CrmSiteChecks,
  ) {}

  /** Live mode only: stub mode's in-memory CRM is the demo data, set up by the code itself. */
  get enabled(): boolean {
    return this.config.crm !== null;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.enabled) await this.start();
  }

  /** The first check, awaited; then one every interval (the timer does not keep the process up). */
  async start(): Promise<DeploymentReport> {
    const report = await this.current(true);
    this.stop();
    const interval = this.config.selfCheckIntervalMs;
    if (interval > 0) {
      this.timer = setInterval(() => void this.current(true).catch(() => undefined), interval);
      this.timer.unref();
    }
    return report;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  onModuleDestroy(): void {
    this.stop();
  }

  /** The last report when younger than the interval, else a new one (shared by concurrent callers). */
  current(fresh = false): Promise<DeploymentReport> {
    const now = Date.now();
    const last = this.last;
    if (!fresh && last && !last.outage && now - last.at < this.config.selfCheckIntervalMs) return last.report;
    const report = this.run();
    const entry = { report, at: now, outage: false };
    this.last = entry;
    report.then(
      (done) => {
        entry.outage = done.problems.some(isOutageProblem);
      },
      () => {
        if (this.last === entry) this.last = undefined;
      },
    );
    return report;
  }

  private async run(): Promise<DeploymentReport> {
    const crm = this.config.crm;
    const customGroups = crm?.customGroups ?? {
      activity: ACTIVITY_CUSTOM_GROUP,
      contact: CONTACT_CUSTOM_GROUP,
    };
    const report: DeploymentReport = {
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
      problems: [],
    };
    if (!this.enabled) return report;
    await this.checkAll(report);
    this.logChanges(report.problems);
    return report;
  }

  private async checkAll(report: DeploymentReport): Promise<void> {
    const problems = report.problems;
    try {
      await this.site.ping();
    } catch (error) {
      problems.push(credentialProblem(error));
      return;
    }
    const info = await this.extension(report);
    await this.customGroups(report);
    await this.fileAccess(report);
    this.fileLinks(report);
    await this.timeZone(report, info);
  }

  /** The extension's info: its version, CiviCRM's, the zone and the API user's permissions. */
  private async extension(report: DeploymentReport): Promise<Record<string, unknown> | undefined> {
    let row: Record<string, unknown> | undefined;
    try {
      row = await this.site.extensionInfo();
    } catch (error) {
      const forbidden = error instanceof CrmError && error.failure === 'forbidden';
      if (forbidden) {
        report.problems.push(permissionProblem('access CiviCRM', 'every API call', true));
      } else if (error instanceof CrmError && !isOutage(error)) {
        report.problems.push({
          code: 'EXTENSION_MISSING',
          fix: EXTENSION_FIX,
          message:
            "CiviCRM does not answer the check-in extension's API (CheckinMiddleware.info): the extension " +
            "'checkin_middleware' is not installed or is disabled. Uploads are refused and staff file links " +
            `fail without it. Fix: ${EXTENSION_FIX}.`,
          fatal: true,
          blocksOwners: true,
        });
      } else {
        report.problems.push(checkFailed('the extension', error));
      }
      return undefined;
    }
    report.extensionVersion =
      typeof row?.['extension_version'] === 'string' ? row['extension_version'] : 'unknown';
    report.civicrmVersion = typeof row?.['civicrm_version'] === 'string' ? row['civicrm_version'] : null;
    if (compareVersions(report.extensionVersion, REQUIRED_EXTENSION_VERSION) < 0) {
      report.problems.push({
        code: 'EXTENSION_OUTDATED',
        fix: `upgrade the CiviCRM extension 'checkin_middleware' to ${REQUIRED_EXTENSION_VERSION} (civicrm-extension/ of this repository)`,
        message:
          `The check-in extension is version ${report.extensionVersion}; this service expects ` +
          `${REQUIRED_EXTENSION_VERSION} or later, which also reports the API user's permissions to this check.`,
        fatal: false,
        blocksOwners: false,
      });
    }
    const permissions = row?.['permissions'];
    if (permissions && typeof permissions === 'object' && !Array.isArray(permissions)) {
      report.permissions = Object.fromEntries(
        Object.entries(permissions).map(([name, granted]) => [name, granted === true]),
      );
      for (const needed of NEEDED_PERMISSIONS) {
        if (report.permissions[needed.name] === false) {
          report.problems.push(permissionProblem(needed.name, needed.serves, needed.blocksOwners));
        }
      }
      if (isCiviCrm5(report.civicrmVersion) && report.permissions['administer CiviCRM'] === false) {
        report.problems.push(
          permissionProblem(
            'administer CiviCRM',
            'reading custom field metadata on CiviCRM 5.x (the form, report and staff report answer 502 without it)',
            true,
          ),
        );
      }
    }
    return row;
  }

  private async customGroups(report: DeploymentReport): Promise<void> {
    let found: Record<string, unknown>[];
    try {
      found = await this.site.customGroupsNamed([ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP]);
    } catch (error) {
      report.problems.push(refusalOrFailure('the custom groups', error));
      return;
    }
    const groups = [
      {
        codeName: ACTIVITY_CUSTOM_GROUP,
        setting: 'CRM_ACTIVITY_CUSTOM_GROUP',
        name: report.customGroups.activity,
      },
      {
        codeName: CONTACT_CUSTOM_GROUP,
        setting: 'CRM_CONTACT_CUSTOM_GROUP',
        name: report.customGroups.contact,
      },
    ];
    const seesCustomData = report.permissions?.['access all custom data'] !== false;
    for (const group of groups) {
      const row = found.find((candidate) => candidate['name'] === group.codeName);
      if (row && row['is_active'] !== false) continue;
      if (!seesCustomData) continue; // named already: without the permission CiviCRM shows no group
      const state = row ? 'is disabled' : 'does not exist';
      report.problems.push({
        code: 'CUSTOM_GROUP_MISSING',
        fix: group.setting,
        message:
          `The custom group '${group.name}' (${group.setting}) ${state} in CiviCRM, so every owner form fails. ` +
          `Fix: set ${group.setting} to the name \`npm run crm:schema\` prints (GET /api/health with the admin key ` +
          'lists near matches), or create the schema: npm run crm:schema -- --apply.',
        fatal: true,
        blocksOwners: true,
      });
    }
    const ids = found.map((row) => row['id']);
    if (ids.length === 0) return;
    try {
      await this.checks.readCustomFields(ids);
    } catch (error) {
      report.problems.push(refusalOrFailure('the custom fields', error, report.civicrmVersion));
    }
  }

  private async fileAccess(report: DeploymentReport): Promise<void> {
    if (report.permissions && 'access uploaded files' in report.permissions) return; // reported above
    try {
      await this.checks.readFiles();
    } catch (error) {
      report.problems.push(refusalOrFailure('uploaded files', error));
    }
  }

  /**
   * 5.x signs no file links itself: staff links need the extension's route, which the service
   * uses, signed, whenever FILE_LINK_KEY is set (README, "Decisions where the product's rules are silent", Staff file links), or a route the
   * administrator named in CRM_FILE_ROUTE. Only with neither do links fail.
   */
  private fileLinks(report: DeploymentReport): void {
    const crm = this.config.crm;
    if (!crm?.fileLinkKey && crm?.fileRoute && isExtensionFileRoute(crm.fileRoute)) {
      // The extension serves a file only through a link signed with its key: unsigned links to
      // its route are refused on every CiviCRM version (civicrm-extension/README.md, "The file route").
      report.problems.push({
        code: 'FILE_LINK_KEY_MISSING',
        fix: 'FILE_LINK_KEY',
        message:
          `CRM_FILE_ROUTE (${crm.fileRoute}) is the check-in extension's file route, but FILE_LINK_KEY is not set: ` +
          'the extension opens only links signed with its key, so every staff file link will be refused. ' +
          "Fix: set FILE_LINK_KEY (32 characters or more) and the same value in the extension's setting " +
          'checkin_middleware_file_link_key (docs/civicrm-setup.md, step 6).',
        fatal: false,
        blocksOwners: false,
      });
      return;
    }
    if (crm?.fileLinkKey || crm?.fileRoute || !isCiviCrm5(report.civicrmVersion)) return;
    report.problems.push({
      code: 'FILE_ROUTE_UNSET',
      fix: 'FILE_LINK_KEY',
      message:
        `CiviCRM ${report.civicrmVersion} gives no signed file links (APIv4 File.get url is null), and ` +
        'FILE_LINK_KEY is not set: staff file links will not open. Fix: set FILE_LINK_KEY (32 characters or more) ' +
        "and the same value in the extension's setting checkin_middleware_file_link_key, so links use the " +
        "extension's route.",
      fatal: false,
      blocksOwners: false,
    });
  }

  /**
   * The zone in use is the one the service learned first (CrmSiteService caches it for the life
   * of the process); CiviCRM's zone is asked again at every check, and a change is reported, never
   * applied to check-ins already stored (docs/decisions.md, "The CRM's time zone is pinned").
   */
  private async timeZone(report: DeploymentReport, info: Record<string, unknown> | undefined): Promise<void> {
    const reported =
      typeof info?.['timezone'] === 'string' && isKnownTimeZone(info['timezone']) ? info['timezone'] : null;
    try {
      const inUse = await this.siteInfo.info();
      report.timeZone.inUse = inUse.timeZone;
      report.timeZone.source = inUse.timeZoneSource;
    } catch (error) {
      report.problems.push(checkFailed('the time zone', error));
      return;
    }
    report.timeZone.crmReports = reported;
    if (reported !== null && this.firstReportedZone === null) this.firstReportedZone = reported;
    report.timeZone.crmReportedAtStart = this.firstReportedZone;
    const inUse = report.timeZone.inUse;
    const configured = this.config.crm?.timeZone;
    if (reported !== null && this.firstReportedZone !== null && reported !== this.firstReportedZone) {
      report.problems.push({
        code: 'TIME_ZONE_CHANGED',
        fix: 'CRM_TIMEZONE',
        message:
          `CiviCRM's time zone for the API user changed from ${this.firstReportedZone} (when this service started) ` +
          `to ${reported}. Check-ins are still read and written as ${inUse}, so stored ones keep their times; ` +
          `CiviCRM now shows new entries of its own users in ${reported}. Fix: set the API user's time zone ` +
          `back to ${this.firstReportedZone} in CiviCRM, and pin it with CRM_TIMEZONE=${inUse}.`,
        fatal: false,
        blocksOwners: false,
      });
    } else if (configured && reported !== null && reported !== configured) {
      report.problems.push({
        code: 'TIME_ZONE_MISMATCH',
        fix: 'CRM_TIMEZONE',
        message:
          `CRM_TIMEZONE is ${configured} but CiviCRM reports ${reported} for the API user. Check-ins are read and ` +
          `written as ${configured}. Fix: set the API user's time zone in CiviCRM to ${configured}, or, if ` +
          `every date in CiviCRM is in ${reported}, set CRM_TIMEZONE=${reported}.`,
        fatal: false,
        blocksOwners: false,
      });
    }
    if (!configured && this.config.production) {
      report.problems.push({
        code: 'TIME_ZONE_NOT_PINNED',
        fix: 'CRM_TIMEZONE',
        message:
          `CRM_TIMEZONE is not set: this process uses ${inUse} (${inUse === reported ? "the API user's zone, reported by the extension" : 'the default'}), ` +
          "and a restart after someone changes the API user's zone in CiviCRM would read every stored check-in " +
          `in the new zone. Fix: set CRM_TIMEZONE=${inUse}.`,
        fatal: false,
        blocksOwners: false,
      });
    }
  }

  /** Logs each problem once when it appears (fatal and blocking ones as errors) and once when it is gone. */
  private logChanges(problems: DeploymentProblem[]): void {
    const current = new Map(problems.map((problem) => [`${problem.code} ${problem.fix}`, problem]));
    for (const [key, problem] of current) {
      if (this.logged.has(key)) continue;
      const line = `${problem.code}: ${problem.message}`;
      if (problem.fatal || problem.blocksOwners) this.logger.error(line);
      else this.logger.warn(line);
    }
    for (const [key, problem] of this.logged) {
      if (!current.has(key)) this.logger.log(`Resolved: ${problem.code} (${problem.fix}).`);
    }
    this.logged = current;
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

function isCiviCrm5(version: string | null): boolean {
  return version !== null && /^5\./.test(version);
}

/** -1, 0 or 1 comparing dotted numeric versions; an unknown version counts as older. */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.split('.').map((part) => Number.parseInt(part, 10));
  const [left, right] = [parts(a), parts(b)];
  if (left.some(Number.isNaN)) return -1;
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

function permissionProblem(permission: string, serves: string, blocksOwners: boolean): DeploymentProblem {
  return {
    code: 'PERMISSION_MISSING',
    fix: permission,
    message:
      `The API user lacks the CiviCRM permission '${permission}', needed for ${serves}. ` +
      `Fix: give the API user's role the permission '${permission}' (docs/civicrm-setup.md, step 5).`,
    fatal: blocksOwners,
    blocksOwners,
  };
}

const AUTH_CODES = {
  'invalid-key': 'CRM_KEY_INVALID',
  'not-permitted': 'CRM_KEY_NOT_PERMITTED',
  blocked: 'CRM_USER_BLOCKED',
  other: 'CRM_CREDENTIALS_REFUSED',
} as const;

function credentialProblem(error: unknown): DeploymentProblem {
  if (error instanceof CrmError && error.failure === 'unauthorized') {
    const refusal = error.authRefusal ?? 'other';
    const fix =
      refusal === 'not-permitted'
        ? 'authenticate with api key'
        : refusal === 'other'
          ? 'CRM_BASIC_AUTH_USER'
          : 'CRM_API_KEY';
    return {
      code: AUTH_CODES[refusal],
      fix,
      message: `CiviCRM refused the service's credentials: ${error.fix ?? ''}.`,
      fatal: true,
      blocksOwners: true,
    };
  }
  if (error instanceof CrmError && error.failure === 'forbidden') {
    return permissionProblem('access CiviCRM', 'every API call', true);
  }
  if (error instanceof CrmError && isOutage(error)) {
    return {
      code: 'CRM_UNREACHABLE',
      fix: 'CRM_BASE_URL',
      message:
        `CiviCRM at CRM_BASE_URL did not answer (${error.failure}); the other checks wait for it. ` +
        "Fix: check that CRM_BASE_URL is CiviCRM's address and that CiviCRM is up.",
      // An outage is not a configuration mistake: the service starts and becomes ready when CiviCRM answers.
      fatal: false,
      blocksOwners: true,
    };
  }
  return checkFailed('the credentials', error);
}

function refusalOrFailure(
  what: string,
  error: unknown,
  civicrmVersion: string | null = null,
): DeploymentProblem {
  if (error instanceof CrmError && error.failure === 'forbidden') {
    const permission =
      error.call === 'CustomField.get' && isCiviCrm5(civicrmVersion)
        ? 'administer CiviCRM'
        : (error.permission ?? 'access CiviCRM');
    return permissionProblem(permission, `reading ${what}`, true);
  }
  return checkFailed(what, error);
}

function checkFailed(what: string, error: unknown): DeploymentProblem {
  if (!(error instanceof CrmError)) throw error;
  return {
    code: error.failure === 'unreachable' || error.failure === 'timeout' ? 'CRM_UNREACHABLE' : 'CHECK_FAILED',
    fix: 'CRM_BASE_URL',
    message: `Checking ${what} failed: CiviCRM answered ${error.failure} to ${error.call}. It is checked again shortly.`,
    fatal: false,
    blocksOwners: true,
  };
}
