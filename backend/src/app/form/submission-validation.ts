import {
  FIELD_PROBLEM_CODES,
  type FieldConfig,
  type FieldValue,
  type FieldValueProblem,
  type FieldValues,
  type OptionItem,
  type OptionMap,
  TEXT_HAS_MARKUP_MESSAGE,
  isEmptyAnswer,
  validateFieldValue,
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
    .filter(([, value]) => !isEmptyAnswer(value))
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
  const problems: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = SUBMITTABLE_BY_NAME.get(name);
    const check = field ? validateFieldValue(field, value, options[name]) : undefined;
    if (check?.ok) valid[name] = value as FieldValue;
    else {
      invalid.push(name);
      if (check) {
        reasons[name] = refusalReason(check.problem, options[name] ?? []);
        problems[name] = FIELD_PROBLEM_CODES[check.problem.kind];
      }
    }
  }
  if (invalid.length > 0) {
    throw Errors.validation(`Some answers are not valid: ${invalid.join(', ')}.`, invalid, reasons, problems);
  }
  return valid;
}

export function isValidValue(field: FieldConfig, value: unknown, options: OptionMap): value is FieldValue {
  return validateFieldValue(field, value, options[field.name]).ok;
}

/** Why an answer was refused, in a sentence an owner can act on (bounds, option, format). */
export function refusalReason(problem: FieldValueProblem, options: readonly OptionItem[]): string {
  switch (problem.kind) {
    case 'number':
      return 'enter a number.';
    case 'wholeNumber':
      return 'enter a whole number.';
    case 'decimals':
      return `enter an amount with no more than ${problem.max} decimal places.`;
    case 'min':
      return `enter ${problem.min} or more.`;
    case 'max':
      return `enter ${problem.max} or less.`;
    case 'date':
      return 'enter a real date.';
    case 'boolean':
      return 'choose Yes or No.';
    case 'option':
      return options.length > 0
        ? 'choose from the options shown; the list may have changed, so reload the page.'
        : 'no choices are available for this question right now.';
    case 'file':
      return 'upload the file again.';
    case 'text':
      return 'enter text.';
    case 'maxLength':
      return `use ${problem.max} characters or fewer.`;
    case 'markup':
      return TEXT_HAS_MARKUP_MESSAGE;
    case 'readOnly':
      return 'this answer cannot be changed here.';
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
