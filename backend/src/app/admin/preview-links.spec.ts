import { expiryOf, previewLinks } from './preview-links';

describe('previewLinks', () => {
  const parts = {
    publicBaseUrl: 'https://checkin.example.org',
    contactId: 102,
    orgId: 101,
    checksum: 'a1b2c3_1795000000_168',
    expiresAt: new Date('2026-11-28T12:00:00Z'),
  };

  it("builds the owner's form and report links with contactId equal to cid (docs/decisions.md, 'Personal links')", () => {
    const links = previewLinks(parts);
    const owner = 'contactId=102&orgId=101&cid=102&cs=a1b2c3_1795000000_168';
    expect(links.formUrl).toBe(`https://checkin.example.org/?${owner}`);
    expect(links.reportUrl).toBe(`https://checkin.example.org/report?${owner}`);
  });

  it('builds a staff link without any key', () => {
    expect(previewLinks(parts).staffUrl).toBe('https://checkin.example.org/staff?orgId=101');
  });

  it('escapes a checksum that holds URL characters', () => {
    const links = previewLinks({ ...parts, checksum: 'a+b/c=&d' });
    expect(new URL(links.formUrl).searchParams.get('cs')).toBe('a+b/c=&d');
  });

  it('states the expiry as ISO 8601, or null for a checksum that never expires', () => {
    expect(previewLinks(parts).expiresAt).toBe('2026-11-28T12:00:00.000Z');
    expect(previewLinks({ ...parts, expiresAt: null }).expiresAt).toBeNull();
  });
});

describe('expiryOf', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('adds the lifetime in hours', () => {
    expect(expiryOf(168, now)?.toISOString()).toBe('2026-11-28T12:00:00.000Z');
  });

  it('never expires for 0 hours', () => {
    expect(expiryOf(0, now)).toBeNull();
  });
});
