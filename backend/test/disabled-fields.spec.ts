import type { FormDataPayload, StaffReportPayload } from '@checkin/contract';
import { REFUSAL_SENTENCES } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import { ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP } from '../src/app/crm/crm-names';
import { createDemoModel, DEMO_ORG_ID } from '../src/app/crm/in-memory/demo-data';
import { DEMO_LINK, ownerQuery, startTestApp, TEST_STAFF_KEY, type TestApp } from './support/test-app';

/**
 * docs/decisions.md, "Disabled fields": a configured field the site disabled in CiviCRM is
 * never offered, and an answer to it is never taken and lost.
 */
const DISABLED_ACTIVITY = 'Steering_committee_size';
const DISABLED_CONTACT = 'Equity_share';

describe('configured fields the site disabled', () => {
  let test: TestApp;

  beforeAll(async () => {
    const model = createDemoModel();
    for (const [group, name] of [
      [ACTIVITY_CUSTOM_GROUP, DISABLED_ACTIVITY],
      [CONTACT_CUSTOM_GROUP, DISABLED_CONTACT],
    ] as const) {
      model.api4('CustomField', 'update', {
        values: { is_active: false },
        where: [
          ['custom_group_id:name', '=', group],
          ['name', '=', name],
        ],
      });
    }
    test = await startTestApp({ emulator: { model }, env: { RATE_LIMIT_SUBMITS_PER_MINUTE: '1000' } });
  });

  afterAll(() => test.close());

  const fieldNames = (
    sections: ReadonlyArray<{ fields: ReadonlyArray<{ field?: { name: string }; name?: string }> }>,
  ) => sections.flatMap((section) => section.fields.map((entry) => entry.field?.name ?? entry.name ?? ''));

  it('leaves them out of the form, its sections and its prefill', async () => {
    const response = await test.get(`/api/data?${ownerQuery(DEMO_LINK)}`);
    expect(response.status).toBe(200);
    const payload = (await response.json()) as FormDataPayload;
    const names = fieldNames(payload.sections);
    expect(names).toContain('Organizing_notes');
    expect(names).not.toContain(DISABLED_ACTIVITY);
    expect(names).not.toContain(DISABLED_CONTACT);
    expect(Object.keys(payload.prefill)).not.toContain(DISABLED_ACTIVITY);
    expect(Object.keys(payload.prefill)).not.toContain(DISABLED_CONTACT);
  });

  it('refuses a submit answering one with 400 FIELD_DISABLED, naming it, and writes nothing', async () => {
    test.emulator.clearCalls();
    const response = await test.post('/api/submit', {
      ...DEMO_LINK,
      submissionId: randomUUID(),
      values: { Organizing_notes: 'Met the board.', [DISABLED_ACTIVITY]: 9, [DISABLED_CONTACT]: 30 },
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: 400,
      code: 'FIELD_DISABLED',
      message: REFUSAL_SENTENCES.fieldDisabled,
      fields: [DISABLED_CONTACT, DISABLED_ACTIVITY],
    });
    expect(test.emulator.writes()).toEqual([]);
  });

  it('takes a submit that sends one empty, leaving it out', async () => {
    const response = await test.post('/api/submit', {
      ...DEMO_LINK,
      submissionId: randomUUID(),
      values: { Organizing_notes: 'Walked the site.', [DISABLED_ACTIVITY]: null },
    });
    expect(response.status).toBe(201);
  });

  it('leaves them off the staff report', async () => {
    const response = await test.get(`/api/staff/report?orgId=${DEMO_ORG_ID}`, {
      'X-Staff-Key': TEST_STAFF_KEY,
    });
    expect(response.status).toBe(200);
    const names = fieldNames(((await response.json()) as StaffReportPayload).sections);
    expect(names).toContain('Organizing_notes');
    expect(names).not.toContain(DISABLED_ACTIVITY);
    expect(names).not.toContain(DISABLED_CONTACT);
  });
});
