import { dateTimeFormat, numberFormat } from './intl-formats';

describe('Intl formatters made once', () => {
  it('hands back the same formatter for the same locale and options, another for others', () => {
    const first = numberFormat('en-US', { maximumFractionDigits: 2 });
    expect(numberFormat('en-US', { maximumFractionDigits: 2 })).toBe(first);
    expect(numberFormat('en-CA', { maximumFractionDigits: 2 })).not.toBe(first);
    expect(numberFormat('en-US', { maximumFractionDigits: 1 })).not.toBe(first);
    expect(first.format(1234.567)).toBe('1,234.57');

    const long = dateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
    expect(dateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' })).toBe(long);
    expect(dateTimeFormat('en-US', { dateStyle: 'short', timeZone: 'UTC' })).not.toBe(long);
    expect(long.format(Date.UTC(2025, 2, 8))).toBe('March 8, 2025');
  });
});
