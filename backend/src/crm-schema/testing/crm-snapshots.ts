import type { CrmRow } from '../../app/crm/crm-client';
import { type DesiredSchema, desiredSchema, DEFAULT_GROUP_NAMES } from '../desired-schema';
import type { CrmSnapshot } from '../snapshot';

/** What the schema installer's specs read: CRMs as the installer finds them, and their rows. */

export const desired = desiredSchema(DEFAULT_GROUP_NAMES);
export const ACTIVITY_TYPE_VALUE = '56';

/** A fresh CiviCRM's option group safe_file_extension (label = name, value = weight = 1…17). */
const STOCK_SAFE_FILE_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'txt',
  'pdf',
  'doc',
  'xls',
  'rtf',
  'csv',
  'ppt',
  'docx',
  'xlsx',
  'odt',
  'ics',
  'pptx',
  'ico',
];

/** A row of option group safe_file_extension as a fresh CiviCRM holds it (label = name, value = weight). */
export function safeExtensionRow(extension: string, position: number): CrmRow {
  return {
    id: 2000 + position,
    option_group_id: 90,
    name: extension,
    label: extension,
    value: String(position),
    weight: position,
    is_active: true,
  };
}

/** What a CRM holds after a clean install under the given group names (ids from 1). */
export function installedSnapshot(
  schema: DesiredSchema = desired,
  groupNames = ['Check_in_data_organizing_', 'Food_Co_op_Organizing'],
): CrmSnapshot {
  let nextId = 1;
  const snapshot: CrmSnapshot = {
    activityTypes: [
      {
        id: 500,
        name: schema.activityType.name,
        label: schema.activityType.label,
        value: ACTIVITY_TYPE_VALUE,
        is_active: true,
      },
    ],
    groups: [],
    fields: [],
    optionGroups: [],
    optionValues: [],
    relationshipTypes: [{ id: 11, ...schema.relationshipType, is_active: true }],
    safeFileExtensionGroup: { id: 90, name: 'safe_file_extension' },
    safeFileExtensions: [...STOCK_SAFE_FILE_EXTENSIONS, 'webp'].map((extension, index) =>
      safeExtensionRow(extension, index + 1),
    ),
  };
  schema.groups.forEach((group, index) => {
    const groupId = index + 1;
    snapshot.groups.push({
      id: groupId,
      name: groupNames[index],
      title: group.title,
      extends: group.extends,
      extends_entity_column_value: group.key === 'activity' ? [ACTIVITY_TYPE_VALUE] : null,
      is_active: true,
    });
    for (const field of group.fields) {
      let optionGroupId: number | null = null;
      if (field.options) {
        optionGroupId = 100 + nextId++;
        snapshot.optionGroups.push({ id: optionGroupId, name: field.optionGroupName, is_active: true });
        field.options.forEach((option, position) =>
          snapshot.optionValues.push({
            id: 1000 + nextId++,
            option_group_id: optionGroupId,
            value: option.value,
            label: option.label,
            name: option.name ?? option.value,
            weight: position + 1,
            is_active: true,
          }),
        );
      }
      snapshot.fields.push({
        id: nextId++,
        custom_group_id: groupId,
        name: field.name,
        label: field.label,
        data_type: field.data_type,
        html_type: field.html_type,
        serialize: field.serialize,
        text_length: field.text_length ?? null,
        option_group_id: optionGroupId,
        is_active: true,
      });
    }
  });
  return snapshot;
}

export const emptySnapshot = (): CrmSnapshot => ({
  activityTypes: [],
  groups: [],
  fields: [],
  optionGroups: [],
  optionValues: [],
  relationshipTypes: [],
  safeFileExtensionGroup: { id: 90, name: 'safe_file_extension' },
  safeFileExtensions: STOCK_SAFE_FILE_EXTENSIONS.map((extension, index) =>
    safeExtensionRow(extension, index + 1),
  ),
});

export function fieldRow(snapshot: CrmSnapshot, name: string, groupId = 1): CrmRow {
  const row = snapshot.fields.find((field) => field['name'] === name && field['custom_group_id'] === groupId);
  if (!row) throw new Error(`no field ${name}`);
  return row;
}

export function stageOptionRows(snapshot: CrmSnapshot): CrmRow[] {
  const groupId = fieldRow(snapshot, 'Stage')['option_group_id'];
  return snapshot.optionValues.filter((row) => row['option_group_id'] === groupId);
}

/** Every Ref in a change's params, by name. */
export function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  if ('$ref' in value) return [String((value as { $ref: unknown }).$ref)];
  return Object.values(value).flatMap(refsIn);
}
