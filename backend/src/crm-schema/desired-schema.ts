import { DEFAULT_TEXT_MAX_LENGTH, type FieldConfig, maxTextLength, type OptionItem } from '@checkin/contract';
import type { CustomGroupNames } from '../app/config/app-config';
import { UPLOAD_LIMITS } from '../app/upload/upload-policy';
import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_TYPE_NAME,
  CONTACT_CUSTOM_GROUP,
  CONTACT_STAGE_FIELD,
  FORM_CONTACT_RELATIONSHIP,
  SUBMISSION_ID_FIELD,
  CLEARED_FIELDS_FIELD,
} from '../app/crm/crm-names';
import {
  ALL_FIELDS,
  CONTACT_STAGE_OPTIONS,
  customFieldSpec,
  type CrmFieldType,
  FIELD_OPTIONS,
  STAGE_OPTIONS,
} from '../app/fields/field-config';

/**
 * What the service needs the CRM to hold, derived from the field configuration (the single
 * source of truth) and the two configurable group names. Pure data: the planner compares it
 * with what the CRM has.
 */
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

export interface DesiredSchema {
  activityType: { name: string; label: string; description: string };
  /**
   * Every extension an owner may upload (upload-policy.ts), in lower case: CiviCRM stores a file
   * whose extension is not in its option group `safe_file_extension` as `<name>_<ext>.unknown`.
   */
  safeFileExtensions: readonly string[];
  groups: [DesiredGroup, DesiredGroup];
  relationshipType: {
    name_a_b: string;
    label_a_b: string;
    name_b_a: string;
    label_b_a: string;
    contact_type_a: 'Individual';
    contact_type_b: 'Organization';
    description: string;
  };
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

export function desiredSchema(
  names: CustomGroupNames,
  fields: readonly FieldConfig[] = ALL_FIELDS,
): DesiredSchema {
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
  return {
    activityType: {
      name: ACTIVITY_TYPE_NAME,
      label: ACTIVITY_TYPE_NAME,
      description: 'An owner check-in from the organizing check-in form, or a stage set by staff.',
    },
    safeFileExtensions: UPLOAD_LIMITS.extensions.map((extension) =>
      extension.replace(/^\./, '').toLowerCase(),
    ),
    groups: [
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
    ],
    relationshipType: {
      name_a_b: FORM_CONTACT_RELATIONSHIP,
      label_a_b: FORM_CONTACT_RELATIONSHIP,
      name_b_a: `Has ${FORM_CONTACT_RELATIONSHIP}`,
      label_b_a: `Has ${FORM_CONTACT_RELATIONSHIP}`,
      contact_type_a: 'Individual',
      contact_type_b: 'Organization',
      description: 'The person who fills in the organizing check-in for the co-op.',
    },
  };
}

/** CiviCRM's CRM_Utils_String::munge: every run of other characters becomes one `_`, 63 at most. */
export function mungeName(name: string): string {
  return name
    .trim()
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .slice(0, 63);
}
