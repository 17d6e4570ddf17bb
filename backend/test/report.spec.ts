import type { ErrorBody, FieldHistoryEntry, ReportPayload } from '@checkin/contract';
import type { RecordedCall } from '@checkin/civicrm-fake/emulator';
import { ACTIVITY_STAGE_FIELD, ACTIVITY_TYPE_NAME } from '../src/app/crm/crm-names';
import {
  createDemoModel,
  DEMO_CHECK_IN_COUNT,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON_ID,
  MULTI_ORG_PERSON_CHECKSUM,
  MULTI_ORG_PERSON_ID,
  OTHER_ORG_ID,
  OTHER_PERSON_CHECKSUM,
  OTHER_PERSON_ID,
} from '../src/app/crm/in-memory/demo-data';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import { ACTIVITY_FIELDS } from '../src/app/fields/field-config';
import { ownerQuery, DEMO_LINK } from './support/test-app';
import { TARGET_JOIN } from './support/check-in-join';
import { sharedTestApp } from './support/shared-app';

const OTHER_LINK = { cid: OTHER_PERSON_ID, cs: OTHER_PERSON_CHECKSUM };

/** Emulator latency while checking that calls go out together: each answer takes this long. */
const ROUND_TRIP_MS = 150;

function reportPath(link: Record<string, string | number>): string {
  return `/api/report?${ownerQuery(link)}`;
}

function entity(call: RecordedCall): string {
  return `${call.entity}.${call.action}`;
}

function values(entries: FieldHistoryEntry[] | undefined): unknown[] {
  return (entries ?? []).map((entry) => entry.value);
}

