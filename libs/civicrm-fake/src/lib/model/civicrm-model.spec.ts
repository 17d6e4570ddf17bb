import { createHmac } from 'node:crypto';
import { CiviCrmModel } from './civicrm-model';
import {
  ANONYMOUS_USER,
  Api4Error,
  CHECKIN_EXTENSION_VERSION,
  CrmFatalError,
  DEFAULT_CHECKSUM_TTL_HOURS,
} from './types';
import {
  OTHER_ORG_ID,
  OTHER_PERSON_ID,
  ORG_ID,
  PERSON,
  PERSON_ID,
  SAMPLE_ACTIVITY_TYPE,
  SAMPLE_CHECK_INS,
  SAMPLE_CHECKSUM,
  SAMPLE_RELATIONSHIP,
  STAGE_FIELD,
  createSampleModel,
} from '../spec-support/sample-site';

const CHECK_IN = ['activity_type_id:name', '=', SAMPLE_ACTIVITY_TYPE] as const;
const OF_ORG = ['target_contact_id', 'CONTAINS', ORG_ID] as const;

function expectApi4Error(run: () => unknown, status = 500, message?: RegExp): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Api4Error);
  expect((caught as Api4Error).status).toBe(status);
  if (message) expect((caught as Api4Error).message).toMatch(message);
}

