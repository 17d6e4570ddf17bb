import type { FieldConfig, FileValue, OptionItem } from './fields';
import { hasMarkup, TEXT_HAS_MARKUP } from './owner-text';
import { CURRENCY_DECIMALS, hasCurrencyPrecision, maxTextLength, numericBounds } from './value-limits';

/**
 * The one set of rules for what an answer may be, per field type (README, "What a value may be").
 * The server's submit validation and the browser's form validators both ask validateFieldValue,
 * and each turns the problem it answers into its own words: the server into VALIDATION_FAILED
 * reasons, the browser into inline messages.
 */

/** Why an answer cannot be taken, with what the person needs to put it right. */
export type FieldValueProblem =
  | { kind: 'number' }
  | { kind: 'wholeNumber' }
  | { kind: 'decimals'; max: number }
  | { kind: 'min'; min: number }
  | { kind: 'max'; max: number }
  | { kind: 'date' }
  | { kind: 'boolean' }
  | { kind: 'text' }
  | { kind: 'maxLength'; max: number }
  | { kind: 'markup' }
  | { kind: 'option' }
  | { kind: 'file' }
  | { kind: 'readOnly' };

/**
 * The stable code of each problem, sent per field in VALIDATION_FAILED answers (`problems`), so
 * that a client can tell refusals apart without reading the owner's sentence.
 */
export const FIELD_PROBLEM_CODES = {
  number: 'NOT_A_NUMBER',
  wholeNumber: 'NOT_A_WHOLE_NUMBER',
  decimals: 'TOO_MANY_DECIMALS',
  min: 'BELOW_MIN',
  max: 'ABOVE_MAX',
  date: 'NOT_A_DATE',
  boolean: 'NOT_YES_OR_NO',
  text: 'NOT_TEXT',
  maxLength: 'TOO_LONG',
  markup: TEXT_HAS_MARKUP,
  option: 'NOT_AN_OPTION',
  file: 'NOT_A_FILE',
  readOnly: 'READ_ONLY',
} as const satisfies Record<FieldValueProblem['kind'], string>;

export type FieldProblemCode = (typeof FIELD_PROBLEM_CODES)[keyof typeof FIELD_PROBLEM_CODES];

export type FieldValueCheck = { ok: true } | { ok: false; problem: FieldValueProblem };

const VALID: FieldValueCheck = { ok: true };
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Whether `value` is an answer `field` can take. null and '' are empty answers, valid for every
 * type. `options` are the CRM's options for a select or multiselect field: without them no
 * choice can be taken.
 */
export function validateFieldValue(
  field: FieldConfig,
  value: unknown,
  options: readonly OptionItem[] = [],
): FieldValueCheck {
  if (value === null || value === '') return VALID;
  switch (field.type) {
    case 'number':
    case 'currency':
    case 'percent':
      return checkNumber(field, value);
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? VALID : refused({ kind: 'date' });
    case 'boolean':
      return typeof value === 'boolean' ? VALID : refused({ kind: 'boolean' });
    case 'select':
      return typeof value === 'string' && optionValues(options).has(value)
        ? VALID
        : refused({ kind: 'option' });
    case 'multiselect':
      return isOptionList(value, optionValues(options)) ? VALID : refused({ kind: 'option' });
    case 'file':
      return isFileValue(value) ? VALID : refused({ kind: 'file' });
    case 'text':
      return checkText(field, value);
    case 'readonly':
      return refused({ kind: 'readOnly' });
  }
}

/** YYYY-MM-DD naming a day that exists (no 2026-02-30): what a date field stores and `<input type="date">` gives. */
export function isCalendarDate(text: string): boolean {
  const match = CALENDAR_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A file answer: {id, file_name?, url?, receipt?} with a positive whole id and nothing else. It is
 * what the CRM's file fields read as, what /api/upload answers and what submit takes back; the
 * staff report adds the url. Whether the id may be attached at all is the server's question
 * (docs/decisions.md, "Organization access").
 */
export function isFileValue(value: unknown): value is FileValue {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { id, file_name: fileName, url, receipt, ...rest } = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(id) &&
    (id as number) > 0 &&
    isOptionalText(fileName) &&
    isOptionalText(url) &&
    isOptionalText(receipt) &&
    Object.keys(rest).length === 0
  );
}

/**
 * Counts are CiviCRM Int fields (whole numbers), money keeps the CRM's decimals, and every
 * number keeps the bounds of value-limits' numericBounds.
 */
function checkNumber(field: FieldConfig, value: unknown): FieldValueCheck {
  if (typeof value !== 'number' || !Number.isFinite(value)) return refused({ kind: 'number' });
  if (field.type === 'number' && !Number.isInteger(value)) return refused({ kind: 'wholeNumber' });
  if (field.type === 'currency' && !hasCurrencyPrecision(value)) {
    return refused({ kind: 'decimals', max: CURRENCY_DECIMALS });
  }
  const { min, max } = numericBounds(field);
  if (min !== undefined && value < min) return refused({ kind: 'min', min });
  if (max !== undefined && value > max) return refused({ kind: 'max', max });
  return VALID;
}

function checkText(field: FieldConfig, value: unknown): FieldValueCheck {
  if (typeof value !== 'string') return refused({ kind: 'text' });
  const max = maxTextLength(field);
  if (value.length > max) return refused({ kind: 'maxLength', max });
  return hasMarkup(value) ? refused({ kind: 'markup' }) : VALID;
}

function optionValues(options: readonly OptionItem[]): Set<string> {
  return new Set(options.map((option) => option.value));
}

/** Distinct values, each one of the field's options; [] is an empty answer. */
function isOptionList(value: unknown, allowed: ReadonlySet<string>): boolean {
  return (
    Array.isArray(value) &&
    new Set(value).size === value.length &&
    value.every((item) => typeof item === 'string' && allowed.has(item))
  );
}

function isOptionalText(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

function refused(problem: FieldValueProblem): FieldValueCheck {
  return { ok: false, problem };
}

/**
 * An empty answer: nothing given (undefined), null, an empty text or no choice. false and 0 are
 * answers. The one rule for browser and server (a cleared answer is sent as one of these).
 */
export function isEmptyAnswer(value: unknown): value is null | undefined | '' | [] {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
  );
}
