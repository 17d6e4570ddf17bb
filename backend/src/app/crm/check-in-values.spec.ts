import type { FieldConfig, FieldValues } from '@checkin/contract';
import {
  CONTACT_STAGE_FIELD,
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_TYPE_NAME,
  CLEARED_FIELDS_FIELD,
  CONTACT_CUSTOM_GROUP,
  SUBMISSION_ID_FIELD,
} from './crm-names';
import { ACTIVITY_FIELDS, CONTACT_FIELDS, crmNameOf, SUBMITTABLE_FIELDS } from '../fields/field-config';
import {
  CHECK_IN_SUBJECT,
  checkInActivityValues,
  clearedColumnValue,
  clearedNamesOf,
  newCheckInValues,
  organizationValues,
  splitSubmission,
} from './check-in-values';

const activity = (field: string) => `Check_in_data__organizing_.${field}`;
const organization = (field: string) => `${CONTACT_CUSTOM_GROUP}.${field}`;

describe('splitSubmission', () => {
  it('sends contact-bound values to the organization and activity-bound values to the check-in', () => {
    const writes = splitSubmission({
      Equity_share: 250,
      Date_Incorporated: '2022-06-01',
      Steering_committee_size: 9,
      Organizing_notes: 'Met the landlord.',
    });
    expect(writes.contactValues).toEqual({
      [organization('Equity_share')]: 250,
      [organization('Date_Incorporated')]: '2022-06-01',
    });
    expect(writes.activityValues).toEqual({
      [activity('Steering_committee_size')]: 9,
      [activity('Organizing_notes')]: 'Met the landlord.',
    });
  });

  it('writes a file value as its id, on either side', () => {
    const writes = splitSubmission({
      Certificate_of_Incorporation: { id: 41, file_name: 'certificate.pdf' },
      Business_plan: { id: 42 },
    });
    expect(writes.contactValues).toEqual({ [organization('Certificate_of_Incorporation')]: 41 });
    expect(writes.activityValues).toEqual({ [activity('Business_plan')]: 42 });
  });

  it('never writes a Stage field, even when every field is submitted', () => {
    const everything: FieldValues = Object.fromEntries(SUBMITTABLE_FIELDS.map((field) => [field.name, 'x']));
    const writes = splitSubmission(everything);
    const written = [...Object.keys(writes.contactValues), ...Object.keys(writes.activityValues)];
    expect(written).not.toContain(ACTIVITY_STAGE_FIELD);
    expect(written).not.toContain(CONTACT_STAGE_FIELD);
    expect(written).not.toContain(SUBMISSION_ID_FIELD);
    expect(written).toHaveLength(SUBMITTABLE_FIELDS.length);
  });

  it('drops a Stage field even if the configuration bound one', () => {
    const misconfigured: FieldConfig[] = [
      { name: 'stage_on_activity', type: 'select', label: 'Stage', crmField: ACTIVITY_STAGE_FIELD },
      { name: 'stage_on_contact', type: 'select', label: 'Stage', crmContactField: CONTACT_STAGE_FIELD },
      { name: 'submission', type: 'text', label: 'Submission', crmField: SUBMISSION_ID_FIELD },
      { name: 'notes', type: 'text', label: 'Notes', crmField: activity('Organizing_notes') },
    ];
    const writes = splitSubmission(
      { stage_on_activity: 'open', stage_on_contact: 'open', submission: 'forged', notes: 'kept' },
      misconfigured,
    );
    expect(writes).toEqual({ contactValues: {}, activityValues: { [activity('Organizing_notes')]: 'kept' } });
  });

  it('leaves empty activity-bound answers out', () => {
    const writes = splitSubmission({
      Steering_committee_size: null,
      Organizing_notes: '',
      Organizing_focus: [],
      Mission_statement_adopted: false,
      Interest_list_size: 0,
    });
    expect(writes.activityValues).toEqual({
      [activity('Mission_statement_adopted')]: false,
      [activity('Interest_list_size')]: 0,
    });
  });

  it('writes contact-bound values as sent, so an empty answer clears the stored one', () => {
    const writes = splitSubmission({
      Name_on_Incorporation_Certificate: '',
      Certificate_of_Incorporation: null,
      Equity_share: 0,
    });
    expect(writes.contactValues).toEqual({
      [organization('Name_on_Incorporation_Certificate')]: null,
      [organization('Certificate_of_Incorporation')]: null,
      [organization('Equity_share')]: 0,
    });
  });

  it('accepts a submission with no values: nothing for the contact, nothing custom for the activity', () => {
    expect(splitSubmission({})).toEqual({ contactValues: {}, activityValues: {} });
  });

  it('ignores names outside the configuration', () => {
    expect(splitSubmission({ first_name: 'Mallory', Stage: 'open', current_stage: 'open' })).toEqual({
      contactValues: {},
      activityValues: {},
    });
  });

  it('binds each configured field to exactly one side', () => {
    for (const field of CONTACT_FIELDS) expect(field.crmField).toBeUndefined();
    for (const field of ACTIVITY_FIELDS) expect(field.crmContactField).toBeUndefined();
    expect(SUBMITTABLE_FIELDS.map(crmNameOf)).not.toContain(ACTIVITY_STAGE_FIELD);
  });
});