describe('CiviCrmModel', () => {
  let clock: Date;
  let model: CiviCrmModel;

  beforeEach(() => {
    clock = new Date('2026-11-21T12:00:00Z');
    model = createSampleModel({
      now: () => clock,
      secret: 'test-secret',
      baseUrl: 'https://crm.example.org/',
    });
  });

  describe('get: select', () => {
    it('returns core fields and the id when nothing is selected, custom fields only when named', () => {
      const [org] = model.api4('Contact', 'get', { where: [['id', '=', ORG_ID]] });
      expect(org).toMatchObject({
        id: ORG_ID,
        contact_type: 'Organization',
        display_name: 'Riverbend Food Co-op',
      });
      expect(Object.keys(org ?? {}).some((key) => key.includes('.'))).toBe(false);
    });

    it('keys rows by the exact select string and always adds id', () => {
      const [row] = model.api4('Contact', 'get', {
        select: ['first_name', 'email_primary.email', 'no_such_field', 'Nope.Missing'],
        where: [['id', '=', PERSON_ID]],
      });
      expect(row).toEqual({
        id: PERSON_ID,
        first_name: PERSON.first_name,
        'email_primary.email': PERSON.email,
      });
    });

    it('expands Group.* and custom.* to custom fields', () => {
      const [byGroup] = model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.*'],
        where: [['id', '=', ORG_ID]],
      });
      expect(byGroup).toMatchObject({
        'Food_Co_op_Organizing.Equity_share': 200,
        'Food_Co_op_Organizing.Date_Incorporated': '2022-06-01',
      });
      const [all] = model.api4('Activity', 'get', { select: ['custom.*'], where: [['id', '=', 1002]] });
      expect(all?.[STAGE_FIELD]).toBeNull();
      expect(all?.['Check_in_data__organizing_.Steering_committee_size']).toBe(5);
    });

    it('resolves :name and :label pseudoconstants, also on custom option fields and arrays', () => {
      const [row] = model.api4('Activity', 'get', {
        select: [
          'activity_type_id:name',
          'status_id:label',
          `${STAGE_FIELD}:label`,
          'Check_in_data__organizing_.Lender_types:label',
        ],
        where: [['id', '=', 1004]],
      });
      expect(row).toMatchObject({
        'activity_type_id:name': SAMPLE_ACTIVITY_TYPE,
        'status_id:label': 'Completed',
      });
      expect(row?.['Check_in_data__organizing_.Lender_types:label']).toEqual([
        'Community development lender',
        'Member loans',
        'Bank or credit union',
      ]);
      const [staff] = model.api4('Activity', 'get', {
        select: [`${STAGE_FIELD}:label`],
        where: [['id', '=', 1001]],
      });
      expect(staff?.[`${STAGE_FIELD}:label`]).toBe('Organizing');
    });

    it('joins foreign keys with dots: relationship type, contacts on either side', () => {
      const rows = model.api4('Relationship', 'get', {
        select: [
          'relationship_type_id.name_a_b',
          'relationship_type_id.contact_type_a',
          'contact_id_b.display_name',
        ],
        where: [
          ['contact_id_a', '=', PERSON_ID],
          ['relationship_type_id.name_a_b', '=', SAMPLE_RELATIONSHIP],
        ],
      });
      expect(rows).toEqual([
        expect.objectContaining({
          'relationship_type_id.name_a_b': SAMPLE_RELATIONSHIP,
          'relationship_type_id.contact_type_a': 'Individual',
          'contact_id_b.display_name': 'Riverbend Food Co-op',
        }),
      ]);
    });

    it('joins a File custom field to file_name and a site-relative url signed with a JWT (6.14)', () => {
      const field = 'Food_Co_op_Organizing.Certificate_of_Incorporation';
      const [org] = model.api4('Contact', 'get', {
        select: [field, `${field}.file_name`, `${field}.url`],
        where: [['id', '=', ORG_ID]],
      });
      const fileId = Number(org?.[field]);
      expect(typeof org?.[field]).toBe('number');
      expect(org?.[`${field}.file_name`]).toBe('Riverbend_certificate_of_incorporation.pdf');
      const url = String(org?.[`${field}.url`]);
      expect(url).toMatch(
        new RegExp(`^/civicrm/file\\?reset=1&id=${fileId}&fcs=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`),
      );
      const fcs = new URL(url, 'http://x').searchParams.get('fcs') ?? '';
      expect(JSON.parse(Buffer.from(fcs.split('.')[1] ?? '', 'base64url').toString())).toEqual({
        exp: clock.getTime() / 1000 + 7 * 24 * 3600,
        'civi.file': fileId,
      });
      expect(model.verifyFileSignature(fileId, fcs)).toBe(true);
      expect(model.verifyFileSignature(fileId + 1, fcs)).toBe(false);
      clock = new Date(clock.getTime() + 8 * 24 * 3600 * 1000);
      expect(model.verifyFileSignature(fileId, fcs)).toBe(false);
    });

    it('reads CustomField metadata with custom_group_id:name and OptionValue values as strings', () => {
      const [stage] = model.api4('CustomField', 'get', {
        select: ['name', 'data_type', 'html_type', 'option_group_id', 'custom_group_id:name', 'serialize'],
        where: [
          ['custom_group_id:name', '=', 'Check_in_data__organizing_'],
          ['name', '=', 'Stage'],
        ],
      });
      expect(stage).toMatchObject({
        data_type: 'String',
        html_type: 'Select',
        'custom_group_id:name': 'Check_in_data__organizing_',
        serialize: 0,
      });
      const options = model.api4('OptionValue', 'get', {
        select: ['value', 'label', 'weight'],
        where: [['option_group_id', '=', stage?.['option_group_id']]],
        orderBy: { weight: 'ASC' },
      });
      expect(options.map((option) => option['label'])).toEqual([
        'Inquiry',
        'Organizing',
        'Feasibility',
        'Business planning',
        'Capitalization',
        'Open',
      ]);
      expect(options.every((option) => typeof option['value'] === 'string')).toBe(true);
    });
  });

  describe('get: where', () => {
    const ids = (where: unknown[], entity = 'Activity') =>
      model.api4(entity, 'get', { select: ['id'], where }).map((row) => row['id']);

    it('finds an organization’s check-ins with CONTAINS on target_contact_id, hiding deleted ones', () => {
      expect(ids([OF_ORG, CHECK_IN])).toHaveLength(SAMPLE_CHECK_INS.length);
      expect(ids([OF_ORG])).toHaveLength(SAMPLE_CHECK_INS.length + 1);
      expect(ids([OF_ORG, CHECK_IN, ['is_deleted', '=', true]])).toHaveLength(1);
    });

    it('supports comparison, IN, NOT IN, BETWEEN and LIKE', () => {
      expect(
        ids([
          ['id', '>', 1005],
          ['id', '<=', 1007],
        ]),
      ).toEqual([1006, 1007]);
      expect(ids([['id', 'IN', [1003, 1001, 99]]])).toEqual([1001, 1003]);
      expect(
        ids([
          ['id', 'NOT IN', []],
          ['id', '<', 1003],
        ]),
      ).toEqual([1001, 1002]);
      expect(ids([OF_ORG, ['activity_date_time', 'BETWEEN', ['2025-01-01', '2025-03-10 09:00:00']]])).toEqual(
        [1003, 1004, 1005],
      );
      expect(ids([['display_name', 'LIKE', 'riverbend%']], 'Contact')).toEqual([ORG_ID]);
      expect(
        ids(
          [
            ['contact_type', '=', 'Individual'],
            ['display_name', 'NOT LIKE', '%a%'],
          ],
          'Contact',
        ),
      ).toEqual([OTHER_PERSON_ID]);
    });

    it('treats null, empty string and empty arrays as IS EMPTY', () => {
      const stageBearing = ids([OF_ORG, CHECK_IN, [STAGE_FIELD, 'IS NOT EMPTY']]);
      expect(stageBearing).toEqual([1001, 1003, 1006, 1007]);
      expect(ids([OF_ORG, CHECK_IN, [STAGE_FIELD, 'IS EMPTY']])).toHaveLength(SAMPLE_CHECK_INS.length - 4);
      expect(ids([['target_contact_id', 'IS EMPTY']])).toEqual([]);
      expect(
        ids([
          [STAGE_FIELD, 'IS NULL'],
          ['id', '=', 1002],
        ]),
      ).toEqual([1002]);
    });

    it('matches multiselect arrays with CONTAINS and NOT CONTAINS', () => {
      const field = 'Check_in_data__organizing_.Lender_types';
      expect(ids([[field, 'CONTAINS', 'bank']])).toEqual([1004, 1005]);
      expect(ids([[field, 'CONTAINS', ['cdfi', 'member_loans']]])).toEqual([1004]);
      expect(ids([[field, 'NOT CONTAINS', 'bank']])).toEqual([1003]);
    });

    it('nests OR, AND and NOT groups', () => {
      expect(
        ids([
          [
            'OR',
            [
              ['id', '=', 1001],
              [
                'AND',
                [
                  ['id', '>', 1006],
                  ['id', '<', 1008],
                ],
              ],
            ],
          ],
        ]),
      ).toEqual([1001, 1007]);
      expect(ids([['NOT', [['id', '>', 1002]]]])).toEqual([1001, 1002]);
    });

    it('compares pseudoconstant names exactly and plain text case-insensitively', () => {
      expect(ids([['activity_type_id:name', '=', 'check-in (organizing)']])).toEqual([]);
      expect(ids([['organization_name', '=', 'RIVERBEND FOOD CO-OP']], 'Contact')).toEqual([ORG_ID]);
    });

    it.each([
      ['an unknown field', [['nope', '=', 1]], /Invalid field 'nope'/],
      ['an unknown custom field', [['Check_in_data__organizing_.Nope', 'IS EMPTY']], /Invalid field/],
      ['an illegal operator', [['id', '==', 1]], /Illegal operator/],
      ['lower-case operators', [['id', 'in', [1]]], /Illegal operator/],
      ['IN without an array', [['id', 'IN', 5]], /array/],
      ['a malformed clause', ['id', '=', 1], /Invalid where clause/],
    ])('refuses %s with a 500', (_label, where, message) => {
      expectApi4Error(() => model.api4('Activity', 'get', { where }), 500, message);
    });
  });

  describe('get: orderBy, limit, offset', () => {
    it('orders by date then id descending, which breaks same-moment ties by id', () => {
      const [latest] = model.api4('Activity', 'get', {
        select: [STAGE_FIELD],
        where: [OF_ORG, CHECK_IN, [STAGE_FIELD, 'IS NOT EMPTY']],
        orderBy: { activity_date_time: 'DESC', id: 'DESC' },
        limit: 1,
      });
      expect(latest).toEqual({ id: 1007, [STAGE_FIELD]: 'capitalization' });
    });

    it('returns same-moment rows in id order when only the date is ordered', () => {
      const rows = model.api4('Activity', 'get', {
        where: [OF_ORG, CHECK_IN, [STAGE_FIELD, 'IS NOT EMPTY']],
        orderBy: { activity_date_time: 'DESC' },
        limit: 1,
      });
      expect(rows[0]?.['id']).toBe(1006);
    });

    it('pages with limit and offset; limit 0 means no limit', () => {
      const page = (limit: number, offset?: number) =>
        model.api4('Activity', 'get', {
          select: ['id'],
          where: [OF_ORG, CHECK_IN],
          orderBy: { id: 'ASC' },
          limit,
          ...(offset ? { offset } : {}),
        });
      expect(page(2, 3).map((row) => row['id'])).toEqual([1004, 1005]);
      expect(page(0)).toHaveLength(SAMPLE_CHECK_INS.length);
    });

    it('sorts NULL first ascending and accepts several keys', () => {
      const rows = model.api4('Activity', 'get', {
        select: ['id'],
        where: [OF_ORG, CHECK_IN],
        orderBy: { [STAGE_FIELD]: 'ASC', id: 'DESC' },
      });
      expect(rows[0]?.['id']).toBe(1008);
      expect(rows.at(-1)?.['id']).toBe(1001);
    });

    it('refuses lower-case directions and unknown fields', () => {
      expectApi4Error(() => model.api4('Activity', 'get', { orderBy: { id: 'desc' } }), 500, /direction/);
      expectApi4Error(
        () => model.api4('Activity', 'get', { orderBy: { nope: 'ASC' } }),
        500,
        /^Invalid field 'nope'$/,
      );
    });
  });

  describe('params and entities', () => {
    it('refuses unknown top-level params such as sequential', () => {
      expectApi4Error(
        () => model.api4('Contact', 'get', { sequential: 1 }),
        500,
        /^Unknown api parameter: setSequential$/,
      );
    });

    it('refuses unknown entities and actions', () => {
      expectApi4Error(
        () => model.api4('Nope', 'get'),
        500,
        /^API \(Nope, get\) does not exist \(or the extension it belongs to is not enabled\)\.$/,
      );
      expectApi4Error(
        () => model.api4('Contact', 'explode'),
        500,
        /^Api Contact explode version 4 does not exist\.$/,
      );
      expectApi4Error(() => model.api4('RelationshipCache', 'create', { values: {} }), 500);
    });

    it('never shares references with callers', () => {
      const where = [['id', '=', ORG_ID]];
      const [org] = model.api4('Contact', 'get', { where });
      (org as Record<string, unknown>)['display_name'] = 'Changed';
      expect(model.api4('Contact', 'get', { where })[0]?.['display_name']).toBe('Riverbend Food Co-op');
    });

    it('offers RelationshipCache, both directions of every relationship', () => {
      const rows = model.api4('RelationshipCache', 'get', {
        select: ['far_contact_id', 'near_relation'],
        where: [
          ['near_contact_id', '=', ORG_ID],
          ['is_active', '=', true],
        ],
      });
      expect(rows).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ far_contact_id: PERSON_ID, near_relation: 'Has Primary Contact' }),
        ]),
      );
    });
  });

  describe('create, update, delete', () => {
    const checkIn = (values: Record<string, unknown>) =>
      model.api4('Activity', 'create', {
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
      const [stored] = model.api4('Activity', 'get', {
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
      expectApi4Error(() => model.api4('Activity', 'create', { values: [['subject', 'x']] }), 500, /object/);
    });

    it('ignores unknown keys, custom ones too, as CiviCRM does', () => {
      const created = checkIn({ not_a_column: 'x', 'Check_in_data__organizing_.Typo': 1 });
      expect(created).toMatchObject({ not_a_column: null, 'Check_in_data__organizing_.Typo': null });
      const [stored] = model.api4('Activity', 'get', {
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
      const [stored] = model.api4('Activity', 'get', {
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
      const updated = model.api4('Contact', 'update', {
        values: {
          'Food_Co_op_Organizing.Equity_share': '175.50',
          'Food_Co_op_Organizing.Name_on_Incorporation_Certificate': '',
        },
        where: [['id', '=', ORG_ID]],
      });
      expect(updated).toEqual([
        expect.objectContaining({ id: ORG_ID, 'Food_Co_op_Organizing.Equity_share': 175.5 }),
      ]);
      const [other] = model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.Equity_share'],
        where: [['id', '=', OTHER_ORG_ID]],
      });
      expect(other?.['Food_Co_op_Organizing.Equity_share']).toBe(150);
      const [org] = model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.Name_on_Incorporation_Certificate'],
        where: [['id', '=', ORG_ID]],
      });
      expect(org?.['Food_Co_op_Organizing.Name_on_Incorporation_Certificate']).toBeNull();
    });

    it('changes nothing when one value of an update is refused', () => {
      expectApi4Error(() =>
        model.api4('Contact', 'update', {
          values: {
            'Food_Co_op_Organizing.Equity_share': 1,
            'Food_Co_op_Organizing.Name_on_Incorporation_Certificate': { a: 1 },
          },
          where: [['id', '=', ORG_ID]],
        }),
      );
      const [org] = model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.Equity_share'],
        where: [['id', '=', ORG_ID]],
      });
      expect(org?.['Food_Co_op_Organizing.Equity_share']).toBe(200);
    });

    it('refuses update and delete without a where clause', () => {
      expectApi4Error(() => model.api4('Contact', 'update', { values: { first_name: 'X' } }), 500, /where/);
      expectApi4Error(() => model.api4('Activity', 'delete', {}), 500, /where/);
    });

    it('moves contacts to the trash on delete and removes activities', () => {
      model.api4('Contact', 'delete', { where: [['id', '=', OTHER_ORG_ID]] });
      expect(model.api4('Contact', 'get', { where: [['id', '=', OTHER_ORG_ID]] })).toEqual([]);
      expect(
        model.api4('Contact', 'get', {
          where: [
            ['id', '=', OTHER_ORG_ID],
            ['is_deleted', '=', true],
          ],
        }),
      ).toHaveLength(1);
      model.api4('Activity', 'delete', { where: [['id', '=', 1001]] });
      expect(
        model.api4('Activity', 'get', {
          where: [
            ['id', '=', 1001],
            ['is_deleted', 'IN', [true, false]],
          ],
        }),
      ).toEqual([]);
    });

    it('writes a primary email through email_primary.email', () => {
      const [person] = model.api4('Contact', 'create', {
        values: {
          contact_type: 'Individual',
          first_name: 'Ada',
          last_name: 'Quill',
          'email_primary.email': 'ada@example.org',
        },
      });
      const [read] = model.api4('Contact', 'get', {
        select: ['display_name', 'email_primary.email'],
        where: [['id', '=', person?.['id']]],
      });
      expect(read).toMatchObject({ display_name: 'Ada Quill', 'email_primary.email': 'ada@example.org' });
    });

    it('decodes File.create content marked base64 by the service (extension installed), unattached', () => {
      const [file] = model.api4(
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
      const stored = model.getFile(Number(file?.['id']));
      expect(stored?.content.toString()).toBe('%PDF-1.7 hello');
      expect(stored).toMatchObject({ file_name: 'market_plan.pdf', mime_type: 'application/pdf', size: 14 });
      expect(stored?.uri).toMatch(/^market_plan_[0-9a-f]{32}\.pdf$/);
    });

    it('upserts with save', () => {
      const saved = model.api4('Contact', 'save', {
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
      model.api4('Contact', 'validateChecksum', { contactId, checksum })[0]?.['valid'];
    const generate = (ttl?: number) =>
      String(
        model.api4('Contact', 'getChecksum', {
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
      clock = new Date(clock.getTime() + 25 * 3600 * 1000);
      expect([validate(day), validate(week), validate(forever)]).toEqual([false, true, true]);
      clock = new Date(clock.getTime() + 7 * 24 * 3600 * 1000);
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
      const other = createSampleModel({ secret: 'another-secret', now: () => clock });
      const foreign = String(
        other.api4('Contact', 'getChecksum', { contactId: PERSON_ID, ttl: 24 })[0]?.['checksum'],
      );
      expect(validate(foreign)).toBe(false);
    });

    it('requires contactId and checksum', () => {
      expectApi4Error(() => model.api4('Contact', 'validateChecksum', { checksum: 'x' }), 500, /contactId/);
      expectApi4Error(
        () => model.api4('Contact', 'validateChecksum', { contactId: PERSON_ID }),
        500,
        /checksum/,
      );
    });
  });

  describe('APIv3 Attachment.get', () => {
    const certificateFileId = () =>
      Number(
        model.api4('Contact', 'get', {
          select: ['Food_Co_op_Organizing.Certificate_of_Incorporation'],
          where: [['id', '=', ORG_ID]],
        })[0]?.['Food_Co_op_Organizing.Certificate_of_Incorporation'],
      );
    const fileIds = () =>
      model
        .api4('File', 'get', { select: ['id'], orderBy: { id: 'ASC' }, limit: 2 })
        .map((row) => Number(row['id']));

    it('dies with an HTTP 500 (a PHP fatal error) when id is {IN: [...]}', () => {
      const [first, second] = fileIds();
      let caught: unknown;
      try {
        model.api3('Attachment', 'get', { id: { IN: [first, second] }, return: 'id,url', sequential: 1 });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CrmFatalError);
      expect(caught).toMatchObject({ status: 500, message: expect.stringMatching(/^htmlentities\(\)/) });
    });

    it('answers one attached file with every column, whatever return asks for, and an absolute signed url', () => {
      const attached = certificateFileId();
      const envelope = model.api3('Attachment', 'get', { id: attached, return: 'id,url', sequential: 1 });
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
      expect(model.api3('Attachment', 'get', { id: attached })).toMatchObject({
        count: 1,
        values: { [String(attached)]: { id: String(attached) } },
      });
      expect(model.api3('Attachment', 'get', { id: 99999 })).toEqual({
        is_error: 0,
        version: 3,
        count: 0,
        values: {},
      });
    });

    it('fails its permission check for a file attached to nothing', () => {
      const [loose] = model.api4('File', 'create', {
        values: { file_name: 'x.txt', mime_type: 'text/plain' },
      });
      expect(model.api3('Attachment', 'get', { id: loose?.['id'] })).toEqual({
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
      expect(model.api3('Attachment', 'get', { id: attached }, { user })).toMatchObject({
        is_error: 0,
        count: 1,
      });
      expect(
        model.api3(
          'Attachment',
          'get',
          { id: attached },
          { user: { contactId: null, permissions: ['access CiviCRM'] } },
        ),
      ).toMatchObject({ is_error: 1 });
    });

    it('answers an array-valued return with a type error', () => {
      const attached = certificateFileId();
      expect(model.api3('Attachment', 'get', { id: attached, return: ['id', 'url'], sequential: 1 })).toEqual(
        {
          is_error: 1,
          error_message: 'explode(): Argument #2 ($string) must be of type string, array given',
        },
      );
    });

    it('answers unknown v3 APIs with is_error', () => {
      expect(model.api3('Contact', 'get', {})).toMatchObject({
        is_error: 1,
        error_message: expect.stringContaining('does not exist'),
      });
    });
  });

  describe('Setting', () => {
    it('answers CiviCRM defaults (USD, en_US) one row per selected name until a setting is changed', () => {
      expect(model.api4('Setting', 'get', { select: ['defaultCurrency', 'lcMessages'] })).toEqual([
        { name: 'defaultCurrency', value: 'USD', domain_id: 1 },
        { name: 'lcMessages', value: 'en_US', domain_id: 1 },
      ]);
      model.api4('Setting', 'set', { values: { defaultCurrency: 'CAD' } });
      model.setSetting('lcMessages', 'en_CA');
      expect(model.api4('Setting', 'get', { select: ['defaultCurrency', 'lcMessages'] })).toEqual([
        { name: 'defaultCurrency', value: 'CAD', domain_id: 1 },
        { name: 'lcMessages', value: 'en_CA', domain_id: 1 },
      ]);
      model.reset();
      expect(model.setting('defaultCurrency')).toBe('USD');
    });

    it('refuses an unknown name and a user without administer CiviCRM', () => {
      expectApi4Error(
        () => model.api4('Setting', 'get', { select: ['defaultCurrency', 'noSuchSetting'] }),
        500,
        /Unknown settings for domain 1: noSuchSetting/,
      );
      expectApi4Error(
        () =>
          model.api4(
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
      model.api4('Contact', 'update', {
        values: { first_name: 'Changed' },
        where: [['id', '=', PERSON_ID]],
      });
      model.reset();
      expect(model.api4('Contact', 'get', { where: [['id', '=', PERSON_ID]] })[0]?.['first_name']).toBe(
        PERSON.first_name,
      );
    });

    it('restores a snapshot', () => {
      const snapshot = model.snapshot();
      model.api4('Activity', 'delete', { where: [['id', '>', 0]] });
      model.restore(snapshot);
      expect(model.count('Activity')).toBeGreaterThan(SAMPLE_CHECK_INS.length);
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

/** The behaviours measured on real CiviCRM 6.14 and 5.81.1 (issues 12 and 18). */
describe('CiviCrmModel imitating a real CiviCRM', () => {
  const clock = new Date('2026-11-21T12:00:00Z');
  const make = (options: Partial<ConstructorParameters<typeof CiviCrmModel>[0]> = {}) =>
    createSampleModel({
      now: () => clock,
      secret: 'test-secret',
      baseUrl: 'https://crm.example.org',
      ...options,
    });
  const checkIn = (model: CiviCrmModel, values: Record<string, unknown>, context = {}) =>
    model.api4(
      'Activity',
      'create',
      {
        values: {
          'activity_type_id:name': SAMPLE_ACTIVITY_TYPE,
          source_contact_id: PERSON_ID,
          target_contact_id: [ORG_ID],
          ...values,
        },
      },
      context,
    )[0];
  const read = (model: CiviCrmModel, id: unknown, select: string[], extra: Record<string, unknown> = {}) =>
    model.api4('Activity', 'get', { select, where: [['id', '=', id]], ...extra })[0];

  describe('names', () => {
    it('munges a CustomGroup name on create (no rename), while the seeded site keeps its old names', () => {
      const model = make();
      const [group] = model.api4('CustomGroup', 'create', {
        values: {
          name: 'Check_in_data__organizing_',
          title: 'Check-in data (organizing)',
          extends: 'Activity',
        },
      });
      expect(group?.['name']).toBe('Check_in_data_organizing_');
      expect(group?.['table_name']).toBe(`civicrm_value_check_in_data_${String(group?.['id'])}`);
      expect(
        model.api4('CustomGroup', 'get', { where: [['name', '=', 'Check_in_data__organizing_']] }),
      ).toHaveLength(1);
      const [fromTitle] = model.api4('CustomGroup', 'create', {
        values: { title: 'Emu probe x  y-z!', extends: 'Activity' },
      });
      expect(fromTitle?.['name']).toBe('Emu_probe_x_y_z_');
      const [long] = model.api4('CustomGroup', 'create', {
        values: { name: 'a'.repeat(70), title: 't', extends: 'Activity' },
      });
      expect(long?.['name']).toBe('a'.repeat(63));
    });

    it('keeps a given CustomField or OptionGroup name, and munges one derived from the label or title', () => {
      const model = make();
      const [group] = model.api4('CustomGroup', 'create', {
        values: { name: 'G', title: 'G', extends: 'Activity' },
      });
      const [named] = model.api4('CustomField', 'create', {
        values: {
          custom_group_id: group?.['id'],
          name: 'Emu__field x-y',
          label: 'Emu field',
          data_type: 'Int',
        },
      });
      const [derived] = model.api4('CustomField', 'create', {
        values: {
          custom_group_id: group?.['id'],
          label: 'Emu  file / doc',
          data_type: 'File',
          html_type: 'File',
        },
      });
      expect(named).toMatchObject({
        name: 'Emu__field x-y',
        column_name: `emu_field_${String(named?.['id'])}`,
      });
      expect(derived).toMatchObject({
        name: 'Emu_file_doc',
        column_name: `emu_file_doc_${String(derived?.['id'])}`,
      });
      expect(
        model.api4('OptionGroup', 'create', { values: { name: 'Emu Probe Opts2', title: 't' } })[0],
      ).toMatchObject({
        name: 'Emu Probe Opts2',
      });
      expect(model.api4('OptionGroup', 'create', { values: { title: 'Emu Probe T3!' } })[0]).toMatchObject({
        name: 'Emu_Probe_T3_',
      });
    });
  });

  describe('option weights', () => {
    it('caps a new weight at the highest + 1 and inserts a taken one, as CRM_Utils_Weight does', () => {
      const model = make();
      const [group] = model.api4('OptionGroup', 'create', { values: { name: 'ranks', title: 'Ranks' } });
      const add = (label: string, weight?: number) =>
        model.api4('OptionValue', 'create', {
          values: {
            option_group_id: group?.['id'],
            label,
            value: label.toLowerCase(),
            ...(weight ? { weight } : {}),
          },
        })[0]?.['weight'];
      // Measured on 6.14: 10 → 2 in an empty group, 20 → 3, 1 → 1 (free), then no weight → 4.
      expect([add('A', 10), add('B', 20), add('C', 1), add('D')]).toEqual([2, 3, 1, 4]);
      expect(add('E', 2)).toBe(2);
      const weights = () =>
        Object.fromEntries(
          model
            .api4('OptionValue', 'get', {
              select: ['label', 'weight'],
              where: [['option_group_id', '=', group?.['id']]],
            })
            .map((row) => [row['label'], row['weight']]),
        );
      expect(weights()).toEqual({ C: 1, E: 2, A: 3, B: 4, D: 5 });
    });

    it('moves a weight on update, shifting the ones in between', () => {
      const model = make();
      const [group] = model.api4('OptionGroup', 'create', { values: { name: 'ranks', title: 'Ranks' } });
      for (const label of ['A', 'B', 'C']) {
        model.api4('OptionValue', 'create', { values: { option_group_id: group?.['id'], label } });
      }
      model.api4('OptionValue', 'update', { values: { weight: 1 }, where: [['label', '=', 'C']] });
      const rows = model.api4('OptionValue', 'get', {
        select: ['label'],
        where: [['option_group_id', '=', group?.['id']]],
        orderBy: { weight: 'ASC' },
      });
      expect(rows.map((row) => row['label'])).toEqual(['C', 'A', 'B']);
    });
  });

  describe('File.create', () => {
    const base64 = Buffer.from('%PDF-1.7 hello').toString('base64');
    const createFile = (model: CiviCrmModel, context = {}, fileName = 'market study (1).pdf') =>
      model.api4(
        'File',
        'create',
        { values: { file_name: fileName, mime_type: 'application/pdf', content: base64 } },
        context,
      )[0];

    it('6.14 stores content as sent (base64 text) under a munged, unique name', () => {
      const model = make({ extensionInstalled: false });
      const file = createFile(model, { contentEncoding: 'base64' });
      expect(file).toEqual({
        id: expect.any(Number),
        mime_type: 'application/pdf',
        uri: expect.stringMatching(/^market_study_1_[0-9a-f]{32}\.pdf$/),
        upload_date: '20261121120000',
        created_id: null,
        content: null,
        file_name: null,
        custom: null,
        check_permissions: null,
      });
      const stored = model.getFile(Number(file?.['id']));
      expect(stored?.content.toString()).toBe(base64);
      expect(stored?.file_name).toBe('market_study_1.pdf');
      expect(
        model.api4('File', 'get', {
          select: ['file_name', 'content'],
          where: [['id', '=', file?.['id']]],
        })[0],
      ).toEqual({ id: file?.['id'], file_name: 'market_study_1.pdf', content: base64 });
      expect(createFile(model, {}, 'run.exe')?.['uri']).toMatch(/^run_exe_[0-9a-f]{32}\.unknown$/);
      expectApi4Error(() => createFile(model, {}, '../x.pdf'), 500, /^Malformed name$/);
      expectApi4Error(
        () => model.api4('File', 'create', { values: { file_name: 'x.pdf' } }),
        500,
        /^Mandatory values missing from Api4 File::create: mime_type$/,
      );
    });

    it('5.81 has no content field: no name, no bytes', () => {
      const model = make({ civicrmVersion: '5.81', extensionInstalled: false });
      const file = createFile(model, { contentEncoding: 'base64' });
      expect(file).toEqual({
        id: expect.any(Number),
        mime_type: 'application/pdf',
        created_id: null,
        content: null,
        file_name: null,
        custom: null,
        check_permissions: null,
      });
      expect(model.getFile(Number(file?.['id']))).toMatchObject({ uri: null, file_name: null, size: 0 });
      expect(
        model.api4('File', 'get', {
          select: ['uri', 'content', 'url'],
          where: [['id', '=', file?.['id']]],
        })[0],
      ).toEqual({ id: file?.['id'], uri: null, url: null });
    });

    it.each(['6.14', '5.81'] as const)(
      'with the extension, %s decodes content the service marks base64 and says so',
      (civicrmVersion) => {
        const model = make({ civicrmVersion });
        const file = createFile(model, { contentEncoding: 'base64' });
        expect(file).toMatchObject({ file_name: 'market_study_1.pdf', checkin_content_decoded: true });
        expect(model.getFile(Number(file?.['id']))?.content.toString()).toBe('%PDF-1.7 hello');
        // No marker, no decoding: every other caller's File.create is unchanged.
        const plain = createFile(model);
        expect(plain).not.toHaveProperty('checkin_content_decoded');
        expect(model.getFile(Number(plain?.['id']))?.content.toString()).toBe(
          civicrmVersion === '6.14' ? base64 : '',
        );
        expectApi4Error(
          () =>
            model.api4(
              'File',
              'create',
              { values: { file_name: 'x.pdf', mime_type: 'application/pdf', content: 'not base64!' } },
              { contentEncoding: 'base64' },
            ),
          500,
        );
      },
    );
  });

  describe('replacing a file field’s value', () => {
    it.each([
      ['6.14', false],
      ['5.81', true],
    ] as const)(
      'on %s keeps the old file: %s (6.14 deletes it when nothing else holds it)',
      (civicrmVersion, kept) => {
        const model = make({ civicrmVersion });
        const field = 'Food_Co_op_Organizing.Certificate_of_Incorporation';
        const old = Number(
          model.api4('Contact', 'get', { select: [field], where: [['id', '=', ORG_ID]] })[0]?.[field],
        );
        const [replacement] = model.api4(
          'File',
          'create',
          { values: { file_name: 'new.pdf', mime_type: 'application/pdf', content: 'eA==' } },
          { contentEncoding: 'base64' },
        );
        model.api4('Contact', 'update', {
          values: { [field]: replacement?.['id'] },
          where: [['id', '=', ORG_ID]],
        });
        expect(model.getFile(old) !== undefined).toBe(kept);
        expect(model.getFile(Number(replacement?.['id']))).toBeDefined();
      },
    );
  });

  describe('File.get url', () => {
    it('is a site-relative signed address on 6.14 and null on 5.81', () => {
      const at = (civicrmVersion: '6.14' | '5.81') => {
        const model = make({ civicrmVersion, baseUrl: 'https://crm.example.org/site' });
        return model.api4('File', 'get', { select: ['url'], where: [['id', '=', 1]] })[0]?.['url'];
      };
      expect(at('6.14')).toMatch(/^\/site\/civicrm\/file\?reset=1&id=1&fcs=[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(at('5.81')).toBeNull();
    });
  });

  describe('joins and unknown fields', () => {
    const FILE = 'Check_in_data__organizing_.Business_plan';
    const withFile = (model: CiviCrmModel) => {
      const [file] = model.api4(
        'File',
        'create',
        { values: { file_name: 'plan.pdf', mime_type: 'application/pdf', content: 'eA==' } },
        { contentEncoding: 'base64' },
      );
      return { file, activity: checkIn(model, { [FILE]: file?.['id'] }) };
    };

    it('6.14 answers the implicit File join; 5.81 drops it from select and refuses it in where', () => {
      const modern = make();
      const { activity } = withFile(modern);
      expect(read(modern, activity?.['id'], [`${FILE}.file_name`, `${FILE}.uri`])).toEqual({
        id: activity?.['id'],
        [`${FILE}.file_name`]: 'plan.pdf',
        [`${FILE}.uri`]: expect.stringMatching(/^plan_[0-9a-f]{32}\.pdf$/),
      });
      const old = make({ civicrmVersion: '5.81' });
      const { activity: oldActivity } = withFile(old);
      expect(read(old, oldActivity?.['id'], [FILE, `${FILE}.file_name`, `${FILE}.url`])).toEqual({
        id: oldActivity?.['id'],
        [FILE]: expect.any(Number),
      });
      expectApi4Error(
        () => old.api4('Activity', 'get', { where: [[`${FILE}.file_name`, '=', 'x']] }),
        500,
        new RegExp(`^Invalid field '${FILE.replace('.', '\\.')}\\.file_name'$`),
      );
    });

    it.each(['6.14', '5.81'] as const)('%s answers an explicit File join', (civicrmVersion) => {
      const model = make({ civicrmVersion });
      const { file, activity } = withFile(model);
      const row = read(model, activity?.['id'], ['f.file_name', 'f.uri', 'f.url'], {
        join: [['File AS f', 'LEFT', [FILE, '=', 'f.id']]],
      });
      expect(row).toMatchObject({ 'f.file_name': 'plan.pdf', 'f.uri': expect.stringMatching(/^plan_/) });
      const url =
        civicrmVersion === '6.14'
          ? new RegExp(`^/civicrm/file\\?reset=1&id=${String(file?.['id'])}&fcs=`)
          : new RegExp(
              `^https://crm\\.example\\.org/civicrm/file\\?reset=1&id=${String(file?.['id'])}&eid=${String(activity?.['id'])}&fcs=[0-9a-f]{64}_\\d+_168$`,
            );
      expect(row?.['f.url']).toMatch(url);
      const fcs = new URL(String(row?.['f.url']), 'https://crm.example.org').searchParams;
      expect(model.verifyFileSignature(Number(file?.['id']), fcs.get('fcs') ?? '', fcs.get('eid'))).toBe(
        true,
      );
    });

    it.each(['6.14', '5.81'] as const)(
      '%s gives the source contact through the ActivityContact bridge, and drops source_contact_id.display_name',
      (civicrmVersion) => {
        const model = make({ civicrmVersion });
        const activity = checkIn(model, {});
        const row = read(
          model,
          activity?.['id'],
          ['source_contact_id', 'source_contact_id.display_name', 'src.display_name', 'nonsense'],
          {
            join: [
              [
                'Contact AS src',
                'LEFT',
                'ActivityContact',
                ['id', '=', 'src.activity_id'],
                ['src.record_type_id:name', '=', '"Activity Source"'],
              ],
            ],
          },
        );
        expect(row).toEqual({
          id: activity?.['id'],
          source_contact_id: PERSON_ID,
          'src.display_name': `${PERSON.first_name} ${PERSON.last_name}`,
        });
        expectApi4Error(
          () => model.api4('Activity', 'get', { where: [['source_contact_id.display_name', '=', 'x']] }),
          500,
          /^Invalid field 'source_contact_id\.display_name'$/,
        );
      },
    );
  });

  describe('types', () => {
    it('keeps Float digits to PHP precision, rounds Money half away from zero, stores arrays', () => {
      const model = make();
      const created = checkIn(model, {
        'Check_in_data__organizing_.Percent_capitalized': 3.14159265358979,
        'Check_in_data__organizing_.Equity_goal': '12.345',
        'Check_in_data__organizing_.Equity_raised': 1.005,
        'Check_in_data__organizing_.Organizing_focus': ['deli', 'zz'],
      });
      expect(
        read(model, created?.['id'], [
          'Check_in_data__organizing_.Percent_capitalized',
          'Check_in_data__organizing_.Equity_goal',
          'Check_in_data__organizing_.Equity_raised',
          'Check_in_data__organizing_.Organizing_focus',
        ]),
      ).toMatchObject({
        'Check_in_data__organizing_.Percent_capitalized': 3.1415926535898,
        'Check_in_data__organizing_.Equity_goal': 12.35,
        'Check_in_data__organizing_.Equity_raised': 1.01,
        'Check_in_data__organizing_.Organizing_focus': ['deli', 'zz'],
      });
    });

    it('saves the activity but none of its custom values when an Int overflows 32 bits (HTTP 500)', () => {
      const model = make();
      const before = model.count('Activity');
      expectApi4Error(
        () =>
          checkIn(model, {
            subject: 'overflow',
            'Check_in_data__organizing_.Interest_list_size': 3000000000,
            'Check_in_data__organizing_.Member_owner_count': 12,
          }),
        500,
        /^DB Error: unknown error$/,
      );
      expect(model.count('Activity')).toBe(before + 1);
      const [saved] = model.api4('Activity', 'get', {
        select: [
          'Check_in_data__organizing_.Interest_list_size',
          'Check_in_data__organizing_.Member_owner_count',
        ],
        where: [['subject', '=', 'overflow']],
      });
      expect(saved).toMatchObject({
        'Check_in_data__organizing_.Interest_list_size': null,
        'Check_in_data__organizing_.Member_owner_count': null,
      });
      expect(checkIn(model, { 'Check_in_data__organizing_.Interest_list_size': 2147483647 })).toHaveProperty(
        'id',
      );
      expectApi4Error(
        () => checkIn(model, { 'Check_in_data__organizing_.Interest_list_size': -2147483649 }),
        500,
      );
    });
  });

  describe('custom values refused after the row is saved', () => {
    it.each([
      ['Int', 'Check_in_data__organizing_.Member_owner_count', 'many', 'Timestamp'],
      ['Int', 'Check_in_data__organizing_.Member_owner_count', '12.5', 'Integer'],
      ['Money', 'Check_in_data__organizing_.Equity_goal', '1e3', 'Money'],
      ['Float', 'Check_in_data__organizing_.Percent_capitalized', 'lots', 'Float'],
    ])(
      'an invalid %s (%s = %s) answers 500 with CiviCRM’s message, the activity saved bare',
      (_type, key, value, named) => {
        const model = make();
        const before = model.count('Activity');
        expectApi4Error(
          () =>
            checkIn(model, {
              subject: 'bad value',
              [key]: value,
              'Check_in_data__organizing_.Interest_list_size': 5,
            }),
          500,
          new RegExp(
            `^One of the parameters  \\(value: ${value.replace('.', '\\.')}\\) is not of the type ${named}$`,
          ),
        );
        expect(model.count('Activity')).toBe(before + 1);
        const [saved] = model.api4('Activity', 'get', {
          select: ['Check_in_data__organizing_.Interest_list_size'],
          where: [['subject', '=', 'bad value']],
        });
        expect(saved?.['Check_in_data__organizing_.Interest_list_size']).toBeNull();
      },
    );

    it('changes nothing on an update with a refused custom value', () => {
      const model = make();
      expectApi4Error(() =>
        model.api4('Contact', 'update', {
          values: { first_name: 'Changed', 'Food_Co_op_Organizing.Equity_share': 'abc' },
          where: [['id', '=', PERSON_ID]],
        }),
      );
      expect(model.api4('Contact', 'get', { where: [['id', '=', PERSON_ID]] })[0]?.['first_name']).toBe(
        PERSON.first_name,
      );
    });
  });

  describe('dates in the CRM time zone', () => {
    it('rolls an impossible date over and stores an unreadable one as the epoch, as strtotime does', () => {
      const model = make();
      const created = checkIn(model, {
        activity_date_time: 'garbage',
        'Check_in_data__organizing_.Market_study_date': '2026-02-30',
      });
      expect(
        read(model, created?.['id'], ['activity_date_time', 'Check_in_data__organizing_.Market_study_date']),
      ).toMatchObject({
        activity_date_time: '1970-01-01 00:00:00',
        'Check_in_data__organizing_.Market_study_date': '2026-03-02',
      });
    });

    it('defaults activity_date_time to now in the zone and turns an offset into local time', () => {
      const model = make({ timeZone: 'America/Chicago' });
      const now = checkIn(model, {});
      expect(now?.['activity_date_time']).toBe('20261121060000');
      expect(read(model, now?.['id'], ['activity_date_time'])?.['activity_date_time']).toBe(
        '2026-11-21 06:00:00',
      );
      const zulu = checkIn(model, { activity_date_time: '2026-07-01T15:00:00Z' });
      expect(read(model, zulu?.['id'], ['activity_date_time'])?.['activity_date_time']).toBe(
        '2026-07-01 10:00:00',
      );
      const local = checkIn(model, { activity_date_time: '2026-07-01 15:00:00' });
      expect(read(model, local?.['id'], ['activity_date_time'])?.['activity_date_time']).toBe(
        '2026-07-01 15:00:00',
      );
    });

    it('refuses an unknown time zone when built', () => {
      expect(() => make({ timeZone: 'Mars/Olympus' })).toThrow();
    });
  });

  describe('permissions', () => {
    const staff = {
      contactId: null,
      permissions: ['access CiviCRM', 'view all contacts', 'view all activities'],
    };

    it('needs administer CiviCRM for getChecksum, nothing for validateChecksum', () => {
      const model = make();
      expectApi4Error(
        () => model.api4('Contact', 'getChecksum', { contactId: PERSON_ID }, { user: staff }),
        403,
        /^Authorization failed$/,
      );
      expect(
        model.api4(
          'Contact',
          'validateChecksum',
          { contactId: PERSON_ID, checksum: SAMPLE_CHECKSUM },
          { user: ANONYMOUS_USER },
        ),
      ).toEqual([{ valid: true }]);
      expect(model.api4('Contact', 'getChecksum', { contactId: PERSON_ID })).toHaveLength(1);
    });

    it('hides custom groups, fields and values from a user without "access all custom data"', () => {
      const model = make();
      const field = 'Check_in_data__organizing_.Interest_list_size';
      expect(model.api4('CustomGroup', 'get', {}, { user: staff })).toEqual([]);
      expect(model.api4('CustomField', 'get', {}, { user: staff })).toEqual([]);
      const created = checkIn(model, { [field]: 7 }, { user: staff });
      expect(read(model, created?.['id'], [field])).toEqual({ id: created?.['id'], [field]: null });
      const [row] = model.api4(
        'Activity',
        'get',
        { select: [field], where: [['id', '=', created?.['id']]] },
        { user: staff },
      );
      expect(row).toEqual({ id: created?.['id'] });
      expectApi4Error(
        () => model.api4('Activity', 'get', { where: [[field, 'IS NOT EMPTY']] }, { user: staff }),
        500,
      );
      const custom = { contactId: null, permissions: [...staff.permissions, 'access all custom data'] };
      expect(model.api4('CustomGroup', 'get', {}, { user: custom }).length).toBeGreaterThan(0);
    });

    it('filters contacts to nothing for an anonymous user and refuses entities guarded by permissions', () => {
      const model = make();
      expect(model.api4('Contact', 'get', { limit: 1 }, { user: ANONYMOUS_USER })).toEqual([]);
      expectApi4Error(() => model.api4('Activity', 'get', { limit: 1 }, { user: ANONYMOUS_USER }), 403);
      expectApi4Error(() => model.api4('File', 'get', { limit: 1 }, { user: staff }), 403);
      expect(model.api4('Activity', 'get', { limit: 1 }, { user: staff })).toHaveLength(1);
    });
  });

  describe('the extension', () => {
    it.each([
      ['6.14', 'UTC', '6.14.alpha1'],
      ['5.81', 'America/Chicago', '5.81.1'],
    ] as const)('answers CheckinMiddleware.info on %s', (civicrmVersion, timeZone, release) => {
      expect(make({ civicrmVersion, timeZone }).api4('CheckinMiddleware', 'info')).toEqual([
        {
          extension_version: CHECKIN_EXTENSION_VERSION,
          civicrm_version: release,
          timezone: timeZone,
          default_currency: 'USD',
          locale: 'en_US',
          // The administrator holds every permission the service asks about.
          permissions: expect.objectContaining({ 'access uploaded files': true, 'administer CiviCRM': true }),
          staff_permission_roles: ['staff'],
        },
      ]);
    });

    it('answers CheckinMiddleware.verifyKeys per key: match, differs, or unset (an empty or short setting)', () => {
      const model = make();
      const fileKey = 'f'.repeat(32);
      const message = 'checkin-middleware key probe\nabc';
      const sign = (key: string) => createHmac('sha256', key).update(message).digest('hex');
      const ask = () =>
        model.api4('CheckinMiddleware', 'verifyKeys', {
          message,
          signatures: { FILE_LINK_KEY: sign(fileKey), STAFF_LINK_KEY: sign('s'.repeat(32)) },
        });
      // Keys never given to the model: it holds whatever the service signs with.
      expect(ask()).toEqual([{ FILE_LINK_KEY: 'match', STAFF_LINK_KEY: 'match' }]);
      model.extensionLinkKeys = { FILE_LINK_KEY: fileKey, STAFF_LINK_KEY: 'other'.repeat(8) };
      expect(ask()).toEqual([{ FILE_LINK_KEY: 'match', STAFF_LINK_KEY: 'differs' }]);
      model.extensionLinkKeys = { FILE_LINK_KEY: '' };
      expect(ask()).toEqual([{ FILE_LINK_KEY: 'unset', STAFF_LINK_KEY: 'unset' }]);
    });

    it('reports which of the permissions the service relies on the caller holds', () => {
      const [info] = make().api4(
        'CheckinMiddleware',
        'info',
        {},
        {
          user: { contactId: null, permissions: ['access CiviCRM', 'edit all contacts'] },
        },
      );
      expect(info?.['permissions']).toMatchObject({
        'access CiviCRM': true,
        'edit all contacts': true,
        'access uploaded files': false,
        'administer CiviCRM': false,
      });
    });

    it('is an unknown API without the extension', () => {
      expectApi4Error(
        () => make({ extensionInstalled: false }).api4('CheckinMiddleware', 'info'),
        500,
        /^API \(CheckinMiddleware, info\) does not exist \(or the extension it belongs to is not enabled\)\.$/,
      );
    });
  });
});
