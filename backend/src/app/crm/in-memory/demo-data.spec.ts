import {
  CONTACT_STAGE_FIELD,
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_TYPE_NAME,
  FORM_CONTACT_RELATIONSHIP,
  SUBMISSION_ID_FIELD,
} from '../crm-names';
import { ALL_FIELDS } from '../../fields/field-config';
import {
  DEMO_CHECK_IN_COUNT,
  DEMO_CURRENT_STAGE,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
  DEMO_STAGES,
  INACTIVE_PERSON_ID,
  MULTI_ORG_IDS,
  MULTI_ORG_PERSON_ID,
  OTHER_ORG_ID,
  OTHER_PERSON_ID,
  REVERSED_ORG_ID,
  REVERSED_PERSON_ID,
  createDemoModel,
  customFieldSpec,
} from './demo-data';

describe('demo data', () => {
  const model = createDemoModel();
  const checkIns = (select: string[], where: unknown[] = []) =>
    model.api4('Activity', 'get', {
      select,
      where: [
        ['target_contact_id', 'CONTAINS', DEMO_ORG_ID],
        ['activity_type_id:name', '=', ACTIVITY_TYPE_NAME],
        ...where,
      ],
      orderBy: { activity_date_time: 'DESC', id: 'DESC' },
    });

  it('has a custom field, typed from the field configuration, for every CRM-bound field', () => {
    const fields = model.api4('CustomField', 'get', {
      select: ['name', 'data_type', 'html_type', 'serialize', 'custom_group_id:name'],
    });
    const byKey = new Map(
      fields.map((field) => [`${String(field['custom_group_id:name'])}.${String(field['name'])}`, field]),
    );
    for (const field of ALL_FIELDS) {
      const crmName = field.crmField ?? field.crmContactField;
      if (!crmName) continue;
      expect(byKey.get(crmName)).toMatchObject(customFieldSpec(field));
    }
    expect(byKey.has(ACTIVITY_STAGE_FIELD)).toBe(true);
    expect(byKey.has(SUBMISSION_ID_FIELD)).toBe(true);
    expect(byKey.has(CONTACT_STAGE_FIELD)).toBe(true);
  });

  it('offers options for every select and multiselect field', () => {
    for (const field of ALL_FIELDS.filter(
      (candidate) => candidate.type === 'select' || candidate.type === 'multiselect',
    )) {
      const [custom] = model.api4('CustomField', 'get', {
        select: ['option_group_id'],
        where: [['name', '=', (field.crmField ?? field.crmContactField ?? '').split('.')[1]]],
      });
      const options = model.api4('OptionValue', 'get', {
        where: [['option_group_id', '=', custom?.['option_group_id']]],
      });
      expect(options.length).toBeGreaterThan(1);
    }
  });

  it('ranks the stage options by weight with word values, not numbers', () => {
    const options = model.api4('OptionValue', 'get', {
      select: ['value', 'label'],
      where: [['option_group_id:name', '=', 'check_in_data_organizing_stage']],
      orderBy: { weight: 'ASC' },
    });
    expect(options.map(({ value, label }) => ({ value, label }))).toEqual(
      DEMO_STAGES.map(({ value, label }) => ({ value, label })),
    );
  });

  it('tells the stage story: the newest stage-bearing check-in says Business planning', () => {
    const [latest] = checkIns([ACTIVITY_STAGE_FIELD], [[ACTIVITY_STAGE_FIELD, 'IS NOT EMPTY']]);
    expect(latest?.[ACTIVITY_STAGE_FIELD]).toBe(DEMO_CURRENT_STAGE.value);
    const [newest] = checkIns([ACTIVITY_STAGE_FIELD]);
    expect(newest?.[ACTIVITY_STAGE_FIELD]).toBeNull();
  });

  it('covers every configured activity field with at least one value over 2022 to 2026', () => {
    const rows = checkIns(['activity_date_time', 'custom.*']);
    expect(rows).toHaveLength(DEMO_CHECK_IN_COUNT);
    expect(rows.at(-1)?.['activity_date_time']).toMatch(/^2022-/);
    expect(rows[0]?.['activity_date_time']).toMatch(/^2026-11-/);
    const empty = ALL_FIELDS.filter((field) => field.crmField).filter(
      (field) => !rows.some((row) => row[field.crmField ?? ''] !== null),
    );
    expect(empty.map((field) => field.name)).toEqual([]);
  });

  it('has two check-ins at the same moment', () => {
    const dates = checkIns(['activity_date_time']).map((row) => row['activity_date_time']);
    expect(new Set(dates).size).toBeLessThan(dates.length);
  });

  it('stores organization-side values, a certificate file among them', () => {
    const [org] = model.api4('Contact', 'get', {
      select: ['Food_Co_op_Organizing.*', 'Food_Co_op_Organizing.Certificate_of_Incorporation.file_name'],
      where: [['id', '=', DEMO_ORG_ID]],
    });
    expect(org).toMatchObject({
      'Food_Co_op_Organizing.Date_Incorporated': '2022-06-01',
      'Food_Co_op_Organizing.Equity_share': 200,
      'Food_Co_op_Organizing.Certificate_of_Incorporation.file_name': expect.stringMatching(/\.pdf$/),
    });
  });

  it('ties people to organizations for every access rule', () => {
    const primary = (contactId: number) =>
      model.api4('Relationship', 'get', {
        select: ['contact_id_a', 'contact_id_b', 'is_active'],
        where: [
          ['relationship_type_id.name_a_b', '=', FORM_CONTACT_RELATIONSHIP],
          [
            'OR',
            [
              ['contact_id_a', '=', contactId],
              ['contact_id_b', '=', contactId],
            ],
          ],
        ],
      });
    expect(primary(DEMO_PERSON_ID)).toEqual([
      expect.objectContaining({ contact_id_b: DEMO_ORG_ID, is_active: true }),
    ]);
    expect(primary(OTHER_PERSON_ID)).toEqual([expect.objectContaining({ contact_id_b: OTHER_ORG_ID })]);
    expect(primary(MULTI_ORG_PERSON_ID).map((row) => row['contact_id_b'])).toEqual([...MULTI_ORG_IDS]);
    expect(primary(INACTIVE_PERSON_ID)).toEqual([expect.objectContaining({ is_active: false })]);
    expect(primary(REVERSED_PERSON_ID)).toEqual([
      expect.objectContaining({ contact_id_a: REVERSED_ORG_ID, contact_id_b: REVERSED_PERSON_ID }),
    ]);
  });
});
