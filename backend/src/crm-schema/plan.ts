import type { OptionItem } from '@checkin/contract';
import type { Api4Params, CrmRow } from '../app/crm/crm-client';
import {
  type DesiredField,
  type DesiredGroup,
  type DesiredSchema,
  type GroupKey,
  mungeName,
} from './desired-schema';
import type { CrmSnapshot } from './snapshot';

/**
 * A value the CRM assigns when an earlier change of the same run creates a record (an id, the
 * activity type's value): resolved by the executor from that change's answer.
 */
export interface Ref {
  $ref: string;
  field: string;
}

export interface Change {
  action: 'create' | 'update' | 'save';
  entity: string;
  /** One line for people: what and why. */
  summary: string;
  /** The differences behind an update, `property: now → wanted`. */
  details: string[];
  params: Api4Params;
  /** The answer's first row is remembered under this name for later changes' Refs. */
  ref?: string;
}

export interface GroupResolution {
  key: GroupKey;
  setting: string;
  configuredName: string;
  /** The group's name in the CRM, or null when it will be created. */
  foundName: string | null;
  matchedBy: 'configured name' | 'munged name' | 'title' | null;
}

export interface Plan {
  changes: Change[];
  /** Differences the installer will not fix on its own: each says what to do by hand. */
  problems: string[];
  /** Facts worth knowing that need no change. */
  notes: string[];
  groups: GroupResolution[];
}

const ref = (name: string, field = 'id'): Ref => ({ $ref: name, field });

type Id = number | Ref;

/**
 * Compares what the CRM holds with what the service needs and lists the writes that close the
 * gap, in an order where every record exists before something refers to it. Pure: the same
 * snapshot always gives the same plan, and a snapshot taken after applying a plan gives none.
 */
export function planSchema(desired: DesiredSchema, snapshot: CrmSnapshot): Plan {
  const plan: Plan = { changes: [], problems: [], notes: [], groups: [] };
  const activityTypeValue = planActivityType(desired, snapshot, plan);
  for (const group of desired.groups) {
    planGroup(group, snapshot, plan, group.key === 'activity' ? activityTypeValue : null);
  }
  planRelationshipType(desired, snapshot, plan);
  planSafeFileExtensions(desired, snapshot, plan);
  return plan;
}

/**
 * Every allowed upload extension a safe file extension of CiviCRM (compared by label, which is
 * what CiviCRM checks, ignoring case): missing ones are added after the highest value and
 * weight, disabled ones enabled. Never removes one.
 */
function planSafeFileExtensions(desired: DesiredSchema, snapshot: CrmSnapshot, plan: Plan): void {
  const group = snapshot.safeFileExtensionGroup;
  if (!group) {
    plan.notes.push(
      "CiviCRM has no option group 'safe_file_extension': check that uploads keep their extensions.",
    );
    return;
  }
  const byLabel = new Map(
    snapshot.safeFileExtensions.map((row) => [String(row['label'] ?? row['name'] ?? '').toLowerCase(), row]),
  );
  const numbers = (field: string) =>
    snapshot.safeFileExtensions.map((row) => Number(row[field])).filter((value) => Number.isFinite(value));
  let nextValue = Math.max(0, ...numbers('value')) + 1;
  let nextWeight = Math.max(0, ...numbers('weight')) + 1;
  for (const extension of desired.safeFileExtensions) {
    const found = byLabel.get(extension);
    if (!found) {
      plan.changes.push({
        action: 'create',
        entity: 'OptionValue',
        summary: `Make '${extension}' a safe file extension (uploads of it are stored as .unknown otherwise)`,
        details: [],
        params: {
          values: {
            option_group_id: group['id'],
            name: extension,
            label: extension,
            value: String(nextValue++),
            weight: nextWeight++,
            is_active: true,
          },
        },
      });
    } else if (found['is_active'] === false) {
      plan.changes.push({
        action: 'update',
        entity: 'OptionValue',
        summary: `Enable the safe file extension '${extension}' (id ${show(found['id'])})`,
        details: ['is_active: false → true'],
        params: { where: [['id', '=', found['id']]], values: { is_active: true } },
      });
    }
  }
}

