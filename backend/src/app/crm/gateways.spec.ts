import { ADMIN_USER, type ApiUser } from '@checkin/civicrm-fake';
import { ACTIVITY_FIELDS } from '../fields/field-config';
import type { NewCheckIn } from '../check-ins/check-in-record';
import { CrmCheckInsGateway } from './check-ins.gateway';
import { CrmContactsGateway } from './contacts.gateway';
import { type Api4Params, type CrmClient, type CrmRow, type NewCrmFile, batchOneByOne } from './crm-client';
import { CrmError } from './crm-errors';
import { CLEARED_FIELDS_FIELD } from './crm-names';
import type { CrmSiteService } from './crm-site.service';
import { CrmFilesGateway } from './files.gateway';
import { createDemoModel, DEMO_ORG_ID, DEMO_PERSON_ID, OTHER_ORG_ID } from './in-memory/demo-data';
import { InMemoryCrmClient } from './in-memory/in-memory-crm.client';
import { CrmSiteGateway } from './site.gateway';

/** The in-memory CRM, with every call written down in order. */
class RecordingCrm implements CrmClient {
  readonly batch: CrmClient['batch'] = (calls) => batchOneByOne(this, calls);
  readonly calls: string[] = [];
  /** Answers to give instead of the model's, by "Entity.action". */
  readonly answers = new Map<string, unknown[]>();
  private readonly inner = new InMemoryCrmClient(createDemoModel());

  get fileBaseUrl(): string | null {
    return this.inner.fileBaseUrl;
  }

  get checksumShape(): RegExp {
    return this.inner.checksumShape;
  }

  api4<T extends CrmRow = CrmRow>(entity: string, action: string, params?: Api4Params): Promise<T[]> {
    this.calls.push(`v4 ${entity}.${action} ${JSON.stringify(params ?? {})}`);
    const answer = this.answers.get(`${entity}.${action}`);
    return answer ? Promise.resolve(answer as T[]) : this.inner.api4<T>(entity, action, params);
  }

  api3<T extends CrmRow = CrmRow>(
    entity: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<T[]> {
    this.calls.push(`v3 ${entity}.${action} ${JSON.stringify(params)}`);
    return this.inner.api3<T>(entity, action, params);
  }

  createFile<T extends CrmRow = CrmRow>(file: NewCrmFile): Promise<T[]> {
    this.calls.push(`file ${file.fileName} ${file.mimeType}`);
    return this.inner.createFile<T>(file);
  }
}

function malformedFailure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'answered',
    (error: unknown) => (error instanceof CrmError ? error.failure : error),
  );
}

