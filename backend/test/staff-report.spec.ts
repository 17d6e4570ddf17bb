import type { ReportPayload } from '@checkin/contract';
import { ACTIVITY_CUSTOM_GROUP, ACTIVITY_TYPE_NAME } from '../src/app/crm/crm-names';
import {
  createDemoModel,
  DEMO_CHECK_IN_COUNT,
  DEMO_CHECKSUM,
  DEMO_CURRENT_STAGE,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON_ID,
  MULTI_ORG_IDS,
} from '../src/app/crm/in-memory/demo-data';
import { TEST_STAFF_KEY } from './support/test-app';
import {
  callNames,
  fieldReport,
  fileValuesOf,
  payloadOf,
  staffReport,
  startLiveApp,
  v3Calls,
  liveAppOptions,
} from './support/staff-report-requests';
import { expectRefusedBeforeCrm, sharedTestApp, STAFF_KEY_INVALID } from './support/shared-app';
import { STAFF_HEADERS as STAFF } from './support/shared-app';

describe('GET /api/staff/report (live mode against the CRM emulator)', () => {
  const test = sharedTestApp(liveAppOptions());

  describe('the staff key', () => {
    it('refuses a request without X-Staff-Key with 401 and asks the CRM nothing', async () => {
      const response = await staffReport(test, DEMO_ORG_ID, {});
      await expectRefusedBeforeCrm(test, response, STAFF_KEY_INVALID);
    });

    it('refuses a wrong key with 401 and asks the CRM nothing', async () => {
      const response = await staffReport(test, DEMO_ORG_ID, { 'X-Staff-Key': `${TEST_STAFF_KEY}x` });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'STAFF_KEY_INVALID' });
      expect(test.emulator.calls).toEqual([]);
    });
  });

  describe('the organization', () => {
    it.each(['', 'abc', '0', '-3', '1.5'])('refuses orgId=%j with 400 naming orgId', async (orgId) => {
      const response = await staffReport(test, orgId);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        statusCode: 400,
        code: 'BAD_REQUEST',
        message: 'Give the organization as orgId, a positive whole number.',
        fields: ['orgId'],
      });
    });

    it('refuses a missing orgId with 400', async () => {
      const response = await test.get('/api/staff/report', STAFF);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'BAD_REQUEST', fields: ['orgId'] });
    });

    it('answers 404 for an id that is not an organization', async () => {
      for (const id of [DEMO_PERSON_ID, 999_999]) {
        const response = await staffReport(test, id);
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      }
      expect(v3Calls(test)).toEqual([]);
    });
  });

  describe('round trips', () => {
    it('discovers the schema once and caches it across reports', async () => {
      const fresh = await startLiveApp();
      try {
        await payloadOf(await staffReport(fresh));
        await payloadOf(await staffReport(fresh));
        await payloadOf(await staffReport(fresh, MULTI_ORG_IDS[0]));
        expect(fresh.emulator.callsTo('CustomField', 'get')).toHaveLength(1);
      } finally {
        await fresh.close();
      }
    });

    it('with the schema and option lists cached, reads organization and check-ins in one parallel round, then looks up files', async () => {
      await payloadOf(await staffReport(test));
      test.emulator.clearCalls();
      const latencyMs = 150;
      test.emulator.setLatency(latencyMs);

      await payloadOf(await staffReport(test));

      const v4Calls = test.emulator.calls.filter((call) => call.version === 4);
      const reads = v4Calls.filter((call) => call.entity !== 'File');
      const lookups = v3Calls(test);
      expect(callNames(reads)).toEqual(['Activity.get', 'Contact.get']);
      // The v3 lookup is refused as by a stock CiviCRM; File.get follows it.
      expect(callNames(v4Calls.filter((call) => call.entity === 'File'))).toEqual(['File.get']);
      expect(lookups).toHaveLength(1);
      const arrivals = reads.map((call) => call.at);
      // Sent together: none waited for another's answer.
      expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeLessThan(latencyMs);
      expect(lookups[0]!.at).toBeGreaterThanOrEqual(Math.max(...arrivals) + latencyMs - 5);
    });
  });

  describe('the report', () => {
    it('names the organization and derives the current stage from the newest stage-bearing check-in', async () => {
      const payload = await payloadOf(await staffReport(test));
      expect(payload.organization).toEqual({ id: DEMO_ORG_ID, name: DEMO_ORG_NAME });
      expect(payload.currentStage).toEqual(DEMO_CURRENT_STAGE);
      expect(payload.stages.map((stage) => stage.rank)).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it('has the organization section, the five stage sections, each field with its latest value and history', async () => {
      const payload = await payloadOf(await staffReport(test));
      expect(payload.sections.map((section) => section.key)).toEqual([
        'stage-0',
        'stage-1',
        'stage-2',
        'stage-3',
        'stage-4',
        'stage-5',
      ]);
      const members = fieldReport(payload, 'Member_owner_count');
      expect(members.latest).toBe(902);
      expect(members.history[0]).toEqual({
        value: 902,
        date: '2025-03-10T09:00:00.000Z',
        activityId: expect.any(Number),
      });
      expect(members.history.map((entry) => entry.date)).toEqual(
        [...members.history.map((entry) => entry.date)].sort().reverse(),
      );
      expect(fieldReport(payload, 'Equity_share')).toMatchObject({ latest: 200, history: [] });
    });

    it('leaves out the organization’s own Stage, so only the derived stage is shown', async () => {
      const payload = await payloadOf(await staffReport(test));
      const organizationFields = payload.sections[0]!.fields;
      const names = payload.sections.flatMap((section) => section.fields.map((report) => report.field.name));
      // The demo organization's own Stage ('open') disagrees with the derived one.
      expect(names).not.toContain('Food_Co_op_Organizing.Stage');
      expect(payload.currentStage).toEqual(DEMO_CURRENT_STAGE);
      // Identity fields belong to the person, not the organization.
      expect(organizationFields.map((report) => report.field.name)).not.toContain('first_name');
    });

    it('shows the Y1_Q<n>_<metric> fields as a matrix of metrics by quarters, not as rows', async () => {
      const payload = await payloadOf(await staffReport(test));
      const open = payload.sections.find((section) => section.rank === 5)!;
      expect(open.fields.map((report) => report.field.name)).toEqual(['Date_Opened']);
      expect(open.matrix?.quarters).toEqual(['Q1', 'Q2', 'Q3', 'Q4']);
      expect(open.matrix?.rows.map((row) => row.metric)).toEqual([
        'Sales',
        'Members',
        'Transactions',
        'Margin',
      ]);
      const sales = open.matrix!.rows[0]!.cells;
      expect(sales.map((cell) => cell?.latest)).toEqual([615400, 688500, 731200, 774900]);
      // The restated Q1 figure keeps its earlier value.
      expect(sales[0]?.history.map((entry) => entry.value)).toEqual([615400, 612000]);
    });

    it('shows an answer the owner cleared as cleared, as the owner sees it (Cleared_fields)', async () => {
      const model = createDemoModel();
      model.api4('Activity', 'create', {
        values: {
          'activity_type_id:name': ACTIVITY_TYPE_NAME,
          source_contact_id: DEMO_PERSON_ID,
          target_contact_id: [DEMO_ORG_ID],
          activity_date_time: '2026-11-20 10:00:00',
          [`${ACTIVITY_CUSTOM_GROUP}.Cleared_fields`]: 'Store_size_sqft',
        },
      });
      const fresh = await startLiveApp(model);
      try {
        const sqft = fieldReport(await payloadOf(await staffReport(fresh)), 'Store_size_sqft');
        expect(sqft.latest).toBeNull();
        expect(sqft.history.map((entry) => entry.value).slice(0, 2)).toEqual([null, 4200]);
        const owner = await fresh.get(
          `/api/report?cid=${DEMO_PERSON_ID}&cs=${DEMO_CHECKSUM}&orgId=${DEMO_ORG_ID}`,
        );
        const ownerHistory = ((await owner.json()) as ReportPayload).fieldHistory['Store_size_sqft'];
        expect(ownerHistory).toEqual(sqft.history);
      } finally {
        await fresh.close();
      }
    });

    it('lists every check-in newest first, with its stage, subject and who recorded it', async () => {
      const payload = await payloadOf(await staffReport(test));
      expect(payload.submissions).toHaveLength(DEMO_CHECK_IN_COUNT);
      const [newest] = payload.submissions;
      expect(newest).toMatchObject({
        date: '2026-11-14T08:45:00.000Z',
        stage: null,
        fieldCount: 0,
        recordedBy: 'Marisol Vance',
      });
      const stageSet = payload.submissions.find((submission) => submission.stage === 3);
      expect(stageSet).toMatchObject({
        recordedBy: 'Sam Whitaker',
        subject: expect.stringContaining('Business planning'),
      });
    });

    it('puts check-in fields the CRM has but the configuration does not in an "Other fields" section', async () => {
      const model = createDemoModel();
      const [group] = model.api4('CustomGroup', 'get', { where: [['name', '=', ACTIVITY_CUSTOM_GROUP]] });
      model.api4('CustomField', 'create', {
        values: {
          custom_group_id: group?.['id'],
          name: 'Volunteer_hours',
          label: 'Volunteer hours',
          data_type: 'Int',
        },
      });
      const fresh = await startLiveApp(model);
      try {
        const payload = await payloadOf(await staffReport(fresh));
        const other = payload.sections.at(-1);
        expect(other).toMatchObject({ key: 'other', rank: null, title: 'Other fields' });
        expect(other?.fields.map((report) => report.field)).toEqual([
          {
            name: `${ACTIVITY_CUSTOM_GROUP}.Volunteer_hours`,
            type: 'number',
            label: 'Volunteer hours',
            readOnly: true,
            crmField: `${ACTIVITY_CUSTOM_GROUP}.Volunteer_hours`,
          },
        ]);
      } finally {
        await fresh.close();
      }
    });
  });
});

describe('GET /api/staff/report in stub mode', () => {
  const test = sharedTestApp({ stub: true }, { resetEmulator: false });

  it('answers the demo organization from the in-memory CRM, file links on its reserved .invalid address', async () => {
    const payload = await payloadOf(await staffReport(test));
    expect(payload.organization.name).toBe(DEMO_ORG_NAME);
    expect(payload.crmBaseUrl).toBe('http://crm.invalid');
    expect(payload.fileUrlLookup).toBe('file-get');
    for (const file of fileValuesOf(payload))
      expect(new URL(file.url ?? '', payload.crmBaseUrl ?? undefined).toString()).toMatch(
        /^http:\/\/crm\.invalid\/civicrm\/file\?/,
      );
    expect(test.emulator.calls).toEqual([]);
  });
});