function planActivityType(desired: DesiredSchema, snapshot: CrmSnapshot, plan: Plan): string | Ref {
  const wanted = desired.activityType;
  const byName = snapshot.activityTypes.find((row) => row['name'] === wanted.name);
  const byLabel = snapshot.activityTypes.find((row) => row['label'] === wanted.label);
  const found = byName ?? byLabel;
  if (!found) {
    plan.changes.push({
      action: 'create',
      entity: 'OptionValue',
      summary: `Create the activity type '${wanted.name}'`,
      details: [],
      params: {
        values: {
          'option_group_id:name': 'activity_type',
          name: wanted.name,
          label: wanted.label,
          description: wanted.description,
          is_active: true,
        },
      },
      ref: 'activityType',
    });
    return ref('activityType', 'value');
  }
  const values: Record<string, unknown> = {};
  const details: string[] = [];
  if (found['name'] !== wanted.name) {
    values['name'] = wanted.name;
    details.push(
      `name: ${show(found['name'])} → ${show(wanted.name)} (the service looks the type up by name)`,
    );
  }
  if (found['is_active'] === false) {
    values['is_active'] = true;
    details.push('is_active: false → true');
  }
  if (details.length > 0) {
    plan.changes.push({
      action: 'update',
      entity: 'OptionValue',
      summary: `Fix the activity type '${wanted.name}' (id ${show(found['id'])})`,
      details,
      params: { where: [['id', '=', found['id']]], values },
    });
  }
  return String(found['value']);
}

function findGroup(
  group: DesiredGroup,
  snapshot: CrmSnapshot,
): { row: CrmRow; matchedBy: NonNullable<GroupResolution['matchedBy']> } | null {
  const byName = snapshot.groups.find((row) => row['name'] === group.configuredName);
  if (byName) return { row: byName, matchedBy: 'configured name' };
  const byMunged = snapshot.groups.find((row) => row['name'] === mungeName(group.configuredName));
  if (byMunged) return { row: byMunged, matchedBy: 'munged name' };
  const byTitle = snapshot.groups.find(
    (row) => row['title'] === group.title && row['extends'] === group.extends,
  );
  return byTitle ? { row: byTitle, matchedBy: 'title' } : null;
}

function planGroup(
  group: DesiredGroup,
  snapshot: CrmSnapshot,
  plan: Plan,
  activityTypeValue: string | Ref | null,
): void {
  const found = findGroup(group, snapshot);
  plan.groups.push({
    key: group.key,
    setting: group.setting,
    configuredName: group.configuredName,
    foundName: found ? String(found.row['name']) : null,
    matchedBy: found?.matchedBy ?? null,
  });
  let groupId: Id;
  if (!found) {
    const refName = `group:${group.key}`;
    plan.changes.push({
      action: 'create',
      entity: 'CustomGroup',
      summary: `Create the custom group '${group.configuredName}' ('${group.title}', on ${group.extends})`,
      details:
        mungeName(group.configuredName) === group.configuredName
          ? []
          : [`CiviCRM will store the name as '${mungeName(group.configuredName)}'`],
      params: {
        values: {
          name: group.configuredName,
          title: group.title,
          extends: group.extends,
          ...(activityTypeValue !== null ? { extends_entity_column_value: [activityTypeValue] } : {}),
          style: 'Inline',
          collapse_display: false,
          is_active: true,
        },
      },
      ref: refName,
    });
    groupId = ref(refName);
  } else {
    groupId = Number(found.row['id']);
    planGroupFix(group, found.row, plan, activityTypeValue);
  }
  const fields = found ? snapshot.fields.filter((field) => field['custom_group_id'] === found.row['id']) : [];
  const groupName = found ? String(found.row['name']) : group.configuredName;
  for (const field of group.fields) planField(group, groupName, field, groupId, fields, snapshot, plan);
}

function planGroupFix(
  group: DesiredGroup,
  row: CrmRow,
  plan: Plan,
  activityTypeValue: string | Ref | null,
): void {
  const name = String(row['name']);
  if (row['extends'] !== group.extends) {
    plan.problems.push(
      `The custom group '${name}' extends ${show(row['extends'])}, not ${group.extends}; CiviCRM cannot change ` +
        `that. Rename or delete it, or point ${group.setting} at a group on ${group.extends}.`,
    );
    return;
  }
  const values: Record<string, unknown> = {};
  const details: string[] = [];
  if (row['is_active'] === false) {
    values['is_active'] = true;
    details.push('is_active: false → true');
  }
  if (activityTypeValue !== null) {
    const limitedTo = Array.isArray(row['extends_entity_column_value'])
      ? row['extends_entity_column_value'].map(String)
      : [];
    if (limitedTo.length === 0) {
      plan.notes.push(
        `The custom group '${name}' applies to every activity type; the service needs it only on ` +
          `check-in activities (left as it is).`,
      );
    } else if (typeof activityTypeValue !== 'string' || !limitedTo.includes(activityTypeValue)) {
      values['extends_entity_column_value'] = [...limitedTo, activityTypeValue];
      details.push('extends_entity_column_value: add the check-in activity type');
    }
  }
  if (details.length > 0) {
    plan.changes.push({
      action: 'update',
      entity: 'CustomGroup',
      summary: `Fix the custom group '${name}' (id ${show(row['id'])})`,
      details,
      params: { where: [['id', '=', row['id']]], values },
    });
  }
}

