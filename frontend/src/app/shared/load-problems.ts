import { REFUSAL_HEADLINES, REFUSAL_SENTENCES, refusal } from '@checkin/contract';
import type { ApiError, ClientErrorBody } from '../core/api-error.interceptor';

/**
 * What an owner page says when loading fails: what happened and what to do next, never HTTP
 * details. Shared by the form and the report, so both say the same for the same problem; the
 * headlines are the API's own words (libs/contract refusals).
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

/** The records system failed: the link is not at fault, and trying again later can help. */
const recordsFailed = (page: LoadedPage, headline: string): LoadProblem => ({
  title: `${page} could not be loaded`,
  message: refusal(headline, 'Your link is fine: try again in a few minutes.'),
  canRetry: true,
  needsNewLink: false,
});

const LOAD_PROBLEMS: Partial<Record<ErrorCode, (error: ApiError, page: LoadedPage) => LoadProblem>> = {
  CHECKSUM_INVALID: () => ({
    title: REFUSAL_HEADLINES.linkInvalid,
    message: 'Personal links stop working after a while, and a link copied only in part never works.',
    canRetry: false,
    needsNewLink: true,
  }),
  FORBIDDEN: wrongLink,
  CONTACT_MISMATCH: wrongLink,
  ORG_NOT_ALLOWED: wrongLink,
  ORG_REQUIRED: (_, page) => ({
    title: page === 'Your check-in history' ? 'Which co-op’s history?' : 'Which co-op is this check-in for?',
    message:
      page === 'Your check-in history'
        ? 'You are the contact for several co-ops. Choose the one whose check-in history you want to see.'
        : 'You are the contact for several co-ops. Choose the one this check-in is about.',
    canRetry: false,
    needsNewLink: false,
    chooseOrganization: true,
  }),
  RATE_LIMITED: () => ({
    title: REFUSAL_HEADLINES.tooManyRequests,
    message: 'The form was opened many times in a short while. Wait a minute, then try again.',
    canRetry: true,
    needsNewLink: false,
  }),
  CRM_UNAVAILABLE: (_, page) => recordsFailed(page, REFUSAL_HEADLINES.recordsDown),
  CRM_TIMEOUT: (_, page) => recordsFailed(page, REFUSAL_HEADLINES.recordsSlow),
  NOT_FOUND: () => ({
    title: 'Your details could not be found',
    message: REFUSAL_SENTENCES.contactGone,
    canRetry: false,
    needsNewLink: true,
  }),
};

export function loadProblemOf(error: ApiError, page: LoadedPage = 'The check-in form'): LoadProblem {
  const problem = LOAD_PROBLEMS[error.body.code];
  return problem
    ? problem(error, page)
    : {
        title: `${page} could not be loaded`,
        message:
          error.body.code === 'NETWORK_ERROR'
            ? error.message
            : refusal(REFUSAL_HEADLINES.ourSide, REFUSAL_SENTENCES.tryAgain),
        canRetry: true,
        needsNewLink: false,
      };
}
