/** Staff report payload types (GET /api/staff/report). */
import { pageNamed } from './pages';
import type { ValueFormatSettings } from './value-format-settings';
import type { OptionMap, StageRank } from './fields';
import type {
  ActivitySummary,
  FieldReport,
  OrganizationRef,
  QuarterlyMatrix,
  StageInfo,
  StageOption,
} from './payloads';

/** The staff page's request header; the key itself lives in the browser's session storage. */
export const STAFF_KEY_HEADER = 'X-Staff-Key';

/** The session storage item in which the staff page keeps its key for the tab. */
export const STAFF_KEY_STORAGE_ITEM = 'checkin.staffKey';

/** The staff page's own address: `/staff?orgId=O&key=K` (docs/decisions.md, "Staff page"). */
export const STAFF_PAGE_PATH = pageNamed('staff').path;

/** What a staff link's query carries: the organization and the key (or a staff link token). */
export interface StaffLinkParams {
  orgId: string;
  key: string;
}

/**
 * The staff link read from a staff page address's query, or null unless it names both an
 * organization and a key. Only the page's first load has the key there: the page then moves it
 * into the tab's session storage and out of the address, so only that load can be rendered by
 * the service (docs/performance.md, "The staff page rendered from its link").
 */
export function staffLinkFromQuery(query: URLSearchParams): StaffLinkParams | null {
  const orgId = query.get('orgId')?.trim();
  const key = query.get('key');
  return orgId && key ? { orgId, key } : null;
}

export interface StaffSection {
  /** Stable key, also the page's anchor: `stage-0`..`stage-5`, or `other`. */
  key: string;
  /** Stage rank of the section; null for fields found in the CRM but not configured. */
  rank: StageRank | null;
  title: string;
  fields: FieldReport[];
  /** Stage 5 only: the Y1_Q<n>_<metric> fields, which then are not repeated in `fields`. */
  matrix?: QuarterlyMatrix;
}

/** A check-in activity in the submissions list (the summary of docs/decisions.md, "Report shapes", plus what staff need). */
export interface StaffSubmission extends ActivitySummary {
  subject: string | null;
  /** Display name of the contact who recorded it (the owner, or a staff member). */
  recordedBy: string | null;
}

/**
 * How the one v3 Attachment lookup for signed file URLs went: `ok`, `failed` (file values carry
 * no url, links fall back) or `skipped` (no file referenced, no call made).
 */
/**
 * How signed file URLs were found: `ok` by the APIv3 Attachment lookup, `file-get` by APIv4
 * File.get when that lookup failed (stock CiviCRM refuses its id list), `failed` when neither
 * answered URLs (links fall back to the file route), `skipped` when no file is referenced.
 */
export type FileUrlLookup = 'ok' | 'file-get' | 'failed' | 'skipped';

export interface StaffReportPayload {
  organization: OrganizationRef;
  currentStage: StageInfo;
  stages: StageOption[];
  /** Section 0 (organization), the stage sections 1..5, then `other` when the CRM has more fields. */
  sections: StaffSection[];
  /** Every check-in, newest first: by date, then by id. */
  submissions: StaffSubmission[];
  /** Option lists keyed by field name (`field.name`). */
  options: OptionMap;
  /** CRM_BASE_URL, for file links; in stub mode the stub CRM's own address. Never a credential. */
  crmBaseUrl: string | null;
  /** Optional extension route for file links, with `{id}` where the file id goes. */
  fileRouteTemplate: string | null;
  fileUrlLookup: FileUrlLookup;
  /** The CRM site's currency and locale, for amounts and numbers. */
  valueFormat: ValueFormatSettings;
}
