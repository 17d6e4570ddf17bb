import { createHmac } from 'node:crypto';
import { FILE_LINK_TTL_SECONDS } from '../src/app/staff-report/file-link-signature';
import type {
  FieldValue,
  FileValue,
  ReportPayload,
  FieldReport,
  StaffReportPayload,
} from '@checkin/contract';
import type { RecordedCall } from '@checkin/civicrm-fake/emulator';
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
import type { CiviCrmModel } from '@checkin/civicrm-fake';
import { startTestApp, TEST_API_KEY, TEST_STAFF_KEY, type TestApp } from './support/test-app';

const SITE_KEY = 'staff-report-site-key-0123';
const WEBSERVER = { user: 'webserver', password: 'staff-report-webserver-pass' };
const FILE_ROUTE = '/civicrm/checkin-file/{id}';
const STAFF = { 'X-Staff-Key': TEST_STAFF_KEY };
/** The demo organization's files: the certificate, two studies, the plan and the pro forma. */
const DEMO_ORG_FILE_COUNT = 5;

function staffReport(
  test: TestApp,
  orgId: number | string = DEMO_ORG_ID,
  headers: Record<string, string> = STAFF,
): Promise<Response> {
  return test.get(`/api/staff/report?orgId=${orgId}`, headers);
}

async function payloadOf(response: Response): Promise<StaffReportPayload> {
  expect(response.status).toBe(200);
  return (await response.json()) as StaffReportPayload;
}

function allFieldReports(payload: StaffReportPayload): FieldReport[] {
  return payload.sections.flatMap((section) => [
    ...section.fields,
    ...(section.matrix?.rows.flatMap((row) => row.cells.filter((cell) => cell !== null)) ?? []),
  ]);
}

function isFile(value: FieldValue): value is FileValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every file value in the payload: latest values and history entries alike. */
function fileValuesOf(payload: StaffReportPayload): FileValue[] {
  return allFieldReports(payload)
    .flatMap((report) => [report.latest, ...report.history.map((entry) => entry.value)])
    .filter(isFile);
}

function fieldReport(payload: StaffReportPayload, name: string): FieldReport {
  const report = allFieldReports(payload).find((candidate) => candidate.field.name === name);
  if (!report) throw new Error(`No field ${name} in the staff report`);
  return report;
}

const v3Calls = (test: TestApp): RecordedCall[] => test.emulator.calls.filter((call) => call.version === 3);
const callNames = (calls: RecordedCall[]) => calls.map((call) => `${call.entity}.${call.action}`).sort();

/** The authentication headers a call carried, as the CRM (and a webserver in front) see them. */
function authHeaders(call: RecordedCall): Record<string, string | undefined> {
  const { headers } = call;
  return {
    auth: headers['x-civi-auth'],
    siteKey: headers['x-civi-key'],
    basic: headers['authorization'],
    requestedWith: headers['x-requested-with'],
  };
}

function addCheckInWithFiles(model: CiviCrmModel, count: number): number[] {
  const ids = Array.from({ length: count }, (_, index) => {
    const [file] = model.api4('File', 'create', {
      values: { file_name: `extra-${index}.pdf`, mime_type: 'application/pdf', content: 'JVBERi0=' },
    });
    return Number(file?.['id']);
  });
  for (const id of ids) {
    model.api4('Activity', 'create', {
      values: {
        'activity_type_id:name': ACTIVITY_TYPE_NAME,
        source_contact_id: DEMO_PERSON_ID,
        target_contact_id: [DEMO_ORG_ID],
        activity_date_time: '2026-11-18 10:00:00',
        [`${ACTIVITY_CUSTOM_GROUP}.Business_plan`]: id,
      },
    });
  }
  return ids;
}

/** The service in live mode against an emulator with a site key and Basic Auth in front. */
function startLiveApp(model: CiviCrmModel = createDemoModel(), pauseSeconds = '0'): Promise<TestApp> {
  return startTestApp({
    env: {
      CRM_SITE_KEY: SITE_KEY,
      CRM_BASIC_AUTH_USER: WEBSERVER.user,
      CRM_BASIC_AUTH_PASSWORD: WEBSERVER.password,
      CRM_FILE_ROUTE: FILE_ROUTE,
      // Every report asks the v3 lookup, so each spec sees the product's order of calls; the
      // pause after a refusal has its own spec.
      CRM_ATTACHMENT_LOOKUP_PAUSE_SECONDS: pauseSeconds,
    },
    emulator: { model, siteKey: SITE_KEY, basicAuth: WEBSERVER },
  });
}

