import { ALL_FIELDS } from '../app/fields/field-config';
import { DEFAULT_GROUP_NAMES, desiredSchema } from './desired-schema';
import { planSchema } from './plan';
import { settingsOf } from './report';
import { desired, emptySnapshot } from './testing/crm-snapshots';

describe('desired schema', () => {
  it('has every activity-bound and contact-bound configured field, plus Stage and Submission_ID', () => {
    const [activity, contact] = desired.groups;
    const activityNames = activity.fields.map((field) => field.name);
    const contactNames = contact.fields.map((field) => field.name);
    for (const field of ALL_FIELDS) {
      if (field.crmField) expect(activityNames).toContain(field.crmField.split('.')[1]);
      if (field.crmContactField) expect(contactNames).toContain(field.crmContactField.split('.')[1]);
    }
    expect(activityNames).toEqual(expect.arrayContaining(['Stage', 'Submission_ID']));
    expect(contactNames).toEqual(
      expect.arrayContaining([
        'Date_Incorporated',
        'Name_on_Incorporation_Certificate',
        'Certificate_of_Incorporation',
        'Equity_share',
        'Stage',
      ]),
    );
  });

  it('types fields from the field configuration, long text as Memo and String lengths from maxLength', () => {
    const byName = new Map(
      desired.groups.flatMap((group) => group.fields).map((field) => [field.name, field]),
    );
    expect(byName.get('Organizing_notes')).toMatchObject({ data_type: 'Memo', html_type: 'TextArea' });
    expect(byName.get('Organizing_notes')?.text_length).toBeUndefined();
    expect(byName.get('Name_on_Incorporation_Certificate')).toMatchObject({
      data_type: 'String',
      text_length: 255,
    });
    expect(byName.get('Lender_types')).toMatchObject({
      data_type: 'String',
      html_type: 'Select',
      serialize: 1,
    });
    expect(byName.get('Equity_share')).toMatchObject({ data_type: 'Money', html_type: 'Text' });
    expect(byName.get('Percent_capitalized')).toMatchObject({ data_type: 'Float' });
    expect(byName.get('Business_plan')).toMatchObject({ data_type: 'File', html_type: 'File' });
    expect(byName.get('Submission_ID')).toMatchObject({
      data_type: 'String',
      text_length: 255,
      is_searchable: true,
    });
    expect(
      desired.groups[0].fields
        .find((field) => field.name === 'Stage')
        ?.options?.map((option) => option.label),
    ).toEqual(['Inquiry', 'Organizing', 'Feasibility', 'Business planning', 'Capitalization', 'Open']);
  });

  it('refuses a select field without an option list in the configuration', () => {
    expect(() =>
      desiredSchema(DEFAULT_GROUP_NAMES, [
        { name: 'Mystery', type: 'select', label: 'Mystery', crmField: 'G.Mystery' },
      ]),
    ).toThrow(/FIELD_OPTIONS/);
  });

  it('creates the groups under the names the service is configured with', () => {
    const schema = desiredSchema({ activity: 'Check_in_data_organizing_', contact: 'Coop' });
    expect(schema.groups.map((group) => group.configuredName)).toEqual(['Check_in_data_organizing_', 'Coop']);
    const plan = planSchema(schema, emptySnapshot());
    expect(settingsOf(plan.groups)).toEqual([
      'CRM_ACTIVITY_CUSTOM_GROUP=Check_in_data_organizing_',
      'CRM_CONTACT_CUSTOM_GROUP=Coop',
    ]);
  });
});
