import type { OptionMap } from '@checkin/contract';
import type { AppError } from '../errors/app-error';
import { FIELDS_BY_NAME } from '../fields/field-config';
import { fieldsNeedingOptions, isValidValue, parseSubmission, validateValues } from './submission-validation';

const SUBMISSION_ID = '6F1C1F8E-3F8E-4B8E-9D1E-0A4C2B7D9E11';
const OPTIONS: OptionMap = {
  Market_study_status: [
    { value: 'in_progress', label: 'In progress' },
    { value: 'complete', label: 'Complete' },
  ],
  Site_status: [{ value: '1', label: 'Searching' }],
  Organizing_focus: [
    { value: 'groceries', label: 'Groceries' },
    { value: 'deli', label: 'Deli' },
  ],
};

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

function field(name: string) {
  const config = FIELDS_BY_NAME.get(name);
  if (!config) throw new Error(`no field ${name}`);
  return config;
}

describe('parseSubmission', () => {
  const body = { cid: '102', cs: 'demo', contactId: '102', orgId: '101', submissionId: SUBMISSION_ID };

  it('accepts the body of docs/decisions.md, "Submit body" and lowercases the submission id', () => {
    expect(parseSubmission({ ...body, values: { Equity_share: 200 } })).toEqual({
      submissionId: SUBMISSION_ID.toLowerCase(),
      values: { Equity_share: 200 },
    });
  });

  it('accepts a submission with no values', () => {
    expect(parseSubmission({ ...body, values: {} }).values).toEqual({});
  });

  it.each([undefined, '', 'not-a-uuid', 42, `${SUBMISSION_ID}0`])('refuses the submission id %p', (id) => {
    const error = refusal(() => parseSubmission({ ...body, submissionId: id, values: {} }));
    expect([error.statusCode, error.code, error.extra.fields]).toEqual([
      400,
      'VALIDATION_FAILED',
      ['submissionId'],
    ]);
  });

  it.each([undefined, null, [], 'values'])('refuses values %p that are not an object', (values) => {
    const error = refusal(() => parseSubmission({ ...body, values }));
    expect([error.statusCode, error.code, error.extra.fields]).toEqual([
      400,
      'VALIDATION_FAILED',
      ['values'],
    ]);
  });

  it.each([null, [], 'text'])('refuses a body %p that is not an object', (wrong) => {
    expect(refusal(() => parseSubmission(wrong)).code).toBe('BAD_REQUEST');
  });

  it('refuses properties outside the contract, by name', () => {
    const error = refusal(() => parseSubmission({ ...body, values: {}, stage: 5 }));
    expect([error.code, error.extra.fields]).toEqual(['BAD_REQUEST', ['stage']]);
  });

  it('refuses identity, derived, Stage and unknown names together, naming each', () => {
    const error = refusal(() =>
      parseSubmission({
        ...body,
        values: {
          first_name: 'Mallory',
          email: 'm@example.org',
          current_stage: 'open',
          Stage: 'open',
          'Check_in_data__organizing_.Stage': 'open',
          Equity_share: 10,
        },
      }),
    );
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('UNKNOWN_FIELDS');
    expect(error.extra.fields).toEqual([
      'first_name',
      'email',
      'current_stage',
      'Stage',
      'Check_in_data__organizing_.Stage',
    ]);
  });

  it('refuses an own __proto__ key (as JSON.parse creates it) as unknown', () => {
    const error = refusal(() =>
      parseSubmission(JSON.parse(`{"submissionId":"${SUBMISSION_ID}","values":{"__proto__":{"x":1}}}`)),
    );
    expect([error.code, error.extra.fields]).toEqual(['UNKNOWN_FIELDS', ['__proto__']]);
  });
});

describe('validateValues', () => {
  it('keeps every valid answer', () => {
    const values = {
      Steering_committee_size: 9,
      Equity_share: 12.5,
      Percent_capitalized: 100,
      Date_Incorporated: '2024-02-29',
      Mission_statement_adopted: false,
      Market_study_status: 'complete',
      Organizing_focus: ['groceries', 'deli'],
      Certificate_of_Incorporation: { id: 7, file_name: 'c.pdf' },
      Business_plan: { id: 8 },
      Organizing_notes: 'n'.repeat(2000),
      Name_on_Incorporation_Certificate: null,
      Interest_list_size: '',
      Lender_types: [],
    };
    expect(validateValues(values, OPTIONS)).toEqual(values);
  });

  it('names every invalid answer at once', () => {
    const error = refusal(() =>
      validateValues(
        { Steering_committee_size: -1, Equity_share: 'lots', Organizing_notes: 'fine' },
        OPTIONS,
      ),
    );
    expect([error.statusCode, error.code, error.extra.fields]).toEqual([
      400,
      'VALIDATION_FAILED',
      ['Steering_committee_size', 'Equity_share'],
    ]);
  });

  it('says why each answer was refused: bounds, format, option', () => {
    const error = refusal(() =>
      validateValues(
        {
          Steering_committee_size: 101,
          Interest_list_size: 2.5,
          Equity_share: 'lots',
          Organizing_meeting_date: '2026-02-30',
          Site_status: 'nowhere',
          Name_on_Incorporation_Certificate: 'x'.repeat(256),
        },
        OPTIONS,
      ),
    );
    expect(error.extra.reasons).toEqual({
      Steering_committee_size: 'enter 100 or less.',
      Interest_list_size: 'enter a whole number.',
      Equity_share: 'enter a number.',
      Organizing_meeting_date: 'enter a real date.',
      Site_status: 'choose from the options shown; the list may have changed, so reload the page.',
      Name_on_Incorporation_Certificate: 'use 255 characters or fewer.',
    });
  });
  it('names the bound a number broke, the configured one or the one the CRM or percent sets', () => {
    const error = refusal(() =>
      validateValues({ Equity_goal: 10.255, Percent_capitalized: 150, Interest_list_size: 2 ** 31 }, OPTIONS),
    );
    expect(error.extra.reasons).toEqual({
      Equity_goal: 'enter an amount with no more than 2 decimal places.',
      Percent_capitalized: 'enter 100 or less.',
      Interest_list_size: 'enter 2147483647 or less.',
    });
  });
});

