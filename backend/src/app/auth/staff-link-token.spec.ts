import { createHmac } from 'node:crypto';
import { looksLikeStaffLink, mintStaffLink, verifyStaffLink } from './staff-link-token';

const KEY = 'staff-link-key-0123456789abcdefghijkl';
const NOW = new Date('2026-11-26T10:00:00Z');
const nowSeconds = NOW.getTime() / 1000;

describe('staff link tokens', () => {
  it('has the layout the CiviCRM extension signs: prefix, staff, organization, expiry, HMAC-SHA256', () => {
    const token = mintStaffLink({ staffContactId: 5, orgId: 41, expiresAt: nowSeconds + 900 }, KEY);
    const payload = `csl1.5.41.${nowSeconds + 900}`;
    expect(token).toBe(`${payload}.${createHmac('sha256', KEY).update(payload).digest('base64url')}`);
    expect(looksLikeStaffLink(token)).toBe(true);
    expect(looksLikeStaffLink('an-ordinary-staff-key')).toBe(false);
  });

  it('reads back the claims of a token signed with the key, before it expires', () => {
    const token = mintStaffLink({ staffContactId: 5, orgId: 41, expiresAt: nowSeconds + 900 }, KEY);
    expect(verifyStaffLink(token, KEY, NOW)).toEqual({
      accepted: true,
      claims: { staffContactId: 5, orgId: 41, expiresAt: nowSeconds + 900 },
    });
  });

  it('tells why it refuses', () => {
    const valid = mintStaffLink({ staffContactId: 5, orgId: 41, expiresAt: nowSeconds + 900 }, KEY);
    expect(verifyStaffLink(valid, `${KEY}x`, NOW)).toEqual({ accepted: false, reason: 'bad-signature' });
    expect(verifyStaffLink(valid.replace('.5.', '.6.'), KEY, NOW)).toEqual({
      accepted: false,
      reason: 'bad-signature',
    });
    expect(verifyStaffLink(valid, KEY, new Date((nowSeconds + 900) * 1000))).toEqual({
      accepted: false,
      reason: 'expired',
    });
    const tooLong = mintStaffLink({ staffContactId: 5, orgId: 41, expiresAt: nowSeconds + 62 * 60 }, KEY);
    expect(verifyStaffLink(tooLong, KEY, NOW)).toEqual({ accepted: false, reason: 'too-long-lived' });
    for (const malformed of [
      '',
      'csl1',
      'csl1.5.41.x.sig',
      `${valid}.`,
      `csl2${valid.slice(4)}`,
      `${valid}A`,
    ]) {
      expect(verifyStaffLink(malformed, KEY, NOW)).toEqual({ accepted: false, reason: 'malformed' });
    }
  });
});
