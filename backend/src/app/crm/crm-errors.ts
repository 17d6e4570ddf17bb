/**
 * Domain errors for everything that can go wrong between the service and the CRM. The global
 * exception filter maps them to 502 (unavailable) or 504 (timeout); the CRM's own message never
 * reaches the browser.
 */
export type CrmFailure =
  /** Network error, connection refused or reset. */
  | 'unreachable'
  /** No answer within the configured timeout. */
  | 'timeout'
  /** 401/403: the service's credentials were refused. */
  | 'unauthorized'
  /** 4xx/5xx from the CRM, or a v3 envelope with is_error. */
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

  get isTimeout(): boolean {
    return this.failure === 'timeout';
  }
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