describe('CrmContactsGateway', () => {
  let crm: RecordingCrm;
  let contacts: CrmContactsGateway;

  beforeEach(() => {
    crm = new RecordingCrm();
    contacts = new CrmContactsGateway(crm);
  });

  it('issues a checksum the CRM then validates, one call each', async () => {
    const checksum = await contacts.getChecksum(DEMO_PERSON_ID, 24);
    expect(await contacts.validateChecksum(DEMO_PERSON_ID, checksum)).toBe(true);
    expect(await contacts.validateChecksum(DEMO_PERSON_ID, 'wrong')).toBe(false);
    expect(crm.calls).toEqual([
      `v4 Contact.getChecksum {"contactId":${DEMO_PERSON_ID},"ttl":24}`,
      `v4 Contact.validateChecksum {"contactId":${DEMO_PERSON_ID},"checksum":"${checksum}"}`,
      `v4 Contact.validateChecksum {"contactId":${DEMO_PERSON_ID},"checksum":"wrong"}`,
    ]);
  });

  it("reads the person's organizations from active Primary Contact relationships, either side", async () => {
    const organizations = await contacts.primaryContactOrganizations(DEMO_PERSON_ID);
    expect(organizations).toContain(DEMO_ORG_ID);
    expect(organizations).not.toContain(OTHER_ORG_ID);
    expect(crm.calls).toEqual([
      'v4 Relationship.get ' +
        JSON.stringify({
          select: [
            'contact_id_a',
            'contact_id_b',
            'relationship_type_id.contact_type_a',
            'relationship_type_id.contact_type_b',
          ],
          where: [
            ['relationship_type_id.name_a_b', '=', 'Primary Contact'],
            ['is_active', '=', true],
            [
              'OR',
              [
                ['contact_id_a', '=', DEMO_PERSON_ID],
                ['contact_id_b', '=', DEMO_PERSON_ID],
              ],
            ],
          ],
        }),
    ]);
  });

  it('takes the person from side B when the type puts the Individual there', async () => {
    crm.answers.set('Relationship.get', [
      {
        contact_id_a: 40,
        contact_id_b: 7,
        'relationship_type_id.contact_type_a': 'Organization',
        'relationship_type_id.contact_type_b': 'Individual',
      },
      { contact_id_a: 7, contact_id_b: 41, 'relationship_type_id.contact_type_a': null },
    ]);
    expect(await contacts.primaryContactOrganizations(7)).toEqual([40, 41]);
  });

  it('names organizations and tells whether a contact exists', async () => {
    const names = await contacts.organizationNames([DEMO_ORG_ID]);
    expect(names).toEqual([{ id: DEMO_ORG_ID, name: expect.any(String) }]);
    expect(await contacts.contactExists(DEMO_PERSON_ID)).toBe(true);
    expect(await contacts.contactExists(999_999)).toBe(false);
    expect(crm.calls[0]).toBe(
      `v4 Contact.get {"select":["id","display_name","organization_name"],"where":[["id","IN",[${DEMO_ORG_ID}]]]}`,
    );
    expect(crm.calls[1]).toBe(
      `v4 Contact.get {"select":["id"],"where":[["id","=",${DEMO_PERSON_ID}]],"limit":1}`,
    );
  });

  it("reads the person's name and primary email, null for no such contact", async () => {
    expect(await contacts.personIdentity(DEMO_PERSON_ID)).toEqual({
      firstName: expect.any(String),
      lastName: expect.any(String),
      email: expect.anything(),
    });
    expect(await contacts.personIdentity(999_999)).toBeNull();
  });

  it.each([
    ['Relationship.get', [{ contact_id_a: '7', contact_id_b: 8 }]],
    ['Relationship.get', [null]],
    ['Contact.validateChecksum', [{ valid: 1 }]],
    ['Contact.getChecksum', [{ checksum: '' }]],
  ])('turns a malformed %s answer into a malformed CrmError', async (call, rows) => {
    crm.answers.set(call, rows);
    const attempt =
      call === 'Relationship.get'
        ? contacts.primaryContactOrganizations(7)
        : call === 'Contact.validateChecksum'
          ? contacts.validateChecksum(7, 'x')
          : contacts.getChecksum(7, 1);
    expect(await malformedFailure(attempt)).toBe('malformed');
  });
});

describe('CrmFilesGateway', () => {
  it('creates a file, finds its signed URL both ways, deletes it', async () => {
    const crm = new RecordingCrm();
    const files = new CrmFilesGateway(crm);
    const created = await files.createFile('notes.txt', 'text/plain', Buffer.from('hello'));
    expect(created).toMatchObject({ id: expect.any(Number), contentDecoded: true });
    expect((await files.fileGetUrls([created.id])).get(created.id)).toMatch(/civicrm\/file/);
    await files.attachmentUrls([created.id]).catch(() => undefined);
    await files.deleteFile(created.id);
    expect(crm.calls).toEqual([
      'file notes.txt text/plain',
      `v4 File.get {"select":["id","url"],"where":[["id","IN",[${created.id}]]]}`,
      `v3 Attachment.get {"id":{"IN":[${created.id}]},"return":"id,url","sequential":1}`,
      `v4 File.delete {"where":[["id","=",${created.id}]]}`,
    ]);
  });

  it('refuses a File.create answer without an id', async () => {
    const crm = new RecordingCrm();
    jest.spyOn(crm, 'createFile').mockResolvedValue([{ file_name: 'x' }]);
    expect(
      await malformedFailure(new CrmFilesGateway(crm).createFile('x', 'text/plain', Buffer.from(''))),
    ).toBe('malformed');
  });
});

