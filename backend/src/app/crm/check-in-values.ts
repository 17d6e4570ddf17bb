import type { FieldConfig, FieldValues } from '@checkin/contract';
import type { NewCheckIn } from '../check-ins/check-in-record';
import { isCheckInAnswer } from '../check-ins/cleared-answers';
import { SUBMITTABLE_FIELDS } from '../fields/field-config';
import {
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_STATUS_NAME,
  ACTIVITY_TYPE_NAME,
  CLEARED_FIELDS_FIELD,
  CONTACT_STAGE_FIELD,
  SUBMISSION_ID_FIELD,
} from './crm-names';
import { toCrmValue } from './crm-values';

/**
 * A submission's answers as CiviCRM stores them, and back: which column each answer goes to
 * (the field catalogue's CRM names), the check-in activity's own columns, and the cleared-answers
 * list (check-ins/cleared-answers.ts) as one comma-separated custom value. Only the gateways use it.
 */

/**
 * CRM fields a submission must never write, whatever the configuration says: both Stage fields
 * (a submission cannot move the derived stage) and the submission id, which the service sets.
 */
const NEVER_SUBMITTED: ReadonlySet<string> = new Set([
  ACTIVITY_STAGE_FIELD,
  CONTACT_STAGE_FIELD,
  SUBMISSION_ID_FIELD,
]);

export const CHECK_IN_SUBJECT = 'Organizing check-in';

/** Custom values to write, keyed by CRM name, in the form CiviCRM stores them. */
export type CrmValues = Record<string, unknown>;

export interface SubmissionWrites {
  /** For the organization contact; written as sent, so null clears a value (docs/decisions.md, "Submit body"). */
  contactValues: CrmValues;
  /** For the new check-in activity; empty answers left out (docs/decisions.md, "Submit body"). */
  activityValues: CrmValues;
}

/**
 * Splits validated form values into contact-bound (crmContactField) and activity-bound
 * (crmField) CRM values (docs/product-rules.md, "Submit", rule 1). A file value becomes its id (rule 4); Stage is
 * never written (rule 5). Names outside the configuration are not written either.
 */
export function splitSubmission(
  values: FieldValues,
  fields: readonly FieldConfig[] = SUBMITTABLE_FIELDS,
): SubmissionWrites {
  const contactValues: CrmValues = {};
  const activityValues: CrmValues = {};
  for (const field of fields) {
    if (!Object.hasOwn(values, field.name)) continue;
    const value = toCrmValue(field, values[field.name]);
    if (field.crmContactField && !NEVER_SUBMITTED.has(field.crmContactField)) {
      contactValues[field.crmContactField] = value;
    } else if (field.crmField && !NEVER_SUBMITTED.has(field.crmField) && value !== null) {
      activityValues[field.crmField] = value;
    }
  }
  return { contactValues, activityValues };
}

/** Activity.create's `values` for a new check-in: its answers, what it cleared, then its own columns. */
export function newCheckInValues(checkIn: NewCheckIn): CrmValues {
  return checkInActivityValues({
    personId: checkIn.personId,
    orgId: checkIn.orgId,
    submissionId: checkIn.submissionId,
    activityValues: {
      ...splitSubmission(checkIn.answers).activityValues,
      ...clearedColumnValue(checkIn.cleared),
    },
    at: checkIn.at,
  });
}

/** The organization's columns a submission writes; null when it writes none. */
export function organizationValues(answers: FieldValues): CrmValues | null {
  const { contactValues } = splitSubmission(answers);
  return Object.keys(contactValues).length > 0 ? contactValues : null;
}

const CLEARED_SEPARATOR = ',';

/** The cleared list as stored: `{Cleared_fields: 'a,b'}`, or {} when nothing was cleared. */
export function clearedColumnValue(names: readonly string[]): Record<string, string> {
  return names.length > 0 ? { [CLEARED_FIELDS_FIELD]: names.join(CLEARED_SEPARATOR) } : {};
}

/** The names a check-in cleared, read back from its stored list; names that are not activity-bound answers are dropped. */
export function clearedNamesOf(stored: unknown): ReadonlySet<string> {
  if (typeof stored !== 'string' || stored === '') return NOTHING_CLEARED;
  return new Set(
    stored
      .split(CLEARED_SEPARATOR)
      .map((name) => name.trim())
      .filter(isCheckInAnswer),
  );
}

const NOTHING_CLEARED: ReadonlySet<string> = new Set();

interface CheckInActivity {
  personId: number;
  orgId: number;
  submissionId: string;
  activityValues: CrmValues;
  at: string;
}

/**
 * Activity.create's `values`, an object: source the person, target the organization, completed
 * now, carrying the submission id that makes a retry find it.
 */
export function checkInActivityValues(activity: CheckInActivity): CrmValues {
  return {
    ...activity.activityValues,
    'activity_type_id:name': ACTIVITY_TYPE_NAME,
    'status_id:name': ACTIVITY_STATUS_NAME,
    subject: CHECK_IN_SUBJECT,
    activity_date_time: activity.at,
    source_contact_id: activity.personId,
    target_contact_id: [activity.orgId],
    [SUBMISSION_ID_FIELD]: activity.submissionId,
  };
}
