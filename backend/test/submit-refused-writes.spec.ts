import type { FieldValues } from '@checkin/contract';
import { randomUUID } from 'node:crypto';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import { CONTACT_CUSTOM_GROUP } from '../src/app/crm/crm-names';
import { createDemoModel, DEMO_ORG_ID } from '../src/app/crm/in-memory/demo-data';
import { startTestApp, type TestApp, DEMO_LINK } from './support/test-app';

/** docs/decisions.md, "Idempotent submit": a submission the service refuses writes nothing. */
describe('POST /api/submit: a refused submission writes nothing', () => {
  let service: TestApp;
  const EQUITY_SHARE = `${CONTACT_CUSTOM_GROUP}.Equity_share`;

  beforeAll(async () => {
    service = await startTestApp({
      emulator: { model: createDemoModel() },
      env: { RATE_LIMIT_SUBMITS_PER_MINUTE: '1000' },
    });
  });

  afterAll(() => service.close());

  beforeEach(() => {
    service.emulator.reset();
    service.app.get(OwnerAccessService).clear();
  });

  function submit(values: FieldValues, submissionId: string, link: object = DEMO_LINK) {
    return service.post('/api/submit', { ...link, submissionId, values });
  }

  function equityShare(): unknown {
    const [row] = service.emulator.model.api4('Contact', 'get', {
      select: [EQUITY_SHARE],
      where: [['id', '=', DEMO_ORG_ID]],
    });
    return row?.[EQUITY_SHARE];
  }

  /** A second Primary Contact of the demo co-op, with a checksum CiviCRM would issue. */
  function secondOwner(): Record<string, string | number> {
    const model = service.emulator.model;
    const [person] = model.api4('Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Second', last_name: 'Owner' },
    });
    const id = Number(person?.['id']);
    model.api4('Relationship', 'create', {
      values: { contact_id_a: id, contact_id_b: DEMO_ORG_ID, 'relationship_type_id:name': 'Primary Contact' },
    });
    const [checksum] = model.api4('Contact', 'getChecksum', { contactId: id });
    return { contactId: id, orgId: DEMO_ORG_ID, cid: id, cs: String(checksum?.['checksum']) };
  }

  it('answers 409 SUBMISSION_ID_IN_USE without touching the organization', async () => {
    const submissionId = randomUUID();
    const first = await submit({ Equity_share: 40 }, submissionId);
    expect(first.status).toBe(201);
    expect(equityShare()).toBe(40);
    const link = secondOwner();
    service.emulator.clearCalls();

    const reused = await submit({ Equity_share: 99, Organizing_notes: 'Not mine' }, submissionId, link);

    expect(reused.status).toBe(409);
    expect(await reused.json()).toMatchObject({ code: 'SUBMISSION_ID_IN_USE' });
    expect(service.emulator.writes()).toEqual([]);
    expect(equityShare()).toBe(40);
  });

  it('a retry of a recorded submission writes nothing again', async () => {
    const submissionId = randomUUID();
    expect((await submit({ Equity_share: 41 }, submissionId)).status).toBe(201);
    service.emulator.clearCalls();

    expect((await submit({ Equity_share: 41 }, submissionId)).status).toBe(201);

    expect(service.emulator.writes()).toEqual([]);
  });
});
