import type { ApiError, ClientErrorBody } from '../core/api-error.interceptor';

/**
 * What the page says when loading or sending fails: what happened and what to do next, never
 * HTTP details. The server's own message is used where it already says that.
 */

type ErrorCode = ClientErrorBody['code'];

export interface LoadProblem {
  title: string;
  message: string;
  /** Trying again can help (the CRM or the network was down), so a retry button is shown. */
  canRetry: boolean;
}

const wrongLink = (error: ApiError): LoadProblem => ({
  title: 'This link does not open this check-in',
  message: `${error.message} Ask the person who sent you the link for the right one.`,
  canRetry: false,
});

const LOAD_PROBLEMS: Partial<Record<ErrorCode, (error: ApiError) => LoadProblem>> = {
  CHECKSUM_INVALID: () => ({
    title: 'This link is not valid or has expired',
    message: 'Ask the person who sent you the link for a new one, then open it here.',
    canRetry: false,
  }),
  FORBIDDEN: wrongLink,
  CONTACT_MISMATCH: wrongLink,
  ORG_NOT_ALLOWED: wrongLink,
  ORG_REQUIRED: (error) => ({
    title: 'Which co-op is this check-in for?',
    message: error.message,
    canRetry: false,
  }),
  RATE_LIMITED: () => ({
    title: 'Too many requests',
    message: 'The form was opened many times in a short while. Wait a minute, then try again.',
    canRetry: true,
  }),
};

export function loadProblemOf(error: ApiError): LoadProblem {
  const problem = LOAD_PROBLEMS[error.body.code];
  return problem
    ? problem(error)
    : { title: 'The check-in form could not be loaded', message: error.message, canRetry: true };
}

const DRAFT_KEPT = 'Your answers are kept as a draft on this device.';

const notAllowed = (error: ApiError) => `${error.message} The check-in was not sent. ${DRAFT_KEPT}`;
const formChanged = () =>
  `The form has changed since you opened it. ${DRAFT_KEPT} Reload the page, restore the draft and send again.`;

const SUBMIT_FAILURES: Partial<Record<ErrorCode, (error: ApiError) => string>> = {
  ACTIVITY_NOT_SAVED: () =>
    `Your co-op's details were saved, but the check-in itself was not recorded. ${DRAFT_KEPT} Send the check-in again.`,
  CHECKSUM_INVALID: () =>
    `Your link is not valid or has expired, so the check-in was not sent. ${DRAFT_KEPT} Ask for a new link, open it in this browser, and send again.`,
  FORBIDDEN: notAllowed,
  CONTACT_MISMATCH: notAllowed,
  ORG_NOT_ALLOWED: notAllowed,
  RATE_LIMITED: () =>
    `Too many check-ins were sent in a short while. ${DRAFT_KEPT} Wait a minute, then send again.`,
  UNKNOWN_FIELDS: formChanged,
  VALIDATION_FAILED: formChanged,
};

/** Why a submit failed and what to do; the draft is always kept. */
export function submitFailureMessage(error: ApiError): string {
  const failure = SUBMIT_FAILURES[error.body.code];
  return failure
    ? failure(error)
    : `The check-in could not be sent. ${DRAFT_KEPT} Try again in a few minutes.`;
}
