import type { FieldConfig } from './fields';

/**
 * What CiviCRM can store for each field type, shared by the browser's checks and the server's
 * validation so the two cannot disagree (README, "What a value may be").
 */

/** CiviCRM's Int custom fields are 32-bit signed: anything outside is a database error. */
export const CRM_INT_RANGE = { min: -2_147_483_648, max: 2_147_483_647 } as const;
/** Percent fields hold 0..100 (not a fraction), whatever the configuration leaves open. */
export const PERCENT_RANGE = { min: 0, max: 100 } as const;
/** Money is stored with 2 decimals; CiviCRM would round a third one away silently. */
export const CURRENCY_DECIMALS = 2;
/** CiviCRM's String custom fields hold 255 characters; longer text fields set maxLength. */
export const DEFAULT_TEXT_MAX_LENGTH = 255;

/** The bounds a numeric answer must keep: the configuration's, within what the CRM can store. */
export function numericBounds(field: FieldConfig): { min?: number; max?: number } {
  switch (field.type) {
    case 'percent':
      return { min: field.min ?? PERCENT_RANGE.min, max: field.max ?? PERCENT_RANGE.max };
    case 'number':
      return {
        min: Math.max(field.min ?? CRM_INT_RANGE.min, CRM_INT_RANGE.min),
        max: Math.min(field.max ?? CRM_INT_RANGE.max, CRM_INT_RANGE.max),
      };
    case 'currency':
    case 'text':
    case 'date':
    case 'boolean':
    case 'select':
    case 'multiselect':
    case 'file':
    case 'readonly':
      return { min: field.min, max: field.max };
  }
}

/** Whether a currency amount has no more decimals than the CRM keeps. */
export function hasCurrencyPrecision(value: number): boolean {
  return Number(value.toFixed(CURRENCY_DECIMALS)) === value;
}

/** The longest text a field holds. */
export function maxTextLength(field: FieldConfig): number {
  return field.maxLength ?? DEFAULT_TEXT_MAX_LENGTH;
}
