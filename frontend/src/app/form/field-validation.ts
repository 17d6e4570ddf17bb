import type { ValidationErrors, ValidatorFn } from '@angular/forms';
import {
  CURRENCY_DECIMALS,
  type FieldConfig,
  hasCurrencyPrecision,
  maxTextLength,
  numericBounds,
} from '@checkin/contract';

/**
 * Client-side checks that mirror the server's per-type validation, so most mistakes are caught
 * before a round trip, and the messages that explain each one. The server stays the authority:
 * its VALIDATION_FAILED answer is mapped back onto the fields as the `server` error.
 */

export type NumericFieldType = 'number' | 'currency' | 'percent';

/** The currency value formatting uses (core/value-format.ts defaults to USD). */
export const CURRENCY_SYMBOL = '$';

const CURRENCY_PREFIX = /^\$\s*/;
const PLAIN_NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;
const GROUPED_NUMBER = /^-?\d{1,3}(,\d{3})+(\.\d*)?$/;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

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

/** True for a real calendar day written as YYYY-MM-DD (what `<input type="date">` gives). */
export function isCalendarDate(text: string): boolean {
  const match = CALENDAR_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function textValidator(field: FieldConfig): ValidatorFn {
  const maxLength = maxTextLength(field);
  return (control) => {
    const text = control.value as string;
    return text.trim().length > maxLength ? { maxlength: { max: maxLength } } : null;
  };
}

export function numberValidator(field: FieldConfig & { type: NumericFieldType }): ValidatorFn {
  const { min, max } = numericBounds(field);
  return (control) => {
    const value = parseNumberText(control.value as string);
    if (value === null) return null;
    if (Number.isNaN(value)) return { number: true };
    if (field.type === 'number' && !Number.isInteger(value)) return { wholeNumber: true };
    if (field.type === 'currency' && !hasCurrencyPrecision(value)) {
      return { decimals: { max: CURRENCY_DECIMALS } };
    }
    if (min !== undefined && value < min) return { min: { min } };
    if (max !== undefined && value > max) return { max: { max } };
    return null;
  };
}

export function dateValidator(): ValidatorFn {
  return (control) => {
    const text = control.value as string;
    return text === '' || isCalendarDate(text) ? null : { date: true };
  };
}

/** The error the server's VALIDATION_FAILED answer puts on each field it names. */
export const SERVER_ERROR_KEY = 'server';

/** One sentence per error, written for the person filling in the form. */
export function errorMessage(field: FieldConfig, errors: ValidationErrors): string {
  if (errors['maxlength']) return `Use ${errors['maxlength'].max} characters or fewer.`;
  if (errors['number']) return 'Enter a number, like 1250.';
  if (errors['wholeNumber']) return 'Enter a whole number.';
  if (errors['decimals']) return 'Enter an amount with no more than 2 decimal places.';
  if (errors['min']) return `Enter ${formatBound(field, errors['min'].min)} or more.`;
  if (errors['max']) return `Enter ${formatBound(field, errors['max'].max)} or less.`;
  if (errors['date']) return 'Enter a real date.';
  const server: unknown = errors[SERVER_ERROR_KEY];
  if (typeof server === 'string' && server !== '') return `This answer was not accepted: ${server}`;
  if (server) return 'This answer was not accepted. Check it and send the check-in again.';
  return 'Check this answer.';
}

function formatBound(field: FieldConfig, bound: number): string {
  if (field.type === 'percent') return `${bound}%`;
  if (field.type === 'currency') return `${CURRENCY_SYMBOL}${bound}`;
  return String(bound);
}
