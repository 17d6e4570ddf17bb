import { CURRENT_STAGE_FIELD_NAME } from '@checkin/contract';
import type { FieldValues } from '@checkin/contract';
import type { CheckInRecord } from '../check-ins/check-in-record';
import { ALL_FIELDS } from '../fields/field-config';

/** Fields asked afresh at every check-in ("since the last check-in"): never prefilled. */
const NEVER_PREFILLED: ReadonlySet<string> = new Set(
  ALL_FIELDS.filter((field) => field.neverPrefilled).map((field) => field.name),
);

/** Each activity-bound answer the form starts from, with the date of the check-in it came from. */
export interface ActivityPrefill {
  values: FieldValues;
  /** ISO 8601 dates keyed by form-side name (FormDataPayload.lastGiven). */
  lastGiven: Record<string, string>;
}

/**
 * For each activity-bound field, its newest non-empty value across the check-ins, unless a newer
 * check-in cleared it (check-ins/cleared-answers.ts): then it starts empty. Fields marked neverPrefilled
 * are left out. `checkinsNewestFirst` must be newest first, as CrmCheckInsGateway.list returns them.
 */
export function activityPrefill(checkinsNewestFirst: readonly CheckInRecord[]): ActivityPrefill {
  const prefill = new ActivityPrefillBuilder();
  prefill.add(checkinsNewestFirst);
  return prefill.result();
}

/**
 * activityPrefill() fed slice by slice, newest slice first: a field is settled by the first
 * check-in that gives or clears it, so older check-ins only matter for the fields still unsettled
 * (FormDataService reads them only for those).
 */
export class ActivityPrefillBuilder {
  private readonly values: FieldValues = {};
  private readonly lastGiven: Record<string, string> = {};
  private readonly settled = new Set<string>(NEVER_PREFILLED);

  /**
   * `only`: the check-ins were read for these fields alone (their other columns unread), so they
   * settle nothing else, not even by clearing it: a check-in between them and the settled ones may
   * hold a newer value of another field.
   */
  add(checkinsNewestFirst: readonly CheckInRecord[], only?: ReadonlySet<string>): void {
    const counts = (name: string): boolean =>
      !this.settled.has(name) && (only === undefined || only.has(name));
    for (const checkin of checkinsNewestFirst) {
      for (const [name, value] of Object.entries(checkin.values)) {
        if (!counts(name)) continue;
        this.settled.add(name);
        this.values[name] = value;
        this.lastGiven[name] = checkin.date;
      }
      for (const name of checkin.cleared) if (counts(name)) this.settled.add(name);
    }
  }

  isSettled(fieldName: string): boolean {
    return this.settled.has(fieldName);
  }

  result(): ActivityPrefill {
    return { values: { ...this.values }, lastGiven: { ...this.lastGiven } };
  }
}

/**
 * The form's starting values, keyed by form-side name: the activity-bound prefill above, then the
 * organization's contact-bound values merged in (docs/product-rules.md, "Form data", rule 1; they are the
 * organization's current facts, so they win), and the derived stage for the read-only
 * current_stage field. Identity never goes in here: it travels in FormDataPayload.contact.
 */
export function buildPrefill(
  checkinsNewestFirst: readonly CheckInRecord[],
  organizationValues: FieldValues,
  stageValue: string | null,
): FieldValues {
  const { values } = activityPrefill(checkinsNewestFirst);
  return { ...values, ...organizationValues, [CURRENT_STAGE_FIELD_NAME]: stageValue };
}
