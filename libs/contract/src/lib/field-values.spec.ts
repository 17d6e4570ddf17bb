import { isCalendarDate, isFileValue, validateFieldValue } from './field-values';
import { type FieldConfig, FIELD_TYPES, type FieldType, type OptionItem } from './fields';
import { CRM_INT_RANGE, DEFAULT_TEXT_MAX_LENGTH } from './value-limits';

const field = (type: FieldType, extra: Partial<FieldConfig> = {}): FieldConfig => ({
  name: 'answer',
  label: 'Answer',
  type,
  ...extra,
});
const OPTIONS: OptionItem[] = [
  { value: '1', label: 'Searching' },
  { value: 'deli', label: 'Deli' },
];

function problemOf(config: FieldConfig, value: unknown, options: readonly OptionItem[] = OPTIONS) {
  const check = validateFieldValue(config, value, options);
  return check.ok ? null : check.problem;
}

describe('validateFieldValue', () => {
  it('takes null and the empty string as an empty answer for every type but never a read-only one', () => {
    const singleValued = FIELD_TYPES.filter((type) => type !== 'multiselect' && type !== 'readonly');
    for (const type of singleValued) {
      expect(problemOf(field(type), null)).toBeNull();
      expect(problemOf(field(type), '')).toBeNull();
    }
    expect(problemOf(field('multiselect'), [])).toBeNull();
    expect(problemOf(field('readonly'), 'open')).toEqual({ kind: 'readOnly' });
  });

  describe('numbers', () => {
    it('wants a finite number', () => {
      expect(problemOf(field('number'), '9')).toEqual({ kind: 'number' });
      expect(problemOf(field('currency'), Number.POSITIVE_INFINITY)).toEqual({ kind: 'number' });
      expect(problemOf(field('percent'), Number.NaN)).toEqual({ kind: 'number' });
      expect(problemOf(field('percent'), true)).toEqual({ kind: 'number' });
    });

    it('wants whole numbers within CiviCRM’s 32-bit Int for counts', () => {
      expect(problemOf(field('number'), 2.5)).toEqual({ kind: 'wholeNumber' });
      expect(problemOf(field('number'), CRM_INT_RANGE.max)).toBeNull();
      expect(problemOf(field('number'), CRM_INT_RANGE.max + 1)).toEqual({
        kind: 'max',
        max: CRM_INT_RANGE.max,
      });
      expect(problemOf(field('number'), CRM_INT_RANGE.min - 1)).toEqual({
        kind: 'min',
        min: CRM_INT_RANGE.min,
      });
    });

    it('allows at most two decimals for money', () => {
      expect(problemOf(field('currency'), 10.25)).toBeNull();
      expect(problemOf(field('currency'), 10.255)).toEqual({ kind: 'decimals', max: 2 });
    });

    it('keeps percent between 0 and 100 even when the configuration does not say so', () => {
      expect(problemOf(field('percent'), 100)).toBeNull();
      expect(problemOf(field('percent'), 42.5)).toBeNull();
      expect(problemOf(field('percent'), 150)).toEqual({ kind: 'max', max: 100 });
      expect(problemOf(field('percent'), -1)).toEqual({ kind: 'min', min: 0 });
    });

    it('applies the configured bounds', () => {
      const bounded = field('number', { min: 1, max: 10 });
      expect(problemOf(bounded, 0)).toEqual({ kind: 'min', min: 1 });
      expect(problemOf(bounded, 11)).toEqual({ kind: 'max', max: 10 });
      expect(problemOf(field('currency', { min: 0 }), -0.01)).toEqual({ kind: 'min', min: 0 });
    });
  });

  it('takes dates as YYYY-MM-DD days that exist', () => {
    expect(problemOf(field('date'), '2025-03-08')).toBeNull();
    expect(problemOf(field('date'), '2026-02-29')).toEqual({ kind: 'date' });
    expect(problemOf(field('date'), '2025-03-08T00:00:00Z')).toEqual({ kind: 'date' });
    expect(problemOf(field('date'), 20250308)).toEqual({ kind: 'date' });
  });

  it('takes booleans only as true or false', () => {
    expect(problemOf(field('boolean'), false)).toBeNull();
    expect(problemOf(field('boolean'), 'yes')).toEqual({ kind: 'boolean' });
    expect(problemOf(field('boolean'), 1)).toEqual({ kind: 'boolean' });
  });

  it('takes a select answer only from the options, by stored value', () => {
    expect(problemOf(field('select'), '1')).toBeNull();
    expect(problemOf(field('select'), 1)).toEqual({ kind: 'option' });
    expect(problemOf(field('select'), 'Searching')).toEqual({ kind: 'option' });
    expect(problemOf(field('select'), '1', [])).toEqual({ kind: 'option' });
    expect(validateFieldValue(field('select'), '1')).toEqual({ ok: false, problem: { kind: 'option' } });
  });

  it('takes a multiselect answer as a list of distinct options', () => {
    expect(problemOf(field('multiselect'), ['deli', '1'])).toBeNull();
    expect(problemOf(field('multiselect'), ['deli', 'deli'])).toEqual({ kind: 'option' });
    expect(problemOf(field('multiselect'), ['bakery'])).toEqual({ kind: 'option' });
    expect(problemOf(field('multiselect'), 'deli')).toEqual({ kind: 'option' });
    expect(problemOf(field('multiselect'), '\u0001deli\u0001')).toEqual({ kind: 'option' });
  });

  it('takes a file answer only in the file-value shape', () => {
    expect(problemOf(field('file'), { id: 3, receipt: 'r' })).toBeNull();
    expect(problemOf(field('file'), 3)).toEqual({ kind: 'file' });
  });

  it('takes text up to the field’s maximum length, 255 characters by default', () => {
    expect(DEFAULT_TEXT_MAX_LENGTH).toBe(255);
    expect(problemOf(field('text'), 'x'.repeat(255))).toBeNull();
    expect(problemOf(field('text'), 'x'.repeat(256))).toEqual({ kind: 'maxLength', max: 255 });
    expect(problemOf(field('text', { maxLength: 3 }), 'abcd')).toEqual({ kind: 'maxLength', max: 3 });
    expect(problemOf(field('text', { maxLength: 2000 }), 'x'.repeat(2000))).toBeNull();
    expect(problemOf(field('text'), 42)).toEqual({ kind: 'text' });
  });
});

