import type { ValueFormatSettings } from './value-format-settings';
import type {
  FieldConfig,
  FieldType,
  FieldValue,
  FieldValues,
  FileValue,
  OptionMap,
  SectionConfig,
  StageRank,
} from './fields';

/** Internal form id (docs/product-rules.md, "CRM names"). Also keys the browser's draft. */
export const FORM_ID = 'org_engagement_check_in';

/** The link parameters every owner route takes (docs/decisions.md, "Personal links"). */
export interface OwnerLinkParams {
  cid: string;
  cs: string;
  contactId?: string;
  orgId?: string;
}

export interface ContactIdentity {
  id: number;
  first_name: string;
  last_name: string;
  /** Read through `email_primary.email`; null when the person has none. */
  email: string | null;
}

export interface OrganizationRef {
  id: number;
  name: string;
}

/** One stage option, ranked by option weight (docs/decisions.md, "Stages"). */
export interface StageOption {
  rank: StageRank;
  /** The CRM's stored option value (not necessarily a number). */
  value: string;
  label: string;
}

/** The derived current stage: Inquiry (rank 0, value null) when no activity has Stage set. */
export interface StageInfo {
  rank: StageRank;
  value: string | null;
  label: string;
}

export interface UploadLimits {
  maxBytes: number;
  mimeTypes: string[];
  /** For the file picker's `accept` attribute. */
  extensions: string[];
}

export interface FormDataPayload {
  formId: typeof FORM_ID;
  contact: ContactIdentity;
  organization: OrganizationRef;
  currentStage: StageInfo;
  stages: StageOption[];
  /** Values keyed by form-side field name; file fields hold {id, file_name}. */
  prefill: FieldValues;
  options: OptionMap;
  /** Every section; the page shows 0 and 1..currentStage.rank (docs/decisions.md, "Sections"). */
  sections: SectionConfig[];
  upload: UploadLimits;
  /**
   * When each prefilled activity-bound answer was given: the date (ISO 8601) of the check-in it
   * comes from, keyed by form-side name. Contact-bound values carry no date in the CRM.
   */
  lastGiven?: Record<string, string>;
  /** The CRM site's currency and locale, for amounts and numbers. */
  valueFormat: ValueFormatSettings;
}

export interface SubmitRequest {
  cid: string;
  cs: string;
  contactId?: string;
  orgId?: string;
  /** UUID made by the browser per submission; makes submit idempotent. */
  submissionId: string;
  values: FieldValues;
}

export interface SubmitResponse {
  activityId: number;
  /** ISO 8601. */
  submittedAt: string;
}

export type UploadResponse = FileValue;

/** docs/decisions.md, "Report shapes". */
export interface FieldHistoryEntry {
  /** null: the answer was cleared in that check-in (see the README, "What a check-in records"). */
  value: FieldValue;
  /** The activity's activity_date_time as ISO 8601. */
  date: string;
  activityId: number;
}

/** docs/decisions.md, "Report shapes". */
export interface ActivitySummary {
  id: number;
  date: string;
  /** Rank of the stage set on that activity, or null. */
  stage: StageRank | null;
  /** How many configured fields hold a non-empty value on it. */
  fieldCount: number;
}

/**
 * Only fields with at least one non-empty entry; each list newest first. A field's latest value
 * is its first entry, null when that check-in cleared it: the rule both reports follow.
 */
export type FieldHistory = Record<string, FieldHistoryEntry[]>;

/**
 * One field with its latest value and history, as both reports show it. `field.crmField` marks an
 * activity-side field (a value per check-in), `field.crmContactField` an organization-side one
 * (one current value). Fields the CRM has but the field configuration does not are named by their
 * CRM name (`Group.Field`).
 */
export interface FieldReport {
  field: FieldConfig;
  /** The organization's value, or the first history entry (null: empty or cleared). */
  latest: FieldValue;
  /** Activity-side: every value with its check-in, newest first (null: cleared). Organization-side: empty. */
  history: FieldHistoryEntry[];
}

/** One metric of the stage-5 matrix: the `Y1_Q<n>_<metric>` fields of one metric, Q1 to Q4. */
export interface QuarterlyMatrixRow {
  metric: string;
  label: string;
  type: FieldType;
  /** Four cells, Q1..Q4; null where there is no such field. */
  cells: Array<FieldReport | null>;
}

/**
 * The stage-5 first-year fields as metrics by quarters, built by the server for both reports
 * (same metrics, labels, order and quarters).
 */
export interface QuarterlyMatrix {
  /** The stage section the matrix belongs to. */
  sectionRank: StageRank;
  /** Column headings, in order: Q1 to Q4. */
  quarters: string[];
  rows: QuarterlyMatrixRow[];
}

/** The organization's own facts ("Your co-op"), which have one current value and no dates. */
export interface OrganizationFacts {
  title: string;
  /** The organization fields the form writes that hold a value, in the form's order. */
  fields: FieldReport[];
}

export interface ReportPayload {
  orgName: string;
  currentStage: StageInfo;
  /** Newest first: by date, then by id. */
  activities: ActivitySummary[];
  fieldHistory: FieldHistory;
  options: OptionMap;
  stages: StageOption[];
  /** The stage sections' field configuration, so the page can group and format. */
  sections: SectionConfig[];
  /** "Your co-op": the organization's own facts as they stand now. */
  organizationFacts: OrganizationFacts;
  /** The stage-5 matrix; its fields are in `sections` too, and shown only here. */
  quarterlyMatrix: QuarterlyMatrix | null;
  /** The CRM site's currency and locale, for amounts and numbers. */
  valueFormat: ValueFormatSettings;
}

/** GET /api/organizer: who an owner contacts when something goes wrong; each part only when set. */
export interface OrganizerContact {
  name: string | null;
  email: string | null;
}

/** GET /api/organizations?cid&cs: the co-ops a valid link's person may check in for, by name. */
export interface OrganizationChoices {
  organizations: OrganizationRef[];
}
