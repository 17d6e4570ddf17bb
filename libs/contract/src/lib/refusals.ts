/**
 * The words a person reads when the service refuses a request or cannot answer it, written once
 * for both apps: the API's error messages (backend/src/app/errors) and the pages' notices
 * (frontend/src/app/shared/load-problems.ts, form/form-messages.ts, the staff page) are built
 * from these, so a page and the API never tell the same problem in two voices
 * (docs/decisions.md, "Refusal sentences").
 */

/**
 * What happened, without a full stop: a page shows it as a heading, and a sentence goes on from
 * it ("…, so the check-in was not sent.") or ends it (`refusal`).
 */
export const REFUSAL_HEADLINES = {
  /** CHECKSUM_INVALID. */
  linkInvalid: 'This link is not valid or has expired',
  /** CRM_UNAVAILABLE: the CRM could not be reached or answered something else than CiviCRM's JSON. */
  recordsDown: 'Our records system is not answering right now',
  /** CRM_TIMEOUT. */
  recordsSlow: 'Our records system took too long to answer',
  /** RATE_LIMITED. */
  tooManyRequests: 'Too many requests',
  /** INTERNAL_ERROR, and a failure that has no words of its own. */
  ourSide: 'Something went wrong on our side',
} as const;

/** Whole sentences: what to do next, or a refusal that needs no heading. */
export const REFUSAL_SENTENCES = {
  /** After CHECKSUM_INVALID. */
  askForNewLink: 'Ask your organizer for a new one.',
  /** After a failure of the service itself. */
  tryAgain: 'Please try again.',
  /** After a CRM failure, which usually lasts a while. */
  tryAgainSoon: 'Please try again in a few minutes.',
  /** After RATE_LIMITED. */
  waitAndTryAgain: 'Please wait a moment and try again.',
  /** STAFF_KEY_INVALID: no key, or one the service does not hold. */
  staffKeyRefused: 'The staff key is missing or wrong.',
  /** ADMIN_KEY_INVALID. */
  adminKeyRefused: 'The admin key is missing or wrong.',
  /** NOT_FOUND for the person a personal link names. */
  contactGone: 'Your contact record is no longer in our records.',
  /** FIELD_DISABLED: the site turned off a question the answers hold (docs/decisions.md, "Disabled fields"). */
  fieldDisabled:
    'Some questions you answered are no longer asked: reload the form (your other answers are kept) and send it again.',
} as const;

/** A headline made a sentence, followed by what to do: `refusal('Too many requests', 'Please wait…')`. */
export function refusal(headline: string, ...then: readonly string[]): string {
  return [`${headline}.`, ...then].join(' ');
}
