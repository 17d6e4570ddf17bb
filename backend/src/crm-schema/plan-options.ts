import type { OptionItem } from '@checkin/contract';
import type { CrmRow } from '../app/crm/crm-client';
import type { DesiredField } from './desired-schema';
import { type Id, type Plan, planFix, ref, show } from './plan';
import type { CrmSnapshot } from './snapshot';

/**
 * The field's option group: the one it already uses, else one named as the installer names
 * them (left by an earlier, interrupted run), else a new one. Then its options.
 */
export function planOptionGroup(
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
      const summary = `Enable the option group '${show(existing['name'])}' of '${label}'`;
      planFix(plan, 'OptionGroup', existing['id'], summary, { is_active: true }, ['is_active: false → true']);
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
