/** Every error the API answers has this body (docs/decisions.md, "Error bodies"). */
export interface ErrorBody {
  statusCode: number;
  code: ErrorCode;
  message: string;
  /** Field names at fault, for validation errors. */
  fields?: string[];
  /** Validation errors: why each named field was refused, in words an owner can act on. */
  reasons?: Record<string, string>;
  /** Validation errors: the stable code of each named field's problem (FIELD_PROBLEM_CODES, e.g. TEXT_HAS_MARKUP). */
  problems?: Record<string, string>;
}

export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNKNOWN_FIELDS',
  'FIELD_DISABLED',
  'ORG_REQUIRED',
  'CHECKSUM_INVALID',
  'STAFF_KEY_INVALID',
  'ADMIN_KEY_INVALID',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'REQUEST_TIMEOUT',
  'CONTACT_MISMATCH',
  'ORG_NOT_ALLOWED',
  'NOT_FOUND',
  'FIELD_NOT_ALLOWED',
  'FILE_MISSING',
  'FILE_TOO_LARGE',
  'PAYLOAD_TOO_LARGE',
  'HEADERS_TOO_LARGE',
  'UNSUPPORTED_FILE_TYPE',
  'FILE_CONTENT_MISMATCH',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'CRM_UNAVAILABLE',
  'CRM_TIMEOUT',
  'CRM_CREDENTIALS_REFUSED',
  'CRM_KEY_NOT_PERMITTED',
  'CRM_PERMISSION_DENIED',
  'CRM_REJECTED',
  'CRM_EXTENSION_MISSING',
  'ACTIVITY_NOT_SAVED',
  'SUBMISSION_ID_IN_USE',
  'NOT_READY',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Partial<ErrorBody>;
  return (
    typeof body.statusCode === 'number' && typeof body.code === 'string' && typeof body.message === 'string'
  );
}
