import { REFUSAL_HEADLINES } from '@checkin/contract';
import type { ApiError, ClientErrorBody } from '../core/api-error.interceptor';

/**
 * What the form says when sending fails: what happened and what to do next, never HTTP details.
 * What happened is said in the API's own words (libs/contract refusals); what a page says when
 * loading fails is shared (shared/load-problems.ts).
 */

type ErrorCode = ClientErrorBody['code'];

const DRAFT_KEPT = 'Your answers are kept as a draft on this device.';

const notAllowed = () =>
  `This link does not allow sending a check-in for this co-op, so it was not sent. ${DRAFT_KEPT} Ask your organizer for a new link.`;
const formChanged = () =>
  `The form has changed since you opened it. ${DRAFT_KEPT} Reload the page, restore the draft and send again.`;

const SUBMIT_FAILURES: Partial<Record<ErrorCode, (error: ApiError) => string>> = {
  ACTIVITY_NOT_SAVED: () =>
    `Your co-op's details were saved, but the check-in itself was not recorded. ${DRAFT_KEPT} Send the check-in again.`,
  CRM_UNAVAILABLE: () =>
    `${REFUSAL_HEADLINES.recordsDown}, so the check-in was not sent. ${DRAFT_KEPT} Try again in a few minutes.`,
  CRM_TIMEOUT: () =>
    `${REFUSAL_HEADLINES.recordsSlow}. ${DRAFT_KEPT} Send again in a few minutes: it will not be recorded twice.`,
  CHECKSUM_INVALID: () =>
    `${REFUSAL_HEADLINES.linkInvalid}, so the check-in was not sent. ${DRAFT_KEPT} Ask for a new link, open it in this browser, and send again.`,
  FORBIDDEN: notAllowed,
  CONTACT_MISMATCH: notAllowed,
  ORG_NOT_ALLOWED: notAllowed,
  RATE_LIMITED: () =>
    `Too many check-ins were sent in a short while. ${DRAFT_KEPT} Wait a minute, then send again.`,
  UNKNOWN_FIELDS: formChanged,
  FIELD_DISABLED: formChanged,
  VALIDATION_FAILED: formChanged,
};

/** Why a submit failed and what to do; the draft is always kept. */
export function submitFailureMessage(error: ApiError): string {
  const failure = SUBMIT_FAILURES[error.body.code];
  return failure
    ? failure(error)
    : `The check-in could not be sent. ${DRAFT_KEPT} Try again in a few minutes.`;
}
