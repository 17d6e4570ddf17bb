import { type FieldValues, isEmptyAnswer } from '@checkin/contract';
import { ACTIVITY_FIELDS } from '../fields/field-config';

/**
 * How a cleared activity-bound answer is recorded (README, "What a check-in records"). An empty
 * custom value on an activity is indistinguishable from "not asked", so each check-in also records
 * the form-side names of the activity-bound answers it cleared. The next prefill stops at that
 * check-in for those fields (they start empty), the report lists a "cleared" entry (value null) at
 * its date, and a file answer cleared there is no longer the one the CRM holds. How the list is
 * stored is the check-ins gateway's business (crm/check-in-values.ts).
 */
const ACTIVITY_FIELD_NAMES: ReadonlySet<string> = new Set(ACTIVITY_FIELDS.map((field) => field.name));

/** Whether `name` is an activity-bound answer, the only kind a check-in clears. */
export function isCheckInAnswer(name: string): boolean {
  return ACTIVITY_FIELD_NAMES.has(name);
}

/** The activity-bound answers a submission clears: every one sent empty (null, '' or []), sorted. */
export function clearedAnswers(values: FieldValues): string[] {
  return Object.entries(values)
    .filter(([name, value]) => isCheckInAnswer(name) && isEmptyAnswer(value))
    .map(([name]) => name)
    .sort();
}
