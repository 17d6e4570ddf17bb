import type {
  CustomFieldCheck,
  CustomGroupDiagnostic,
  CustomGroupNearMatch,
  CustomGroupsDiagnostic,
  CustomGroupSummary,
} from '@checkin/contract';
import type { CustomGroupNames } from '../config/app-config';
import {
  customFieldDisabled,
  customFieldMissing,
  customFieldWrongType,
  customGroupMissing,
  customGroupOnWrongEntity,
} from './findings';
import type { MetadataRow } from '../crm/site.gateway';
import { ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP } from '../crm/crm-names';
import { requiredCustomGroups } from '../fields/custom-groups';

/** A custom group the service needs, as this deployment names it. */
export interface ExpectedGroup {
  setting: string;
  /** The setting's value: the name the service asks the CRM for. */
  name: string;
  /** The name the code uses (crm-names.ts); the CRM client renames it to `name` on the wire. */
  codeName: string;
  /** The title the schema installer gives the group. */
  title: string;
  extends: string;
  fields: ReadonlyArray<{ name: string; label: string; dataType: string }>;
}

/** Both groups with every field the service reads or writes, as the schema installer creates them (fields/custom-groups.ts). */
export function expectedGroups(names: CustomGroupNames): ExpectedGroup[] {
  return requiredCustomGroups(names).map((group) => ({
    setting: group.setting,
    name: group.configuredName,
    codeName: group.key === 'activity' ? ACTIVITY_CUSTOM_GROUP : CONTACT_CUSTOM_GROUP,
    title: group.title,
    extends: group.extends,
    fields: group.fields.map((field) => ({
      name: field.name,
      label: field.label,
      dataType: field.data_type,
    })),
  }));
}

/** What the CRM answered: the groups found under the configured names, every group, and their fields. */
export interface CustomGroupRows {
  /** Rows of `CustomGroup.get` filtered by the code names (so renamed to them by the CRM client). */
  configured: MetadataRow[];
  all: MetadataRow[];
  /** Fields of the configured groups and of every near match. */
  fields: MetadataRow[];
}

