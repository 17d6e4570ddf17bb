import { CrmError } from '../app/crm/crm-errors';
import type { Change, GroupResolution } from './plan';
import { formatReport, hintFor, type SchemaReport, settingsOf } from './report';

const groups: GroupResolution[] = [
  {
    key: 'activity',
    setting: 'CRM_ACTIVITY_CUSTOM_GROUP',
    configuredName: 'Check_in_data__organizing_',
    foundName: null,
    matchedBy: null,
  },
  {
    key: 'contact',
    setting: 'CRM_CONTACT_CUSTOM_GROUP',
    configuredName: 'Food_Co_op_Organizing',
    foundName: 'Food_Co_op_Organizing',
    matchedBy: 'configured name',
  },
];

const change: Change = {
  action: 'update',
  entity: 'RelationshipType',
  summary: "Fix the relationship type 'Primary Contact' (id 11)",
  details: ['is_active: false → true'],
  params: {},
};

function report(overrides: Partial<SchemaReport>): SchemaReport {
  return {
    mode: 'dry-run',
    crm: 'https://crm.example.org',
    outcome: 'changes-needed',
    changes: [],
    remaining: [],
    problems: [],
    notes: [],
    groups,
    settings: settingsOf(groups),
    ...overrides,
  };
}

describe('the installer report', () => {
  it('predicts the name CiviCRM will give a group it has to create', () => {
    expect(settingsOf(groups)).toEqual([
      'CRM_ACTIVITY_CUSTOM_GROUP=Check_in_data_organizing_',
      'CRM_CONTACT_CUSTOM_GROUP=Food_Co_op_Organizing',
    ]);
  });

  it('lists a dry run’s changes with their differences and how to apply them', () => {
    const text = formatReport(report({ changes: [change] }));
    expect(text).toContain('(dry run: nothing is changed)');
    expect(text).toContain(
      "Changes needed (1):\n  ~ Fix the relationship type 'Primary Contact' (id 11)\n      is_active: false → true",
    );
    expect(text).toContain(
      "'Check_in_data__organizing_' is missing; CiviCRM will name it 'Check_in_data_organizing_'",
    );
    expect(text).toContain('  CRM_ACTIVITY_CUSTOM_GROUP=Check_in_data_organizing_');
    expect(text.endsWith('Run again with --apply to make these changes.')).toBe(true);
  });

  it('shows what an apply could not do, the error and what to check, in separated sections', () => {
    const refused = new CrmError('forbidden', 'RelationshipType.update', 'HTTP 403', 403);
    const text = formatReport(
      report({
        mode: 'apply',
        outcome: 'incomplete',
        remaining: [change],
        error: `${change.summary}: ${refused.message}${hintFor(refused)}`,
      }),
    );
    expect(text).toContain('Still needed (1):');
    expect(text).toContain(
      "lacks a permission: run the installer with the key of a user who has 'administer CiviCRM'",
    );
    expect(text).not.toContain('Nothing to change');
    expect(text).not.toMatch(/\n\n\n/);
  });

  it('says so when an apply finds nothing to do', () => {
    expect(formatReport(report({ mode: 'apply', outcome: 'up-to-date' }))).toContain(
      'Nothing to change: the CRM already has everything.',
    );
  });

  it('gives hints only for refused keys and permissions', () => {
    expect(hintFor(new CrmError('unauthorized', 'CustomGroup.get', 'HTTP 401', 401))).toContain(
      'CRM_API_KEY',
    );
    expect(hintFor(new CrmError('unreachable', 'CustomGroup.get', 'network error'))).toBe('');
    expect(hintFor(new Error('other'))).toBe('');
  });
});
