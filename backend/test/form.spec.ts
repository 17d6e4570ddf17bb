import type { ErrorBody, FormDataPayload } from '@checkin/contract';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import type { RecordedCall } from '@checkin/civicrm-fake/emulator';
import {
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_STATUS_NAME,
  ACTIVITY_TYPE_NAME,
  ACTIVITY_CUSTOM_GROUP,
  CONTACT_CUSTOM_GROUP,
} from '../src/app/crm/crm-names';
import {
  createDemoModel,
  DEMO_CURRENT_STAGE,
  DEMO_OPTIONS,
  DEMO_ORG_ID,
  DEMO_ORG_NAME,
  DEMO_PERSON,
  DEMO_PERSON_ID,
  DEMO_STAGES,
  MULTI_ORG_IDS,
  MULTI_ORG_PERSON_CHECKSUM,
  MULTI_ORG_PERSON_ID,
  OTHER_ORG_ID,
  STAFF_CONTACT_ID,
} from '../src/app/crm/in-memory/demo-data';
import { crmNameOf, SECTIONS } from '../src/app/fields/field-config';
import { PREFILL_FIRST_SLICE, PREFILLED_ACTIVITY_FIELDS } from '../src/app/form/form-data.service';
import { UPLOAD_LIMITS } from '../src/app/check-ins/upload-policy';
import { ownerQuery, DEMO_LINK } from './support/test-app';
import { TARGET_JOIN } from './support/check-in-join';
import { sharedTestApp } from './support/shared-app';

/** A checksum of the shape CiviCRM issues that is not the demo person's. */
const WRONG_CHECKSUM = '0123456789abcdef0123456789abcdef_1767225600_inf';

/** Emulator latency while checking that calls go out together: each answer takes this long. */
const ROUND_TRIP_MS = 150;

function dataPath(link: Record<string, string | number> = DEMO_LINK): string {
  return `/api/data?${ownerQuery(link)}`;
}

function name(call: RecordedCall): string {
  return `${call.entity}.${call.action}`;
}

/** The form's read of check-ins older than its first slice (docs/performance.md, "Bounded answers"). */
const FEASIBILITY = 'Feasibility_study';
const PLAN = 'Business_plan';
const FEASIBILITY_STUDY = `${ACTIVITY_CUSTOM_GROUP}.${FEASIBILITY}`;
const BUSINESS_PLAN = `${ACTIVITY_CUSTOM_GROUP}.${PLAN}`;
const CLEARED_FIELDS = `${ACTIVITY_CUSTOM_GROUP}.Cleared_fields`;
/** The form's first request: the identity, the organization, the stage, the newest check-ins and one read per file field. */
const FORM_READS = [
  'Contact.get',
  'Contact.get',
  'Activity.get',
  'Activity.get',
  'Activity.get',
  'Activity.get',
].sort();
/** More check-ins than the form reads in its first slice. */
const LONG_HISTORY = PREFILL_FIRST_SLICE + 5;
const PREFILLED_NOT_FILES = PREFILLED_ACTIVITY_FIELDS.filter((field) => field.type !== 'file');

/** The custom-field columns a read selected (file names' joins left out). */
function customColumns(call: RecordedCall | undefined): string[] {
  const select = (call?.params['select'] ?? []) as string[];
  return select
    .filter(
      (column) => /^[A-Za-z_]+\.[A-Za-z_0-9]+$/.test(column) && column.startsWith(ACTIVITY_CUSTOM_GROUP),
    )
    .sort();
}

/**
 * Whether the calls are the form's second request (a co-op with more check-ins than its first
 * slice, whose newest left some fields unsettled): one batch of `limit 1` reads, each of one
 * prefilled field's column, older than a place in the list.
 */
function isSecondRequest(calls: RecordedCall[]): boolean {
  const prefilledColumns = PREFILLED_ACTIVITY_FIELDS.map(crmNameOf);
  return (
    new Set(calls.map((call) => call.at)).size === 1 &&
    calls.every((call) => {
      const own = customColumns(call).filter(
        (column) => ![CLEARED_FIELDS, ACTIVITY_STAGE_FIELD].includes(column),
      );
      return (
        name(call) === 'Activity.get' &&
        call.params['limit'] === 1 &&
        own.length === 1 &&
        prefilledColumns.includes(own[0] ?? '') &&
        JSON.stringify(call.params['where']).includes('["activity_date_time","<"')
      );
    })
  );
}

