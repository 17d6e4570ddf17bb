import type { CustomFieldMetadata } from '../crm/site-metadata.cache';
import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  CONTACT_CUSTOM_GROUP,
  SUBMISSION_ID_FIELD,
} from '../crm/crm-names';
import { ALL_FIELDS, crmNameOf, MATRIX_METRICS } from '../fields/field-config';
import { fieldTypeFor, planStaffLayout } from './staff-layout';

function meta(crmName: string, extra: Partial<CustomFieldMetadata> = {}): CustomFieldMetadata {
  const [group = '', name = ''] = crmName.split('.');
  return {
    id: 1,
    crmName,
    group,
    name,
    label: name.replace(/_/g, ' '),
    dataType: 'String',
    htmlType: 'Text',
    optionGroupId: null,
    multiple: false,
    ...extra,
  };
}

/** What the CRM reports when it has exactly the configured fields, plus the ones named. */
function schema(...extra: CustomFieldMetadata[]): Map<string, CustomFieldMetadata> {
  const configured = ALL_FIELDS.filter((field) => field.crmField || field.crmContactField).map((field) =>
    meta(crmNameOf(field)),
  );
  return new Map([...configured, ...extra].map((field) => [field.crmName, field]));
}

describe('planStaffLayout', () => {
  it('keeps the configured sections in rank order, with only the fields bound to the CRM', () => {
    const layout = planStaffLayout(schema());
    expect(layout.sections.map((section) => [section.key, section.rank])).toEqual([
      ['stage-0', 0],
      ['stage-1', 1],
      ['stage-2', 2],
      ['stage-3', 3],
      ['stage-4', 4],
      ['stage-5', 5],
    ]);
    const organization = layout.sections[0]!;
    expect(organization.title).toBe('Organization');
    expect(organization.fields.map((field) => field.name)).toEqual([
      'Date_Incorporated',
      'Name_on_Incorporation_Certificate',
      'Certificate_of_Incorporation',
      'Equity_share',
    ]);
  });

  it('takes the Y1_Q<n>_<metric> fields out of the stage-5 rows into a metrics-by-quarters matrix', () => {
    const layout = planStaffLayout(schema());
    expect(layout.sections[5]!.fields.map((field) => field.name)).toEqual(['Date_Opened']);
    expect(layout.matrix.map((row) => [row.metric, row.label, row.type])).toEqual(
      MATRIX_METRICS.map((metric) => [metric.key, metric.label, metric.type]),
    );
    expect(layout.matrix[0]!.cells.map((cell) => cell?.name)).toEqual([
      'Y1_Q1_Sales',
      'Y1_Q2_Sales',
      'Y1_Q3_Sales',
      'Y1_Q4_Sales',
    ]);
  });

  it('adds a matrix row for a metric only the CRM has, leaving missing quarters empty', () => {
    const waste = meta(`${ACTIVITY_CUSTOM_GROUP}.Y1_Q2_Waste`, { dataType: 'Float' });
    const layout = planStaffLayout(schema(waste));
    const row = layout.matrix.at(-1)!;
    expect(row).toMatchObject({ metric: 'Waste', label: 'Waste', type: 'number' });
    expect(row.cells.map((cell) => cell?.name ?? null)).toEqual([null, waste.crmName, null, null]);
    expect(layout.sections.some((section) => section.key === 'other')).toBe(false);
  });

  it('shows fields only the CRM knows: organization ones in section 0, check-in ones under "Other fields"', () => {
    const contactStage = meta(`${CONTACT_CUSTOM_GROUP}.Store_model`, {
      optionGroupId: 7,
      label: 'Store model',
    });
    const hours = meta(`${ACTIVITY_CUSTOM_GROUP}.Volunteer_hours`, {
      dataType: 'Int',
      label: 'Volunteer hours',
    });
    const layout = planStaffLayout(schema(contactStage, hours));

    expect(layout.sections[0]!.fields.at(-1)).toEqual({
      name: contactStage.crmName,
      type: 'select',
      label: 'Store model',
      readOnly: true,
      crmContactField: contactStage.crmName,
    });
    expect(layout.sections.at(-1)).toEqual({
      key: 'other',
      rank: null,
      title: 'Other fields',
      fields: [
        {
          name: hours.crmName,
          type: 'number',
          label: 'Volunteer hours',
          readOnly: true,
          crmField: hours.crmName,
        },
      ],
    });
    expect(layout.contactFields).toContainEqual(expect.objectContaining({ name: contactStage.crmName }));
    expect(layout.activityFields).toContainEqual(expect.objectContaining({ name: hours.crmName }));
  });

  it('never lists either Stage or the submission id as fields', () => {
    const organizationStage = meta(`${CONTACT_CUSTOM_GROUP}.Stage`, { optionGroupId: 7, label: 'Stage' });
    const layout = planStaffLayout(
      schema(meta(ACTIVITY_STAGE_FIELD), meta(SUBMISSION_ID_FIELD), organizationStage),
    );
    const names = layout.sections.flatMap((section) => section.fields.map((field) => field.name));
    expect(names).not.toContain(organizationStage.crmName);
    expect(layout.contactFields.map((field) => field.name)).not.toContain(organizationStage.crmName);
    expect(names).not.toContain(ACTIVITY_STAGE_FIELD);
    expect(names).not.toContain(SUBMISSION_ID_FIELD);
    expect(layout.activityFields.map((field) => field.name)).not.toContain(ACTIVITY_STAGE_FIELD);
  });

  it('reads every activity-side field once, matrix cells included', () => {
    const layout = planStaffLayout(schema());
    const names = layout.activityFields.map((field) => field.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['Y1_Q4_Margin', 'Date_Opened', 'Feasibility_study']));
    expect(layout.contactFields.map((field) => field.name)).toEqual([
      'Date_Incorporated',
      'Name_on_Incorporation_Certificate',
      'Certificate_of_Incorporation',
      'Equity_share',
    ]);
  });
});

describe('fieldTypeFor', () => {
  it.each([
    [{ dataType: 'File' }, 'file'],
    [{ dataType: 'Boolean' }, 'boolean'],
    [{ dataType: 'Date' }, 'date'],
    [{ dataType: 'Timestamp' }, 'date'],
    [{ dataType: 'Money' }, 'currency'],
    [{ dataType: 'Int' }, 'number'],
    [{ dataType: 'Float' }, 'number'],
    [{ dataType: 'String', optionGroupId: 3 }, 'select'],
    [{ dataType: 'Int', optionGroupId: 3 }, 'select'],
    [{ dataType: 'String', optionGroupId: 3, multiple: true }, 'multiselect'],
    [{ dataType: 'Memo' }, 'text'],
    [{ dataType: 'String' }, 'text'],
  ])('renders %j as %s', (partial, expected) => {
    expect(fieldTypeFor({ optionGroupId: null, multiple: false, ...partial })).toBe(expected);
  });
});
