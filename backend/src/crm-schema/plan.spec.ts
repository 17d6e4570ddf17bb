import type { CrmRow } from '../app/crm/crm-client';
import { STAGE_OPTIONS } from '../app/fields/field-config';
import { type Change, planSchema } from './plan';
import { settingsOf } from './report';
import {
  ACTIVITY_TYPE_VALUE,
  desired,
  emptySnapshot,
  fieldRow,
  installedSnapshot,
  refsIn,
  stageOptionRows,
} from './testing/crm-snapshots';

describe('planSchema', () => {
  it('creates everything on a fresh CRM, every reference made before it is used', () => {
    const plan = planSchema(desired, emptySnapshot());
    expect(plan.problems).toEqual([]);
    const fieldCount = desired.groups[0].fields.length + desired.groups[1].fields.length;
    const count = (entity: string, action: Change['action']) =>
      plan.changes.filter((change) => change.entity === entity && change.action === action).length;
    expect(count('CustomField', 'create')).toBe(fieldCount);
    expect(count('CustomGroup', 'create')).toBe(2);
    expect(count('RelationshipType', 'create')).toBe(1);
    expect(count('OptionGroup', 'create')).toBe(6);
    expect(count('OptionValue', 'save')).toBe(6);
    const defined = new Set<string>();
    for (const change of plan.changes) {
      for (const name of refsIn(change.params)) expect(defined).toContain(name);
      if (change.ref) defined.add(change.ref);
    }
    const activityGroup = plan.changes.find((change) => change.ref === 'group:activity');
    expect(activityGroup?.params.values).toMatchObject({
      name: 'Check_in_data__organizing_',
      extends: 'Activity',
      extends_entity_column_value: [{ $ref: 'activityType', field: 'value' }],
    });
    expect(activityGroup?.details.join()).toContain("'Check_in_data_organizing_'");
    expect(settingsOf(plan.groups)).toEqual([
      'CRM_ACTIVITY_CUSTOM_GROUP=Check_in_data_organizing_',
      'CRM_CONTACT_CUSTOM_GROUP=Food_Co_op_Organizing',
    ]);
  });

  it('creates a new option list with weights 1..n in one save', () => {
    const plan = planSchema(desired, emptySnapshot());
    const stage = plan.changes.find(
      (change) =>
        change.entity === 'OptionValue' &&
        change.summary.includes('.Stage') &&
        change.summary.includes('Check_in'),
    );
    expect(stage?.params['records']).toEqual(
      STAGE_OPTIONS.map((option, index) => ({
        option_group_id: { $ref: 'optionGroup:Check_in_data__organizing_.Stage', field: 'id' },
        value: option.value,
        label: option.label,
        name: option.value,
        weight: index + 1,
        is_active: true,
      })),
    );
  });

  it('finds nothing to do on a CRM that has everything, under the munged group name', () => {
    const plan = planSchema(desired, installedSnapshot());
    expect(plan.changes).toEqual([]);
    expect(plan.problems).toEqual([]);
    expect(plan.groups[0]).toMatchObject({
      foundName: 'Check_in_data_organizing_',
      matchedBy: 'munged name',
    });
    expect(plan.groups[1]).toMatchObject({
      foundName: 'Food_Co_op_Organizing',
      matchedBy: 'configured name',
    });
  });

  it('finds a group by title when its name is something else entirely', () => {
    const plan = planSchema(desired, installedSnapshot(desired, ['Checkin_2019', 'Food_Co_op_Organizing']));
    expect(plan.changes).toEqual([]);
    expect(plan.groups[0]).toMatchObject({ foundName: 'Checkin_2019', matchedBy: 'title' });
    expect(settingsOf(plan.groups)[0]).toBe('CRM_ACTIVITY_CUSTOM_GROUP=Checkin_2019');
  });

  it('rewrites every weight of an option list when one is out of order, keeping stored values', () => {
    const snapshot = installedSnapshot();
    const rows = stageOptionRows(snapshot);
    const open = rows.find((row) => row['value'] === 'open');
    if (!open) throw new Error('no open');
    open['weight'] = 0;
    // An option entered by hand with another stored value but the configured label is the same option.
    const inquiry = rows.find((row) => row['value'] === 'inquiry');
    if (!inquiry) throw new Error('no inquiry');
    inquiry['value'] = '0';
    const plan = planSchema(desired, snapshot);
    expect(plan.changes).toHaveLength(1);
    const [change] = plan.changes;
    expect(change).toMatchObject({ action: 'save', entity: 'OptionValue' });
    expect(change?.details).toEqual(["'Open': weight 0 → 6"]);
    expect(change?.params['records']).toEqual(
      rows.map((row, index) => ({ id: row['id'], weight: index + 1, is_active: true })),
    );
  });

  it('accepts any weights that rise in the configured order, and enables a disabled option in place', () => {
    const snapshot = installedSnapshot();
    const rows = stageOptionRows(snapshot);
    rows.forEach((row, index) => (row['weight'] = (index + 1) * 10));
    expect(planSchema(desired, snapshot).changes).toEqual([]);
    const feasibility = rows[2];
    if (!feasibility) throw new Error('no feasibility');
    feasibility['is_active'] = false;
    const [change] = planSchema(desired, snapshot).changes;
    expect(change?.details).toEqual(["'Feasibility': enable"]);
    expect(change?.params['records']).toEqual(
      rows.map((row, index) => ({ id: row['id'], weight: (index + 1) * 10, is_active: true })),
    );
  });

  it('adds a missing option and leaves unknown ones alone with a note', () => {
    const snapshot = installedSnapshot();
    const rows = stageOptionRows(snapshot);
    snapshot.optionValues = snapshot.optionValues.filter((row) => row !== rows[5]);
    const extra = { ...rows[0], id: 9999, value: 'dormant', label: 'Dormant', name: 'dormant', weight: 7 };
    snapshot.optionValues.push(extra);
    const plan = planSchema(desired, snapshot);
    expect(plan.changes).toHaveLength(1);
    const records = plan.changes[0]?.params['records'] as CrmRow[];
    expect(records[5]).toMatchObject({
      value: 'open',
      label: 'Open',
      weight: 6,
      option_group_id: rows[0]?.['option_group_id'],
    });
    expect(records.map((record) => record['id'])).not.toContain(9999);
    expect(plan.notes.join()).toContain("'Dormant'");
  });

  it('fixes a disabled field, a wrong widget and a short text column, and creates a missing one', () => {
    const snapshot = installedSnapshot();
    fieldRow(snapshot, 'Submission_ID')['is_active'] = false;
    fieldRow(snapshot, 'Submission_ID')['text_length'] = 64;
    fieldRow(snapshot, 'Lender_types')['serialize'] = 0;
    fieldRow(snapshot, 'Mission_statement_adopted')['html_type'] = 'CheckBox';
    snapshot.fields = snapshot.fields.filter((row) => row['name'] !== 'Y1_Q4_Margin');
    const plan = planSchema(desired, snapshot);
    expect(plan.problems).toEqual([]);
    const summary = plan.changes.map((change) => [change.action, change.summary, change.params.values]);
    expect(summary).toEqual([
      ['update', expect.stringContaining('.Submission_ID'), { text_length: 255, is_active: true }],
      ['update', expect.stringContaining('.Mission_statement_adopted'), { html_type: 'Radio' }],
      ['update', expect.stringContaining('.Lender_types'), { serialize: 1 }],
      [
        'create',
        expect.stringContaining('Check_in_data_organizing_.Y1_Q4_Margin'),
        expect.objectContaining({ custom_group_id: 1, data_type: 'Float' }),
      ],
    ]);
  });

  it('gives a select field without options an option group', () => {
    const snapshot = installedSnapshot();
    const row = fieldRow(snapshot, 'Site_status');
    const groupId = row['option_group_id'];
    row['option_group_id'] = null;
    snapshot.optionGroups = snapshot.optionGroups.filter((group) => group['id'] !== groupId);
    snapshot.optionValues = snapshot.optionValues.filter((value) => value['option_group_id'] !== groupId);
    const plan = planSchema(desired, snapshot);
    expect(plan.changes.map((change) => `${change.action} ${change.entity}`)).toEqual([
      'create OptionGroup',
      'save OptionValue',
      'update CustomField',
    ]);
    expect(plan.changes[2]?.params.values).toEqual({
      option_group_id: { $ref: 'optionGroup:Check_in_data_organizing_.Site_status', field: 'id' },
    });
  });

  it('reuses an option group left by an interrupted run instead of creating a second one', () => {
    const snapshot = installedSnapshot();
    snapshot.fields = snapshot.fields.filter((row) => row['name'] !== 'Site_status');
    const plan = planSchema(desired, snapshot);
    expect(plan.changes).toHaveLength(1);
    const groupId = snapshot.optionGroups.find((group) => group['name'] === 'checkin_site_status')?.['id'];
    expect(plan.changes[0]?.params.values).toMatchObject({ name: 'Site_status', option_group_id: groupId });
  });

  it('leaves a field of the wrong data type to an administrator', () => {
    const snapshot = installedSnapshot();
    fieldRow(snapshot, 'Equity_goal')['data_type'] = 'Int';
    const plan = planSchema(desired, snapshot);
    expect(plan.changes).toEqual([]);
    expect(plan.problems).toEqual([expect.stringMatching(/Equity_goal.*holds Int.*needs Money/)]);
  });

  it('leaves a group on the wrong entity to an administrator', () => {
    const snapshot = installedSnapshot();
    const group = snapshot.groups[1];
    if (group) group['extends'] = 'Individual';
    const plan = planSchema(desired, snapshot);
    expect(plan.problems).toEqual([
      expect.stringMatching(/extends Individual, not Organization.*CRM_CONTACT_CUSTOM_GROUP/),
    ]);
  });

  it('adds the check-in type to an activity group limited to other types, not to one open to all', () => {
    const limited = installedSnapshot();
    const group = limited.groups[0];
    if (!group) throw new Error('no group');
    group['extends_entity_column_value'] = ['3'];
    expect(planSchema(desired, limited).changes[0]?.params.values).toEqual({
      extends_entity_column_value: ['3', ACTIVITY_TYPE_VALUE],
    });
    group['extends_entity_column_value'] = null;
    const open = planSchema(desired, limited);
    expect(open.changes).toEqual([]);
    expect(open.notes.join()).toMatch(/every activity type/);
  });

  it('enables a disabled activity type and relationship type', () => {
    const snapshot = installedSnapshot();
    const [type] = snapshot.activityTypes;
    const [relationship] = snapshot.relationshipTypes;
    if (!type || !relationship) throw new Error('missing rows');
    type['is_active'] = false;
    relationship['is_active'] = false;
    const plan = planSchema(desired, snapshot);
    expect(plan.changes.map((change) => [change.entity, change.params.values])).toEqual([
      ['OptionValue', { is_active: true }],
      ['RelationshipType', { is_active: true }],
    ]);
  });

  it('accepts a relationship type with the person on side B, and fixes one that ties other types', () => {
    const snapshot = installedSnapshot();
    const [relationship] = snapshot.relationshipTypes;
    if (!relationship) throw new Error('missing row');
    relationship['contact_type_a'] = 'Organization';
    relationship['contact_type_b'] = 'Individual';
    expect(planSchema(desired, snapshot).changes).toEqual([]);
    relationship['contact_type_a'] = null;
    expect(planSchema(desired, snapshot).changes[0]?.params.values).toEqual({
      contact_type_a: 'Individual',
      contact_type_b: 'Organization',
    });
  });

  it('refers to an existing activity type by its value when creating the activity group', () => {
    const snapshot = installedSnapshot();
    snapshot.groups = snapshot.groups.filter((group) => group['id'] !== 1);
    snapshot.fields = snapshot.fields.filter((field) => field['custom_group_id'] !== 1);
    const plan = planSchema(desired, snapshot);
    expect(plan.changes[0]?.params.values).toMatchObject({
      extends_entity_column_value: [ACTIVITY_TYPE_VALUE],
    });
  });
});
