import type { FieldValues, FormDataPayload } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import type { RecordedCall } from '@checkin/civicrm-fake/emulator';
import { ACTIVITY_STAGE_FIELD, ACTIVITY_TYPE_NAME, SUBMISSION_ID_FIELD } from '../src/app/crm/crm-names';
import {
  DEMO_CURRENT_STAGE,
  DEMO_ORG_ID,
  DEMO_PERSON_ID,
  OTHER_ORG_ID,
} from '../src/app/crm/in-memory/demo-data';
import { ownerQuery, DEMO_LINK } from './support/test-app';
import { TARGET_JOIN } from './support/check-in-join';
import { activityField, contactField, useSubmitSuite } from './support/submit-suite';

/** Emulator latency while checking the order and grouping of calls: each answer takes this long. */
const ROUND_TRIP_MS = 150;
/** The demo history's first owner check-in was recorded with this submissionId. */
const RECORDED_SUBMISSION_ID = '00000000-0000-4000-8000-000000000001';

function name(call: RecordedCall): string {
  return `${call.entity}.${call.action}`;
}

describe('POST /api/submit', () => {
  const suite = useSubmitSuite();
  const { service } = suite;

  describe('recording a check-in', () => {
    it('writes contact-bound values to the organization before creating the activity', async () => {
      await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
      service.emulator.clearCalls();
      service.emulator.setLatency(ROUND_TRIP_MS);

      await suite.accepted({ Equity_share: 250, Steering_committee_size: 11 });

      const [update] = service.emulator.callsTo('Contact', 'update');
      const [create] = suite.activityCreates();
      expect(update?.params).toEqual({
        values: { [contactField('Equity_share')]: 250 },
        where: [['id', '=', DEMO_ORG_ID]],
      });
      // In the same batch, the update first: CiviCRM runs a batch's calls in order.
      expect([update?.batchKey, create?.batchKey]).toEqual(['0:Contact.update', '1:Activity.create']);
      expect(suite.organization([contactField('Equity_share')])[contactField('Equity_share')]).toBe(250);
    });

    it('takes two CRM requests with a known checksum: the lookup alone, then the update, the create and the duplicate check as one batch', async () => {
      await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
      service.emulator.clearCalls();
      service.emulator.setLatency(ROUND_TRIP_MS);

      await suite.accepted({ Date_Incorporated: '2022-06-02', Organizing_notes: 'Board retreat.' });

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

      await suite.accepted({ Organizing_notes: 'Walked the site.' });

      expect(service.emulator.calls.map((call) => [name(call), call.batchKey])).toEqual([
        ['Activity.get', undefined],
        ['Activity.create', '0:Activity.create'],
        ['Activity.get', '1:Activity.get'],
      ]);
    });

    it('creates one check-in from the person to the organization, its values an object', async () => {
      const submissionId = randomUUID();
      const before = Date.now();
      const response = await suite.accepted(
        {
          Steering_committee_size: 11,
          Organizing_focus: ['groceries', 'deli'],
          Mission_statement_adopted: true,
          Market_study_date: '2026-11-01',
          Percent_capitalized: 12.5,
        },
        submissionId,
      );

      const values = suite.createdValues();
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
      const [stored] = suite.checkInsWith(submissionId);
      expect(response.activityId).toBe(stored?.['id']);
      const submittedAt = Date.parse(response.submittedAt);
      expect(response.submittedAt).toMatch(/Z$/);
      expect(submittedAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(submittedAt).toBeLessThanOrEqual(Date.now());
      expect(`${String(values['activity_date_time']).replace(' ', 'T')}.000Z`).toBe(response.submittedAt);
    });

    it('writes a file value as its id, on the organization and on the activity', async () => {
      const certificate = suite.uploadedFile('new_certificate.pdf');
      const plan = suite.uploadedFile('plan_v4.pdf');

      await suite.accepted({
        Certificate_of_Incorporation: {
          id: certificate,
          file_name: 'new_certificate.pdf',
          receipt: suite.receiptFor('Certificate_of_Incorporation', certificate),
        },
        Business_plan: {
          id: plan,
          file_name: 'plan_v4.pdf',
          receipt: suite.receiptFor('Business_plan', plan),
        },
      });

      const [update] = service.emulator.callsTo('Contact', 'update');
      expect(update?.params['values']).toEqual({
        [contactField('Certificate_of_Incorporation')]: certificate,
      });
      expect(suite.createdValues()[activityField('Business_plan')]).toBe(plan);
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
        const response = await suite.submit(values);
        expect(response.status).toBe(400);
        expect(await suite.refused(response)).toMatchObject({ code: 'VALIDATION_FAILED', fields });
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
        const file = suite.uploadedFile('plan.pdf');
        const otherField = { id: file, receipt: suite.receiptFor('Feasibility_study', file) };
        const otherOrg = { id: file, receipt: suite.receiptFor('Business_plan', file, OTHER_ORG_ID) };
        const otherFile = { id: file, receipt: suite.receiptFor('Business_plan', file + 1) };
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

        await suite.accepted({
          Certificate_of_Incorporation: certificate ?? null,
          Business_plan: plan ?? null,
        });
        expect(suite.createdValues()[activityField('Business_plan')]).toBe((plan as { id: number }).id);
      });

      it('refuses, without a receipt, a file a newer check-in cleared: the CRM no longer holds it for the field', async () => {
        const data = async () =>
          (await (await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).json()) as FormDataPayload;
        const plan = (await data()).prefill['Business_plan'];
        expect(plan).toMatchObject({ id: expect.any(Number) });
        await suite.accepted({ Business_plan: null });
        expect((await data()).prefill).not.toHaveProperty('Business_plan');
        service.emulator.clearCalls();

        await expectRefused({ Business_plan: plan ?? null }, ['Business_plan']);
      });
    });

    it('never writes Stage, so the staff-set stage stays', async () => {
      await suite.accepted({ Equity_share: 210, Steering_committee_size: 3, Date_Opened: '2026-12-01' });

      const written = [
        ...Object.keys(service.emulator.callsTo('Contact', 'update')[0]?.params['values'] ?? {}),
        ...Object.keys(suite.createdValues()),
      ];
      expect(written.filter((key) => key.endsWith('.Stage'))).toEqual([]);
      expect(suite.createdValues()).not.toHaveProperty(ACTIVITY_STAGE_FIELD);
      const payload = (await (
        await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`)
      ).json()) as FormDataPayload;
      expect(payload.currentStage).toEqual(DEMO_CURRENT_STAGE);
    });

    it('leaves empty activity-bound answers out and clears a contact-bound one sent empty', async () => {
      await suite.accepted({
        Name_on_Incorporation_Certificate: null,
        Steering_committee_size: null,
        Organizing_notes: '',
        Lender_types: [],
        Interest_list_size: 0,
      });

      expect(service.emulator.callsTo('Contact', 'update')[0]?.params['values']).toEqual({
        [contactField('Name_on_Incorporation_Certificate')]: null,
      });
      const values = suite.createdValues();
      expect(values).not.toHaveProperty(activityField('Steering_committee_size'));
      expect(values).not.toHaveProperty(activityField('Organizing_notes'));
      expect(values).not.toHaveProperty(activityField('Lender_types'));
      expect(values[activityField('Interest_list_size')]).toBe(0);
      const name = contactField('Name_on_Incorporation_Certificate');
      expect(suite.organization([name])[name]).toBeNull();
    });

    it('records a cleared activity-bound answer so the next prefill and the report see it cleared', async () => {
      const data = async () =>
        (await (await service.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).json()) as FormDataPayload;
      expect((await data()).prefill['Store_size_sqft']).toEqual(expect.any(Number));

      await suite.accepted({
        Store_size_sqft: null,
        Lender_types: [],
        Equity_share: 260,
      });

      expect(suite.createdValues()[activityField('Cleared_fields')]).toBe('Lender_types,Store_size_sqft');
      const cleared = await data();
      expect(cleared.prefill).not.toHaveProperty('Store_size_sqft');
      expect(cleared.lastGiven).not.toHaveProperty('Store_size_sqft');
      const report = (await (await service.get(`/api/report?${ownerQuery(DEMO_LINK)}`)).json()) as {
        fieldHistory: Record<string, Array<{ value: unknown }>>;
      };
      expect(report.fieldHistory['Store_size_sqft']?.[0]?.value).toBeNull();

      // Answered again later: the new answer is prefilled, dated by its check-in.
      const { submittedAt } = await suite.accepted({ Store_size_sqft: 5100 });
      const answered = await data();
      expect(answered.prefill['Store_size_sqft']).toBe(5100);
      expect(answered.lastGiven?.['Store_size_sqft']).toBe(submittedAt);
    });

    it('records a submission with no values: no contact update, one bare check-in', async () => {
      const submissionId = randomUUID();
      await suite.accepted({}, submissionId);

      expect(service.emulator.callsTo('Contact', 'update')).toEqual([]);
      expect(Object.keys(suite.createdValues()).filter((key) => key.includes('.'))).toEqual([
        SUBMISSION_ID_FIELD,
      ]);
      expect(suite.checkInsWith(submissionId)).toHaveLength(1);
    });

    it('checks select answers against the CRM’s options, and fetches them only when needed', async () => {
      await suite.accepted({ Equity_goal: 1000 });
      expect(service.emulator.callsTo('OptionValue', 'get')).toEqual([]);

      await suite.accepted({ Site_status: '3', Lender_types: ['cdfi', 'grants'] });
      expect(service.emulator.callsTo('OptionValue', 'get')).toHaveLength(1);
      expect(suite.createdValues()).toMatchObject({ [activityField('Site_status')]: '3' });
    });
  });

  describe('idempotency by submissionId', () => {
    it('answers a retry with the first answer and creates one activity', async () => {
      const submissionId = randomUUID();
      const first = await suite.accepted({ Steering_committee_size: 12 }, submissionId);
      const writesAfterFirst = service.emulator.writes().length;

      const retry = await suite.accepted({ Steering_committee_size: 12 }, submissionId);

      expect(retry).toEqual(first);
      expect(service.emulator.writes()).toHaveLength(writesAfterFirst);
      expect(suite.checkInsWith(submissionId)).toHaveLength(1);
    });

    it('creates one activity when the same submission arrives twice at once', async () => {
      const submissionId = randomUUID();
      service.emulator.setLatency(50);

      const [first, second] = await Promise.all([
        suite.accepted({ Steering_committee_size: 13 }, submissionId),
        suite.accepted({ Steering_committee_size: 13 }, submissionId),
      ]);

      expect(second).toEqual(first);
      expect(suite.activityCreates()).toHaveLength(1);
    });

    it('finds a check-in an earlier attempt recorded (on any instance) instead of creating another', async () => {
      const [recorded] = suite.checkInsWith(RECORDED_SUBMISSION_ID);

      const response = await suite.accepted({}, RECORDED_SUBMISSION_ID);

      expect(response).toEqual({
        activityId: recorded?.['id'],
        submittedAt: `${String(recorded?.['activity_date_time']).replace(' ', 'T')}.000Z`,
      });
      expect(suite.activityCreates()).toEqual([]);
      const [lookup] = service.emulator.callsTo('Activity', 'get');
      expect(lookup?.params['join']).toEqual([TARGET_JOIN]);
      expect(lookup?.params['where']).toEqual([
        ['activity_type_id:name', '=', ACTIVITY_TYPE_NAME],
        ['tgt.contact_id', '=', DEMO_ORG_ID],
        [SUBMISSION_ID_FIELD, '=', RECORDED_SUBMISSION_ID],
      ]);
    });
  });
});