/** Lower case, letters and digits only: `Check_in_data__organizing_` and `check-in data organizing` meet. */
const loose = (text: unknown): string =>
  String(text ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** Groups that may be the one configured: same loose name, or the installer's title. */
export function nearMatchGroups(
  expected: ExpectedGroup,
  rows: MetadataRow[],
  excludeId: number | null,
): MetadataRow[] {
  return rows.filter(
    (row) =>
      asNumber(row['id']) !== excludeId &&
      (loose(row['name']) === loose(expected.name) ||
        loose(row['name']) === loose(expected.codeName) ||
        loose(row['title']) === loose(expected.title)),
  );
}

/**
 * Reads the answer into the diagnostic: each group found or missing (with near matches and the
 * setting that would select each), and each configured field found, missing (with near
 * matches), disabled, or of another data type. Pure, so every case is tested without a CRM.
 */
export function diagnoseCustomGroups(
  expected: readonly ExpectedGroup[],
  rows: CustomGroupRows,
): CustomGroupsDiagnostic {
  const problems: string[] = [];
  const groups = expected.map((group): CustomGroupDiagnostic => {
    const foundRow = rows.configured.find((row) => row['name'] === group.codeName) ?? null;
    const found = foundRow ? { ...summary(foundRow), name: group.name } : null;
    const diagnostic: CustomGroupDiagnostic = {
      setting: group.setting,
      name: group.name,
      extends: group.extends,
      found,
      nearMatches: [],
      fields: [],
    };
    if (!found || !found.is_active) {
      diagnostic.nearMatches = nearMatchGroups(group, rows.all, found?.id ?? null).map((row) =>
        nearMatch(group, row, rows.fields),
      );
    }
    if (!found) {
      problems.push(missingGroupProblem(group, diagnostic.nearMatches));
      return diagnostic;
    }
    if (!found.is_active) problems.push(customGroupMissing(group, 'is disabled', []).diagnosticsLine);
    if (found.extends !== group.extends) {
      problems.push(customGroupOnWrongEntity(group, found.extends ?? 'nothing', group.extends));
    }
    const own = rows.fields.filter((field) => asNumber(field['custom_group_id']) === found.id);
    const others = rows.fields.filter((field) => asNumber(field['custom_group_id']) !== found.id);
    diagnostic.fields = group.fields.map((field) => checkField(group, field, own, others, rows.all));
    for (const check of diagnostic.fields) {
      const problem = fieldProblem(group, check);
      if (problem) problems.push(problem);
    }
    return diagnostic;
  });
  return { groups, problems };
}

function nearMatch(group: ExpectedGroup, row: MetadataRow, fields: MetadataRow[]): CustomGroupNearMatch {
  const id = asNumber(row['id']);
  const names = new Set(
    fields.filter((field) => asNumber(field['custom_group_id']) === id).map((field) => String(field['name'])),
  );
  return {
    ...summary(row),
    reason: nearMatchReason(group, row),
    configuredFields: group.fields.filter((field) => names.has(field.name)).length,
    setting: `${group.setting}=${String(row['name'])}`,
  };
}

/** Why a group may be the one configured: its name, or the installer's title. */
export function nearMatchReason(group: ExpectedGroup, row: MetadataRow): string {
  return loose(row['name']) === loose(group.name) || loose(row['name']) === loose(group.codeName)
    ? 'its name differs only in punctuation or letter case'
    : `its title is '${String(row['title'])}'`;
}

function missingGroupProblem(group: ExpectedGroup, nearMatches: CustomGroupNearMatch[]): string {
  return customGroupMissing(
    group,
    'does not exist',
    nearMatches.map((match) => ({
      name: match.name,
      why: `${match.reason}; ${match.configuredFields} of ${group.fields.length} configured fields`,
    })),
  ).diagnosticsLine;
}

function checkField(
  group: ExpectedGroup,
  field: ExpectedGroup['fields'][number],
  own: MetadataRow[],
  others: MetadataRow[],
  allGroups: MetadataRow[],
): CustomFieldCheck {
  const row = own.find((candidate) => candidate['name'] === field.name);
  if (row) {
    if (row['is_active'] === false) return { name: field.name, status: 'disabled' };
    if (row['data_type'] !== field.dataType) {
      return {
        name: field.name,
        status: 'wrong type',
        dataType: typeof row['data_type'] === 'string' ? row['data_type'] : null,
        expectedDataType: field.dataType,
      };
    }
    return { name: field.name, status: 'found' };
  }
  const groupName = (id: unknown) =>
    String(allGroups.find((candidate) => asNumber(candidate['id']) === asNumber(id))?.['name'] ?? id);
  const nearMatches = [
    ...own
      .filter(
        (candidate) =>
          loose(candidate['name']) === loose(field.name) || loose(candidate['label']) === loose(field.label),
      )
      .map(
        (candidate) => `${group.name}.${String(candidate['name'])} (label '${String(candidate['label'])}')`,
      ),
    ...others
      .filter((candidate) => candidate['name'] === field.name)
      .map((candidate) => `${groupName(candidate['custom_group_id'])}.${field.name} (in another group)`),
  ];
  return { name: field.name, status: 'missing', nearMatches };
}

function fieldProblem(group: ExpectedGroup, check: CustomFieldCheck): string | null {
  const label = `${group.name}.${check.name}`;
  switch (check.status) {
    case 'found':
      return null;
    case 'disabled':
      return customFieldDisabled(label);
    case 'wrong type':
      return customFieldWrongType(label, check.dataType ?? 'no data type', check.expectedDataType ?? '');
    case 'missing':
      return customFieldMissing(label, check.nearMatches ?? []);
  }
}

function summary(row: MetadataRow): CustomGroupSummary {
  return {
    id: asNumber(row['id']) ?? 0,
    name: String(row['name'] ?? ''),
    title: typeof row['title'] === 'string' ? row['title'] : null,
    extends: typeof row['extends'] === 'string' ? row['extends'] : null,
    is_active: row['is_active'] !== false,
  };
}

function asNumber(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
}
