import { type FieldValues, isEmptyAnswer } from '@checkin/contract';
import type { CrmRow } from '../crm/crm-client';
import { CLEARED_FIELDS_FIELD } from '../crm/crm-names';
import { ACTIVITY_FIELDS } from '../fields/field-config';

/**
 * How a cleared activity-bound answer is recorded (README, "What a check-in records"). An empty
 * custom value on an activity is indistinguishable from "not asked", so the check-in activity
 * also carries `Cleared_fields`: the form-side names of the activity-bound answers this check-in
 * cleared, comma-separated. The next prefill stops at that check-in for those fields (they start
 * empty), and the report lists a "cleared" entry (value null) at its date.
 */
export { CLEARED_FIELDS_FIELD } from '../crm/crm-names';

const SEPARATOR = ',';
const ACTIVITY_FIELD_NAMES: ReadonlySet<string> = new Set(ACTIVITY_FIELDS.map((field) => field.name));

/**
 * The activity value that records which activity-bound answers a submission cleared: every
 * activity-bound field sent empty (null, '' or []). {} when none was.
 */
export function clearedFieldsValue(values: FieldValues): Record<string, string> {
  const cleared = Object.entries(values)
    .filter(([name, value]) => ACTIVITY_FIELD_NAMES.has(name) && isEmptyAnswer(value))
    .map(([name]) => name)
    .sort();
  return cleared.length > 0 ? { [CLEARED_FIELDS_FIELD]: cleared.join(SEPARATOR) } : {};
}

/** The names a check-in cleared, read from its CRM row (selected with CLEARED_FIELDS_FIELD). */
export function clearedFieldsOf(row: CrmRow): ReadonlySet<string> {
  const text = row[CLEARED_FIELDS_FIELD];
  if (typeof text !== 'string' || text === '') return new Set();
  return new Set(
    text
      .split(SEPARATOR)
      .map((name) => name.trim())
      .filter((name) => ACTIVITY_FIELD_NAMES.has(name)),
  );
}