describe('GET /api/report', () => {
  const service = sharedTestApp({ emulator: { model: createDemoModel() } }, { resetEmulator: false });

  beforeEach(() => {
    service.emulator.reset();
    // Each test starts with a cold checksum check, as a first visit would.
    service.app.get(OwnerAccessService).clear();
  });

  async function report(link: Record<string, string | number> = DEMO_LINK): Promise<ReportPayload> {
    const response = await service.get(reportPath(link));
    expect(response.status).toBe(200);
    return (await response.json()) as ReportPayload;
  }

  describe('the demo organization', () => {
    it('answers its name, its derived stage and every check-in, newest first by date then id', async () => {
      const payload = await report();

      expect(payload.orgName).toBe(DEMO_ORG_NAME);
      // The newest stage-bearing check-ins share a moment: the later id (Business planning) wins.
      expect(payload.currentStage).toEqual({
        rank: 3,
        value: 'business_planning',
        label: 'Business planning',
      });
      expect(payload.activities).toHaveLength(DEMO_CHECK_IN_COUNT);
      expect(payload.activities[0]).toMatchObject({
        date: '2026-11-14T08:45:00.000Z',
        stage: null,
        fieldCount: 0,
      });
      const order = payload.activities.map((activity) => [activity.date, activity.id] as const);
      const sorted = [...order].sort(([dateA, idA], [dateB, idB]) =>
        dateA === dateB ? idB - idA : dateB.localeCompare(dateA),
      );
      expect(order).toEqual(sorted);
    });

    it('collects every non-empty value of a field with its date, newest first', async () => {
      const { fieldHistory } = await report();

      expect(values(fieldHistory['Steering_committee_size'])).toEqual([9, 7, 5]);
      expect(fieldHistory['Steering_committee_size']?.map((entry) => entry.date)).toEqual([
        '2022-10-30T20:10:00.000Z',
        '2022-07-22T18:05:00.000Z',
        '2022-04-10T19:30:00.000Z',
      ]);
      expect(values(fieldHistory['Y1_Q1_Sales'])).toEqual([615400, 612000]);
      expect(values(fieldHistory['Mission_statement_adopted'])).toEqual([true, false]);
      expect(values(fieldHistory['Lender_types'])[0]).toEqual([
        'cdfi',
        'member_loans',
        'bank',
        'coop_lender',
      ]);
      expect(fieldHistory['Business_plan']?.[0]?.value).toEqual({
        id: expect.any(Number),
        file_name: 'second_store_pro_forma.xlsx',
      });
    });

    it('puts the later of two check-ins made at the same moment first', async () => {
      const { fieldHistory } = await report();
      const [newest, sameMoment] = fieldHistory['Organizing_notes'] ?? [];

      expect(newest?.date).toBe('2026-10-02T14:00:00.000Z');
      expect(sameMoment?.date).toBe('2026-10-02T14:00:00.000Z');
      expect(newest?.value).toBe('Draft pro forma for the second store (corrected figures).');
      expect(newest!.activityId).toBeGreaterThan(sameMoment!.activityId);
    });

    it('sends the stage sections with their fields, the stages and the option lists', async () => {
      const payload = await report();

      expect(payload.sections.map((section) => section.rank)).toEqual([1, 2, 3, 4, 5]);
      expect(payload.stages.map((stage) => stage.label)).toEqual([
        'Inquiry',
        'Organizing',
        'Feasibility',
        'Business planning',
        'Capitalization',
        'Open',
      ]);
      expect(payload.options['Site_status']).toContainEqual({
        value: '3',
        label: 'Letter of intent signed',
        name: 'loi_signed',
      });
    });

    it('never reads or writes organization contact fields as history', async () => {
      const { fieldHistory } = await report();

      const activityFieldNames = new Set(ACTIVITY_FIELDS.map((field) => field.name));
      expect(Object.keys(fieldHistory).every((name) => activityFieldNames.has(name))).toBe(true);
      expect(fieldHistory).not.toHaveProperty('Equity_share');
      expect(service.emulator.writes()).toEqual([]);
    });
  });

  it('leaves out fields that no check-in answered, and values the CRM holds as empty', async () => {
    service.emulator.model.api4('Activity', 'create', {
      values: {
        'activity_type_id:name': ACTIVITY_TYPE_NAME,
        activity_date_time: '2026-01-05 10:00:00',
        source_contact_id: OTHER_PERSON_ID,
        target_contact_id: [OTHER_ORG_ID],
        'Check_in_data__organizing_.Organizing_notes': '',
        'Check_in_data__organizing_.Organizing_focus': [],
      },
    });

    const { fieldHistory, activities } = await report(OTHER_LINK);

    expect(Object.keys(fieldHistory).sort()).toEqual([
      'Interest_list_size',
      'Organizing_notes',
      'Steering_committee_size',
    ]);
    expect(values(fieldHistory['Organizing_notes'])).toEqual(['Hilltop: first potluck.']);
    expect(activities[0]).toMatchObject({ date: '2026-01-05T10:00:00.000Z', fieldCount: 0 });
  });

  it('tells browsers and proxies not to keep the personal history', async () => {
    const response = await service.get(reportPath(DEMO_LINK));

    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('uses the person’s only organization when the link has no orgId', async () => {
    const payload = await report({ cid: DEMO_PERSON_ID, cs: DEMO_CHECKSUM });

    expect(payload.orgName).toBe(DEMO_ORG_NAME);
    expect(
      service.emulator.callsTo('Activity', 'get').map((call) => JSON.stringify(call.params['where'])),
    ).toEqual([expect.stringContaining(`["tgt.contact_id","=",${DEMO_ORG_ID}]`)]);
  });

  describe('what it asks of the CRM', () => {
    it('reads the organization and its check-ins together, in one round trip (options from the schema cache)', async () => {
      await report(); // warms the checksum grant, the custom field metadata and the option lists
      service.emulator.clearCalls();
      service.emulator.setLatency(ROUND_TRIP_MS);

      await report();

      const calls = service.emulator.calls;
      expect(calls.map(entity).sort()).toEqual(['Activity.get', 'Contact.get']);
      const arrivals = calls.map((call) => call.at);
      // Both arrived before the first answer could have been sent.
      expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeLessThan(ROUND_TRIP_MS);
    });

    it('asks for every check-in of the organization, newest first, with each configured field', async () => {
      await report();

      const [activities] = service.emulator.callsTo('Activity', 'get');
      expect(activities?.params).toMatchObject({
        join: expect.arrayContaining([TARGET_JOIN]),
        where: [
          ['activity_type_id:name', '=', ACTIVITY_TYPE_NAME],
          ['tgt.contact_id', '=', DEMO_ORG_ID],
        ],
        orderBy: { activity_date_time: 'DESC', id: 'DESC' },
      });
      expect(activities?.params).not.toHaveProperty('limit');
      const select = activities?.params['select'] as string[];
      expect(select).toEqual(expect.arrayContaining(['id', 'activity_date_time', ACTIVITY_STAGE_FIELD]));
      expect(select).toEqual(
        expect.arrayContaining([
          'Check_in_data__organizing_.Member_owner_count',
          'Check_in_data__organizing_.Business_plan',
          'Check_in_data__organizing_.Business_plan.file_name',
        ]),
      );
      const [organization] = service.emulator.callsTo('Contact', 'get');
      expect(organization?.params['where']).toEqual([['id', '=', DEMO_ORG_ID]]);
    });

    it('sends the history reads with the checksum check on a first visit: one CRM request, answered once it passed', async () => {
      service.emulator.setLatency(ROUND_TRIP_MS);

      const response = await report();

      const calls = service.emulator.calls;
      expect(calls.map((call) => call.batchKey)).toEqual([
        '0:Contact.validateChecksum',
        '1:Relationship.get',
        '2:Contact.get',
        '3:Activity.get',
      ]);
      expect(new Set(calls.map((call) => call.at)).size).toBe(1);
      expect(response.activities.length).toBeGreaterThan(0);
    });
  });

  describe('refusals', () => {
    it('answers 401 for a wrong checksum, nothing of the organization, and asks the CRM nothing after the check', async () => {
      const response = await service.get(
        reportPath({ ...DEMO_LINK, cs: '0123456789abcdef0123456789abcdef_1767225600_inf' }),
      );

      expect(response.status).toBe(401);
      expect((await response.json()) as ErrorBody).toEqual({
        statusCode: 401,
        code: 'CHECKSUM_INVALID',
        message: expect.any(String),
      });
      // The reads went in the check's own request; nothing was sent after the refusal.
      const calls = service.emulator.calls;
      expect(calls.map(entity).sort()).toEqual([
        'Activity.get',
        'Contact.get',
        'Contact.validateChecksum',
        'Relationship.get',
      ]);
      expect(new Set(calls.map((call) => call.at)).size).toBe(1);
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 401 without calling the CRM when the link has no checksum', async () => {
      const response = await service.get(reportPath({ cid: DEMO_PERSON_ID, orgId: DEMO_ORG_ID }));

      expect(response.status).toBe(401);
      expect(service.emulator.calls).toEqual([]);
    });

    it('answers 403 for an organization the person is not the primary contact of', async () => {
      const response = await service.get(reportPath({ ...DEMO_LINK, orgId: OTHER_ORG_ID }));

      expect(response.status).toBe(403);
      expect((await response.json()) as ErrorBody).toEqual({
        statusCode: 403,
        code: 'ORG_NOT_ALLOWED',
        message: expect.any(String),
      });
      // Reads of the link's organization went with the check; none after it, nothing written.
      const calls = service.emulator.calls;
      expect(new Set(calls.map((call) => call.at)).size).toBe(1);
      expect(calls.map((call) => call.batchKey?.split(':')[1])).toEqual([
        'Contact.validateChecksum',
        'Relationship.get',
        'Contact.get',
        'Activity.get',
      ]);
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 403 when contactId names someone else than cid', async () => {
      const response = await service.get(reportPath({ ...DEMO_LINK, contactId: OTHER_PERSON_ID }));

      expect(response.status).toBe(403);
      expect(((await response.json()) as ErrorBody).code).toBe('CONTACT_MISMATCH');
      expect(service.emulator.callsTo('Activity')).toEqual([]);
    });

    it('answers 400 asking for orgId when the person is primary contact of several organizations', async () => {
      const response = await service.get(
        reportPath({ cid: MULTI_ORG_PERSON_ID, cs: MULTI_ORG_PERSON_CHECKSUM }),
      );

      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorBody).code).toBe('ORG_REQUIRED');
    });
  });

  describe('when the CRM fails', () => {
    it('answers 502 with the error body, never the CRM’s details', async () => {
      service.emulator.injectFault({ kind: 'http500', entity: 'Activity', action: 'get' });

      const response = await service.get(reportPath(DEMO_LINK));

      expect(response.status).toBe(502);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({
        statusCode: 502,
        code: 'CRM_UNAVAILABLE',
        message: expect.any(String),
      });
      expect(body).not.toMatch(/stack|Activity|HTTP 500|civicrm/i);
    });

    it('answers 504 when the CRM does not answer in time', async () => {
      service.emulator.injectFault({ kind: 'slow', entity: 'Activity', action: 'get', delayMs: 3_000 });

      const response = await service.get(reportPath(DEMO_LINK));

      expect(response.status).toBe(504);
      expect(((await response.json()) as ErrorBody).code).toBe('CRM_TIMEOUT');
    });
  });
});

describe('GET /api/report in stub mode', () => {
  const service = sharedTestApp({ stub: true }, { resetEmulator: false });

  it('answers the demo organization’s history from the built-in CRM', async () => {
    const response = await service.get(reportPath(DEMO_LINK));

    expect(response.status).toBe(200);
    const payload = (await response.json()) as ReportPayload;
    expect(payload.orgName).toBe(DEMO_ORG_NAME);
    expect(payload.activities).toHaveLength(DEMO_CHECK_IN_COUNT);
    expect(payload.currentStage.label).toBe('Business planning');
    expect(service.emulator.calls).toEqual([]);
  });

  it('still refuses any checksum but the demo one', async () => {
    const response = await service.get(reportPath({ ...DEMO_LINK, cs: 'guess' }));

    expect(response.status).toBe(401);
  });
});
