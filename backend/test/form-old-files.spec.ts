import type { FormDataPayload } from '@checkin/contract';
import type { CiviCrmModel } from '@checkin/civicrm-fake';
import type { RecordedCall } from '@checkin/civicrm-fake/emulator';
import { OwnerAccessService } from '../src/app/auth/owner-access.service';
import { ACTIVITY_CUSTOM_GROUP, ACTIVITY_TYPE_NAME, CLEARED_FIELDS_FIELD } from '../src/app/crm/crm-names';
import { createDemoModel } from '../src/app/crm/in-memory/demo-data';
import { ACTIVITY_FIELDS } from '../src/app/fields/field-config';
import { DEMO_LINK, ownerQuery, startTestApp, type TestApp } from './support/test-app';

/**
 * The form's read is bounded whatever the age of the check-in holding a file prefill
 * (docs/performance.md, "Bounded answers"): a co-op of 400 check-ins whose business plan and
 * feasibility study were uploaded in its first two check-ins reads in one CiviCRM request.
 */
const CHECK_INS = 400;
const MAX_ANSWER_BYTES = 100_000;
const field = (name: string) => `${ACTIVITY_CUSTOM_GROUP}.${name}`;
const OTHER_ANSWERS = ACTIVITY_FIELDS.filter(
  (answer) => answer.type !== 'file' && !answer.neverPrefilled && answer.crmField,
).map((answer) => answer.name);

type Row = Record<string, unknown>;

function create(model: CiviCrmModel, entity: string, values: Row): number {
  const [row] = model.api4(entity, 'create', { values });
  return Number(row?.['id']);
}

interface OldFilesCoop {
  link: Record<string, string | number>;
  files: { plan: number; study: number };
}

/** A co-op of CHECK_INS check-ins, answers in each, files only in the two oldest. */
function seedOldFilesCoop(model: CiviCrmModel, clearStudyLater = false): OldFilesCoop {
  const orgId = create(model, 'Contact', {
    contact_type: 'Organization',
    organization_name: 'Old Files Co-op',
  });
  const personId = create(model, 'Contact', {
    contact_type: 'Individual',
    first_name: 'Olive',
    last_name: 'Archer',
  });
  create(model, 'Relationship', {
    contact_id_a: personId,
    contact_id_b: orgId,
    'relationship_type_id:name': 'Primary Contact',
  });
  const file = (name: string) =>
    create(model, 'File', { file_name: name, mime_type: 'application/pdf', content: 'JVBERi0=' });
  const files = { plan: file('business-plan.pdf'), study: file('feasibility.pdf') };
  for (let index = 0; index < CHECK_INS; index += 1) {
    const day = new Date(Date.UTC(2021, 0, 1) + index * 4 * 86_400_000).toISOString().slice(0, 10);
    create(model, 'Activity', {
      'activity_type_id:name': ACTIVITY_TYPE_NAME,
      source_contact_id: personId,
      target_contact_id: [orgId],
      activity_date_time: `${day} 10:00:00`,
      [field('Steering_committee_size')]: 5 + (index % 7),
      [field('Organizing_notes')]: `Check-in ${index}: met the board, planned the next steps. `.repeat(3),
      ...(index === 0 ? { [field('Business_plan')]: files.plan } : {}),
      ...(index === 1 ? { [field('Feasibility_study')]: files.study } : {}),
      ...(clearStudyLater && index === 200 ? { [CLEARED_FIELDS_FIELD]: 'Feasibility_study' } : {}),
      // The newest settles every other answer, as a co-op checking in regularly does: only the
      // files are left to older check-ins.
      ...(index === CHECK_INS - 1 ? { [CLEARED_FIELDS_FIELD]: OTHER_ANSWERS.join(',') } : {}),
    });
  }
  const [checksum] = model.api4('Contact', 'getChecksum', { contactId: personId });
  return {
    link: { contactId: personId, orgId, cid: personId, cs: String(checksum?.['checksum']) },
    files,
  };
}

/** The HTTP requests the calls travelled in: a batch's calls share one. */
function requestsOf(calls: readonly RecordedCall[]): RecordedCall[] {
  return calls.filter((call) => call.batchKey === undefined || call.batchKey.startsWith('0:'));
}

describe('GET /api/data for a long history whose files are old', () => {
  let test: TestApp;
  let coop: OldFilesCoop;
  let cleared: OldFilesCoop;

  beforeAll(async () => {
    const model = createDemoModel();
    coop = seedOldFilesCoop(model);
    cleared = seedOldFilesCoop(model, true);
    // The emulator answers a 400-check-in read slowly on a busy machine: the bound under test is
    // requests and bytes, not time.
    test = await startTestApp({ emulator: { model }, env: { CRM_TIMEOUT_MS: '20000' } });
    // The site's info and schema are cached once per process: not the read under test.
    expect((await test.get(`/api/data?${ownerQuery(DEMO_LINK)}`)).status).toBe(200);
  });

  afterAll(() => test.close());

  async function formData(link: OldFilesCoop['link'], warm: boolean): Promise<FormDataPayload> {
    test.app.get(OwnerAccessService).clear();
    if (warm) await test.get(`/api/data?${ownerQuery(link)}`);
    test.emulator.clearCalls();
    const response = await test.get(`/api/data?${ownerQuery(link)}`);
    expect(response.status).toBe(200);
    return (await response.json()) as FormDataPayload;
  }

  it.each([
    ['a new link', false],
    ['a known link', true],
  ])('prefills both files with %s in one CiviCRM request under 100 kB', async (_case, warm) => {
    const payload = await formData(coop.link, warm);

    expect(payload.prefill['Business_plan']).toMatchObject({ id: coop.files.plan });
    expect(payload.prefill['Feasibility_study']).toMatchObject({ id: coop.files.study });
    const requests = requestsOf(test.emulator.calls);
    expect(requests).toHaveLength(1);
    const bytes = requests.reduce((sum, call) => sum + (call.answerBytes ?? 0), 0);
    expect(bytes).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
  });

  it('leaves a file a later check-in cleared empty, still in one request', async () => {
    const payload = await formData(cleared.link, true);

    expect(payload.prefill['Business_plan']).toMatchObject({ id: cleared.files.plan });
    expect(payload.prefill['Feasibility_study']).toBeUndefined();
    expect(requestsOf(test.emulator.calls)).toHaveLength(1);
  });
});