describe('isValidValue', () => {
  const valid = (name: string, value: unknown) => isValidValue(field(name), value, OPTIONS);

  it('treats null and the empty string as an empty answer for every type', () => {
    for (const name of ['Steering_committee_size', 'Date_Opened', 'Market_study_status', 'Business_plan']) {
      expect(valid(name, null)).toBe(true);
      expect(valid(name, '')).toBe(true);
    }
  });

  it('takes counts as whole numbers within the field’s bounds', () => {
    expect(valid('Steering_committee_size', 0)).toBe(true);
    expect(valid('Steering_committee_size', 100)).toBe(true);
    expect(valid('Steering_committee_size', 101)).toBe(false);
    expect(valid('Steering_committee_size', 2.5)).toBe(false);
    expect(valid('Steering_committee_size', '9')).toBe(false);
  });

  it('takes currency and percent as finite numbers within bounds', () => {
    expect(valid('Equity_goal', 900000.5)).toBe(true);
    expect(valid('Equity_goal', -1)).toBe(false);
    expect(valid('Equity_goal', Number.POSITIVE_INFINITY)).toBe(false);
    expect(valid('Percent_capitalized', 100.01)).toBe(false);
    expect(valid('Percent_capitalized', true)).toBe(false);
  });

  it('takes dates as YYYY-MM-DD days that exist', () => {
    expect(valid('Date_Opened', '2025-03-08')).toBe(true);
    expect(valid('Date_Opened', '2026-02-29')).toBe(false);
    expect(valid('Date_Opened', '2025-13-01')).toBe(false);
    expect(valid('Date_Opened', '2025-03-08T00:00:00Z')).toBe(false);
    expect(valid('Date_Opened', '8/3/2025')).toBe(false);
  });

  it('takes booleans only as true or false', () => {
    expect(valid('Business_plan_done', true)).toBe(true);
    expect(valid('Business_plan_done', 'yes')).toBe(false);
    expect(valid('Business_plan_done', 1)).toBe(false);
  });

  it('takes a select answer only from the CRM’s options, by stored value', () => {
    expect(valid('Site_status', '1')).toBe(true);
    expect(valid('Site_status', 1)).toBe(false);
    expect(valid('Site_status', 'Searching')).toBe(false);
    expect(valid('Store_size_sqft', 'x')).toBe(false);
  });

  it('refuses a select answer when the CRM gave the field no options', () => {
    expect(isValidValue(field('Site_status'), '1', {})).toBe(false);
  });

  it('takes a multiselect answer as a list of distinct options', () => {
    expect(valid('Organizing_focus', ['deli'])).toBe(true);
    expect(valid('Organizing_focus', ['deli', 'deli'])).toBe(false);
    expect(valid('Organizing_focus', ['bakery'])).toBe(false);
    expect(valid('Organizing_focus', 'deli')).toBe(false);
  });

  it('takes a file answer as {id, file_name?} with a positive whole id', () => {
    expect(valid('Business_plan', { id: 3 })).toBe(true);
    expect(valid('Business_plan', { id: 3, file_name: 'plan.pdf', url: 'https://crm.example/f' })).toBe(true);
    expect(valid('Business_plan', { id: 0 })).toBe(false);
    expect(valid('Business_plan', { id: '3' })).toBe(false);
    expect(valid('Business_plan', { id: 3, file_name: 5 })).toBe(false);
    expect(valid('Business_plan', { id: 3, path: '/etc/passwd' })).toBe(false);
    expect(valid('Business_plan', 3)).toBe(false);
  });

  it('takes text up to the field’s maximum length', () => {
    expect(valid('Name_on_Incorporation_Certificate', 'x'.repeat(255))).toBe(true);
    expect(valid('Name_on_Incorporation_Certificate', 'x'.repeat(256))).toBe(false);
    expect(valid('Organizing_notes', 42)).toBe(false);
  });

  it('never takes a read-only field', () => {
    expect(valid('current_stage', 'open')).toBe(false);
  });
});

describe('fieldsNeedingOptions', () => {
  it('names the select and multiselect fields with a non-empty answer', () => {
    const fields = fieldsNeedingOptions({
      Market_study_status: 'complete',
      Organizing_focus: [],
      Site_status: null,
      Lender_types: ['cdfi'],
      Equity_goal: 5,
    });
    expect(fields.map((config) => config.name)).toEqual(['Market_study_status', 'Lender_types']);
  });

  it('needs nothing when no select is answered', () => {
    expect(fieldsNeedingOptions({ Equity_goal: 5 })).toEqual([]);
  });
});
