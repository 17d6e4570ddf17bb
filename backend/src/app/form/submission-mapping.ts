import type { FieldConfig, FieldValues } from '@checkin/contract';
import {
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_STATUS_NAME,
  ACTIVITY_TYPE_NAME,
  CONTACT_STAGE_FIELD,
  SUBMISSION_ID_FIELD,
} from '../crm/crm-names';
import { toCrmValue } from '../crm/crm-values';
import { SUBMITTABLE_FIELDS } from '../fields/field-config';

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

export interface CheckInActivity {
  personId: number;
  orgId: number;
  submissionId: string;
  activityValues: CrmValues;
  /** When, as the CRM's wall clock ("YYYY-MM-DD HH:MM:SS" in its zone: see CrmSiteService). */
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
