import { DEFAULT_TEXT_MAX_LENGTH, type FieldConfig, maxTextLength, type OptionItem } from '@checkin/contract';
import type { CustomGroupNames } from '../config/app-config';
import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  CLEARED_FIELDS_FIELD,
  CONTACT_CUSTOM_GROUP,
  CONTACT_STAGE_FIELD,
  SUBMISSION_ID_FIELD,
} from '../crm/crm-names';
import {
  ALL_FIELDS,
  CONTACT_STAGE_OPTIONS,
  customFieldSpec,
  type CrmFieldType,
  FIELD_OPTIONS,
  STAGE_OPTIONS,
} from './field-config';

/**
 * The two custom groups the service needs in CiviCRM and every field in them, derived from the
 * field configuration and the two configurable group names. One description for the schema
 * installer (backend/src/crm-schema creates what is missing) and the health diagnostics (which
 * say what is missing), so the two never disagree about what a site must hold.
 */

/** Which of the two groups: the check-in activity's or the organization's. */
export type GroupKey = 'activity' | 'contact';

export interface DesiredField extends CrmFieldType {
  name: string;
  label: string;
  /** Only for String fields: the varchar length. */
  text_length?: number;
  is_searchable?: boolean;
  /** Select and multiselect fields: the options in weight order, and the option group to create. */
  options?: readonly OptionItem[];
  optionGroupName?: string;
  optionGroupTitle?: string;
}

export interface DesiredGroup {
  key: GroupKey;
  /** The name the service is configured with (the setting's value). */
  configuredName: string;
  title: string;
  extends: 'Activity' | 'Organization';
  /** The environment variable that tells the service the group's name. */
  setting: string;
  fields: DesiredField[];
}

const ACTIVITY_GROUP_SETTING = 'CRM_ACTIVITY_CUSTOM_GROUP';
const CONTACT_GROUP_SETTING = 'CRM_CONTACT_CUSTOM_GROUP';

/** The names of docs/product-rules.md, "CRM names": what the service uses when the two settings are not set. */
export const DEFAULT_GROUP_NAMES: CustomGroupNames = {
  activity: ACTIVITY_CUSTOM_GROUP,
  contact: CONTACT_CUSTOM_GROUP,
};

/** The field's name inside its group: `Group.Field` → `Field`. */
function fieldNameOf(crmName: string): string {
  return crmName.slice(crmName.indexOf('.') + 1);
}

function optionGroupName(prefix: string, field: string): string {
  return `${prefix}_${field}`.toLowerCase();
}

function configuredField(field: FieldConfig, prefix: string): DesiredField {
  const name = fieldNameOf(field.crmField ?? field.crmContactField ?? field.name);
  const type = customFieldSpec(field);
  const desired: DesiredField = { name, label: field.label, ...type };
  if (type.data_type === 'String' && type.html_type === 'Text') {
    desired.text_length = maxTextLength(field);
  }
  if (type.html_type === 'Select') {
    const options = FIELD_OPTIONS[field.name];
    if (!options || options.length === 0) {
      throw new Error(`The field configuration has no option list for ${field.name} (FIELD_OPTIONS).`);
    }
    desired.options = options;
    desired.optionGroupName = optionGroupName(prefix, name);
    desired.optionGroupTitle = field.label;
  }
  return desired;
}

function stageField(
  name: string,
  label: string,
  options: readonly OptionItem[],
  prefix: string,
): DesiredField {
  return {
    name,
    label,
    data_type: 'String',
    html_type: 'Select',
    serialize: 0,
    options,
    optionGroupName: optionGroupName(prefix, name),
    optionGroupTitle: label,
  };
}

/** The activity group (check-in answers) and the organization group (the co-op's facts and stage). */
export function requiredCustomGroups(
  names: CustomGroupNames,
  fields: readonly FieldConfig[] = ALL_FIELDS,
): [DesiredGroup, DesiredGroup] {
  const activityFields: DesiredField[] = [
    stageField(
      fieldNameOf(ACTIVITY_STAGE_FIELD),
      'Stage',
      STAGE_OPTIONS.map(({ value, label }) => ({ value, label })),
      'checkin',
    ),
    {
      name: fieldNameOf(SUBMISSION_ID_FIELD),
      label: 'Submission ID',
      data_type: 'String',
      html_type: 'Text',
      serialize: 0,
      text_length: DEFAULT_TEXT_MAX_LENGTH,
      is_searchable: true,
    },
    {
      name: fieldNameOf(CLEARED_FIELDS_FIELD),
      label: 'Cleared answers',
      data_type: 'Memo',
      html_type: 'TextArea',
      serialize: 0,
    },
    ...fields.filter((field) => field.crmField).map((field) => configuredField(field, 'checkin')),
  ];
  const contactFields: DesiredField[] = [
    ...fields.filter((field) => field.crmContactField).map((field) => configuredField(field, 'food_co_op')),
    stageField(
      fieldNameOf(CONTACT_STAGE_FIELD),
      'Stage (staff list views)',
      CONTACT_STAGE_OPTIONS,
      'food_co_op',
    ),
  ];
  return [
    {
      key: 'activity',
      configuredName: names.activity,
      title: 'Check-in data (organizing)',
      extends: 'Activity',
      setting: ACTIVITY_GROUP_SETTING,
      fields: activityFields,
    },
    {
      key: 'contact',
      configuredName: names.contact,
      title: 'Food Co-op Organizing',
      extends: 'Organization',
      setting: CONTACT_GROUP_SETTING,
      fields: contactFields,
    },
  ];
}
