import { crmLocalTimeToIso, isKnownTimeZone, toCrmLocalTime } from './crm-local-time';

describe('CRM local time', () => {
  it('writes an instant as the CRM wall clock of its zone', () => {
    const at = new Date('2026-11-21T14:05:09.654Z');
    expect(toCrmLocalTime(at, 'UTC')).toBe('2026-11-21 14:05:09');
    // Chicago is UTC-6 in November and UTC-5 in July.
    expect(toCrmLocalTime(at, 'America/Chicago')).toBe('2026-11-21 08:05:09');
    expect(toCrmLocalTime(new Date('2026-07-01T12:00:00Z'), 'America/Chicago')).toBe('2026-07-01 07:00:00');
  });

  it('reads a wall clock back as the same instant, on both sides of a daylight-saving change', () => {
    for (const iso of ['2026-11-21T14:05:09.000Z', '2026-07-01T12:00:00.000Z', '2026-03-08T09:30:00.000Z']) {
      expect(crmLocalTimeToIso(toCrmLocalTime(new Date(iso), 'America/Chicago'), 'America/Chicago')).toBe(
        iso,
      );
      expect(
        crmLocalTimeToIso(toCrmLocalTime(new Date(iso), 'Pacific/Kiritimati'), 'Pacific/Kiritimati'),
      ).toBe(iso);
    }
  });

  it('reads the compact form CiviCRM answers a create with', () => {
    expect(crmLocalTimeToIso('20261121080509', 'America/Chicago')).toBe('2026-11-21T14:05:09.000Z');
  });

  it('remembers a reading per zone: the same text in another zone is another instant', () => {
    const text = '2026-11-21 08:05:09';
    for (let read = 0; read < 2; read += 1) {
      expect(crmLocalTimeToIso(text, 'America/Chicago')).toBe('2026-11-21T14:05:09.000Z');
      expect(crmLocalTimeToIso(text, 'UTC')).toBe('2026-11-21T08:05:09.000Z');
      expect(crmLocalTimeToIso(text, 'Pacific/Kiritimati')).toBe('2026-11-20T18:05:09.000Z');
    }
    expect(() => crmLocalTimeToIso(text, 'Mars/Olympus')).toThrow(RangeError);
  });

  it('passes through what is not a date-time, and knows which zones exist', () => {
    expect(crmLocalTimeToIso('soon', 'UTC')).toBe('soon');
    expect(isKnownTimeZone('America/Chicago')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
  });
});
