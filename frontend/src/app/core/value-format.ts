import {
  type FieldConfig,
  type FieldValue,
  isEmptyAnswer,
  isFileValue,
  type OptionItem,
} from '@checkin/contract';

/**
 * The value formatting table of docs/product-rules.md, shared by the report and the staff page. Pure functions
 * of (value, field, options, locale) so every rule is tested without a browser.
 */
export interface FormatContext {
  options?: readonly OptionItem[];
  locale?: string;
  currency?: string;
}

const DEFAULT_LOCALE = 'en-US';
const DEFAULT_CURRENCY = 'USD';
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/;

export function formatValue(
  value: FieldValue | undefined,
  field: FieldConfig,
  context: FormatContext = {},
): string {
  if (isEmptyValue(value)) return '';
  const locale = context.locale ?? DEFAULT_LOCALE;
  switch (field.type) {
    case 'currency':
      return formatCurrency(value, locale, context.currency ?? DEFAULT_CURRENCY);
    case 'percent':
      return formatPercent(value, locale);
    case 'number':
      return formatNumber(value, locale);
    case 'date':
      return formatDate(value, locale);
    case 'boolean':
      return formatBoolean(value);
    case 'select':
    case 'readonly':
      return optionLabel(String(value), context.options);
    case 'multiselect':
      return multiValues(value)
        .map((item) => optionLabel(item, context.options))
        .join(', ');
    case 'file':
      return formatFile(value);
    case 'text':
      return String(value);
  }
}

/** The contract's one rule for an empty answer (libs/contract, isEmptyAnswer). */
export const isEmptyValue = isEmptyAnswer;

/** A number from a CRM value (numbers, numeric strings); null when not numeric. */
export function toNumber(value: FieldValue | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

export function formatCurrency(
  value: FieldValue,
  locale = DEFAULT_LOCALE,
  currency = DEFAULT_CURRENCY,
): string {
  const amount = toNumber(value);
  if (amount === null) return String(value);
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
}

/** Percent fields hold 0..100, not a fraction: 42.5 renders as "42.5%". */
export function formatPercent(value: FieldValue, locale = DEFAULT_LOCALE): string {
  const amount = toNumber(value);
  if (amount === null) return String(value);
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(amount)}%`;
}

export function formatNumber(value: FieldValue, locale = DEFAULT_LOCALE): string {
  const amount = toNumber(value);
  if (amount === null) return String(value);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(amount);
}

/**
 * Long date. A calendar date ("2025-03-15", or the date part of "2025-03-15 10:00:00") is
 * formatted in UTC from its parts, so no time zone can move it to the previous day.
 */
/** An instant (a check-in's time, as the API answers it): it has a zone. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A long date. A calendar date (YYYY-MM-DD, a date field) is never shifted by time zone; an
 * instant (a check-in's time) is shown on the reader's own calendar.
 */
export function formatDate(value: FieldValue, locale = DEFAULT_LOCALE): string {
  if (typeof value === 'string' && INSTANT.test(value)) {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(value));
  }
  const parts = calendarDateParts(String(value));
  if (!parts) return String(value);
  const date = new Date(Date.UTC(parts.year, parts.month - 1, parts.day));
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** Year, month and day of a CRM date or date-time string, or of an ISO string with offset. */
export function calendarDateParts(text: string): { year: number; month: number; day: number } | null {
  const match = DATE_ONLY.exec(text) ?? DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return { year, month, day };
}

/** Days since the epoch for a calendar date, for placing dates on an axis without time zones. */
export function calendarDay(text: string): number | null {
  const parts = calendarDateParts(text);
  return parts ? Date.UTC(parts.year, parts.month - 1, parts.day) / 86_400_000 : null;
}

export function formatBoolean(value: FieldValue): string {
  if (value === true || value === 1 || value === '1' || value === 'true') return 'Yes';
  if (value === false || value === 0 || value === '0' || value === 'false') return 'No';
  return String(value);
}

export function optionLabel(value: string, options: readonly OptionItem[] | undefined): string {
  return options?.find((option) => option.value === value)?.label ?? value;
}

/**
 * A multiselect value's choices. Every payload carries them as a list (docs/decisions.md, "Report
 * shapes"); anything else is shown as the one value it is.
 */
export function multiValues(value: FieldValue): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map(String).filter((item) => item !== '');
}

export function formatFile(value: FieldValue): string {
  if (isFileValue(value)) return value.file_name || `Attachment #${value.id}`;
  const id = toNumber(value);
  return id === null ? String(value) : `Attachment #${id}`;
}
