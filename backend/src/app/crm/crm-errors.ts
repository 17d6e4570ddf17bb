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

/**
 * Which of CiviCRM's 401 answers (its authx extension answers `text/plain` "HTTP 401 <reason>"):
 * `invalid-key` "Invalid credential" (no user has the key); `not-permitted` "Login not permitted.
 * Must satisfy guard (…)" (the key's user lacks *authenticate with api key* and no site key was
 * sent); `blocked` "Cannot login. User is blocked."; `other` anything else (a webserver's Basic
 * Auth in front of CiviCRM, for one).
 */
export type CrmAuthRefusal = 'invalid-key' | 'not-permitted' | 'blocked' | 'other';

/** The refusal a 401 answer's text names (see CrmAuthRefusal). */
export function authRefusalOf(text: string): CrmAuthRefusal {
  if (/Invalid credential/i.test(text)) return 'invalid-key';
  if (/Login not permitted|Must satisfy guard/i.test(text)) return 'not-permitted';
  if (/User is blocked/i.test(text)) return 'blocked';
  return 'other';
}

/** What an administrator changes for each refusal: a setting or a permission, named. */
export const AUTH_REFUSAL_FIX: Readonly<Record<CrmAuthRefusal, string>> = {
  'invalid-key':
    "CiviCRM knows no user with the key in CRM_API_KEY (HTTP 401 'Invalid credential'): set CRM_API_KEY to the API user's key (CiviCRM keeps at most 32 characters of a key)",
  'not-permitted':
    "CiviCRM knows the key in CRM_API_KEY but its user may not sign in with it (HTTP 401 'Login not permitted'): give the API user the permission 'authenticate with api key', or set CRM_SITE_KEY to CiviCRM's site key",
  blocked: "the API user is blocked in CiviCRM (HTTP 401 'User is blocked'): unblock it",
  other:
    "something in front of CiviCRM refused the request (HTTP 401 without CiviCRM's reason): check CRM_BASIC_AUTH_USER and CRM_BASIC_AUTH_PASSWORD, and CRM_BASE_URL",
};

export class CrmError extends Error {
  constructor(
    readonly failure: CrmFailure,
    /** Entity and action, for logs; never secrets. */
    readonly call: string,
    detail: string,
    readonly httpStatus?: number,
    /** For 'unauthorized': which refusal CiviCRM answered. */
    readonly authRefusal?: CrmAuthRefusal,
  ) {
    super(`CRM ${call} ${failure}: ${detail}`);
    this.name = 'CrmError';
  }

  /** For 'forbidden': the CiviCRM permission the call needs, when known. */
  get permission(): string | undefined {
    return this.failure === 'forbidden' ? PERMISSION_BY_CALL[this.call] : undefined;
  }

  /** For 'unauthorized' and 'forbidden': what to change, in words naming the setting or permission. */
  get fix(): string | undefined {
    if (this.failure === 'unauthorized') return AUTH_REFUSAL_FIX[this.authRefusal ?? 'other'];
    const permission = this.permission;
    return permission ? `give the API user the permission '${permission}'` : undefined;
  }

  get isTimeout(): boolean {
    return this.failure === 'timeout';
  }
}

/**
 * The permission each call's 403 means is missing (docs/civicrm-setup.md, step 5), so a refusal
 * names what to grant. Reads CiviCRM filters by ACL (contacts, activities) answer fewer rows
 * instead of 403: the start-up self-check names those (health/deployment-check.ts).
 */
const PERMISSION_BY_CALL: Readonly<Record<string, string>> = {
  'Contact.getChecksum': 'administer CiviCRM',
  'File.create': 'access uploaded files',
  'File.get': 'access uploaded files',
  'CheckinMiddleware.info': 'access CiviCRM',
  'RelationshipType.get': 'access CiviCRM',
  'OptionValue.get': 'access CiviCRM',
  'CustomGroup.get': 'access all custom data (and, on CiviCRM 5.x, administer CiviCRM)',
  'CustomField.get': 'access all custom data (and, on CiviCRM 5.x, administer CiviCRM)',
  'Activity.create': 'view all activities',
  'Activity.delete': 'delete activities',
  'Contact.update': 'edit all contacts',
  'Contact.save': 'edit all contacts',
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
