import { CiviCrmModel } from './civicrm-model';
import { CrmFatalError, DEFAULT_CHECKSUM_TTL_HOURS } from './types';
import {
  OTHER_ORG_ID,
  ORG_ID,
  PERSON,
  PERSON_ID,
  SAMPLE_ACTIVITY_TYPE,
  SAMPLE_CHECK_INS,
  SAMPLE_CHECKSUM,
  createSampleModel,
} from '../spec-support/sample-site';
import { expectApi4Error, sampleModelPerTest } from '../spec-support/model-specs';

/** The model's writes, checksums, APIv3 Attachment.get, settings and state. */

describe('CiviCrmModel', () => {
  const site = sampleModelPerTest();

  describe('create, update, delete', () => {
    const checkIn = (values: Record<string, unknown>) =>
      site.model.api4('Activity', 'create', {
        values: {
          'activity_type_id:name': SAMPLE_ACTIVITY_TYPE,
          source_contact_id: PERSON_ID,
          target_contact_id: [ORG_ID],
          ...values,
        },
      })[0];

    it('creates an activity with typed custom values and answers the created row', () => {
      const created = checkIn({
        activity_date_time: '2026-11-21T10:15:00Z',
        'Check_in_data__organizing_.Member_owner_count': '1200',
        'Check_in_data__organizing_.Percent_capitalized': 12.5,
        'Check_in_data__organizing_.Business_plan_done': 1,
        'Check_in_data__organizing_.Market_study_date': '2026-11-01',
        'Check_in_data__organizing_.Organizing_focus': ['deli'],
      });
      // CiviCRM's create answer: the date compact, custom and virtual fields as null.
      expect(created).toEqual({
        id: expect.any(Number),
        activity_type_id: 57,
        activity_date_time: '20261121101500',
        status_id: 2,
        priority_id: 2,
        created_date: null,
        modified_date: null,
        source_contact_id: null,
        target_contact_id: null,
        'Check_in_data__organizing_.Member_owner_count': null,
        'Check_in_data__organizing_.Percent_capitalized': null,
        'Check_in_data__organizing_.Business_plan_done': null,
        'Check_in_data__organizing_.Market_study_date': null,
        'Check_in_data__organizing_.Organizing_focus': null,
        custom: null,
        check_permissions: null,
      });
      const [stored] = site.model.api4('Activity', 'get', {
        select: ['activity_date_time', 'status_id:name', 'target_contact_id', 'custom.*'],
        where: [['id', '=', created?.['id']]],
      });
      expect(stored).toMatchObject({
        activity_date_time: '2026-11-21 10:15:00',
        'status_id:name': 'Completed',
        target_contact_id: [ORG_ID],
        'Check_in_data__organizing_.Percent_capitalized': 12.5,
        'Check_in_data__organizing_.Business_plan_done': true,
        'Check_in_data__organizing_.Market_study_date': '2026-11-01',
        'Check_in_data__organizing_.Organizing_focus': ['deli'],
      });
    });

    it.each([
      ['without source_contact_id', { source_contact_id: undefined }, /source_contact_id/],
      [
        'with a file id that does not exist',
        { 'Check_in_data__organizing_.Business_plan': 99999 },
        /no File/,
      ],
    ])('refuses Activity.create %s', (_label, values, message) => {
      expectApi4Error(() => checkIn(values), 500, message);
    });

    it('refuses values given as an array', () => {
      expectApi4Error(
        () => site.model.api4('Activity', 'create', { values: [['subject', 'x']] }),
        500,
        /object/,
      );
    });

    it('ignores unknown keys, custom ones too, as CiviCRM does', () => {
      const created = checkIn({ not_a_column: 'x', 'Check_in_data__organizing_.Typo': 1 });
      expect(created).toMatchObject({ not_a_column: null, 'Check_in_data__organizing_.Typo': null });
      const [stored] = site.model.api4('Activity', 'get', {
        select: ['id', 'not_a_column', 'Check_in_data__organizing_.Typo'],
        where: [['id', '=', created?.['id']]],
      });
      expect(stored).toEqual({ id: created?.['id'] });
    });

    it('stores an option value that is not in the option list as sent', () => {
      const created = checkIn({
        'Check_in_data__organizing_.Market_study_status': 'Complete',
        'Check_in_data__organizing_.Organizing_focus': ['deli', 'no-such-focus'],
      });
      const [stored] = site.model.api4('Activity', 'get', {
        select: [
          'Check_in_data__organizing_.Market_study_status',
          'Check_in_data__organizing_.Organizing_focus',
        ],
        where: [['id', '=', created?.['id']]],
      });
      expect(stored).toMatchObject({
        'Check_in_data__organizing_.Market_study_status': 'Complete',
        'Check_in_data__organizing_.Organizing_focus': ['deli', 'no-such-focus'],
      });
    });

    it('updates the rows the where clause matches, and only those', () => {
      const updated = site.model.api4('Contact', 'update', {
        values: {
          'Food_Co_op_Organizing.Equity_share': '175.50',
          'Food_Co_op_Organizing.Name_on_Incorporation_Certificate': '',
        },
        where: [['id', '=', ORG_ID]],
      });
      expect(updated).toEqual([
        expect.objectContaining({ id: ORG_ID, 'Food_Co_op_Organizing.Equity_share': 175.5 }),
      ]);
      const [other] = site.model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.Equity_share'],
        where: [['id', '=', OTHER_ORG_ID]],
      });
      expect(other?.['Food_Co_op_Organizing.Equity_share']).toBe(150);
      const [org] = site.model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.Name_on_Incorporation_Certificate'],
        where: [['id', '=', ORG_ID]],
      });
      expect(org?.['Food_Co_op_Organizing.Name_on_Incorporation_Certificate']).toBeNull();
    });

    it('changes nothing when one value of an update is refused', () => {
      expectApi4Error(() =>
        site.model.api4('Contact', 'update', {
          values: {
            'Food_Co_op_Organizing.Equity_share': 1,
            'Food_Co_op_Organizing.Name_on_Incorporation_Certificate': { a: 1 },
          },
          where: [['id', '=', ORG_ID]],
        }),
      );
      const [org] = site.model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.Equity_share'],
        where: [['id', '=', ORG_ID]],
      });
      expect(org?.['Food_Co_op_Organizing.Equity_share']).toBe(200);
    });

    it('refuses update and delete without a where clause', () => {
      expectApi4Error(
        () => site.model.api4('Contact', 'update', { values: { first_name: 'X' } }),
        500,
        /where/,
      );
      expectApi4Error(() => site.model.api4('Activity', 'delete', {}), 500, /where/);
    });

    it('moves contacts to the trash on delete and removes activities', () => {
      site.model.api4('Contact', 'delete', { where: [['id', '=', OTHER_ORG_ID]] });
      expect(site.model.api4('Contact', 'get', { where: [['id', '=', OTHER_ORG_ID]] })).toEqual([]);
      expect(
        site.model.api4('Contact', 'get', {
          where: [
            ['id', '=', OTHER_ORG_ID],
            ['is_deleted', '=', true],
          ],
        }),
      ).toHaveLength(1);
      site.model.api4('Activity', 'delete', { where: [['id', '=', 1001]] });
      expect(
        site.model.api4('Activity', 'get', {
          where: [
            ['id', '=', 1001],
            ['is_deleted', 'IN', [true, false]],
          ],
        }),
      ).toEqual([]);
    });

    it('writes a primary email through email_primary.email', () => {
      const [person] = site.model.api4('Contact', 'create', {
        values: {
          contact_type: 'Individual',
          first_name: 'Ada',
          last_name: 'Quill',
          'email_primary.email': 'ada@example.org',
        },
      });
      const [read] = site.model.api4('Contact', 'get', {
        select: ['display_name', 'email_primary.email'],
        where: [['id', '=', person?.['id']]],
      });
      expect(read).toMatchObject({ display_name: 'Ada Quill', 'email_primary.email': 'ada@example.org' });
    });

    it('decodes File.create content marked base64 by the service (extension installed), unattached', () => {
      const [file] = site.model.api4(
        'File',
        'create',
        {
          values: {
            file_name: 'market plan.pdf',
            mime_type: 'application/pdf',
            content: Buffer.from('%PDF-1.7 hello').toString('base64'),
          },
        },
        { contentEncoding: 'base64' },
      );
      expect(file).toMatchObject({ checkin_content_decoded: true, file_name: 'market_plan.pdf' });
      const stored = site.model.getFile(Number(file?.['id']));
      expect(stored?.content.toString()).toBe('%PDF-1.7 hello');
      expect(stored).toMatchObject({ file_name: 'market_plan.pdf', mime_type: 'application/pdf', size: 14 });
      expect(stored?.uri).toMatch(/^market_plan_[0-9a-f]{32}\.pdf$/);
    });

    it('upserts with save', () => {
      const saved = site.model.api4('Contact', 'save', {
        records: [
          { id: PERSON_ID, first_name: 'Mari' },
          { contact_type: 'Organization', organization_name: 'New Co-op' },
        ],
      });
      expect(saved.map((row) => row['display_name'])).toEqual(['Mari Vance', 'New Co-op']);
    });
  });

  describe('checksums', () => {
    const validate = (checksum: string, contactId: number = PERSON_ID) =>
      site.model.api4('Contact', 'validateChecksum', { contactId, checksum })[0]?.['valid'];
    const generate = (ttl?: number) =>
      String(
        site.model.api4('Contact', 'getChecksum', {
          contactId: PERSON_ID,
          ...(ttl === undefined ? {} : { ttl }),
        })[0]?.['checksum'],
      );

    it('generates {md5}_{timestamp}_{hours} checksums that validate', () => {
      const checksum = generate(24);
      expect(checksum).toMatch(/^[0-9a-f]{32}_\d+_24$/);
      expect(validate(checksum)).toBe(true);
      expect(validate(checksum, OTHER_ORG_ID)).toBe(false);
    });

    it('expires generated checksums after their lifetime, default 7 days, never with ttl 0', () => {
      const day = generate(24);
      const week = generate();
      const forever = generate(0);
      expect(week.endsWith(`_${DEFAULT_CHECKSUM_TTL_HOURS}`)).toBe(true);
      expect(forever.endsWith('_inf')).toBe(true);
      site.clock = new Date(site.clock.getTime() + 25 * 3600 * 1000);
      expect([validate(day), validate(week), validate(forever)]).toEqual([false, true, true]);
      site.clock = new Date(site.clock.getTime() + 7 * 24 * 3600 * 1000);
      expect([validate(week), validate(forever)]).toEqual([false, true]);
    });

    it('rejects tampered and wrong checksums', () => {
      const checksum = generate(24);
      expect(validate(checksum.replace(/_24$/, '_2400'))).toBe(false);
      expect(validate('wrong')).toBe(false);
      expect(validate('')).toBe(false);
    });

    it('accepts the fixed checksum for the sample person and organization only', () => {
      expect(validate(SAMPLE_CHECKSUM)).toBe(true);
      expect(validate(SAMPLE_CHECKSUM, ORG_ID)).toBe(true);
      expect(validate('Demo')).toBe(false);
      expect(validate(SAMPLE_CHECKSUM, OTHER_ORG_ID)).toBe(false);
    });

    it('does not accept a checksum issued by another model (another secret)', () => {
      const other = createSampleModel({ secret: 'another-secret', now: () => site.clock });
      const foreign = String(
        other.api4('Contact', 'getChecksum', { contactId: PERSON_ID, ttl: 24 })[0]?.['checksum'],
      );
      expect(validate(foreign)).toBe(false);
    });

    it('requires contactId and checksum', () => {
      expectApi4Error(
        () => site.model.api4('Contact', 'validateChecksum', { checksum: 'x' }),
        500,
        /contactId/,
      );
      expectApi4Error(
        () => site.model.api4('Contact', 'validateChecksum', { contactId: PERSON_ID }),
        500,
        /checksum/,
      );
    });
  });

  describe('APIv3 Attachment.get', () => {
    const certificateFileId = () =>
      Number(
        site.model.api4('Contact', 'get', {
          select: ['Food_Co_op_Organizing.Certificate_of_Incorporation'],
          where: [['id', '=', ORG_ID]],
        })[0]?.['Food_Co_op_Organizing.Certificate_of_Incorporation'],
      );
    const fileIds = () =>
      site.model
        .api4('File', 'get', { select: ['id'], orderBy: { id: 'ASC' }, limit: 2 })
        .map((row) => Number(row['id']));

    it('dies with an HTTP 500 (a PHP fatal error) when id is {IN: [...]}', () => {
      const [first, second] = fileIds();
      let caught: unknown;
      try {
        site.model.api3('Attachment', 'get', {
          id: { IN: [first, second] },
          return: 'id,url',
          sequential: 1,
        });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CrmFatalError);
      expect(caught).toMatchObject({ status: 500, message: expect.stringMatching(/^htmlentities\(\)/) });
    });

    it('answers one attached file with every column, whatever return asks for, and an absolute signed url', () => {
      const attached = certificateFileId();
      const envelope = site.model.api3('Attachment', 'get', {
        id: attached,
        return: 'id,url',
        sequential: 1,
      });
      expect(envelope).toEqual({
        is_error: 0,
        version: 3,
        count: 1,
        id: attached,
        values: [
          {
            id: String(attached),
            name: 'Riverbend_certificate_of_incorporation.pdf',
            mime_type: 'application/pdf',
            description: '',
            upload_date: '2022-01-01 00:00:00',
            entity_table: '',
            entity_id: '',
            icon: 'fa-file-pdf-o',
            created_id: '',
            url: expect.stringMatching(
              new RegExp(
                `^https://crm\\.example\\.org/civicrm/file\\?reset=1&id=${attached}&fcs=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`,
              ),
            ),
          },
        ],
      });
    });

    it('keys values by id without sequential, and finds nothing for an unknown id', () => {
      const attached = certificateFileId();
      expect(site.model.api3('Attachment', 'get', { id: attached })).toMatchObject({
        count: 1,
        values: { [String(attached)]: { id: String(attached) } },
      });
      expect(site.model.api3('Attachment', 'get', { id: 99999 })).toEqual({
        is_error: 0,
        version: 3,
        count: 0,
        values: {},
      });
    });

    it('fails its permission check for a file attached to nothing', () => {
      const [loose] = site.model.api4('File', 'create', {
        values: { file_name: 'x.txt', mime_type: 'text/plain' },
      });
      expect(site.model.api3('Attachment', 'get', { id: loose?.['id'] })).toEqual({
        is_error: 1,
        error_message: 'Failed to lookup entity table for custom field.',
      });
    });

    it('answers a non-admin user with "access AJAX API" as it answers the admin (measured on both)', () => {
      const attached = certificateFileId();
      const user = {
        contactId: null,
        permissions: ['access CiviCRM', 'access AJAX API', 'access uploaded files'],
      };
      expect(site.model.api3('Attachment', 'get', { id: attached }, { user })).toMatchObject({
        is_error: 0,
        count: 1,
      });
      expect(
        site.model.api3(
          'Attachment',
          'get',
          { id: attached },
          { user: { contactId: null, permissions: ['access CiviCRM'] } },
        ),
      ).toMatchObject({ is_error: 1 });
    });

    it('answers an array-valued return with a type error', () => {
      const attached = certificateFileId();
      expect(
        site.model.api3('Attachment', 'get', { id: attached, return: ['id', 'url'], sequential: 1 }),
      ).toEqual({
        is_error: 1,
        error_message: 'explode(): Argument #2 ($string) must be of type string, array given',
      });
    });

    it('answers unknown v3 APIs with is_error', () => {
      expect(site.model.api3('Contact', 'get', {})).toMatchObject({
        is_error: 1,
        error_message: expect.stringContaining('does not exist'),
      });
    });
  });

  describe('Setting', () => {
    it('answers CiviCRM defaults (USD, en_US) one row per selected name until a setting is changed', () => {
      expect(site.model.api4('Setting', 'get', { select: ['defaultCurrency', 'lcMessages'] })).toEqual([
        { name: 'defaultCurrency', value: 'USD', domain_id: 1 },
        { name: 'lcMessages', value: 'en_US', domain_id: 1 },
      ]);
      site.model.api4('Setting', 'set', { values: { defaultCurrency: 'CAD' } });
      site.model.setSetting('lcMessages', 'en_CA');
      expect(site.model.api4('Setting', 'get', { select: ['defaultCurrency', 'lcMessages'] })).toEqual([
        { name: 'defaultCurrency', value: 'CAD', domain_id: 1 },
        { name: 'lcMessages', value: 'en_CA', domain_id: 1 },
      ]);
      site.model.reset();
      expect(site.model.setting('defaultCurrency')).toBe('USD');
    });

    it('refuses an unknown name and a user without administer CiviCRM', () => {
      expectApi4Error(
        () => site.model.api4('Setting', 'get', { select: ['defaultCurrency', 'noSuchSetting'] }),
        500,
        /Unknown settings for domain 1: noSuchSetting/,
      );
      expectApi4Error(
        () =>
          site.model.api4(
            'Setting',
            'get',
            { select: ['defaultCurrency'] },
            { user: { contactId: null, permissions: ['access CiviCRM', 'access AJAX API'] } },
          ),
        403,
        /Authorization failed/,
      );
    });
  });

  describe('state', () => {
    it('resets to the seeded data', () => {
      site.model.api4('Contact', 'update', {
        values: { first_name: 'Changed' },
        where: [['id', '=', PERSON_ID]],
      });
      site.model.reset();
      expect(site.model.api4('Contact', 'get', { where: [['id', '=', PERSON_ID]] })[0]?.['first_name']).toBe(
        PERSON.first_name,
      );
    });

    it('restores a snapshot', () => {
      const snapshot = site.model.snapshot();
      site.model.api4('Activity', 'delete', { where: [['id', '>', 0]] });
      site.model.restore(snapshot);
      expect(site.model.count('Activity')).toBeGreaterThan(SAMPLE_CHECK_INS.length);
    });

    it('starts as a fresh CiviCRM without a seed', () => {
      const fresh = new CiviCrmModel();
      expect(fresh.api4('Contact', 'get', { select: ['display_name'] })).toEqual([
        { id: 1, display_name: 'Default Organization' },
      ]);
      expect(fresh.api4('CustomGroup', 'get')).toEqual([]);
    });
  });
});
