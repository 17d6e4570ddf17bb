/**
 * Domain errors for everything that can go wrong between the service and the CRM. The global
 * exception filter maps them to 502 (a code per kind: unavailable, credentials refused,
 * permission missing, request refused) or 504 (timeout); the CRM's own message goes to the log,
 * never to the browser.
 */
export type CrmFailure =
  /** Network error, connection refused or reset. */
  | 'unreachable'
  /** No answer within the configured timeout. */
  | 'timeout'
  /** 401: the service's credentials were refused. */
  | 'unauthorized'
  /** 403: the credentials are good, the API user lacks a permission for this call. */
  | 'forbidden'
  /**
   * The CRM answered with its own error envelope: it understood the call and refused it (an
   * invalid field, a value the database refused, a v3 envelope with is_error).
   */
  | 'rejected'
  /** Any other 4xx/5xx from the CRM (a PHP error page, maintenance mode). */
  | 'failed'
  /** A body that is not the JSON envelope CiviCRM answers with. */
  | 'malformed';

export class CrmError extends Error {
  constructor(
    readonly failure: CrmFailure,
    /** Entity and action, for logs; never secrets. */
    readonly call: string,
    detail: string,
    readonly httpStatus?: number,
  ) {
    super(`CRM ${call} ${failure}: ${detail}`);
    this.name = 'CrmError';
  }

  /** For 'forbidden': the CiviCRM permission the call needs, when known. */
  get permission(): string | undefined {
    return this.failure === 'forbidden' ? PERMISSION_BY_CALL[this.call] : undefined;
  }

  get isTimeout(): boolean {
    return this.failure === 'timeout';
  }
}

/**
 * Calls whose permission is not among the API user's documented minimum (docs/civicrm-setup.md),
 * so a 403 can name what is missing.
 */
const PERMISSION_BY_CALL: Readonly<Record<string, string>> = {
  'Contact.getChecksum': 'administer CiviCRM',
};

/** The failure an HTTP status from the CRM means; `envelope` says whether the body was CiviCRM's JSON error. */
export function failureForStatus(status: number, envelope: boolean): CrmFailure {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  // 503 is maintenance mode: an outage, whatever the body.
  return envelope && status !== 503 ? 'rejected' : 'failed';
}

/**
 * Normalizes an APIv3 `values` member: an array with `sequential: 1`, otherwise an object keyed
 * by id. Both shapes occur in the wild, so callers always get an array.
 */
export function normalizeV3Values<T>(values: unknown): T[] {
  if (Array.isArray(values)) return values as T[];
  if (values && typeof values === 'object') return Object.values(values) as T[];
  return [];
}
