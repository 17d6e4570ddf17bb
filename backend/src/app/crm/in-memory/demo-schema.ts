import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_TYPE_NAME,
  CONTACT_CUSTOM_GROUP,
  FORM_CONTACT_RELATIONSHIP,
  SUBMISSION_ID_FIELD,
} from '../crm-names';
import {
  ALL_FIELDS,
  CONTACT_STAGE_OPTIONS,
  customFieldSpec,
  FIELD_OPTIONS,
  STAGE_OPTIONS,
} from '../../fields/field-config';
import type { CiviCrmModel } from '@checkin/civicrm-fake';

/**
 * The deployment's CRM configuration in the demo model (demo-data.ts): the check-in activity
 * type, the 'Primary Contact' relationship type (and a near match), the custom groups and fields
 * derived from field-config.ts and the stage option groups.
 */

export const CHECK_IN_ACTIVITY_TYPE_VALUE = '57';
export const STAGE_OPTION_GROUP = 'check_in_data_organizing_stage';
export const NEAR_MATCH_RELATIONSHIP = 'Primary Contact for';

export interface DemoOption {
  value: string;
  label: string;
  name?: string;
}

/** Options of every select and multiselect field, by form-side name, from the field configuration. */
export const DEMO_OPTIONS: Readonly<Record<string, readonly DemoOption[]>> = FIELD_OPTIONS;

/** Options for a select field added to the configuration before the demo knows it. */
const FALLBACK_OPTIONS: readonly DemoOption[] = [
  { value: 'option_1', label: 'Option 1' },
  { value: 'option_2', label: 'Option 2' },
  { value: 'option_3', label: 'Option 3' },
];

// ---------------------------------------------------------------------------------------------
// Schema

export type Row = Record<string, unknown>;

export function create(model: CiviCrmModel, entity: string, values: Row): number {
  const row = model.api4(entity, 'create', { values })[0];
  const id = row?.['id'];
  if (typeof id !== 'number') throw new Error(`Seeding ${entity} returned no id`);
  return id;
}

function createOptionGroup(
  model: CiviCrmModel,
  name: string,
  title: string,
  options: ReadonlyArray<DemoOption & { weight?: number }>,
): number {
  const groupId = create(model, 'OptionGroup', { name, title });
  options.forEach((option, index) => {
    create(model, 'OptionValue', {
      option_group_id: groupId,
      value: option.value,
      label: option.label,
      name: option.name ?? option.value,
      weight: option.weight ?? index + 1,
    });
  });
  return groupId;
}

export { customFieldSpec };

/**
 * The deployment's configuration on top of a fresh CRM: the check-in activity type, the
 * 'Primary Contact' relationship type (and a near match), and one custom field for every
 * configured field, plus Stage, Submission_ID and the staff-only organization Stage.
 */
export function seedSchema(model: CiviCrmModel): void {
  create(model, 'OptionValue', {
    'option_group_id:name': 'activity_type',
    value: CHECK_IN_ACTIVITY_TYPE_VALUE,
    name: ACTIVITY_TYPE_NAME,
    label: ACTIVITY_TYPE_NAME,
  });
  create(model, 'RelationshipType', {
    name_a_b: FORM_CONTACT_RELATIONSHIP,
    label_a_b: FORM_CONTACT_RELATIONSHIP,
    name_b_a: 'Has Primary Contact',
    label_b_a: 'Has Primary Contact',
    contact_type_a: 'Individual',
    contact_type_b: 'Organization',
    description: 'The person who fills in the organizing check-in for the co-op.',
  });
  create(model, 'RelationshipType', {
    name_a_b: NEAR_MATCH_RELATIONSHIP,
    label_a_b: NEAR_MATCH_RELATIONSHIP,
    name_b_a: 'Primary Contact is',
    label_b_a: 'Primary Contact is',
    contact_type_a: 'Individual',
    contact_type_b: 'Organization',
    description: 'Older type from a previous import; not the one the check-in uses.',
  });

  const groups = new Map<string, number>([
    [
      ACTIVITY_CUSTOM_GROUP,
      create(model, 'CustomGroup', {
        name: ACTIVITY_CUSTOM_GROUP,
        title: 'Check-in data (organizing)',
        extends: 'Activity',
      }),
    ],
    [
      CONTACT_CUSTOM_GROUP,
      create(model, 'CustomGroup', {
        name: CONTACT_CUSTOM_GROUP,
        title: 'Food Co-op Organizing',
        extends: 'Organization',
      }),
    ],
  ]);

  // Inserted out of rank order: rank comes from weight, never from ids or insertion.
  const byRank = [5, 0, 4, 1, 3, 2].map((rank) => STAGE_OPTIONS[rank]).filter((stage) => stage !== undefined);
  const stageGroup = createOptionGroup(
    model,
    STAGE_OPTION_GROUP,
    'Check-in stage',
    byRank.map((stage) => ({ value: stage.value, label: stage.label, weight: (stage.rank + 1) * 10 })),
  );
  const stageField = ACTIVITY_STAGE_FIELD.split('.')[1] ?? 'Stage';
  createCustomField(model, groups, ACTIVITY_CUSTOM_GROUP, stageField, 'Stage', {
    data_type: 'String',
    html_type: 'Select',
    option_group_id: stageGroup,
  });
  createCustomField(
    model,
    groups,
    ACTIVITY_CUSTOM_GROUP,
    SUBMISSION_ID_FIELD.split('.')[1] ?? 'Submission_ID',
    'Submission ID',
    {
      data_type: 'String',
      html_type: 'Text',
    },
  );
  // Which activity-bound answers a check-in cleared (check-ins/cleared-answers.ts).
  createCustomField(model, groups, ACTIVITY_CUSTOM_GROUP, 'Cleared_fields', 'Cleared answers', {
    data_type: 'Memo',
    html_type: 'TextArea',
  });

  for (const field of ALL_FIELDS) {
    const crmName = field.crmField ?? field.crmContactField;
    if (!crmName) continue;
    const [group = '', name = ''] = crmName.split('.');
    if (!groups.has(group)) {
      const extendsWhat = field.crmField ? 'Activity' : 'Organization';
      groups.set(group, create(model, 'CustomGroup', { name: group, title: group, extends: extendsWhat }));
    }
    const spec = customFieldSpec(field);
    const options =
      field.type === 'select' || field.type === 'multiselect'
        ? {
            option_group_id: createOptionGroup(
              model,
              `${name.toLowerCase()}_options`,
              field.label,
              DEMO_OPTIONS[field.name] ?? FALLBACK_OPTIONS,
            ),
          }
        : {};
    createCustomField(model, groups, group, name, field.label, { ...spec, ...options });
  }

  createCustomField(model, groups, CONTACT_CUSTOM_GROUP, 'Stage', 'Stage (staff list views)', {
    data_type: 'String',
    html_type: 'Select',
    option_group_id: createOptionGroup(model, 'food_co_op_stage', 'Food co-op stage', CONTACT_STAGE_OPTIONS),
  });
}

function createCustomField(
  model: CiviCrmModel,
  groups: Map<string, number>,
  group: string,
  name: string,
  label: string,
  spec: Row,
): void {
  create(model, 'CustomField', { custom_group_id: groups.get(group), name, label, ...spec });
}