describe('GET /api/staff/report (live mode against the CRM emulator)', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startLiveApp();
  });

  afterAll(() => test.close());

  beforeEach(() => {
    test.emulator.reset();
  });

  describe('the staff key', () => {
    it('refuses a request without X-Staff-Key with 401 and asks the CRM nothing', async () => {
      const response = await staffReport(test, DEMO_ORG_ID, {});
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        statusCode: 401,
        code: 'STAFF_KEY_INVALID',
        message: 'The staff key is missing or wrong.',
      });
      expect(test.emulator.calls).toEqual([]);
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

  describe('signed file URLs', () => {
    it('makes exactly one APIv3 Attachment.get with an IN list, return "id,url" and sequential 1', async () => {
      const payload = await payloadOf(await staffReport(test));
      const referencedIds = [...new Set(fileValuesOf(payload).map((file) => file.id))].sort((a, b) => a - b);
      expect(referencedIds).toHaveLength(DEMO_ORG_FILE_COUNT);

      const [lookup, ...more] = v3Calls(test);
      expect(more).toEqual([]);
      expect(lookup).toMatchObject({
        method: 'POST',
        path: '/civicrm/ajax/rest',
        entity: 'Attachment',
        action: 'get',
      });
      expect(lookup?.params).toEqual({ id: { IN: referencedIds }, return: 'id,url', sequential: 1 });
    });

    it('sends the lookup with the same server-side authentication headers as the APIv4 reads', async () => {
      await payloadOf(await staffReport(test));
      const [lookup] = v3Calls(test);
      const expected = {
        auth: `Bearer ${TEST_API_KEY}`,
        siteKey: SITE_KEY,
        basic: `Basic ${Buffer.from(`${WEBSERVER.user}:${WEBSERVER.password}`).toString('base64')}`,
        requestedWith: 'XMLHttpRequest',
      };
      expect(authHeaders(lookup!)).toEqual(expected);
      for (const call of test.emulator.calls) expect(authHeaders(call)).toEqual(expected);
    });

    it('returns activity-side and organization-side files as {id, file_name, url}', async () => {
      const payload = await payloadOf(await staffReport(test));
      // CiviCRM refuses the v3 id list (HTTP 500): the URLs come from APIv4 File.get.
      expect(payload.fileUrlLookup).toBe('file-get');
      for (const file of fileValuesOf(payload)) {
        expect(file).toEqual({
          id: file.id,
          file_name: expect.any(String),
          // File.get answers the signed address relative to the site; the page resolves it.
          url: expect.stringMatching(new RegExp(`^/civicrm/file\\?reset=1&id=${file.id}&fcs=`)),
        });
      }
      expect(fieldReport(payload, 'Certificate_of_Incorporation').latest).toMatchObject({
        file_name: 'Riverbend_certificate_of_incorporation.pdf',
        url: expect.stringContaining('/civicrm/file?reset=1&id='),
      });
      const studies = fieldReport(payload, 'Feasibility_study').history.map((entry) => entry.value);
      expect(studies).toEqual([
        expect.objectContaining({ file_name: 'Riverbend_market_study_2023.pdf', url: expect.any(String) }),
        expect.objectContaining({ file_name: 'preliminary_market_scan.png', url: expect.any(String) }),
      ]);
    });

    it('still makes one lookup when the organization references many more files', async () => {
      const extra = addCheckInWithFiles(test.emulator.model, 40);
      const payload = await payloadOf(await staffReport(test));
      const lookups = v3Calls(test);
      expect(lookups).toHaveLength(1);
      const ids = (lookups[0]?.params['id'] as { IN: number[] }).IN;
      expect(ids).toHaveLength(DEMO_ORG_FILE_COUNT + extra.length);
      expect(ids).toEqual(expect.arrayContaining(extra));
      expect(fileValuesOf(payload).every((file) => typeof file.url === 'string')).toBe(true);
    });

    it('makes no lookup when no file is referenced', async () => {
      const payload = await payloadOf(await staffReport(test, MULTI_ORG_IDS[0]));
      expect(payload.fileUrlLookup).toBe('skipped');
      expect(v3Calls(test)).toEqual([]);
    });

    it.each([
      ['an APIv3 error envelope', { kind: 'v3error' as const }],
      ['HTTP 500 on the v3 path', { kind: 'http500' as const, entity: 'Attachment' }],
    ])('asks File.get for signed URLs and logs a warning when the lookup fails with %s', async (_, fault) => {
      test.emulator.injectFault(fault);
      const logLines = test.logs.length;
      const payload = await payloadOf(await staffReport(test));

      expect(payload.fileUrlLookup).toBe('file-get');
      const files = fileValuesOf(payload);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files)
        expect(file).toEqual({
          id: expect.any(Number),
          file_name: expect.any(String),
          url: expect.any(String),
        });
      expect(v3Calls(test)).toHaveLength(1);
      const warnings = test.logs
        .slice(logLines)
        .filter((line) => line.includes('"warn"') && line.includes('Attachment URL lookup'));
      expect(warnings).toHaveLength(1);
    });

    it('after the CRM refused the v3 lookup, goes straight to File.get for the pause, saying so once', async () => {
      const paused = await startLiveApp(createDemoModel(), '3600');
      try {
        paused.emulator.injectFault({ kind: 'http500', entity: 'Attachment' });
        const first = await payloadOf(await staffReport(paused));
        const second = await payloadOf(await staffReport(paused));
        const third = await payloadOf(await staffReport(paused));

        expect([first, second, third].map((payload) => payload.fileUrlLookup)).toEqual([
          'file-get',
          'file-get',
          'file-get',
        ]);
        expect(v3Calls(paused)).toHaveLength(1);
        expect(paused.emulator.callsTo('File', 'get')).toHaveLength(3);
        expect(paused.logs.filter((line) => line.includes('refused by this CRM'))).toHaveLength(1);
      } finally {
        await paused.close();
      }
    });

    it('gives the page CRM_BASE_URL and the extension file route, never a credential', async () => {
      const payload = await payloadOf(await staffReport(test));
      expect(payload.crmBaseUrl).toBe(test.emulator.baseUrl);
      expect(payload.fileRouteTemplate).toBe(FILE_ROUTE);
    });
  });

  describe('with FILE_LINK_KEY (the extension holds the same key)', () => {
    const FILE_LINK_KEY = 'Qm7Rt2Vx9Lk4Wp8Zn3Bc6Hd1Fj5Gs0Ya';
    let signing: TestApp;

    beforeAll(async () => {
      signing = await startTestApp({
        env: { FILE_LINK_KEY },
        emulator: { model: createDemoModel() },
      });
    });

    afterAll(() => signing.close());

    it("links every file through the extension's route, signed with an expiry, and asks the CRM for no URL", async () => {
      const before = Math.floor(Date.now() / 1000);
      const payload = await payloadOf(await staffReport(signing));
      expect(payload.fileUrlLookup).toBe('ok');
      const files = fileValuesOf(payload);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const url = new URL(String(file.url));
        expect(`${url.origin}${url.pathname}`).toBe(`${signing.emulator.baseUrl}/civicrm/checkin-file`);
        expect(url.searchParams.get('id')).toBe(String(file.id));
        const expires = Number(url.searchParams.get('expires'));
        expect(expires).toBeGreaterThanOrEqual(before + FILE_LINK_TTL_SECONDS);
        expect(expires).toBeLessThanOrEqual(before + FILE_LINK_TTL_SECONDS + 60);
        expect(url.searchParams.get('signature')).toBe(
          createHmac('sha256', FILE_LINK_KEY).update(`checkin-file:${file.id}:${expires}`).digest('hex'),
        );
      }
      expect(v3Calls(signing)).toEqual([]);
      expect(signing.emulator.callsTo('File', 'get')).toEqual([]);
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
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp({ stub: true });
  });

  afterAll(() => test.close());

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
