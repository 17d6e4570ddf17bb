import {
  OTHER_PERSON_ID,
  ORG_ID,
  PERSON,
  PERSON_ID,
  SAMPLE_ACTIVITY_TYPE,
  SAMPLE_CHECK_INS,
  SAMPLE_RELATIONSHIP,
  STAGE_FIELD,
} from '../spec-support/sample-site';
import { expectApi4Error, sampleModelPerTest } from '../spec-support/model-specs';

/** The model's reads: select, where, order and paging, and the params and entities it accepts. */

const CHECK_IN = ['activity_type_id:name', '=', SAMPLE_ACTIVITY_TYPE] as const;
const OF_ORG = ['target_contact_id', 'CONTAINS', ORG_ID] as const;

describe('CiviCrmModel', () => {
  const site = sampleModelPerTest();

  describe('get: select', () => {
    it('returns core fields and the id when nothing is selected, custom fields only when named', () => {
      const [org] = site.model.api4('Contact', 'get', { where: [['id', '=', ORG_ID]] });
      expect(org).toMatchObject({
        id: ORG_ID,
        contact_type: 'Organization',
        display_name: 'Riverbend Food Co-op',
      });
      expect(Object.keys(org ?? {}).some((key) => key.includes('.'))).toBe(false);
    });

    it('keys rows by the exact select string and always adds id', () => {
      const [row] = site.model.api4('Contact', 'get', {
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
      const [byGroup] = site.model.api4('Contact', 'get', {
        select: ['Food_Co_op_Organizing.*'],
        where: [['id', '=', ORG_ID]],
      });
      expect(byGroup).toMatchObject({
        'Food_Co_op_Organizing.Equity_share': 200,
        'Food_Co_op_Organizing.Date_Incorporated': '2022-06-01',
      });
      const [all] = site.model.api4('Activity', 'get', { select: ['custom.*'], where: [['id', '=', 1002]] });
      expect(all?.[STAGE_FIELD]).toBeNull();
      expect(all?.['Check_in_data__organizing_.Steering_committee_size']).toBe(5);
    });

    it('resolves :name and :label pseudoconstants, also on custom option fields and arrays', () => {
      const [row] = site.model.api4('Activity', 'get', {
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
      const [staff] = site.model.api4('Activity', 'get', {
        select: [`${STAGE_FIELD}:label`],
        where: [['id', '=', 1001]],
      });
      expect(staff?.[`${STAGE_FIELD}:label`]).toBe('Organizing');
    });

    it('joins foreign keys with dots: relationship type, contacts on either side', () => {
      const rows = site.model.api4('Relationship', 'get', {
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
      const [org] = site.model.api4('Contact', 'get', {
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
        exp: site.clock.getTime() / 1000 + 7 * 24 * 3600,
        'civi.file': fileId,
      });
      expect(site.model.verifyFileSignature(fileId, fcs)).toBe(true);
      expect(site.model.verifyFileSignature(fileId + 1, fcs)).toBe(false);
      site.clock = new Date(site.clock.getTime() + 8 * 24 * 3600 * 1000);
      expect(site.model.verifyFileSignature(fileId, fcs)).toBe(false);
    });

    it('reads CustomField metadata with custom_group_id:name and OptionValue values as strings', () => {
      const [stage] = site.model.api4('CustomField', 'get', {
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
      const options = site.model.api4('OptionValue', 'get', {
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
      site.model.api4(entity, 'get', { select: ['id'], where }).map((row) => row['id']);

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
      expectApi4Error(() => site.model.api4('Activity', 'get', { where }), 500, message);
    });
  });

  describe('get: orderBy, limit, offset', () => {
    it('orders by date then id descending, which breaks same-moment ties by id', () => {
      const [latest] = site.model.api4('Activity', 'get', {
        select: [STAGE_FIELD],
        where: [OF_ORG, CHECK_IN, [STAGE_FIELD, 'IS NOT EMPTY']],
        orderBy: { activity_date_time: 'DESC', id: 'DESC' },
        limit: 1,
      });
      expect(latest).toEqual({ id: 1007, [STAGE_FIELD]: 'capitalization' });
    });

    it('returns same-moment rows in id order when only the date is ordered', () => {
      const rows = site.model.api4('Activity', 'get', {
        where: [OF_ORG, CHECK_IN, [STAGE_FIELD, 'IS NOT EMPTY']],
        orderBy: { activity_date_time: 'DESC' },
        limit: 1,
      });
      expect(rows[0]?.['id']).toBe(1006);
    });

    it('pages with limit and offset; limit 0 means no limit', () => {
      const page = (limit: number, offset?: number) =>
        site.model.api4('Activity', 'get', {
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
      const rows = site.model.api4('Activity', 'get', {
        select: ['id'],
        where: [OF_ORG, CHECK_IN],
        orderBy: { [STAGE_FIELD]: 'ASC', id: 'DESC' },
      });
      expect(rows[0]?.['id']).toBe(1008);
      expect(rows.at(-1)?.['id']).toBe(1001);
    });

    it('refuses lower-case directions and unknown fields', () => {
      expectApi4Error(
        () => site.model.api4('Activity', 'get', { orderBy: { id: 'desc' } }),
        500,
        /direction/,
      );
      expectApi4Error(
        () => site.model.api4('Activity', 'get', { orderBy: { nope: 'ASC' } }),
        500,
        /^Invalid field 'nope'$/,
      );
    });
  });

  describe('params and entities', () => {
    it('refuses unknown top-level params such as sequential', () => {
      expectApi4Error(
        () => site.model.api4('Contact', 'get', { sequential: 1 }),
        500,
        /^Unknown api parameter: setSequential$/,
      );
    });

    it('refuses unknown entities and actions', () => {
      expectApi4Error(
        () => site.model.api4('Nope', 'get'),
        500,
        /^API \(Nope, get\) does not exist \(or the extension it belongs to is not enabled\)\.$/,
      );
      expectApi4Error(
        () => site.model.api4('Contact', 'explode'),
        500,
        /^Api Contact explode version 4 does not exist\.$/,
      );
      expectApi4Error(() => site.model.api4('RelationshipCache', 'create', { values: {} }), 500);
    });

    it('never shares references with callers', () => {
      const where = [['id', '=', ORG_ID]];
      const [org] = site.model.api4('Contact', 'get', { where });
      (org as Record<string, unknown>)['display_name'] = 'Changed';
      expect(site.model.api4('Contact', 'get', { where })[0]?.['display_name']).toBe('Riverbend Food Co-op');
    });

    it('offers RelationshipCache, both directions of every relationship', () => {
      const rows = site.model.api4('RelationshipCache', 'get', {
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
});