describe('CrmCheckInsGateway', () => {
  const site = { timeZone: () => Promise.resolve('UTC') } as CrmSiteService;
  const newCheckIn = (submissionId: string): NewCheckIn => ({
    personId: DEMO_PERSON_ID,
    orgId: DEMO_ORG_ID,
    submissionId,
    answers: { Store_size_sqft: 5100, Organizing_notes: '' },
    cleared: ['Organizing_notes'],
    at: '2026-11-20 10:00:00',
  });

  it('creates a check-in, finds it by submission id, deletes it', async () => {
    const crm = new RecordingCrm();
    const checkIns = new CrmCheckInsGateway(crm, site);
    const id = await checkIns.createCheckIn(newCheckIn('gateway-spec-1'));
    expect(await checkIns.findBySubmissionId(DEMO_ORG_ID, 'gateway-spec-1')).toEqual([
      { id, crmTime: expect.any(String), personId: DEMO_PERSON_ID },
    ]);
    await checkIns.deleteCheckIns([id]);
    expect(await checkIns.findBySubmissionId(DEMO_ORG_ID, 'gateway-spec-1')).toEqual([]);
    expect(crm.calls.map((call) => call.split(' ').slice(0, 2).join(' '))).toEqual([
      'v4 Activity.create',
      'v4 Activity.get',
      'v4 Activity.delete',
      'v4 Activity.get',
    ]);
    expect(crm.calls[2]).toBe(`v4 Activity.delete {"where":[["id","IN",[${id}]]]}`);
  });

  it('reads a check-in back as a typed record: answers, what it cleared, subject and recorder', async () => {
    const crm = new RecordingCrm();
    const checkIns = new CrmCheckInsGateway(crm, site);
    const id = await checkIns.createCheckIn(newCheckIn('gateway-spec-2'));
    const fields = ACTIVITY_FIELDS.filter((field) =>
      ['Store_size_sqft', 'Organizing_notes'].includes(field.name),
    );
    const [newest] = await checkIns.list(DEMO_ORG_ID, fields, { cleared: true, recorder: true, limit: 1 });
    expect(newest).toEqual({
      id,
      date: '2026-11-20T10:00:00.000Z',
      stageValue: null,
      values: { Store_size_sqft: 5100 },
      cleared: new Set(['Organizing_notes']),
      subject: 'Organizing check-in',
      recordedBy: expect.stringContaining(''),
      position: { crmDate: '2026-11-20 10:00:00', id },
    });
    expect(newest?.recordedBy).not.toBeNull();
    // Without the extra columns the record says nothing cleared and no recorder.
    const [plain] = await checkIns.list(DEMO_ORG_ID, fields, { limit: 1 });
    expect(plain).toMatchObject({ id, cleared: new Set(), subject: null, recordedBy: null });
  });

  it('refuses a check-in row whose cleared list is not text', async () => {
    const crm = new RecordingCrm();
    crm.answers.set('Activity.get', [
      { id: 1, activity_date_time: '2026-01-01 00:00:00', [CLEARED_FIELDS_FIELD]: 7 },
    ]);
    const checkIns = new CrmCheckInsGateway(crm, site);
    expect(await malformedFailure(checkIns.list(DEMO_ORG_ID, [], { cleared: true }))).toBe('malformed');
  });

  describe('a recorder in the trash (docs/decisions.md, "A recorder in the trash")', () => {
    /** The documented API user's permissions (tools/civicrm/api-user-permissions.txt): no "access deleted contacts". */
    const documentedUser: ApiUser = {
      contactId: null,
      permissions: ['access CiviCRM', 'edit all contacts', 'access all custom data', 'view all activities'],
    };

    it.each([
      ['6.14', ADMIN_USER],
      ['6.14', documentedUser],
      ['5.81', ADMIN_USER],
      ['5.81', documentedUser],
    ] as const)(
      'shows "Contact <id>" on %s for %j, and the name of one not in the trash',
      async (version, user) => {
        const model = createDemoModel({ civicrmVersion: version });
        const recorder = (firstName: string): number =>
          Number(
            model.api4('Contact', 'create', {
              values: { contact_type: 'Individual', first_name: firstName, last_name: 'Recorder' },
            })[0]?.['id'],
          );
        const [kept, trashed] = [recorder('Kept'), recorder('Trashed')];
        for (const [source, at] of [
          [kept, '2030-01-01 10:00:00'],
          [trashed, '2030-01-02 10:00:00'],
        ] as const) {
          await new CrmCheckInsGateway(new InMemoryCrmClient(model), site).createCheckIn({
            ...newCheckIn(`recorder-${source}`),
            personId: source,
            at,
          });
        }
        model.api4('Contact', 'delete', { where: [['id', '=', trashed]], useTrash: true });
        const asUser = new InMemoryCrmClient(model);
        const crm: CrmClient = {
          ...asUser,
          api4: <T extends CrmRow>(entity: string, action: string, params?: Api4Params) =>
            Promise.resolve(model.api4(entity, action, params, { user }) as T[]),
          batch: (calls) => batchOneByOne(crm, calls),
          api3: asUser.api3.bind(asUser),
          createFile: asUser.createFile.bind(asUser),
          fileBaseUrl: asUser.fileBaseUrl,
          checksumShape: asUser.checksumShape,
        };

        const [newest, older] = await new CrmCheckInsGateway(crm, site).list(DEMO_ORG_ID, [], {
          recorder: true,
          limit: 2,
        });

        expect([newest?.recordedBy, older?.recordedBy]).toEqual([`Contact ${trashed}`, 'Kept Recorder']);
      },
    );
  });

  it('refuses an Activity.create answer without an id', async () => {
    const crm = new RecordingCrm();
    crm.answers.set('Activity.create', [{}]);
    expect(await malformedFailure(new CrmCheckInsGateway(crm, site).createCheckIn(newCheckIn('x')))).toBe(
      'malformed',
    );
  });
});

