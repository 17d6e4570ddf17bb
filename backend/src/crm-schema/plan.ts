import type { Api4Params, CrmRow } from '../app/crm/crm-client';
import {
  type DesiredField,
  type DesiredGroup,
  type DesiredSchema,
  type GroupKey,
  mungeName,
} from './desired-schema';
import {
  customFieldWrongType,
  customGroupOnWrongEntity,
  tiesPersonToOrganization,
} from '../app/site-audit/findings';
import { planOptionGroup } from './plan-options';
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

export const ref = (name: string, field = 'id'): Ref => ({ $ref: name, field });

export type Id = number | Ref;

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
      const summary = `Enable the safe file extension '${extension}' (id ${show(found['id'])})`;
      planFix(plan, 'OptionValue', found['id'], summary, { is_active: true }, ['is_active: false → true']);
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
  planFix(
    plan,
    'OptionValue',
    found['id'],
    `Fix the activity type '${wanted.name}' (id ${show(found['id'])})`,
    values,
    details,
  );
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
      customGroupOnWrongEntity({ name, setting: group.setting }, show(row['extends']), group.extends),
    );
    return;
  }
  const { values, details } = enabledIfDisabled(row);
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
  planFix(
    plan,
    'CustomGroup',
    row['id'],
    `Fix the custom group '${name}' (id ${show(row['id'])})`,
    values,
    details,
  );
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
      `${customFieldWrongType(label, show(found['data_type']), field.data_type)} The installer does not change ` +
        'data types (stored values could be lost): change it in CiviCRM, or delete the field and run the installer again.',
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
  planFix(
    plan,
    'CustomField',
    found['id'],
    `Fix the custom field '${label}' (id ${show(found['id'])})`,
    values,
    details,
  );
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
  const { values, details } = enabledIfDisabled(found);
  // Either direction works (the service reads which side holds the person from the type), so
  // only a type that does not tie a person to an organization at all is changed.
  if (!tiesPersonToOrganization([found['contact_type_a'], found['contact_type_b']])) {
    values['contact_type_a'] = wanted.contact_type_a;
    values['contact_type_b'] = wanted.contact_type_b;
    details.push(
      `contact types: ${show(found['contact_type_a'])} → ${show(found['contact_type_b'])} ` +
        `becomes ${wanted.contact_type_a} → ${wanted.contact_type_b}`,
    );
  }
  planFix(
    plan,
    'RelationshipType',
    found['id'],
    `Fix the relationship type '${wanted.name_a_b}' (id ${show(found['id'])})`,
    values,
    details,
  );
}

/** The first of a row's fixes, which every kind of row shares: enabling it when it is disabled. */
function enabledIfDisabled(row: CrmRow): { values: Record<string, unknown>; details: string[] } {
  return row['is_active'] === false
    ? { values: { is_active: true }, details: ['is_active: false → true'] }
    : { values: {}, details: [] };
}

/** An update of one row the installer found wrong, when anything about it is: `details` say what. */
export function planFix(
  plan: Plan,
  entity: string,
  id: unknown,
  summary: string,
  values: Record<string, unknown>,
  details: string[],
): void {
  if (details.length === 0) return;
  plan.changes.push({
    action: 'update',
    entity,
    summary,
    details,
    params: { where: [['id', '=', id]], values },
  });
}

export function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
