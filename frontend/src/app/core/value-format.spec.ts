import type { FieldConfig, FieldType } from '@checkin/contract';
import { currencySymbol, formatContextOf, formatDate, formatValue, multiValues } from './value-format';
import { compactValue } from '../report/trend';
import { errorMessage } from '../form/field-validation';
import { calendarDay } from '../shared/dates';

const field = (type: FieldType): FieldConfig => ({ name: 'f', label: 'F', type });

describe('formatValue', () => {
  it('formats currency in the locale', () => {
    expect(formatValue(1234.5, field('currency'))).toBe('$1,234.50');
    expect(formatValue('250', field('currency'), { locale: 'de-DE', currency: 'EUR' })).toBe('250,00\u00a0€');
  });

  it('shows percent fields with a percent sign', () => {
    expect(formatValue(42.5, field('percent'))).toBe('42.5%');
    expect(formatValue('100', field('percent'))).toBe('100%');
  });

  it('groups digits in numbers', () => {
    expect(formatValue(12000, field('number'))).toBe('12,000');
  });

  it('shows booleans as Yes or No', () => {
    expect(formatValue(true, field('boolean'))).toBe('Yes');
    expect(formatValue('0', field('boolean'))).toBe('No');
  });

  it('resolves select and readonly values through the option group', () => {
    const options = [{ value: 'done', label: 'Complete' }];
    expect(formatValue('done', field('select'), { options })).toBe('Complete');
    expect(formatValue('done', field('readonly'), { options })).toBe('Complete');
    expect(formatValue('other', field('select'), { options })).toBe('other');
  });

  it('shows multiselect values, which the API answers as lists, by their labels', () => {
    const options = [
      { value: 'bulk', label: 'Bulk foods' },
      { value: 'produce', label: 'Local produce' },
    ];
    expect(formatValue(['bulk', 'produce'], field('multiselect'), { options })).toBe(
      'Bulk foods, Local produce',
    );
    expect(multiValues(['bulk', '', 'produce'])).toEqual(['bulk', 'produce']);
  });

  it('names files, or falls back to the attachment number', () => {
    expect(formatValue({ id: 7, file_name: 'plan.pdf' }, field('file'))).toBe('plan.pdf');
    expect(formatValue({ id: 7 }, field('file'))).toBe('Attachment #7');
    expect(formatValue(9, field('file'))).toBe('Attachment #9');
  });

  it('shows other values as they are and empty values as nothing', () => {
    expect(formatValue('Hello', field('text'))).toBe('Hello');
    expect(formatValue(null, field('text'))).toBe('');
    expect(formatValue([], field('multiselect'))).toBe('');
  });
});

describe('formatDate', () => {
  it('shows an instant on the reader’s own calendar, a calendar date never shifted', () => {
    // 02:00 UTC on 15 March is still 14 March west of Greenwich, already 15 March east of it.
    const instant = '2026-03-15T02:00:00.000Z';
    const localDay = new Date(instant).getDate();
    expect(formatDate(instant)).toBe(localDay === 14 ? 'March 14, 2026' : 'March 15, 2026');
    expect(formatDate('2026-03-15')).toBe('March 15, 2026');
  });

  it('formats a calendar date as a long date', () => {
    expect(formatDate('2025-03-15')).toBe('March 15, 2025');
    expect(formatDate('2025-03-15 00:30:00')).toBe('March 15, 2025');
  });

  it('never shifts a YYYY-MM-DD value by the time zone', () => {
    // The suite runs under several TZ values (see the test runner); the answer must not change.
    expect(formatDate('2024-01-01')).toBe('January 1, 2024');
    expect(formatDate('2024-12-31')).toBe('December 31, 2024');
    expect(calendarDay('1970-01-02')).toBe(1);
  });

  it('leaves text that is not a date alone', () => {
    expect(formatDate('soon')).toBe('soon');
  });
});

describe("the CRM site's currency and locale", () => {
  const amount: FieldConfig = { name: 'Equity', type: 'currency', label: 'Equity' };
  const count: FieldConfig = { name: 'Members', type: 'number', label: 'Members' };
  const canadian = formatContextOf({ currency: 'CAD', locale: 'en-CA' });

  it("formats a Canadian co-op's amounts in dollars as en-CA writes them, not as US dollars", () => {
    expect(formatValue(1400000.5, amount, canadian)).toBe('$1,400,000.50');
    expect(formatValue(1400000.5, amount, formatContextOf({ currency: 'CAD', locale: 'en-US' }))).toBe(
      'CA$1,400,000.50',
    );
    expect(formatValue(1234.5, amount, formatContextOf({ currency: 'EUR', locale: 'fr-FR' }))).toBe(
      '1\u202f234,50\u00a0€',
    );
    expect(formatValue(1234567, count, formatContextOf({ currency: 'EUR', locale: 'de-DE' }))).toBe(
      '1.234.567',
    );
  });

  it("falls back to CiviCRM's defaults, USD in en-US, when a payload carries none", () => {
    expect(formatContextOf(undefined)).toEqual({ currency: 'USD', locale: 'en-US' });
    expect(formatValue(12, amount, formatContextOf(undefined))).toBe('$12.00');
  });

  it('gives amount inputs, min/max captions and chart axes the same currency', () => {
    expect(currencySymbol(canadian)).toBe('$');
    expect(currencySymbol(formatContextOf({ currency: 'CAD', locale: 'en-US' }))).toBe('CA$');
    expect(currencySymbol(formatContextOf({ currency: 'GBP', locale: 'en-GB' }))).toBe('£');
    expect(
      errorMessage(amount, { min: { min: 0 } }, formatContextOf({ currency: 'GBP', locale: 'en-GB' })),
    ).toBe('Enter £0 or more.');
    expect(compactValue(1800000, amount, formatContextOf({ currency: 'CAD', locale: 'en-US' }))).toBe(
      'CA$1.8M',
    );
  });
});
