import { CURRENT_STAGE_FIELD_NAME } from '@checkin/contract';
import type { FieldValues } from '@checkin/contract';
import type { CheckinRecord } from '../crm/checkin-records.service';

/**
 * The form's starting values, keyed by form-side name: for each activity-bound field its newest
 * non-empty value across the check-ins, then the organization's contact-bound values merged in
 * (spec, form data rule 2; they are the organization's current facts, so they win), and the
 * derived stage for the read-only current_stage field. Identity never goes in here: it travels
 * in FormDataPayload.contact.
 */
export function buildPrefill(
  checkinsNewestFirst: readonly CheckinRecord[],
  organizationValues: FieldValues,
  stageValue: string | null,
): FieldValues {
  const prefill: FieldValues = {};
  for (const checkin of checkinsNewestFirst) {
    for (const [name, value] of Object.entries(checkin.values)) {
      if (!(name in prefill)) prefill[name] = value;
    }
  }
  return { ...prefill, ...organizationValues, [CURRENT_STAGE_FIELD_NAME]: stageValue };
}
