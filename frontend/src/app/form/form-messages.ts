import type { ApiError, ClientErrorBody } from '../core/api-error.interceptor';

/**
 * What the page says when loading or sending fails: what happened and what to do next, never
 * HTTP details. The server's own message is used where it already says that.
 */

type ErrorCode = ClientErrorBody['code'];

export interface LoadProblem {
  title: string;
  message: string;
  /** Trying again can help (the records system or the network was down), so a retry button is shown. */
  canRetry: boolean;
  /** The link itself is wrong or expired: the contact line says how to get a new one. */
  needsNewLink: boolean;
  /** The person has several co-ops and the link names none: the page lists them to choose from. */
  chooseOrganization?: boolean;
}

const wrongLink = (): LoadProblem => ({
  title: 'This link does not open this check-in',
  message: 'The link is for another person or another co-op, or your access to this co-op has changed.',
  canRetry: false,
  needsNewLink: true,
});

/** What a page loads, as its problem titles name it. */
export type LoadedPage = 'The check-in form' | 'Your check-in history';

const recordsDown = (page: LoadedPage): LoadProblem => ({
  title: `${page} could not be loaded`,
  message: 'Our records system is not answering right now. Your link is fine: try again in a few minutes.',
  canRetry: true,
  needsNewLink: false,
});

const LOAD_PROBLEMS: Partial<Record<ErrorCode, (error: ApiError, page: LoadedPage) => LoadProblem>> = {
  CHECKSUM_INVALID: () => ({
    title: 'This link is not valid or has expired',
    message: 'Personal links stop working after a while, and a link copied only in part never works.',
    canRetry: false,
    needsNewLink: true,
  }),
  FORBIDDEN: wrongLink,
  CONTACT_MISMATCH: wrongLink,
  ORG_NOT_ALLOWED: wrongLink,
  ORG_REQUIRED: () => ({
    title: 'Which co-op is this check-in for?',
    message: 'You are the contact for several co-ops. Choose the one this check-in is about.',
    canRetry: false,
    needsNewLink: false,
    chooseOrganization: true,
  }),
  RATE_LIMITED: () => ({
    title: 'Too many requests',
    message: 'The form was opened many times in a short while. Wait a minute, then try again.',
    canRetry: true,
    needsNewLink: false,
  }),
  CRM_UNAVAILABLE: (_, page) => recordsDown(page),
  CRM_TIMEOUT: (_, page) => recordsDown(page),
  NOT_FOUND: () => ({
    title: 'Your details could not be found',
    message: 'Your contact record was not found in our records.',
    canRetry: false,
    needsNewLink: true,
  }),
};

/** Shared by the form and the report, so both pages say the same for the same problem. */
export function loadProblemOf(error: ApiError, page: LoadedPage = 'The check-in form'): LoadProblem {
  const problem = LOAD_PROBLEMS[error.body.code];
  return problem
    ? problem(error, page)
    : {
        title: `${page} could not be loaded`,
        message:
          error.body.code === 'NETWORK_ERROR'
            ? error.message
            : 'Something went wrong on our side. Try again in a few minutes.',
        canRetry: true,
        needsNewLink: false,
      };
}

const DRAFT_KEPT = 'Your answers are kept as a draft on this device.';

const notAllowed = () =>
  `This link does not allow sending a check-in for this co-op, so it was not sent. ${DRAFT_KEPT} Ask your organizer for a new link.`;
const formChanged = () =>
  `The form has changed since you opened it. ${DRAFT_KEPT} Reload the page, restore the draft and send again.`;

const SUBMIT_FAILURES: Partial<Record<ErrorCode, (error: ApiError) => string>> = {
  ACTIVITY_NOT_SAVED: () =>
    `Your co-op's details were saved, but the check-in itself was not recorded. ${DRAFT_KEPT} Send the check-in again.`,
  CRM_UNAVAILABLE: () =>
    `Our records system is not answering right now, so the check-in was not sent. ${DRAFT_KEPT} Try again in a few minutes.`,
  CRM_TIMEOUT: () =>
    `Our records system took too long to answer. ${DRAFT_KEPT} Send again in a few minutes: it will not be recorded twice.`,
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