describe('checkInActivityValues', () => {
  const at = '2026-11-21 14:05:09';

  it('builds one completed check-in from the person to the organization, values as an object', () => {
    const values = checkInActivityValues({
      personId: 102,
      orgId: 101,
      submissionId: '6f1c1f8e-3f8e-4b8e-9d1e-0a4c2b7d9e11',
      activityValues: { [activity('Steering_committee_size')]: 9 },
      at,
    });
    expect(values).toEqual({
      'activity_type_id:name': ACTIVITY_TYPE_NAME,
      'status_id:name': 'Completed',
      subject: CHECK_IN_SUBJECT,
      activity_date_time: '2026-11-21 14:05:09',
      source_contact_id: 102,
      target_contact_id: [101],
      [SUBMISSION_ID_FIELD]: '6f1c1f8e-3f8e-4b8e-9d1e-0a4c2b7d9e11',
      [activity('Steering_committee_size')]: 9,
    });
    expect(Array.isArray(values)).toBe(false);
  });

  it('lets no submitted value override who, when or which submission', () => {
    const values = checkInActivityValues({
      personId: 102,
      orgId: 101,
      submissionId: 'a',
      activityValues: { source_contact_id: 1, [SUBMISSION_ID_FIELD]: 'b' },
      at,
    });
    expect(values['source_contact_id']).toBe(102);
    expect(values[SUBMISSION_ID_FIELD]).toBe('a');
  });
});

describe('newCheckInValues', () => {
  it('records the activity-bound answers and the cleared list before the check-in’s own columns', () => {
    const values = newCheckInValues({
      personId: 102,
      orgId: 101,
      submissionId: 's-1',
      answers: { Steering_committee_size: 9, Organizing_notes: '', Equity_share: 250 },
      cleared: ['Organizing_notes'],
      at: '2026-11-21 14:05:09',
    });
    expect(Object.keys(values).slice(0, 3)).toEqual([
      activity('Steering_committee_size'),
      CLEARED_FIELDS_FIELD,
      'activity_type_id:name',
    ]);
    expect(values[CLEARED_FIELDS_FIELD]).toBe('Organizing_notes');
    expect(values).not.toHaveProperty(organization('Equity_share'));
  });
});

describe('organizationValues', () => {
  it('is null when the answers hold none of the organization’s own values', () => {
    expect(organizationValues({ Steering_committee_size: 9 })).toBeNull();
    expect(organizationValues({ Equity_share: null })).toEqual({ [organization('Equity_share')]: null });
  });
});

describe('the cleared list as stored', () => {
  it('is written comma-separated and read back, dropping names that are not activity-bound answers', () => {
    expect(clearedColumnValue(['Business_plan', 'Store_size_sqft'])).toEqual({
      [CLEARED_FIELDS_FIELD]: 'Business_plan,Store_size_sqft',
    });
    expect(clearedColumnValue([])).toEqual({});
    expect([...clearedNamesOf('Business_plan, x,Equity_share,Store_size_sqft')]).toEqual([
      'Business_plan',
      'Store_size_sqft',
    ]);
    expect(clearedNamesOf(null).size).toBe(0);
  });
});
