import { ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP } from '../src/app/crm/crm-names';
import { ACTIVITY_FIELDS } from '../src/app/fields/field-config';
import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import { startTestApp, type TestApp } from './support/test-app';
import { ADMIN_HEADERS, sharedTestApp } from './support/shared-app';

/** GET /api/health's diagnostics of the custom groups and fields the service needs (docs/operations.md). */
describe('GET /api/health (diagnostics): custom groups and fields', () => {
  const test = sharedTestApp({ emulator: { model: createDemoModel() } });
  const admin = ADMIN_HEADERS;

  const MUNGED = 'Check_in_data_organizing_';
  type GroupsBody = {
    status: string;
    groups: Array<{
      setting: string;
      name: string;
      found: { id: number; name: string } | null;
      nearMatches: Array<{ name: string; reason: string; configuredFields: number; setting: string }>;
      fields: Array<{ name: string; status: string; nearMatches?: string[]; dataType?: string }>;
    }>;
    problems: string[];
  };
  const groupsOf = async (app: TestApp): Promise<{ status: number; body: GroupsBody }> => {
    const response = await app.get('/api/health', admin);
    const body = (await response.json()) as { details: Record<string, GroupsBody> };
    const groups = body.details['customGroups'];
    if (!groups) throw new Error('no customGroups diagnostic');
    return { status: response.status, body: groups };
  };
  const groupId = (model: ReturnType<typeof createDemoModel>, name: string) =>
    model.api4('CustomGroup', 'get', { select: ['id'], where: [['name', '=', name]] })[0]?.['id'];
  const renameActivityGroup = (model: ReturnType<typeof createDemoModel>) =>
    model.api4('CustomGroup', 'update', {
      values: { name: MUNGED },
      where: [['id', '=', groupId(model, ACTIVITY_CUSTOM_GROUP)]],
    });
  // The configured fields plus Stage, Submission_ID and Cleared_fields.
  const activityFieldCount = () => ACTIVITY_FIELDS.length + 3;

  it('finds both groups and every configured field', async () => {
    const { status, body } = await groupsOf(test);
    expect(status).toBe(200);
    expect(body.status).toBe('up');
    expect(body.problems).toEqual([]);
    const [activity, contact] = body.groups;
    expect(activity).toMatchObject({
      setting: 'CRM_ACTIVITY_CUSTOM_GROUP',
      name: ACTIVITY_CUSTOM_GROUP,
      found: { name: ACTIVITY_CUSTOM_GROUP, extends: 'Activity', is_active: true },
      nearMatches: [],
    });
    expect(activity?.fields).toHaveLength(activityFieldCount());
    expect(activity?.fields.map((field) => field.name)).toEqual(
      expect.arrayContaining(['Stage', 'Submission_ID', 'Y1_Q4_Margin']),
    );
    expect(contact?.fields.map((field) => field.name)).toEqual(
      expect.arrayContaining(['Date_Incorporated', 'Certificate_of_Incorporation', 'Equity_share', 'Stage']),
    );
    expect(
      [...(activity?.fields ?? []), ...(contact?.fields ?? [])].every((field) => field.status === 'found'),
    ).toBe(true);
  });

  it('names the munged group as a near match, with the setting that selects it', async () => {
    renameActivityGroup(test.emulator.model);
    try {
      const { status, body } = await groupsOf(test);
      expect(status).toBe(503);
      expect(body.status).toBe('down');
      const [activity] = body.groups;
      expect(activity?.found).toBeNull();
      expect(activity?.fields).toEqual([]);
      expect(activity?.nearMatches).toEqual([
        expect.objectContaining({
          name: MUNGED,
          reason: 'its name differs only in punctuation or letter case',
          configuredFields: activityFieldCount(),
          setting: `CRM_ACTIVITY_CUSTOM_GROUP=${MUNGED}`,
        }),
      ]);
      expect(body.problems).toEqual([
        expect.stringContaining(
          `No custom group is named '${ACTIVITY_CUSTOM_GROUP}' (CRM_ACTIVITY_CUSTOM_GROUP). If it is this one, ` +
            `point the setting at it: '${MUNGED}'`,
        ),
      ]);
      expect(body.problems[0]).toContain(`set CRM_ACTIVITY_CUSTOM_GROUP=${MUNGED}`);
    } finally {
      test.emulator.model.api4('CustomGroup', 'update', {
        values: { name: ACTIVITY_CUSTOM_GROUP },
        where: [['name', '=', MUNGED]],
      });
    }
  });

  it('finds the group under the name the setting gives', async () => {
    const model = createDemoModel();
    renameActivityGroup(model);
    const app = await startTestApp({ emulator: { model }, env: { CRM_ACTIVITY_CUSTOM_GROUP: MUNGED } });
    try {
      const { body } = await groupsOf(app);
      expect(body.problems).toEqual([]);
      expect(body.groups[0]).toMatchObject({ name: MUNGED, found: { name: MUNGED }, nearMatches: [] });
    } finally {
      await app.close();
    }
  });

  it('finds a group titled as the installer titles it under another name', async () => {
    const model = createDemoModel();
    model.api4('CustomGroup', 'update', {
      values: { name: 'Coop_2019', title: 'Food Co-op Organizing' },
      where: [['id', '=', groupId(model, CONTACT_CUSTOM_GROUP)]],
    });
    const app = await startTestApp({ emulator: { model } });
    try {
      const { body } = await groupsOf(app);
      expect(body.groups[1]?.nearMatches).toEqual([
        expect.objectContaining({
          name: 'Coop_2019',
          reason: "its title is 'Food Co-op Organizing'",
          setting: 'CRM_CONTACT_CUSTOM_GROUP=Coop_2019',
        }),
      ]);
    } finally {
      await app.close();
    }
  });

  it('reports a missing field with near matches, a disabled one and one of another type', async () => {
    const fieldWhere = (name: string) => [
      ['custom_group_id:name', '=', ACTIVITY_CUSTOM_GROUP],
      ['name', '=', name],
    ];
    const model = createDemoModel();
    model.api4('CustomField', 'update', {
      values: { name: 'equity_goal' },
      where: fieldWhere('Equity_goal'),
    });
    model.api4('CustomField', 'update', {
      values: { is_active: false },
      where: fieldWhere('Submission_ID'),
    });
    model.api4('CustomField', 'update', {
      values: { data_type: 'Int' },
      where: fieldWhere('Y1_Q1_Sales'),
    });
    const app = await startTestApp({ emulator: { model } });
    try {
      const { status, body } = await groupsOf(app);
      expect(status).toBe(503);
      const fields = body.groups[0]?.fields ?? [];
      expect(fields.find((field) => field.name === 'Equity_goal')).toEqual({
        name: 'Equity_goal',
        status: 'missing',
        nearMatches: [`${ACTIVITY_CUSTOM_GROUP}.equity_goal (label 'Member equity goal')`],
      });
      expect(fields.find((field) => field.name === 'Submission_ID')).toEqual({
        name: 'Submission_ID',
        status: 'disabled',
      });
      expect(fields.find((field) => field.name === 'Y1_Q1_Sales')).toEqual({
        name: 'Y1_Q1_Sales',
        status: 'wrong type',
        dataType: 'Int',
        expectedDataType: 'Money',
      });
      expect(body.problems).toEqual([
        `The custom field '${ACTIVITY_CUSTOM_GROUP}.Submission_ID' is disabled.`,
        `The custom field '${ACTIVITY_CUSTOM_GROUP}.Equity_goal' is missing. Near matches: ` +
          `${ACTIVITY_CUSTOM_GROUP}.equity_goal (label 'Member equity goal'). Create it: npm run crm:schema -- --apply.`,
        `The custom field '${ACTIVITY_CUSTOM_GROUP}.Y1_Q1_Sales' holds Int; the service needs Money.`,
      ]);
    } finally {
      await app.close();
    }
  });
});
