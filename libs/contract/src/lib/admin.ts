/**
 * Admin and health payload types (POST /api/preview-link, /api/health). The health details are
 * type aliases, not interfaces, so they fit Terminus's `Record<string, unknown>` indicator data.
 */
import type { StageOption } from './payloads';

/** CiviCRM's default checksum lifetime (setting checksum_timeout): 7 days. */
export const DEFAULT_PREVIEW_LINK_TTL_HOURS = 168;
/** The longest lifetime the admin route grants, one year; 0 asks for a link that never expires. */
export const MAX_PREVIEW_LINK_TTL_HOURS = 8760;

/** POST /api/preview-link body. */
export interface PreviewLinkRequest {
  /** The person who fills in the check-in. */
  contactId: number;
  /** Needed only when the person is the primary contact of several organizations. */
  orgId?: number;
  /** Checksum lifetime in hours; default 168, 0 = never expires. */
  ttlHours?: number;
}

/** Ready to paste into an email. The staff link carries no key: staff add theirs. */
export interface PreviewLinkResponse {
  formUrl: string;
  reportUrl: string;
  staffUrl: string;
  /** ISO 8601, or null when the checksum never expires. */
  expiresAt: string | null;
}

/** One check of a health answer, as @nestjs/terminus reports it. */
export type HealthIndicatorState<T extends object = Record<string, unknown>> = { status: 'up' | 'down' } & T;

/** Every /api/health* answer: 200 with status 'ok', otherwise 503. */
export interface HealthReport {
  status: 'ok' | 'error' | 'shutting_down';
  info: Record<string, HealthIndicatorState>;
  error: Record<string, HealthIndicatorState>;
  details: Record<string, HealthIndicatorState>;
}

/** Why a dependency is down, without its internals. */
export type DependencyFailure =
  'unreachable' | 'timeout' | 'unauthorized' | 'forbidden' | 'rejected' | 'failed' | 'malformed';

/** A dependency that is down: `crm` or `redis` in a health answer. */
export type DependencyDown = {
  failure: DependencyFailure;
  message: string;
};

/** `stageOptions` of GET /api/health: the stage field's option group, found through its metadata. */
export type StageOptionsDiagnostic = {
  /** `Check_in_data__organizing_.Stage`. */
  field: string;
  customFieldId: number | null;
  optionGroupId: number | null;
  optionGroup: string | null;
  /** Active options ranked by weight (docs/decisions.md, "Stages"). */
  stages: StageOption[];
  problems: string[];
};

/** A relationship type as the diagnostics show it. */
export type RelationshipTypeSummary = {
  id: number;
  name_a_b: string;
  label_a_b: string | null;
  name_b_a: string | null;
  label_b_a: string | null;
  /** The contact type side A must hold (null: any), as `expectedContactTypeA` of a relationship. */
  contactTypeA: string | null;
  contactTypeB: string | null;
  is_active: boolean;
};

/** `primaryContactType` of GET /api/health. */
export type PrimaryContactTypeDiagnostic = {
  /** 'Primary Contact', matched against name_a_b. */
  name: string;
  found: RelationshipTypeSummary | null;
  /** Types whose names or labels contain "primary" or "contact", when the type is missing or disabled. */
  nearMatches: RelationshipTypeSummary[];
  problems: string[];
};

/** A custom group as the diagnostics show it (its name as the CRM stores it). */
export type CustomGroupSummary = {
  id: number;
  name: string;
  title: string | null;
  extends: string | null;
  is_active: boolean;
};

/** A custom group that may be the one the service is configured with, and how to use it. */
export type CustomGroupNearMatch = CustomGroupSummary & {
  /** Why it is listed: its name differs only in punctuation or case, or its title is the one the installer gives. */
  reason: string;
  /** How many of the configured fields it holds, out of `CustomGroupDiagnostic.fields.length`. */
  configuredFields: number;
  /** The setting that would point the service at it, e.g. `CRM_ACTIVITY_CUSTOM_GROUP=Check_in_data_organizing_`. */
  setting: string;
};

/** One configured field of a custom group: present and usable, or what is wrong. */
export type CustomFieldCheck = {
  name: string;
  status: 'found' | 'missing' | 'disabled' | 'wrong type';
  /** For 'wrong type': the data type the CRM holds and the one the service needs. */
  dataType?: string | null;
  expectedDataType?: string;
  /** For 'missing': fields that may be it (`Group.Field`, with why). */
  nearMatches?: string[];
};

/** One of the two custom groups in `customGroups` of GET /api/health. */
export type CustomGroupDiagnostic = {
  /** The setting that names the group (CRM_ACTIVITY_CUSTOM_GROUP or CRM_CONTACT_CUSTOM_GROUP). */
  setting: string;
  /** The name the service looks for: the setting's value. */
  name: string;
  extends: string;
  found: CustomGroupSummary | null;
  /** Only when the group is missing or disabled. */
  nearMatches: CustomGroupNearMatch[];
  /** Every field the service needs in this group (empty while the group itself is missing). */
  fields: CustomFieldCheck[];
};

/** `customGroups` of GET /api/health: both custom groups and every configured field. */
export type CustomGroupsDiagnostic = {
  groups: CustomGroupDiagnostic[];
  problems: string[];
};

export type ContactSummary = {
  id: number;
  contactType: string | null;
  displayName: string | null;
};

/** One of the contact's relationships, either side. */
export type RelationshipDiagnostic = {
  id: number;
  type: string | null;
  isActive: boolean;
  contactA: ContactSummary;
  contactB: ContactSummary;
  /** The contact types the relationship type puts on each side (null: any). */
  expectedContactTypeA: string | null;
  expectedContactTypeB: string | null;
  /** Direction problems; empty when the relationship is entered the way its type reads. */
  problems: string[];
};

/** `contactRelationships` of GET /api/health?contactId=N. */
export type ContactRelationshipsDiagnostic = {
  contactId: number;
  contact: ContactSummary | null;
  relationships: RelationshipDiagnostic[];
  /** True when the contact has more relationships than the diagnostics list. */
  truncated: boolean;
  /** The organizations an owner link for this contact opens. */
  primaryContactOf: number[];
  problems: string[];
};
