import { ACTIVITY_STAGE_FIELD, ACTIVITY_TYPE_NAME, FORM_CONTACT_RELATIONSHIP } from '../crm-names';
import { Api4Error, CiviCrmModel, DEFAULT_CHECKSUM_TTL_HOURS } from './civicrm-model';
import {
  DEMO_CHECK_IN_COUNT,
  DEMO_CHECKSUM,
  DEMO_ORG_ID,
  DEMO_PERSON,
  DEMO_PERSON_ID,
  OTHER_ORG_ID,
  OTHER_PERSON_ID,
  createDemoModel,
} from './demo-data';

const CHECK_IN = ['activity_type_id:name', '=', ACTIVITY_TYPE_NAME] as const;
const OF_DEMO_ORG = ['target_contact_id', 'CONTAINS', DEMO_ORG_ID] as const;

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
    model = createDemoModel({ now: () => clock, secret: 'test-secret', baseUrl: 'https://crm.example.org/' });
  });

  describe('get: select', () => {
    it('returns core fields and the id when nothing is selected, custom fields only when named', () => {
      const [org] = model.api4('Contact', 'get', { where: [['id', '=', DEMO_ORG_ID]] });
      expect(org).toMatchObject({
        id: DEMO_ORG_ID,
        contact_type: 'Organization',
        display_name: 'Riverbend Food Co-op',
      });
      expect(Object.keys(org ?? {}).some((key) => key.includes('.'))).toBe(false);
    });

    it('keys rows by the exact select string and always adds id', () => {
      const [row] = model.api4('Contact', 'get', {
        select: ['first_name', 'email_primary.email', 'no_such_field', 'Nope.Missing'],
        where: [['id', '=', DEMO_PERSON_ID]],
      });
      expect(row).toEqual({
        id: DEMO_PERSON_ID,
        first_name: DEMO_PERSON.first_name,
        'email_primary.email': DEMO_PERSON.email,
      });
    });

    it('expands Group.* and custom.* to custom fields', () => {
      const [byGroup] = model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.*'],
        where: [['id', '=', DEMO_ORG_ID]],
      });
      expect(byGroup).toMatchObject({
        'Food_Co_op_Organizing.Equity_share': 200,
        'Food_Co_op_Organizing.Date_Incorporated': '2022-06-01',
      });
      const [all] = model.api4('Activity', 'get', { select: ['custom.*'], where: [['id', '=', 1002]] });
      expect(all?.[ACTIVITY_STAGE_FIELD]).toBeNull();
      expect(all?.['Check_in_data__organizing_.Steering_committee_size']).toBe(5);
    });

    it('resolves :name and :label pseudoconstants, also on custom option fields and arrays', () => {
      const [row] = model.api4('Activity', 'get', {
        select: [
          'activity_type_id:name',
          'status_id:label',
          `${ACTIVITY_STAGE_FIELD}:label`,
          'Check_in_data__organizing_.Lender_types:label',
        ],
        where: [['id', '=', 1014]],
      });
      expect(row).toMatchObject({
        'activity_type_id:name': ACTIVITY_TYPE_NAME,
        'status_id:label': 'Completed',
      });
      expect(row?.['Check_in_data__organizing_.Lender_types:label']).toEqual([
        'Community development lender',
        'Member loans',
        'Bank or credit union',
      ]);
      const [staff] = model.api4('Activity', 'get', {
        select: [`${ACTIVITY_STAGE_FIELD}:label`],
        where: [['id', '=', 1001]],
      });
      expect(staff?.[`${ACTIVITY_STAGE_FIELD}:label`]).toBe('Organizing');
    });

    it('joins foreign keys with dots: relationship type, contacts on either side', () => {
      const rows = model.api4('Relationship', 'get', {
        select: [
          'relationship_type_id.name_a_b',
          'relationship_type_id.contact_type_a',
          'contact_id_b.display_name',
        ],
        where: [
          ['contact_id_a', '=', DEMO_PERSON_ID],
          ['relationship_type_id.name_a_b', '=', FORM_CONTACT_RELATIONSHIP],
        ],
      });
      expect(rows).toEqual([
        expect.objectContaining({
          'relationship_type_id.name_a_b': FORM_CONTACT_RELATIONSHIP,
          'relationship_type_id.contact_type_a': 'Individual',
          'contact_id_b.display_name': 'Riverbend Food Co-op',
        }),
      ]);
    });

    it('joins a File custom field to file_name and a signed url', () => {
      const field = 'Food_Co_op_Organizing.Certificate_of_Incorporation';
      const [org] = model.api4('Contact', 'get', {
        select: [field, `${field}.file_name`, `${field}.url`],
        where: [['id', '=', DEMO_ORG_ID]],
      });
      expect(typeof org?.[field]).toBe('number');
      expect(org?.[`${field}.file_name`]).toBe('Riverbend_certificate_of_incorporation.pdf');
      expect(org?.[`${field}.url`]).toMatch(
        new RegExp(
          `^https://crm\\.example\\.org/civicrm/file\\?reset=1&id=${String(org?.[field])}&fcs=[0-9a-f]{32}_\\d+_inf$`,
        ),
      );
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
      expect(ids([OF_DEMO_ORG, CHECK_IN])).toHaveLength(DEMO_CHECK_IN_COUNT);
      expect(ids([OF_DEMO_ORG])).toHaveLength(DEMO_CHECK_IN_COUNT + 1);
      expect(ids([OF_DEMO_ORG, CHECK_IN, ['is_deleted', '=', true]])).toHaveLength(1);
    });

    it('supports comparison, IN, NOT IN, BETWEEN and LIKE', () => {
      expect(
        ids([
          ['id', '>', 1025],
          ['id', '<=', 1027],
        ]),
      ).toEqual([1026, 1027]);
      expect(ids([['id', 'IN', [1003, 1001, 99]]])).toEqual([1001, 1003]);
      expect(
        ids([
          ['id', 'NOT IN', []],
          ['id', '<', 1003],
        ]),
      ).toEqual([1001, 1002]);
      expect(
        ids([OF_DEMO_ORG, ['activity_date_time', 'BETWEEN', ['2025-01-01', '2025-03-10 09:00:00']]]),
      ).toEqual([1015, 1016, 1017]);
      expect(ids([['display_name', 'LIKE', 'riverbend%']], 'Contact')).toEqual([DEMO_ORG_ID]);
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
      const stageBearing = ids([OF_DEMO_ORG, CHECK_IN, [ACTIVITY_STAGE_FIELD, 'IS NOT EMPTY']]);
      expect(stageBearing).toEqual([1001, 1005, 1009, 1012, 1016, 1022, 1023]);
      expect(ids([OF_DEMO_ORG, CHECK_IN, [ACTIVITY_STAGE_FIELD, 'IS EMPTY']])).toHaveLength(
        DEMO_CHECK_IN_COUNT - 7,
      );
      expect(ids([['target_contact_id', 'IS EMPTY']])).toEqual([]);
      expect(
        ids([
          [ACTIVITY_STAGE_FIELD, 'IS NULL'],
          ['id', '=', 1002],
        ]),
      ).toEqual([1002]);
    });

    it('matches multiselect arrays with CONTAINS and NOT CONTAINS', () => {
      const field = 'Check_in_data__organizing_.Lender_types';
      expect(ids([[field, 'CONTAINS', 'bank']])).toEqual([1014, 1015]);
      expect(ids([[field, 'CONTAINS', ['cdfi', 'coop_lender']]])).toEqual([1015]);
      expect(ids([[field, 'NOT CONTAINS', 'bank']])).toEqual([1013]);
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
                  ['id', '>', 1026],
                  ['id', '<', 1028],
                ],
              ],
            ],
          ],
        ]),
      ).toEqual([1001, 1027]);
      expect(ids([['NOT', [['id', '>', 1002]]]])).toEqual([1001, 1002]);
    });

    it('compares pseudoconstant names exactly and plain text case-insensitively', () => {
      expect(ids([['activity_type_id:name', '=', 'check-in (organizing)']])).toEqual([]);
      expect(ids([['organization_name', '=', 'RIVERBEND FOOD CO-OP']], 'Contact')).toEqual([DEMO_ORG_ID]);
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
        select: [ACTIVITY_STAGE_FIELD],
        where: [OF_DEMO_ORG, CHECK_IN, [ACTIVITY_STAGE_FIELD, 'IS NOT EMPTY']],
        orderBy: { activity_date_time: 'DESC', id: 'DESC' },
        limit: 1,
      });
      expect(latest).toEqual({ id: 1023, [ACTIVITY_STAGE_FIELD]: 'business_planning' });
    });

    it('returns same-moment rows in id order when only the date is ordered', () => {
      const rows = model.api4('Activity', 'get', {
        where: [OF_DEMO_ORG, CHECK_IN, [ACTIVITY_STAGE_FIELD, 'IS NOT EMPTY']],
        orderBy: { activity_date_time: 'DESC' },
        limit: 1,
      });
      expect(rows[0]?.['id']).toBe(1022);
    });

    it('pages with limit and offset; limit 0 means no limit', () => {
      const page = (limit: number, offset?: number) =>
        model.api4('Activity', 'get', {
          select: ['id'],
          where: [OF_DEMO_ORG, CHECK_IN],
          orderBy: { id: 'ASC' },
          limit,
          ...(offset ? { offset } : {}),
        });
      expect(page(2, 3).map((row) => row['id'])).toEqual([1004, 1005]);
      expect(page(0)).toHaveLength(DEMO_CHECK_IN_COUNT);
    });

    it('sorts NULL first ascending and accepts several keys', () => {
      const rows = model.api4('Activity', 'get', {
        select: ['id'],
        where: [OF_DEMO_ORG, CHECK_IN],
        orderBy: { [ACTIVITY_STAGE_FIELD]: 'ASC', id: 'DESC' },
      });
      expect(rows[0]?.['id']).toBe(1027);
      expect(rows.at(-1)?.['id']).toBe(1001);
    });

    it('refuses lower-case directions and unknown fields', () => {
      expectApi4Error(() => model.api4('Activity', 'get', { orderBy: { id: 'desc' } }), 500, /direction/);
      expectApi4Error(() => model.api4('Activity', 'get', { orderBy: { nope: 'ASC' } }), 500, /orderBy/);
    });
  });

  describe('params and entities', () => {
    it('refuses unknown top-level params such as sequential', () => {
      expectApi4Error(() => model.api4('Contact', 'get', { sequential: 1 }), 500, /sequential/);
    });

    it('refuses unknown entities and actions', () => {
      expectApi4Error(() => model.api4('Nope', 'get'), 500, /does not exist/);
      expectApi4Error(() => model.api4('Contact', 'explode'), 500, /does not exist/);
      expectApi4Error(() => model.api4('RelationshipCache', 'create', { values: {} }), 500);
    });

    it('never shares references with callers', () => {
      const where = [['id', '=', DEMO_ORG_ID]];
      const [org] = model.api4('Contact', 'get', { where });
      (org as Record<string, unknown>)['display_name'] = 'Changed';
      expect(model.api4('Contact', 'get', { where })[0]?.['display_name']).toBe('Riverbend Food Co-op');
    });

    it('offers RelationshipCache, both directions of every relationship', () => {
      const rows = model.api4('RelationshipCache', 'get', {
        select: ['far_contact_id', 'near_relation'],
        where: [
          ['near_contact_id', '=', DEMO_ORG_ID],
          ['is_active', '=', true],
        ],
      });
      expect(rows).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ far_contact_id: DEMO_PERSON_ID, near_relation: 'Has Primary Contact' }),
        ]),
      );
    });
  });

  describe('create, update, delete', () => {
    const checkIn = (values: Record<string, unknown>) =>
      model.api4('Activity', 'create', {
        values: {
          'activity_type_id:name': ACTIVITY_TYPE_NAME,
          source_contact_id: DEMO_PERSON_ID,
          target_contact_id: [DEMO_ORG_ID],
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
      expect(created).toMatchObject({
        id: expect.any(Number),
        activity_type_id: 57,
        'Check_in_data__organizing_.Member_owner_count': 1200,
      });
      const [stored] = model.api4('Activity', 'get', {
        select: ['activity_date_time', 'status_id:name', 'target_contact_id', 'custom.*'],
        where: [['id', '=', created?.['id']]],
      });
      expect(stored).toMatchObject({
        activity_date_time: '2026-11-21 10:15:00',
        'status_id:name': 'Completed',
        target_contact_id: [DEMO_ORG_ID],
        'Check_in_data__organizing_.Percent_capitalized': 12.5,
        'Check_in_data__organizing_.Business_plan_done': true,
        'Check_in_data__organizing_.Market_study_date': '2026-11-01',
        'Check_in_data__organizing_.Organizing_focus': ['deli'],
      });
    });

    it.each([
      ['without source_contact_id', { source_contact_id: undefined }, /source_contact_id/],
      ['with an unknown custom field', { 'Check_in_data__organizing_.Typo': 1 }, /Unknown field/],
      [
        'with a non-integer number',
        { 'Check_in_data__organizing_.Member_owner_count': 'many' },
        /not a valid Int/,
      ],
      [
        'with an option that does not exist',
        { 'Check_in_data__organizing_.Market_study_status': 'Complete' },
        /not a valid option/,
      ],
      [
        'with a file id that does not exist',
        { 'Check_in_data__organizing_.Business_plan': 99999 },
        /no File/,
      ],
      [
        'with an impossible date',
        { 'Check_in_data__organizing_.Market_study_date': '2026-02-30' },
        /not a valid Date/,
      ],
    ])('refuses Activity.create %s', (_label, values, message) => {
      expectApi4Error(() => checkIn(values), 500, message);
    });

    it('refuses values given as an array', () => {
      expectApi4Error(() => model.api4('Activity', 'create', { values: [['subject', 'x']] }), 500, /object/);
    });

    it('ignores unknown core keys, as CiviCRM does', () => {
      expect(checkIn({ not_a_column: 'x' })).toHaveProperty('id');
    });

    it('updates the rows the where clause matches, and only those', () => {
      const updated = model.api4('Contact', 'update', {
        values: {
          'Food_Co_op_Organizing.Equity_share': '175.50',
          'Food_Co_op_Organizing.Name_on_Incorporation_Certificate': '',
        },
        where: [['id', '=', DEMO_ORG_ID]],
      });
      expect(updated).toEqual([
        expect.objectContaining({ id: DEMO_ORG_ID, 'Food_Co_op_Organizing.Equity_share': 175.5 }),
      ]);
      const [other] = model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.Equity_share'],
        where: [['id', '=', OTHER_ORG_ID]],
      });
      expect(other?.['Food_Co_op_Organizing.Equity_share']).toBe(150);
      const [org] = model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.Name_on_Incorporation_Certificate'],
        where: [['id', '=', DEMO_ORG_ID]],
      });
      expect(org?.['Food_Co_op_Organizing.Name_on_Incorporation_Certificate']).toBeNull();
    });

    it('changes nothing when one value of an update is refused', () => {
      expectApi4Error(() =>
        model.api4('Contact', 'update', {
          values: { 'Food_Co_op_Organizing.Equity_share': 1, 'Food_Co_op_Organizing.Nope': 2 },
          where: [['id', '=', DEMO_ORG_ID]],
        }),
      );
      const [org] = model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.Equity_share'],
        where: [['id', '=', DEMO_ORG_ID]],
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

    it('stores File.create content decoded from base64, unattached', () => {
      const [file] = model.api4('File', 'create', {
        values: {
          file_name: 'plan.pdf',
          mime_type: 'application/pdf',
          content: Buffer.from('%PDF-1.7 hello').toString('base64'),
        },
      });
      const stored = model.getFile(Number(file?.['id']));
      expect(stored?.content.toString()).toBe('%PDF-1.7 hello');
      expect(stored).toMatchObject({ file_name: 'plan.pdf', mime_type: 'application/pdf', size: 14 });
    });

    it('upserts with save', () => {
      const saved = model.api4('Contact', 'save', {
        records: [
          { id: DEMO_PERSON_ID, first_name: 'Mari' },
          { contact_type: 'Organization', organization_name: 'New Co-op' },
        ],
      });
      expect(saved.map((row) => row['display_name'])).toEqual(['Mari Vance', 'New Co-op']);
    });
  });

  describe('checksums', () => {
    const validate = (checksum: string, contactId: number = DEMO_PERSON_ID) =>
      model.api4('Contact', 'validateChecksum', { contactId, checksum })[0]?.['valid'];
    const generate = (ttl?: number) =>
      String(
        model.api4('Contact', 'getChecksum', {
          contactId: DEMO_PERSON_ID,
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

    it('accepts the fixed demo checksum for the demo person and organization only', () => {
      expect(validate(DEMO_CHECKSUM)).toBe(true);
      expect(validate(DEMO_CHECKSUM, DEMO_ORG_ID)).toBe(true);
      expect(validate('Demo')).toBe(false);
      expect(validate(DEMO_CHECKSUM, OTHER_ORG_ID)).toBe(false);
    });

    it('does not accept a checksum issued by another model (another secret)', () => {
      const other = createDemoModel({ secret: 'another-secret', now: () => clock });
      const foreign = String(
        other.api4('Contact', 'getChecksum', { contactId: DEMO_PERSON_ID, ttl: 24 })[0]?.['checksum'],
      );
      expect(validate(foreign)).toBe(false);
    });

    it('requires contactId and checksum', () => {
      expectApi4Error(() => model.api4('Contact', 'validateChecksum', { checksum: 'x' }), 500, /contactId/);
      expectApi4Error(
        () => model.api4('Contact', 'validateChecksum', { contactId: DEMO_PERSON_ID }),
        500,
        /checksum/,
      );
    });
  });

  describe('APIv3 Attachment.get', () => {
    const fileIds = () =>
      model
        .api4('File', 'get', { select: ['id'], orderBy: { id: 'ASC' }, limit: 2 })
        .map((row) => Number(row['id']));

    it('answers sequential rows with string ids and signed urls', () => {
      const [first, second] = fileIds();
      const envelope = model.api3('Attachment', 'get', {
        id: { IN: [first, second, 999] },
        return: 'id,url',
        sequential: 1,
      });
      expect(envelope).toEqual({
        is_error: 0,
        version: 3,
        count: 2,
        values: [
          {
            id: String(first),
            url: expect.stringMatching(
              new RegExp(`^https://crm\\.example\\.org/civicrm/file\\?reset=1&id=${first}&fcs=`),
            ),
          },
          { id: String(second), url: expect.stringContaining(`id=${second}&`) },
        ],
      });
    });

    it('keys values by id without sequential', () => {
      const [first] = fileIds();
      const envelope = model.api3('Attachment', 'get', { id: first, return: 'id,name' });
      expect(envelope).toMatchObject({
        is_error: 0,
        count: 1,
        id: first,
        values: { [String(first)]: { id: String(first), name: expect.any(String) } },
      });
    });

    it('answers an array-valued return with a type error', () => {
      const [first] = fileIds();
      expect(
        model.api3('Attachment', 'get', { id: { IN: [first] }, return: ['id', 'url'], sequential: 1 }),
      ).toEqual({
        is_error: 1,
        error_message: 'explode(): Argument #2 ($string) must be of type string, array given',
      });
    });

    it('answers unknown v3 APIs with is_error', () => {
      expect(model.api3('Contact', 'get', {})).toMatchObject({
        is_error: 1,
        error_message: expect.stringContaining('does not exist'),
      });
    });
  });

  describe('state', () => {
    it('resets to the seeded data', () => {
      model.api4('Contact', 'update', {
        values: { first_name: 'Changed' },
        where: [['id', '=', DEMO_PERSON_ID]],
      });
      model.reset();
      expect(model.api4('Contact', 'get', { where: [['id', '=', DEMO_PERSON_ID]] })[0]?.['first_name']).toBe(
        DEMO_PERSON.first_name,
      );
    });

    it('restores a snapshot', () => {
      const snapshot = model.snapshot();
      model.api4('Activity', 'delete', { where: [['id', '>', 0]] });
      model.restore(snapshot);
      expect(model.count('Activity')).toBeGreaterThan(DEMO_CHECK_IN_COUNT);
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