function planField(
  group: DesiredGroup,
  groupName: string,
  field: DesiredField,
  groupId: Id,
  existingFields: CrmRow[],
  snapshot: CrmSnapshot,
  plan: Plan,
): void {
  const label = `${groupName}.${field.name}`;
  const found =
    existingFields.find((row) => row['name'] === field.name) ??
    existingFields.find((row) => String(row['name']).toLowerCase() === field.name.toLowerCase());
  if (found && found['name'] !== field.name) {
    plan.problems.push(
      `The custom field '${show(found['name'])}' (id ${show(found['id'])}) differs from '${field.name}' only ` +
        'in letter case: the service needs the exact name. Rename the field in CiviCRM.',
    );
    return;
  }
  const existingOptionGroup = found?.['option_group_id'] ?? null;
  const optionGroupId = field.options
    ? planOptionGroup(
        label,
        field,
        existingOptionGroup === null ? null : Number(existingOptionGroup),
        snapshot,
        plan,
      )
    : null;
  if (!found) {
    plan.changes.push({
      action: 'create',
      entity: 'CustomField',
      summary: `Create the custom field '${label}' (${field.data_type}, ${field.html_type}${field.serialize ? ', multiple' : ''})`,
      details: [],
      params: { values: fieldValues(field, groupId, optionGroupId) },
      ref: `field:${group.key}.${field.name}`,
    });
    return;
  }
  if (found['data_type'] !== field.data_type) {
    plan.problems.push(
      `The custom field '${label}' (id ${show(found['id'])}) holds ${show(found['data_type'])}; the service ` +
        `needs ${field.data_type}. The installer does not change data types (stored values could be lost): ` +
        'change it in CiviCRM, or delete the field and run the installer again.',
    );
    return;
  }
  const values: Record<string, unknown> = {};
  const details: string[] = [];
  const expect = (property: string, now: unknown, wanted: unknown) => {
    values[property] = wanted;
    details.push(`${property}: ${show(now)} → ${show(wanted)}`);
  };
  if (found['html_type'] !== field.html_type) expect('html_type', found['html_type'], field.html_type);
  if (Number(found['serialize'] ?? 0) !== field.serialize)
    expect('serialize', found['serialize'], field.serialize);
  if (field.text_length !== undefined && Number(found['text_length'] ?? 0) < field.text_length) {
    expect('text_length', found['text_length'], field.text_length);
  }
  if (optionGroupId !== null && existingOptionGroup === null) {
    values['option_group_id'] = optionGroupId;
    details.push('option_group_id: none → the option group above');
  }
  if (found['is_active'] === false) expect('is_active', false, true);
  if (details.length > 0) {
    plan.changes.push({
      action: 'update',
      entity: 'CustomField',
      summary: `Fix the custom field '${label}' (id ${show(found['id'])})`,
      details,
      params: { where: [['id', '=', found['id']]], values },
    });
  }
}

function fieldValues(field: DesiredField, groupId: Id, optionGroupId: Id | null): Record<string, unknown> {
  return {
    custom_group_id: groupId,
    name: field.name,
    label: field.label,
    data_type: field.data_type,
    html_type: field.html_type,
    serialize: field.serialize,
    ...(field.text_length !== undefined ? { text_length: field.text_length } : {}),
    ...(field.is_searchable ? { is_searchable: true } : {}),
    ...(optionGroupId !== null ? { option_group_id: optionGroupId } : {}),
    is_active: true,
  };
}

/**
 * The field's option group: the one it already uses, else one named as the installer names
 * them (left by an earlier, interrupted run), else a new one. Then its options.
 */
function planOptionGroup(
  label: string,
  field: DesiredField,
  usedGroupId: number | null,
  snapshot: CrmSnapshot,
  plan: Plan,
): Id {
  const options = field.options ?? [];
  const existing =
    usedGroupId !== null
      ? snapshot.optionGroups.find((row) => row['id'] === usedGroupId)
      : snapshot.optionGroups.find((row) => row['name'] === field.optionGroupName);
  let groupId: Id;
  if (existing) {
    groupId = Number(existing['id']);
    if (existing['is_active'] === false) {
      plan.changes.push({
        action: 'update',
        entity: 'OptionGroup',
        summary: `Enable the option group '${show(existing['name'])}' of '${label}'`,
        details: ['is_active: false → true'],
        params: { where: [['id', '=', existing['id']]], values: { is_active: true } },
      });
    }
  } else if (usedGroupId !== null) {
    plan.problems.push(`The custom field '${label}' uses option group ${usedGroupId}, which cannot be read.`);
    return usedGroupId;
  } else {
    const refName = `optionGroup:${label}`;
    plan.changes.push({
      action: 'create',
      entity: 'OptionGroup',
      summary: `Create the option group '${field.optionGroupName}' for '${label}'`,
      details: [],
      params: {
        values: {
          name: field.optionGroupName,
          title: field.optionGroupTitle,
          data_type: 'String',
          is_active: true,
        },
      },
      ref: refName,
    });
    groupId = ref(refName);
  }
  const current =
    typeof groupId === 'number'
      ? snapshot.optionValues.filter((row) => row['option_group_id'] === groupId)
      : [];
  planOptions(label, options, groupId, current, plan);
  return groupId;
}

