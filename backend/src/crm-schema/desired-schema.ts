import type { FieldConfig } from '@checkin/contract';
import type { CustomGroupNames } from '../app/config/app-config';
import { ACTIVITY_TYPE_NAME, FORM_CONTACT_RELATIONSHIP } from '../app/crm/crm-names';
import { ALL_FIELDS } from '../app/fields/field-config';
import {
  DEFAULT_GROUP_NAMES,
  type DesiredField,
  type DesiredGroup,
  type GroupKey,
  requiredCustomGroups,
} from '../app/fields/custom-groups';
import { UPLOAD_LIMITS } from '../app/check-ins/upload-policy';

export { DEFAULT_GROUP_NAMES, type DesiredField, type DesiredGroup, type GroupKey };

/**
 * What the service needs the CRM to hold, derived from the field configuration (the single
 * source of truth) and the two configurable group names. Pure data: the planner compares it
 * with what the CRM has: the activity type, the file extensions CiviCRM must accept, the two
 * custom groups (app/fields/custom-groups.ts, shared with the health diagnostics) and the
 * relationship type.
 */
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

export function desiredSchema(
  names: CustomGroupNames,
  fields: readonly FieldConfig[] = ALL_FIELDS,
): DesiredSchema {
  return {
    activityType: {
      name: ACTIVITY_TYPE_NAME,
      label: ACTIVITY_TYPE_NAME,
      description: 'An owner check-in from the organizing check-in form, or a stage set by staff.',
    },
    safeFileExtensions: UPLOAD_LIMITS.extensions.map((extension) =>
      extension.replace(/^\./, '').toLowerCase(),
    ),
    groups: requiredCustomGroups(names, fields),
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