describe('isCalendarDate', () => {
  it('accepts real days written as YYYY-MM-DD only', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2024-13-01')).toBe(false);
    expect(isCalendarDate('2024-04-31')).toBe(false);
    expect(isCalendarDate('24-01-01')).toBe(false);
    expect(isCalendarDate('8/3/2025')).toBe(false);
  });
});

describe('isFileValue', () => {
  it('takes {id, file_name?, url?, receipt?} with a positive whole id', () => {
    expect(isFileValue({ id: 3 })).toBe(true);
    expect(isFileValue({ id: 3, file_name: 'plan.pdf', url: '/f/3', receipt: 'r' })).toBe(true);
  });

  it('refuses anything else: ids that are not positive whole numbers, wrong parts, extra parts', () => {
    expect(isFileValue({ id: 0 })).toBe(false);
    expect(isFileValue({ id: 2.5 })).toBe(false);
    expect(isFileValue({ id: '3' })).toBe(false);
    expect(isFileValue({ id: 3, file_name: 5 })).toBe(false);
    expect(isFileValue({ id: 3, receipt: null })).toBe(false);
    expect(isFileValue({ id: 3, path: '/etc/passwd' })).toBe(false);
    expect(isFileValue(3)).toBe(false);
    expect(isFileValue([{ id: 3 }])).toBe(false);
    expect(isFileValue(null)).toBe(false);
  });
});