/**
 * Options are matched by stored value, then label, then name (a stored value is never changed:
 * records hold it). Weights must rise in configuration order. Every wanted option goes in
 * one `save` whenever any of them needs a write: CiviCRM takes the weights of a multi-record
 * save as given, while a single write is capped at the highest weight + 1 and shifts the others.
 */
function planOptions(
  label: string,
  options: readonly OptionItem[],
  groupId: Id,
  current: CrmRow[],
  plan: Plan,
): void {
  const unmatched = [...current];
  const take = (predicate: (row: CrmRow) => boolean): CrmRow | undefined => {
    const index = unmatched.findIndex(predicate);
    return index < 0 ? undefined : unmatched.splice(index, 1)[0];
  };
  const matched = options.map((option) => ({
    option,
    row:
      take((row) => String(row['value']) === option.value) ??
      take((row) => String(row['label']).toLowerCase() === option.label.toLowerCase()) ??
      take((row) => row['name'] === (option.name ?? option.value)),
  }));
  // Weights need only rise in the configured order (10, 20, 30 is as good as 1, 2, 3); when they
  // do not, or an option is missing, every configured option is rewritten to 1..n.
  const weights = matched.flatMap(({ row }) => (row ? [Number(row['weight'])] : []));
  const ordered =
    matched.every(({ row }) => row) &&
    weights.every((weight, index) => index === 0 || weight > (weights[index - 1] ?? 0));
  const details: string[] = [];
  matched.forEach(({ option, row }, index) => {
    const weight = index + 1;
    if (!row) {
      details.push(`add '${option.label}' (value ${option.value}) at weight ${weight}`);
      return;
    }
    if (!ordered && Number(row['weight']) !== weight) {
      details.push(`'${show(row['label'])}': weight ${show(row['weight'])} → ${weight}`);
    }
    if (row['is_active'] === false) details.push(`'${show(row['label'])}': enable`);
  });
  if (details.length === 0) return;
  const records = matched.map(({ option, row }, index) =>
    row
      ? { id: row['id'], weight: ordered ? Number(row['weight']) : index + 1, is_active: true }
      : {
          option_group_id: groupId,
          value: option.value,
          label: option.label,
          name: option.name ?? option.value,
          weight: index + 1,
          is_active: true,
        },
  );
  if (unmatched.length > 0) {
    plan.notes.push(
      `The options of '${label}' also hold ${unmatched.map((row) => `'${show(row['label'])}'`).join(', ')}, ` +
        'not in the field configuration (left as they are, after the configured ones).',
    );
  }
  plan.changes.push({
    action: 'save',
    entity: 'OptionValue',
    summary: `Set the options of '${label}' in order`,
    details,
    params: { records },
  });
}

function planRelationshipType(desired: DesiredSchema, snapshot: CrmSnapshot, plan: Plan): void {
  const wanted = desired.relationshipType;
  const found = snapshot.relationshipTypes.find((row) => row['name_a_b'] === wanted.name_a_b);
  if (!found) {
    plan.changes.push({
      action: 'create',
      entity: 'RelationshipType',
      summary: `Create the relationship type '${wanted.name_a_b}' (Individual → Organization)`,
      details: [],
      params: { values: { ...wanted, is_active: true } },
    });
    return;
  }
  const values: Record<string, unknown> = {};
  const details: string[] = [];
  if (found['is_active'] === false) {
    values['is_active'] = true;
    details.push('is_active: false → true');
  }
  // Either direction works (the service reads which side holds the person from the type), so
  // only a type that does not tie a person to an organization at all is changed.
  const sides = [found['contact_type_a'], found['contact_type_b']].map(String).sort().join(' and ');
  if (sides !== 'Individual and Organization') {
    values['contact_type_a'] = wanted.contact_type_a;
    values['contact_type_b'] = wanted.contact_type_b;
    details.push(
      `contact types: ${show(found['contact_type_a'])} → ${show(found['contact_type_b'])} ` +
        `becomes ${wanted.contact_type_a} → ${wanted.contact_type_b}`,
    );
  }
  if (details.length > 0) {
    plan.changes.push({
      action: 'update',
      entity: 'RelationshipType',
      summary: `Fix the relationship type '${wanted.name_a_b}' (id ${show(found['id'])})`,
      details,
      params: { where: [['id', '=', found['id']]], values },
    });
  }
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
