import type { CrmClient, CrmRow } from '../app/crm/crm-client';
import { RELATIONSHIP_TYPE_FIELDS } from '../app/crm/crm-names';
import { type DesiredSchema, mungeName } from './desired-schema';

/** The rows of the CRM the planner compares with the desired schema. */
export interface CrmSnapshot {
  /** `activity_type` option values whose name or label is the check-in type's. */
  activityTypes: CrmRow[];
  /** Custom groups named as configured, by the munged name, or titled as the installer titles them. */
  groups: CrmRow[];
  /** Every custom field of those groups. */
  fields: CrmRow[];
  /** Option groups used by those fields or named as the installer names new ones. */
  optionGroups: CrmRow[];
  optionValues: CrmRow[];
  relationshipTypes: CrmRow[];
  /** The option group `safe_file_extension` (absent on a site without it) and its values. */
  safeFileExtensionGroup?: CrmRow;
  safeFileExtensions: CrmRow[];
}

export const SAFE_FILE_EXTENSION_GROUP = 'safe_file_extension';

export const GROUP_SELECT = ['id', 'name', 'title', 'extends', 'extends_entity_column_value', 'is_active'];
const FIELD_SELECT = [
  'id',
  'custom_group_id',
  'name',
  'label',
  'data_type',
  'html_type',
  'serialize',
  'text_length',
  'option_group_id',
  'is_active',
];
const OPTION_VALUE_SELECT = ['id', 'option_group_id', 'value', 'label', 'name', 'weight', 'is_active'];

/** Reads everything the plan needs in four rounds of parallel reads; changes nothing. */
export async function readSnapshot(crm: CrmClient, desired: DesiredSchema): Promise<CrmSnapshot> {
  const groupNames = desired.groups.flatMap((group) => [
    group.configuredName,
    mungeName(group.configuredName),
  ]);
  const [activityTypes, groups, relationshipTypes, safeFileExtensionGroups] = await Promise.all([
    crm.api4('OptionValue', 'get', {
      select: ['id', 'name', 'label', 'value', 'is_active'],
      where: [
        ['option_group_id:name', '=', 'activity_type'],
        [
          'OR',
          [
            ['name', '=', desired.activityType.name],
            ['label', '=', desired.activityType.label],
          ],
        ],
      ],
      orderBy: { id: 'ASC' },
    }),
    crm.api4('CustomGroup', 'get', {
      select: GROUP_SELECT,
      where: [
        [
          'OR',
          [
            ['name', 'IN', [...new Set(groupNames)]],
            ['title', 'IN', desired.groups.map((group) => group.title)],
          ],
        ],
      ],
      orderBy: { id: 'ASC' },
    }),
    crm.api4('RelationshipType', 'get', {
      select: RELATIONSHIP_TYPE_FIELDS,
      where: [['name_a_b', '=', desired.relationshipType.name_a_b]],
      orderBy: { id: 'ASC' },
    }),
    crm.api4('OptionGroup', 'get', {
      select: ['id', 'name'],
      where: [['name', '=', SAFE_FILE_EXTENSION_GROUP]],
    }),
  ]);
  const safeFileExtensionGroup = safeFileExtensionGroups[0];
  const safeFileExtensions = safeFileExtensionGroup
    ? await crm.api4('OptionValue', 'get', {
        select: OPTION_VALUE_SELECT,
        where: [['option_group_id', '=', safeFileExtensionGroup['id']]],
        orderBy: { weight: 'ASC', id: 'ASC' },
      })
    : [];
  const groupIds = groups.map((group) => group['id']);
  const fields =
    groupIds.length === 0
      ? []
      : await crm.api4('CustomField', 'get', {
          select: FIELD_SELECT,
          where: [['custom_group_id', 'IN', groupIds]],
          orderBy: { id: 'ASC' },
        });
  const usedOptionGroups = fields.map((field) => field['option_group_id']).filter((id) => id != null);
  const newOptionGroupNames = desired.groups.flatMap((group) =>
    group.fields.flatMap((field) => (field.optionGroupName ? [field.optionGroupName] : [])),
  );
  const optionGroups = await crm.api4('OptionGroup', 'get', {
    select: ['id', 'name', 'title', 'is_active'],
    where: [
      [
        'OR',
        [
          ['id', 'IN', usedOptionGroups.length > 0 ? usedOptionGroups : [0]],
          ['name', 'IN', newOptionGroupNames],
        ],
      ],
    ],
    orderBy: { id: 'ASC' },
  });
  const optionValues =
    optionGroups.length === 0
      ? []
      : await crm.api4('OptionValue', 'get', {
          select: OPTION_VALUE_SELECT,
          where: [['option_group_id', 'IN', optionGroups.map((group) => group['id'])]],
          orderBy: { weight: 'ASC', id: 'ASC' },
        });
  return {
    activityTypes,
    groups,
    fields,
    optionGroups,
    optionValues,
    relationshipTypes,
    ...(safeFileExtensionGroup ? { safeFileExtensionGroup } : {}),
    safeFileExtensions,
  };
}
