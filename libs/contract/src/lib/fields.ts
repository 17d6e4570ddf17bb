/**
 * Field configuration as the browser sees it. The back end owns the full configuration
 * (with CRM names) and sends this view in every payload, so adding a field is one edit.
 */
export const FIELD_TYPES = [
  'text',
  'number',
  'currency',
  'percent',
  'date',
  'boolean',
  'select',
  'multiselect',
  'file',
  'readonly',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

/** Field types drawn as trend charts in the report. */
export const NUMERIC_FIELD_TYPES: readonly FieldType[] = ['number', 'currency', 'percent'];

/** Stage ranks run 0 (Inquiry) to 5. */
export type StageRank = 0 | 1 | 2 | 3 | 4 | 5;
export const MAX_STAGE_RANK: StageRank = 5;

export interface FieldConfig {
  /** Form-side name; keys prefill and history maps. */
  name: string;
  type: FieldType;
  label: string;
  help?: string;
  /** Custom field on the check-in activity (`Group.Field`); exclusive with crmContactField. */
  crmField?: string;
  /** Custom field on the organization contact (`Group.Field`); exclusive with crmField. */
  crmContactField?: string;
  /** Identity fields and the derived stage are shown but never submitted. */
  readOnly?: boolean;
  /** Unit shown after numbers, e.g. "members". */
  unit?: string;
  /**
   * Inclusive bounds for numeric types, within what value-limits.ts lets each type hold: percent
   * keeps 0..100 and number CiviCRM's Int range without being told.
   */
  min?: number;
  max?: number;
  /** Maximum length for text values. */
  maxLength?: number;
  /**
   * Asked afresh at every check-in ("what happened since the last check-in"): the form starts it
   * empty, and the browser sends it whenever it is answered.
   */
  neverPrefilled?: boolean;
  /** Numeric fields only: shown among the report's headline figures, with a small trend line. */
  headline?: HeadlineConfig;
}

interface HeadlineConfig {
  /** Position among the headline figures, lowest first. */
  order: number;
  /** A numeric field this figure is measured against, e.g. equity raised against the equity goal. */
  goalField?: string;
}

export interface SectionConfig {
  /** 0 is the organization section, always shown; 1..5 are the stage sections. */
  rank: StageRank;
  title: string;
  description?: string;
  fields: FieldConfig[];
}

export interface OptionItem {
  /** The CRM's stored value, never changed by the service. */
  value: string;
  label: string;
  /** Option name in the CRM (machine name), when known. */
  name?: string;
}

/** Option lists keyed by form-side field name (select, multiselect, readonly), from the CRM at run time. */
export type OptionMap = Record<string, OptionItem[]>;

export interface FileValue {
  /** CRM file id; this is what a file custom field stores. */
  id: number;
  /** Absent when the CRM's join yields nothing (renders as "Attachment #<id>"). */
  file_name?: string;
  /** Staff report only: signed URL from the CRM. */
  url?: string;
  /**
   * /api/upload's proof that this person uploaded this file for this field of this organization.
   * Submit needs it for a file the CRM does not already hold for the field; keep it with the value.
   */
  receipt?: string;
}

export type FieldValue = string | number | boolean | string[] | FileValue | null;

export type FieldValues = Record<string, FieldValue>;

/** Identity fields: read from the person's contact, never submitted, never taken from a draft. */
export const IDENTITY_FIELD_NAMES = ['first_name', 'last_name', 'email'] as const;

/** The read-only display of the derived stage. */
export const CURRENT_STAGE_FIELD_NAME = 'current_stage';
