import type { ValidationErrors, ValidatorFn } from '@angular/forms';
import { currencySymbol, type FormatContext } from '../core/value-format';
import {
  type FieldConfig,
  type FieldValueProblem,
  TEXT_HAS_MARKUP_MESSAGE,
  validateFieldValue,
} from '@checkin/contract';

/**
 * The browser's side of the shared value rules (libs/contract, validateFieldValue): most mistakes
 * are caught before a round trip, and each is explained in the field's own terms. The server stays
 * the authority: its VALIDATION_FAILED answer is mapped back onto the fields as the `server` error.
 */

export type NumericFieldType = 'number' | 'currency' | 'percent';

const CURRENCY_PREFIX = /^\$\s*/;
const PLAIN_NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;
const GROUPED_NUMBER = /^-?\d{1,3}(,\d{3})+(\.\d*)?$/;

/**
 * The number in what a person typed: "1,250.50", "$1250.5" and "62 %" all read as numbers.
 * Returns null for an empty answer and NaN for text that is not a number.
 */
export function parseNumberText(text: string): number | null {
  const trimmed = text.trim().replace(CURRENCY_PREFIX, '').replace(/\s*%$/, '');
  if (trimmed === '') return null;
  if (!PLAIN_NUMBER.test(trimmed) && !GROUPED_NUMBER.test(trimmed)) return Number.NaN;
  return Number(trimmed.replace(/,/g, ''));
}

/**
 * Text is checked as it will be sent: trimmed. `prefilled` is the control's text as the form
 * opened with it: an answer the owner did not change is not sent (check-in-form, submitValuesOf),
 * so it is never a reason to refuse the form, whatever the CRM held before today's rules
 * (docs/decisions.md, "Owner text is inert").
 */
export function textValidator(field: FieldConfig, prefilled?: string): ValidatorFn {
  return valueValidator(field, (text) => text.trim(), prefilled);
}

export function numberValidator(
  field: FieldConfig & { type: NumericFieldType },
  prefilled?: string,
): ValidatorFn {
  return valueValidator(field, parseNumberText, prefilled);
}

/** `<input type="date">` gives YYYY-MM-DD, or '' for no answer. */
export function dateValidator(field: FieldConfig, prefilled?: string): ValidatorFn {
  return valueValidator(field, (text) => text, prefilled);
}

/**
 * Checks what a text control holds, read as the answer it will send, against the shared rules;
 * the text it was prefilled with passes unchecked.
 */
function valueValidator(
  field: FieldConfig,
  answerOf: (text: string) => unknown,
  prefilled: string | undefined,
): ValidatorFn {
  return (control) => {
    const text = control.value as string;
    if (prefilled !== undefined && prefilled !== '' && text === prefilled) return null;
    const check = validateFieldValue(field, answerOf(text));
    return check.ok ? null : validationErrorsOf(check.problem);
  };
}

/** The Angular error keys errorMessage explains, one per problem. */
function validationErrorsOf(problem: FieldValueProblem): ValidationErrors {
  switch (problem.kind) {
    case 'number':
    case 'wholeNumber':
    case 'date':
    case 'boolean':
    case 'text':
    case 'markup':
    case 'option':
    case 'file':
    case 'readOnly':
      return { [problem.kind]: true };
    case 'decimals':
      return { decimals: { max: problem.max } };
    case 'min':
      return { min: { min: problem.min } };
    case 'max':
      return { max: { max: problem.max } };
    case 'maxLength':
      return { maxlength: { max: problem.max } };
  }
}

/** The error the server's VALIDATION_FAILED answer puts on each field it names. */
export const SERVER_ERROR_KEY = 'server';

/** One sentence per error, written for the person filling in the form. */
export function errorMessage(
  field: FieldConfig,
  errors: ValidationErrors,
  format: FormatContext = {},
): string {
  if (errors['maxlength']) return `Use ${errors['maxlength'].max} characters or fewer.`;
  if (errors['number']) return 'Enter a number, like 1250.';
  if (errors['wholeNumber']) return 'Enter a whole number.';
  if (errors['decimals'])
    return `Enter an amount with no more than ${errors['decimals'].max} decimal places.`;
  if (errors['min']) return `Enter ${formatBound(field, errors['min'].min, format)} or more.`;
  if (errors['max']) return `Enter ${formatBound(field, errors['max'].max, format)} or less.`;
  if (errors['date']) return 'Enter a real date.';
  if (errors['markup']) return sentence(TEXT_HAS_MARKUP_MESSAGE);
  const server: unknown = errors[SERVER_ERROR_KEY];
  if (typeof server === 'string' && server !== '') return `This answer was not accepted: ${server}`;
  if (server) return 'This answer was not accepted. Check it and send the check-in again.';
  return 'Check this answer.';
}

/** The shared messages are written to follow "This answer was not accepted: "; alone they start with a capital. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function formatBound(field: FieldConfig, bound: number, format: FormatContext): string {
  if (field.type === 'percent') return `${bound}%`;
  if (field.type === 'currency') return `${currencySymbol(format)}${bound}`;
  return String(bound);
}
