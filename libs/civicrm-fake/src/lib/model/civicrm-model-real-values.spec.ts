import { createHmac } from 'node:crypto';
import { ANONYMOUS_USER, CHECKIN_EXTENSION_VERSION } from './types';
import { PERSON, PERSON_ID, SAMPLE_CHECKSUM } from '../spec-support/sample-site';
import { expectApi4Error, realSiteHelpers } from '../spec-support/model-specs';

/** Types, refused custom values, dates, permissions and the extension as a real CiviCRM has them. */

/** The behaviours measured on real CiviCRM 6.14 and 5.81.1 (issues 12 and 18). */
describe('CiviCrmModel imitating a real CiviCRM', () => {
  const clock = new Date('2026-11-21T12:00:00Z');
  const { make, checkIn, read } = realSiteHelpers(clock);

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
