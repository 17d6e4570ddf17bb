import type { FieldValues } from '@checkin/contract';

/** A check-in as the pages read it. */
export interface CheckInRecord {
  id: number;
  /** When it was recorded, as an ISO 8601 instant (the CRM's local time read in its zone). */
  date: string;
  /** The Stage value set by staff, or null. */
  stageValue: string | null;
  /** Activity-bound answers keyed by form-side name; empty ones left out. */
  values: FieldValues;
  /** The activity-bound answers it cleared (cleared-answers.ts); read with `cleared`. */
  cleared: ReadonlySet<string>;
  /** Its subject, null when empty; read with `recorder`. */
  subject: string | null;
  /**
   * Whoever recorded it: their display name, or "Contact <id>" when they are in the trash
   * (docs/decisions.md, "Site shapes the configuration does not name"); null when unknown. Read
   * with `recorder`.
   */
  recordedBy: string | null;
  /** Where it stands in the list's order, to read the check-ins older than it (CrmCheckInsGateway.list, `olderThan`). */
  position: CheckInPosition;
}

/** A place in the check-in list's order (date, then id, newest first). */
export interface CheckInPosition {
  /** The date as the CRM keeps it (its wall clock), compared by the CRM. */
  readonly crmDate: string;
  readonly id: number;
}

/** A check-in to record, in the product's terms (CrmCheckInsGateway.createCheckInAndFind). */
export interface NewCheckIn {
  /** Who records it: the person of the owner link. */
  personId: number;
  orgId: number;
  /** The browser's id of this submission, which makes a retry find it (docs/decisions.md, "Idempotent submit"). */
  submissionId: string;
  /** The validated answers; the activity-bound ones are recorded, empty ones left out. */
  answers: FieldValues;
  /** The activity-bound answers this check-in clears (cleared-answers.ts). */
  cleared: readonly string[];
  /** When, as the CRM's wall clock ("YYYY-MM-DD HH:MM:SS" in its zone: see crm/crm-site.service.ts). */
  at: string;
}
