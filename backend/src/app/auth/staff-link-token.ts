import { createHmac, timingSafeEqual } from 'node:crypto';
import { type PreviousKey, verifyingKeys } from '../config/key-rotation';

/**
 * The staff link token the CiviCRM extension signs when a member of staff opens a co-op's staff
 * report from its contact record (docs/organizer-guide.md, "Opening a co-op's staff report"):
 *
 *   csl1.<staff contact id>.<organization id>.<expiry, Unix seconds>.<signature>
 *
 * signature = base64url(HMAC-SHA256(STAFF_LINK_KEY, everything before it)). It stands in for
 * the staff key for one organization, until it expires.
 */
export const STAFF_LINK_PREFIX = 'csl1';

/** The extension caps a link at 60 minutes; a minute more allows for clocks that differ. */
export const STAFF_LINK_MAX_LIFETIME_SECONDS = 61 * 60;

export interface StaffLinkClaims {
  staffContactId: number;
  orgId: number;
  /** Unix seconds. */
  expiresAt: number;
}

export type StaffLinkVerdict =
  | { accepted: true; claims: StaffLinkClaims }
  | { accepted: false; reason: 'malformed' | 'bad-signature' | 'expired' | 'too-long-lived' };

const TOKEN_SHAPE = /^csl1\.([1-9]\d{0,14})\.([1-9]\d{0,14})\.([1-9]\d{0,14})\.([A-Za-z0-9_-]{43})$/;

/** True when the value has the token's shape (a staff key never needs to look like one). */
export function looksLikeStaffLink(value: string): boolean {
  return value.startsWith(`${STAFF_LINK_PREFIX}.`);
}

function signature(payload: string, key: string): Buffer {
  return createHmac('sha256', key).update(payload, 'utf8').digest();
}

/** What the extension does (civicrm-extension/Civi/CheckinMiddleware/StaffLink.php); tests use it. */
export function mintStaffLink(claims: StaffLinkClaims, key: string): string {
  const payload = [STAFF_LINK_PREFIX, claims.staffContactId, claims.orgId, claims.expiresAt].join('.');
  return `${payload}.${signature(payload, key).toString('base64url')}`;
}

/** Checks the signature in constant time, then the expiry; the organization is the caller's to compare. */
export function verifyStaffLink(token: string, key: string, now: Date): StaffLinkVerdict {
  const match = TOKEN_SHAPE.exec(token);
  if (!match) return { accepted: false, reason: 'malformed' };
  const [, staff, org, expiry, presented] = match as unknown as [string, string, string, string, string];
  // The text is compared, not its decoding: base64url decoding ignores a last character's spare
  // bits, so several spellings decode to the same signature, and only the minted one is valid.
  const expected = Buffer.from(signature(token.slice(0, token.lastIndexOf('.')), key).toString('base64url'));
  const given = Buffer.from(presented);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { accepted: false, reason: 'bad-signature' };
  }
  const claims = { staffContactId: Number(staff), orgId: Number(org), expiresAt: Number(expiry) };
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (claims.expiresAt <= nowSeconds) return { accepted: false, reason: 'expired' };
  if (claims.expiresAt - nowSeconds > STAFF_LINK_MAX_LIFETIME_SECONDS) {
    return { accepted: false, reason: 'too-long-lived' };
  }
  return { accepted: true, claims };
}

/**
 * verifyStaffLink with rotation (docs/rotating-secrets.md): a token the extension signed with
 * STAFF_LINK_KEY_PREVIOUS is accepted until STAFF_LINK_KEY_PREVIOUS_UNTIL, then refused as a bad
 * signature. A token's own expiry applies whichever key signed it.
 */
export function verifyStaffLinkWithRotation(
  token: string,
  current: string,
  previous: PreviousKey | undefined,
  now: Date,
): StaffLinkVerdict {
  let verdict: StaffLinkVerdict = { accepted: false, reason: 'malformed' };
  for (const key of verifyingKeys(current, previous, now)) {
    verdict = verifyStaffLink(token, key, now);
    if (verdict.accepted || verdict.reason !== 'bad-signature') return verdict;
  }
  return verdict;
}