describe('CrmContactsGateway organization reads', () => {
  it('reads an organization for staff only when the id is an organization', async () => {
    const contacts = new CrmContactsGateway(new RecordingCrm());
    expect(await contacts.findOrganization(DEMO_ORG_ID, [])).toMatchObject({ id: DEMO_ORG_ID });
    expect(await contacts.findOrganization(DEMO_PERSON_ID, [])).toBeNull();
    expect(await contacts.findOrganization(999_999, [])).toBeNull();
    expect(await contacts.readOrganization(999_999, [])).toEqual({ id: 999_999, name: '', values: {} });
  });
});

describe('CrmSiteGateway', () => {
  it('pings with one cheap read and lists the metadata health explains', async () => {
    const crm = new RecordingCrm();
    const site = new CrmSiteGateway(crm);
    await site.ping();
    expect((await site.relationshipTypes()).some((row) => row['name_a_b'] === 'Primary Contact')).toBe(true);
    expect(await site.contactSummary(DEMO_PERSON_ID)).toMatchObject({
      id: DEMO_PERSON_ID,
      contactType: 'Individual',
    });
    expect((await site.relationshipsOf(DEMO_PERSON_ID, 201)).length).toBeGreaterThan(0);
    expect(crm.calls[0]).toBe('v4 Contact.get {"select":["id"],"limit":1}');
    expect(crm.calls.map((call) => call.split(' ')[1])).toEqual([
      'Contact.get',
      'RelationshipType.get',
      'Contact.get',
      'Relationship.get',
    ]);
  });

  it('refuses a custom group row whose id is not a number', async () => {
    const crm = new RecordingCrm();
    crm.answers.set('CustomGroup.get', [{ id: 'one', name: 'x' }]);
    expect(await malformedFailure(new CrmSiteGateway(crm).customGroups(10))).toBe('malformed');
  });
});
