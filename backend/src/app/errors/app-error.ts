import { type ErrorCode, REFUSAL_HEADLINES, REFUSAL_SENTENCES, refusal } from '@checkin/contract';

/**
 * A failure the API answers on purpose, with its status and stable code (docs/decisions.md, "Error bodies"). Feature
 * code throws these; the global exception filter turns them into the error body.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: {
      fields?: string[];
      reasons?: Record<string, string>;
      problems?: Record<string, string>;
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** The 429 sentence, for the rate limits and the reads throttler alike. */
export const RATE_LIMITED_MESSAGE = refusal(
  REFUSAL_HEADLINES.tooManyRequests,
  REFUSAL_SENTENCES.waitAndTryAgain,
);

/** The 500 sentence: nothing about what failed reaches the browser. */
export const INTERNAL_ERROR_MESSAGE = refusal(REFUSAL_HEADLINES.ourSide, REFUSAL_SENTENCES.tryAgain);

export const Errors = {
  checksumInvalid: () =>
    new AppError(
      401,
      'CHECKSUM_INVALID',
      refusal(REFUSAL_HEADLINES.linkInvalid, REFUSAL_SENTENCES.askForNewLink),
    ),
  contactMismatch: () => new AppError(403, 'CONTACT_MISMATCH', 'This link belongs to another person.'),
  orgNotAllowed: () =>
    new AppError(403, 'ORG_NOT_ALLOWED', 'This link does not give access to that organization.'),
  noOrganization: () =>
    new AppError(403, 'ORG_NOT_ALLOWED', 'No organization is linked to you as its primary contact.'),
  orgRequired: () =>
    new AppError(
      400,
      'ORG_REQUIRED',
      'You are the primary contact of several organizations: open the link with an orgId for the one you mean.',
    ),
  badRequest: (message: string, fields?: string[]) => new AppError(400, 'BAD_REQUEST', message, { fields }),
  validation: (
    message: string,
    fields: string[],
    reasons?: Record<string, string>,
    problems?: Record<string, string>,
  ) =>
    new AppError(400, 'VALIDATION_FAILED', message, {
      fields,
      ...(reasons ? { reasons } : {}),
      ...(problems ? { problems } : {}),
    }),
  notFound: (message: string) => new AppError(404, 'NOT_FOUND', message),
  staffKeyInvalid: () => new AppError(401, 'STAFF_KEY_INVALID', REFUSAL_SENTENCES.staffKeyRefused),
  adminKeyInvalid: () => new AppError(401, 'ADMIN_KEY_INVALID', REFUSAL_SENTENCES.adminKeyRefused),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE, { retryAfterSeconds }),
};