describe('GET /api/data', () => {
  const service = sharedTestApp({ emulator: { model: createDemoModel() } }, { resetEmulator: false });

  beforeEach(() => {
    service.emulator.reset();
    service.app.get(OwnerAccessService).clear();
  });

  async function formData(link: Record<string, string | number> = DEMO_LINK): Promise<FormDataPayload> {
    const response = await service.get(dataPath(link));
    expect(response.status).toBe(200);
    return (await response.json()) as FormDataPayload;
  }

  function fileId(fileName: string): number {
    const [file] = service.emulator.model.api4('File', 'get', { where: [['file_name', '=', fileName]] });
    return Number(file?.['id']);
  }

  describe('for the demo person', () => {
    it('answers the identity read through email_primary.email, apart from the prefill', async () => {
      const payload = await formData();

      expect(payload.formId).toBe('org_engagement_check_in');
      expect(payload.contact).toEqual({ id: DEMO_PERSON_ID, ...DEMO_PERSON });
      expect(payload.organization).toEqual({ id: DEMO_ORG_ID, name: DEMO_ORG_NAME });
      for (const identityField of ['first_name', 'last_name', 'email']) {
        expect(payload.prefill).not.toHaveProperty(identityField);
      }
      const identityRead = service.emulator
        .callsTo('Contact', 'get')
        .find(
          (call) => JSON.stringify(call.params['where']) === JSON.stringify([['id', '=', DEMO_PERSON_ID]]),
        );
      expect(identityRead?.params['select']).toEqual(['first_name', 'last_name', 'email_primary.email']);
    });

    it('prefills the organization’s contact-bound values, with the file as {id, file_name}', async () => {
      const { prefill } = await formData();

      expect(prefill['Date_Incorporated']).toBe('2022-06-01');
      expect(prefill['Name_on_Incorporation_Certificate']).toBe('Riverbend Food Cooperative, Inc.');
      expect(prefill['Equity_share']).toBe(200);
      expect(prefill['Certificate_of_Incorporation']).toEqual({
        id: fileId('Riverbend_certificate_of_incorporation.pdf'),
        file_name: 'Riverbend_certificate_of_incorporation.pdf',
      });
      const organizationRead = service.emulator
        .callsTo('Contact', 'get')
        .find((call) => JSON.stringify(call.params['where']) === JSON.stringify([['id', '=', DEMO_ORG_ID]]));
      expect(organizationRead?.params['select']).toEqual(
        expect.arrayContaining([
          `${CONTACT_CUSTOM_GROUP}.Certificate_of_Incorporation`,
          `${CONTACT_CUSTOM_GROUP}.Certificate_of_Incorporation.file_name`,
        ]),
      );
      expect(organizationRead?.params['select']).not.toContain(`${CONTACT_CUSTOM_GROUP}.Stage`);
    });

    it('prefills each activity-bound field with its newest non-empty value', async () => {
      const { prefill } = await formData();

      // "Since the last check-in" is asked afresh each time, never prefilled.
      expect(prefill).not.toHaveProperty('Organizing_notes');
      expect(prefill['Business_plan']).toEqual({
        id: fileId('second_store_pro_forma.xlsx'),
        file_name: 'second_store_pro_forma.xlsx',
      });
      expect(prefill['Projected_annual_sales']).toBe(1350000);
      expect(prefill['Site_status']).toBe('2');
      expect(prefill['Business_plan_done']).toBe(false);
      expect(prefill['Lender_types']).toEqual(['cdfi', 'member_loans', 'bank', 'coop_lender']);
      // Restated in the first-year report.
      expect(prefill['Y1_Q1_Sales']).toBe(615400);
      expect(prefill['Date_Opened']).toBe('2025-03-08');
    });

    it('dates each prefilled activity-bound answer with the check-in it came from', async () => {
      const { lastGiven, prefill } = await formData();

      expect(lastGiven?.['Store_size_sqft']).toBe('2026-07-15T18:30:00.000Z');
      expect(lastGiven?.['Business_plan']).toBe('2026-10-02T14:00:00.000Z');
      // Contact-bound values carry no date in the CRM.
      expect(prefill['Equity_share']).toBeDefined();
      expect(lastGiven).not.toHaveProperty('Equity_share');
      expect(Object.keys(lastGiven ?? {}).every((name) => name in prefill)).toBe(true);
    });

    it('derives the stage from the newest staff-set check-in, by date then id', async () => {
      const payload = await formData();

      expect(payload.currentStage).toEqual(DEMO_CURRENT_STAGE);
      expect(payload.prefill['current_stage']).toBe(DEMO_CURRENT_STAGE.value);
      expect(payload.stages).toEqual(DEMO_STAGES);
      const stageQuery = service.emulator
        .callsTo('Activity', 'get')
        .find((call) => call.params['limit'] === 1);
      expect(stageQuery?.params).toMatchObject({
        join: [TARGET_JOIN],
        where: expect.arrayContaining([
          ['activity_type_id:name', '=', ACTIVITY_TYPE_NAME],
          ['tgt.contact_id', '=', DEMO_ORG_ID],
          [ACTIVITY_STAGE_FIELD, 'IS NOT EMPTY'],
        ]),
        orderBy: { activity_date_time: 'DESC', id: 'DESC' },
        limit: 1,
      });
    });

    it('shows a stage staff set a moment ago', async () => {
      service.emulator.model.api4('Activity', 'create', {
        values: {
          'activity_type_id:name': ACTIVITY_TYPE_NAME,
          'status_id:name': ACTIVITY_STATUS_NAME,
          subject: 'Stage set: Capitalization',
          activity_date_time: '2026-11-21 09:00:00',
          source_contact_id: STAFF_CONTACT_ID,
          target_contact_id: [DEMO_ORG_ID],
          [ACTIVITY_STAGE_FIELD]: 'capitalization',
        },
      });

      expect((await formData()).currentStage).toEqual({
        rank: 4,
        value: 'capitalization',
        label: 'Capitalization',
      });
    });

    it('answers the CRM’s option lists by field name, values untouched', async () => {
      const { options } = await formData();

      expect(options['Site_status']).toEqual(
        DEMO_OPTIONS['Site_status']?.map((option) => ({ ...option, name: option.name ?? option.value })),
      );
      expect(options['Organizing_focus']?.map((option) => option.value)).toEqual(
        DEMO_OPTIONS['Organizing_focus']?.map((option) => option.value),
      );
      expect(options['current_stage']?.map((option) => option.label)).toEqual(
        DEMO_STAGES.map((stage) => stage.label),
      );
    });

    it('reads the option lists once, then from the schema cache', async () => {
      await formData();
      service.emulator.clearCalls();

      const { options } = await formData();

      expect(options['Site_status']).toHaveLength(DEMO_OPTIONS['Site_status']?.length ?? -1);
      expect(service.emulator.callsTo('OptionValue')).toEqual([]);
    });

    it('answers every section and the upload policy', async () => {
      const payload = await formData();

      expect(payload.sections).toEqual(SECTIONS);
      expect(payload.upload).toEqual(UPLOAD_LIMITS);
    });

    it('sends its five reads together, in one round after the checksum', async () => {
      await formData();
      service.emulator.clearCalls();
      service.emulator.setLatency(ROUND_TRIP_MS);

      await formData();

      const [first, ...others] = service.emulator.calls;
      const together = [first!, ...others.filter((call) => call.at - first!.at < ROUND_TRIP_MS / 2)];
      expect(together.map(name).sort()).toEqual(FORM_READS);
      // After them, the second request: the demo co-op has more check-ins than a slice, some fields unsettled in it.
      expect(isSecondRequest(others.filter((call) => !together.includes(call)))).toBe(true);
    });

    it('writes nothing', async () => {
      await formData();
      expect(service.emulator.writes()).toEqual([]);
    });
  });

  it('answers Inquiry for an organization no staff member has given a stage', async () => {
    const payload = await formData({
      cid: MULTI_ORG_PERSON_ID,
      cs: MULTI_ORG_PERSON_CHECKSUM,
      orgId: MULTI_ORG_IDS[1],
    });

    expect(payload.currentStage).toEqual({ rank: 0, value: null, label: 'Inquiry' });
    expect(payload.organization).toEqual({ id: MULTI_ORG_IDS[1], name: 'Lakeshore Community Grocery' });
    expect(payload.prefill).toEqual({ current_stage: null });
  });

  describe('refusals', () => {
    it('answers 401 for a wrong checksum and nothing of the organization', async () => {
      const response = await service.get(dataPath({ ...DEMO_LINK, cs: WRONG_CHECKSUM }));

      expect(response.status).toBe(401);
      expect((await response.json()) as ErrorBody).toEqual({
        statusCode: 401,
        code: 'CHECKSUM_INVALID',
        message: expect.any(String),
      });
      // The form's reads travelled with the check, in its one request: nothing was sent after it.
      const calls = service.emulator.calls;
      expect(calls.map((call) => call.batchKey?.split(':')[1]).slice(0, 2)).toEqual([
        'Contact.validateChecksum',
        'Relationship.get',
      ]);
      expect(new Set(calls.map((call) => call.at)).size).toBe(1);
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 401 for a wrong checksum on a link without orgId, and reads nothing of any organization', async () => {
      const { orgId: _unused, ...withoutOrg } = { ...DEMO_LINK, cs: WRONG_CHECKSUM };
      const response = await service.get(dataPath(withoutOrg));

      expect(response.status).toBe(401);
      expect(service.emulator.calls.map(name).sort()).toEqual([
        'Contact.validateChecksum',
        'Relationship.get',
      ]);
    });

    it('answers 403 for an organization the person is not tied to', async () => {
      const response = await service.get(dataPath({ ...DEMO_LINK, orgId: OTHER_ORG_ID }));

      expect(response.status).toBe(403);
      expect((await response.json()) as ErrorBody).toEqual({
        statusCode: 403,
        code: 'ORG_NOT_ALLOWED',
        message: expect.any(String),
      });
      // One request: the check and the reads the link's parameters allow; nothing after it.
      expect(new Set(service.emulator.calls.map((call) => call.at)).size).toBe(1);
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers a first visit in one CRM request: the checksum check and the form reads as one batch', async () => {
      await formData(); // warms the schema, option lists and site caches
      service.app.get(OwnerAccessService).clear();
      service.emulator.clearCalls();
      service.emulator.setLatency(ROUND_TRIP_MS);

      const payload = await formData();

      const calls = service.emulator.calls;
      expect(calls.map((call) => call.batchKey?.split(':')[1]).slice(0, 2)).toEqual([
        'Contact.validateChecksum',
        'Relationship.get',
      ]);
      const batch = calls.filter((call) => call.at === calls[0]!.at);
      expect(batch.map(name).slice(2).sort()).toEqual(FORM_READS);
      // Only the second request follows, once the check passed.
      expect(isSecondRequest(calls.filter((call) => !batch.includes(call)))).toBe(true);
      expect(payload.organization.id).toBe(DEMO_ORG_ID);
    });

    it('answers 502 without CRM details when the CRM fails a read', async () => {
      service.emulator.injectFault({ kind: 'http500', entity: 'Activity' });

      const response = await service.get(dataPath());

      expect(response.status).toBe(502);
      const body = (await response.json()) as ErrorBody;
      expect(body.code).toBe('CRM_UNAVAILABLE');
      expect(JSON.stringify(body)).not.toMatch(/Activity|Injected|http:\/\//);
    });
  });
});

describe('GET /api/data for a co-op with a long history', () => {
  const service = sharedTestApp({ emulator: { model: createDemoModel() } }, { resetEmulator: false });

  async function formData(): Promise<FormDataPayload> {
    const response = await service.get(dataPath());
    expect(response.status).toBe(200);
    return (await response.json()) as FormDataPayload;
  }

  /** A check-in of the demo organization by its owner, straight into the CRM. */
  function recordCheckIn(crmDate: string, customValues: Record<string, unknown>): void {
    service.emulator.model.api4('Activity', 'create', {
      values: {
        'activity_type_id:name': ACTIVITY_TYPE_NAME,
        'status_id:name': ACTIVITY_STATUS_NAME,
        subject: 'Organizing check-in',
        activity_date_time: crmDate,
        source_contact_id: DEMO_PERSON_ID,
        target_contact_id: [DEMO_ORG_ID],
        ...customValues,
      },
    });
  }

  /** The calls of each CiviCRM request, in the order they went out. */
  function requests(): RecordedCall[][] {
    const byTime = new Map<number, RecordedCall[]>();
    for (const call of service.emulator.calls) byTime.set(call.at, [...(byTime.get(call.at) ?? []), call]);
    return [...byTime.values()];
  }

  /** The first request's reads of the check-ins: the newest slice, every prefilled column, and one per file field, its column only. */
  function expectFirstRequest(calls: RecordedCall[] | undefined): void {
    expect(calls?.map(name).sort()).toEqual(FORM_READS);
    const slice = calls?.find((call) => call.params['limit'] === PREFILL_FIRST_SLICE);
    expect(customColumns(slice)).toEqual(
      [...PREFILLED_ACTIVITY_FIELDS.map(crmNameOf), CLEARED_FIELDS, ACTIVITY_STAGE_FIELD].sort(),
    );
    expect(JSON.stringify(slice?.params['where'])).not.toContain('"OR"');
    const fileReads = calls?.filter((call) => JSON.stringify(call.params['where']).includes('"OR"'));
    expect(fileReads?.map((call) => call.params['limit'])).toEqual([1, 1]);
    expect(fileReads?.map(customColumns)).toEqual([
      [FEASIBILITY_STUDY, CLEARED_FIELDS, ACTIVITY_STAGE_FIELD].sort(),
      [BUSINESS_PLAN, CLEARED_FIELDS, ACTIVITY_STAGE_FIELD].sort(),
    ]);
  }

  it('reads the newest check-ins first, then, per field they left unsettled, its newest older answering or clearing check-in: the same prefill as reading all', async () => {
    const before = await formData();
    // Newer than the demo history: each gives one answer, so the older values still show.
    for (let day = 1; day <= LONG_HISTORY; day += 1) {
      recordCheckIn(`2027-01-${String(day).padStart(2, '0')} 09:00:00`, {
        [`${ACTIVITY_CUSTOM_GROUP}.Steering_committee_size`]: day,
      });
    }
    service.emulator.clearCalls();
    service.emulator.setLatency(ROUND_TRIP_MS);

    const after = await formData();

    const newest = `2027-01-${LONG_HISTORY} 09:00:00`;
    expect(after.prefill).toEqual({ ...before.prefill, Steering_committee_size: LONG_HISTORY });
    expect(after.lastGiven).toEqual({
      ...before.lastGiven,
      Steering_committee_size: new Date(`${newest.replace(' ', 'T')}Z`).toISOString(),
    });
    const [first, second, ...more] = requests();
    expectFirstRequest(first);
    // The second: one `limit 1` read per prefilled field the slice left unsettled, its column
    // only, older than the slice's oldest check-in.
    const oldestOfSlice = `2027-01-${String(LONG_HISTORY - PREFILL_FIRST_SLICE + 1).padStart(2, '0')} 09:00:00`;
    expect(second?.map((call) => [name(call), call.params['limit']])).toEqual(
      second?.map(() => ['Activity.get', 1]),
    );
    expect(second?.map(customColumns)).toEqual(
      PREFILLED_NOT_FILES.filter((field) => field.name !== 'Steering_committee_size').map((field) =>
        [crmNameOf(field), CLEARED_FIELDS, ACTIVITY_STAGE_FIELD].sort(),
      ),
    );
    for (const call of second ?? []) {
      expect(JSON.stringify(call.params['where'])).toContain(
        JSON.stringify(['activity_date_time', '<', oldestOfSlice]),
      );
    }
    expect(more).toEqual([]);
  });

  it('answers in one request when the newest check-ins settle every field but the files', async () => {
    const before = await formData();
    // The newest clears every answer but the files; the files are older than the first slice.
    for (let day = 1; day <= LONG_HISTORY; day += 1) {
      recordCheckIn(
        `2027-02-${String(day).padStart(2, '0')} 09:00:00`,
        day === LONG_HISTORY
          ? { [CLEARED_FIELDS]: PREFILLED_NOT_FILES.map((field) => field.name).join(',') }
          : {},
      );
    }
    service.emulator.clearCalls();
    service.emulator.setLatency(ROUND_TRIP_MS);

    const after = await formData();

    const [first, ...more] = requests();
    expectFirstRequest(first);
    expect(more).toEqual([]);
    const files = [FEASIBILITY, PLAN].filter((field) => before.prefill[field] !== undefined);
    expect(files.length).toBeGreaterThan(0);
    for (const field of files) expect(after.prefill[field]).toEqual(before.prefill[field]);
    for (const field of PREFILLED_NOT_FILES) expect(after.prefill[field.name]).toBeUndefined();
  });
});

describe('GET /api/data in stub mode', () => {
  const service = sharedTestApp({ stub: true }, { resetEmulator: false });

  it('serves the demo link from the built-in CRM, without the emulator', async () => {
    const response = await service.get(dataPath());

    expect(response.status).toBe(200);
    const payload = (await response.json()) as FormDataPayload;
    expect(payload.contact.first_name).toBe(DEMO_PERSON.first_name);
    expect(payload.currentStage).toEqual(DEMO_CURRENT_STAGE);
    expect(service.emulator.calls).toEqual([]);
  });
});
