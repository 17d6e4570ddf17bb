import {
  type FieldConfig,
  type FieldValue,
  type FieldValues,
  hasCurrencyPrecision,
  maxTextLength,
  numericBounds,
  type OptionMap,
} from '@checkin/contract';
import { AppError, Errors } from '../errors/app-error';
import { SUBMITTABLE_FIELDS } from '../fields/field-config';

/** A submit body whose shape is right; values are checked per type afterwards. */
export interface SubmissionRequest {
  /** Lowercase UUID. */
  submissionId: string;
  /** Only names of SUBMITTABLE_FIELDS. */
  values: Readonly<Record<string, unknown>>;
}

const SUBMITTABLE_BY_NAME: ReadonlyMap<string, FieldConfig> = new Map(
  SUBMITTABLE_FIELDS.map((field) => [field.name, field]),
);
/** The body of docs/decisions.md, "Submit body"; the link parameters are the guard's. */
const BODY_KEYS: ReadonlySet<string> = new Set(['cid', 'cs', 'contactId', 'orgId', 'submissionId', 'values']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The submit body's shape (docs/decisions.md, "Submit body"): a UUID submissionId, values an object, and only names
 * the owner may submit. Identity fields, current_stage, Stage and anything unknown are refused
 * by name (UNKNOWN_FIELDS), before any per-type check.
 */
export function parseSubmission(body: unknown): SubmissionRequest {
  if (!isPlainObject(body)) throw Errors.badRequest('The body must be a JSON object.');
  const strayKeys = Object.keys(body).filter((key) => !BODY_KEYS.has(key));
  if (strayKeys.length > 0) {
    throw Errors.badRequest(`Unexpected properties in the request: ${strayKeys.join(', ')}.`, strayKeys);
  }
  const { submissionId, values } = body;
  if (typeof submissionId !== 'string' || !UUID.test(submissionId)) {
    throw Errors.validation('submissionId must be a UUID made for this submission.', ['submissionId']);
  }
  if (!isPlainObject(values)) {
    throw Errors.validation('values must be an object of answers keyed by field name.', ['values']);
  }
  const unknown = Object.keys(values).filter((name) => !SUBMITTABLE_BY_NAME.has(name));
  if (unknown.length > 0) {
    throw new AppError(
      400,
      'UNKNOWN_FIELDS',
      `These fields are not part of the form or cannot be changed: ${unknown.join(', ')}.`,
      { fields: unknown },
    );
  }
  return { submissionId: submissionId.toLowerCase(), values };
}

/** The select and multiselect fields whose submitted value needs the CRM's option lists. */
export function fieldsNeedingOptions(values: Readonly<Record<string, unknown>>): FieldConfig[] {
  return Object.entries(values)
    .filter(([, value]) => !isEmpty(value))
    .map(([name]) => SUBMITTABLE_BY_NAME.get(name))
    .filter((field): field is FieldConfig => field?.type === 'select' || field?.type === 'multiselect');
}

/**
 * Per-type validation of parsed values; `options` holds the CRM's lists for the select fields
 * submitted. null and '' are empty answers, valid for every type. Every invalid field is named
 * at once (VALIDATION_FAILED), so the page can mark them all.
 */
export function validateValues(values: Readonly<Record<string, unknown>>, options: OptionMap): FieldValues {
  const valid: FieldValues = {};
  const invalid: string[] = [];
  const reasons: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = SUBMITTABLE_BY_NAME.get(name);
    if (field && isValidValue(field, value, options)) valid[name] = value;
    else {
      invalid.push(name);
      if (field) reasons[name] = refusalReason(field, value, options);
    }
  }
  if (invalid.length > 0) {
    throw Errors.validation(`Some answers are not valid: ${invalid.join(', ')}.`, invalid, reasons);
  }
  return valid;
}

export function isValidValue(field: FieldConfig, value: unknown, options: OptionMap): value is FieldValue {
  if (value === null || value === '') return true;
  switch (field.type) {
    case 'number':
      // Counts (people, members, square feet): CiviCRM Int fields, 32-bit.
      return Number.isSafeInteger(value) && withinBounds(field, value as number);
    case 'currency':
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        hasCurrencyPrecision(value) &&
        withinBounds(field, value)
      );
    case 'percent':
      return typeof value === 'number' && Number.isFinite(value) && withinBounds(field, value);
    case 'date':
      return typeof value === 'string' && isCalendarDate(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'select':
      return typeof value === 'string' && optionValues(field, options).has(value);
    case 'multiselect':
      return isOptionList(value, optionValues(field, options));
    case 'file':
      return isFileValue(value);
    case 'text':
      return typeof value === 'string' && value.length <= maxTextLength(field);
    case 'readonly':
      return false;
  }
}

/**
 * Why isValidValue refused a value, in a sentence an owner can act on (bounds, option, format).
 * Only called for values it refused.
 */
function refusalReason(field: FieldConfig, value: unknown, options: OptionMap): string {
  switch (field.type) {
    case 'number':
    case 'currency':
    case 'percent': {
      const isNumber = typeof value === 'number' && Number.isFinite(value);
      if (!isNumber) return 'enter a number.';
      if (field.type === 'number' && !Number.isSafeInteger(value)) return 'enter a whole number.';
      if (field.min !== undefined && value < field.min) return `enter ${field.min} or more.`;
      if (field.max !== undefined && value > field.max) return `enter ${field.max} or less.`;
      return 'enter a number.';
    }
    case 'date':
      return 'enter a real date.';
    case 'boolean':
      return 'choose Yes or No.';
    case 'select':
    case 'multiselect':
      return (options[field.name] ?? []).length > 0
        ? 'choose from the options shown; the list may have changed, so reload the page.'
        : 'no choices are available for this question right now.';
    case 'file':
      return 'upload the file again.';
    case 'text':
      return typeof value === 'string' ? `use ${maxTextLength(field)} characters or fewer.` : 'enter text.';
    case 'readonly':
      return 'this answer cannot be changed here.';
  }
}

function withinBounds(field: FieldConfig, value: number): boolean {
  const { min, max } = numericBounds(field);
  return (min === undefined || value >= min) && (max === undefined || value <= max);
}

/** YYYY-MM-DD naming a day that exists (no 2026-02-30). */
function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function optionValues(field: FieldConfig, options: OptionMap): Set<string> {
  return new Set((options[field.name] ?? []).map((option) => option.value));
}

/** Distinct values, each one of the field's options; [] is an empty answer. */
function isOptionList(value: unknown, allowed: ReadonlySet<string>): boolean {
  return (
    Array.isArray(value) &&
    new Set(value).size === value.length &&
    value.every((item) => typeof item === 'string' && allowed.has(item))
  );
}

/**
 * {id, file_name?, receipt?} as /api/upload answered it (a staff-side url is tolerated and
 * ignored). Whether the id may be attached at all is SubmittedFiles' question.
 */
function isFileValue(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const { id, file_name: fileName, url, receipt, ...rest } = value;
  return (
    Number.isSafeInteger(id) &&
    (id as number) > 0 &&
    (fileName === undefined || typeof fileName === 'string') &&
    (url === undefined || typeof url === 'string') &&
    (receipt === undefined || typeof receipt === 'string') &&
    Object.keys(rest).length === 0
  );
}

function isEmpty(value: unknown): boolean {
  return value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
