import { FormControl } from '@angular/forms';
import { type FieldConfig, TEXT_HAS_MARKUP_MESSAGE } from '@checkin/contract';
import {
  dateValidator,
  errorMessage,
  numberValidator,
  parseNumberText,
  textValidator,
} from './field-validation';

const numeric = (type: 'number' | 'currency' | 'percent', extra: Partial<FieldConfig> = {}) =>
  ({ name: 'n', label: 'N', type, ...extra }) as FieldConfig & { type: typeof type };

function errorsOf(validator: ReturnType<typeof numberValidator>, text: string) {
  return validator(new FormControl(text, { nonNullable: true }));
}

describe('parseNumberText', () => {
  it('reads numbers as people type them', () => {
    expect(parseNumberText('1250')).toBe(1250);
    expect(parseNumberText(' 1,250.50 ')).toBe(1250.5);
    expect(parseNumberText('$ 300')).toBe(300);
    expect(parseNumberText('62.5 %')).toBe(62.5);
    expect(parseNumberText('.5')).toBe(0.5);
    expect(parseNumberText('-4')).toBe(-4);
  });

  it('answers null for an empty answer and NaN for text that is not a number', () => {
    expect(parseNumberText('  ')).toBeNull();
    expect(parseNumberText('twelve')).toBeNaN();
    expect(parseNumberText('1,25')).toBeNaN();
    expect(parseNumberText('12abc')).toBeNaN();
  });
});

describe('numberValidator', () => {
  it('accepts an empty answer', () => {
    expect(errorsOf(numberValidator(numeric('number', { min: 0 })), '')).toBeNull();
  });

  it('wants whole numbers for number fields', () => {
    expect(errorsOf(numberValidator(numeric('number')), '2.5')).toEqual({ wholeNumber: true });
  });

  it('allows at most two decimals for currency', () => {
    const validator = numberValidator(numeric('currency'));
    expect(errorsOf(validator, '10.25')).toBeNull();
    expect(errorsOf(validator, '10.255')).toEqual({ decimals: { max: 2 } });
  });

  it('keeps percent between 0 and 100 even when the configuration does not say so', () => {
    const validator = numberValidator(numeric('percent'));
    expect(errorsOf(validator, '100')).toBeNull();
    expect(errorsOf(validator, '100.5')).toEqual({ max: { max: 100 } });
    expect(errorsOf(validator, '-1')).toEqual({ min: { min: 0 } });
  });

  it('applies the configured bounds', () => {
    const validator = numberValidator(numeric('number', { min: 1, max: 10 }));
    expect(errorsOf(validator, '0')).toEqual({ min: { min: 1 } });
    expect(errorsOf(validator, '11')).toEqual({ max: { max: 10 } });
  });
});

describe('textValidator and dateValidator', () => {
  it('limits the length of text, to a CRM String field’s 255 characters unless configured', () => {
    const validator = textValidator({ name: 't', label: 'T', type: 'text', maxLength: 3 });
    expect(validator(new FormControl('abc'))).toBeNull();
    expect(validator(new FormControl('abcd'))).toEqual({ maxlength: { max: 3 } });
    const unlimited = textValidator({ name: 't', label: 'T', type: 'text' });
    expect(unlimited(new FormControl('x'.repeat(256)))).toEqual({ maxlength: { max: 255 } });
  });

  it('refuses text a browser would read as markup, with the message the server gives', () => {
    const field = { name: 'notes', label: 'Notes', type: 'text' as const, maxLength: 2000 };
    const validator = textValidator(field);
    const errors = validator(new FormControl(' <img src=x onerror=alert(1)> '));
    expect(errors).toEqual({ markup: true });
    expect(errorMessage(field, errors ?? {})).toBe(
      TEXT_HAS_MARKUP_MESSAGE.charAt(0).toUpperCase() + TEXT_HAS_MARKUP_MESSAGE.slice(1),
    );
    expect(validator(new FormControl('from < 40 to 52'))).toBeNull();
  });

  it('wants a real date or nothing', () => {
    const validator = dateValidator({ name: 'd', label: 'D', type: 'date' });
    expect(validator(new FormControl(''))).toBeNull();
    expect(validator(new FormControl('2025-02-30'))).toEqual({ date: true });
  });
});

describe('errorMessage', () => {
  it('explains each error in the field’s own terms', () => {
    expect(errorMessage(numeric('percent'), { max: { max: 100 } })).toBe('Enter 100% or less.');
    expect(errorMessage(numeric('currency'), { min: { min: 0 } })).toBe('Enter $0 or more.');
    expect(errorMessage(numeric('number'), { number: true })).toBe('Enter a number, like 1250.');
    expect(errorMessage(numeric('number'), { server: true })).toContain('not accepted');
  });
});
