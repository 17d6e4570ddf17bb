import { calendarDay, formatCalendarDay } from '../shared/dates';
import {
  DEFAULT_VALUE_FORMAT,
  type ValueFormatSettings,
  type FieldConfig,
  type FieldValue,
  isEmptyAnswer,
  isFileValue,
  type OptionItem,
} from '@checkin/contract';
import { numberFormat } from './intl-formats';

/**
 * The value formatting table of docs/product-rules.md, shared by the report and the staff page. Pure functions
 * of (value, field, options, locale) so every rule is tested without a browser.
 */
export interface FormatContext {
  options?: readonly OptionItem[];
  locale?: string;
  currency?: string;
}

const DEFAULT_LOCALE = DEFAULT_VALUE_FORMAT.locale;
const DEFAULT_CURRENCY = DEFAULT_VALUE_FORMAT.currency;

/**
 * The one place a page turns its payload's `valueFormat` (the CRM site's currency and locale,
 * docs/decisions.md "Currency and number formats") into the context every formatter takes.
 */
export function formatContextOf(
  settings: ValueFormatSettings | undefined,
): Required<Omit<FormatContext, 'options'>> {
  return {
    locale: settings?.locale ?? DEFAULT_LOCALE,
    currency: settings?.currency ?? DEFAULT_CURRENCY,
  };
}

/** The sign an amount input shows before its digits: "$" for USD in en-US and CAD in en-CA, "CA$" for CAD in en-US. */
export function currencySymbol(context: FormatContext = {}): string {
  const parts = numberFormat(context.locale ?? DEFAULT_LOCALE, {
    style: 'currency',
    currency: context.currency ?? DEFAULT_CURRENCY,
  }).formatToParts(0);
  return parts.find((part) => part.type === 'currency')?.value ?? context.currency ?? DEFAULT_CURRENCY;
}

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
  return numberFormat(locale, { style: 'currency', currency }).format(amount);
}

/** Percent fields hold 0..100, not a fraction: 42.5 renders as "42.5%". */
export function formatPercent(value: FieldValue, locale = DEFAULT_LOCALE): string {
  const amount = toNumber(value);
  if (amount === null) return String(value);
  return `${numberFormat(locale, { maximumFractionDigits: 2 }).format(amount)}%`;
}

export function formatNumber(value: FieldValue, locale = DEFAULT_LOCALE): string {
  const amount = toNumber(value);
  if (amount === null) return String(value);
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(amount);
}

/** A long date, on the one calendar of shared/dates.ts. */
export function formatDate(value: FieldValue, locale = DEFAULT_LOCALE): string {
  const day = calendarDay(String(value));
  return day === null ? String(value) : formatCalendarDay(day, locale, { dateStyle: 'long' });
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
