import { checkInRecord } from '../check-ins/testing/check-in-record';
import { clearedNamesOf } from '../crm/check-in-values';
import type { CheckInRecord } from '../check-ins/check-in-record';
import { activityPrefill, ActivityPrefillBuilder, buildPrefill } from './prefill';

function checkin(id: number, date: string, values: CheckInRecord['values'], cleared?: string): CheckInRecord {
  return checkInRecord(id, date, values, { cleared: clearedNamesOf(cleared) });
}

/** The record as a read selecting only these fields' columns answers it (the cleared marker read whole). */
function readFor(record: CheckInRecord, fields: ReadonlySet<string>): CheckInRecord {
  return {
    ...record,
    values: Object.fromEntries(Object.entries(record.values).filter(([name]) => fields.has(name))),
  };
}

describe('buildPrefill', () => {
  const newestFirst = [
    checkin(3, '2026-10-02T14:00:00', { Organizing_notes: 'Newest note', Business_plan: { id: 9 } }),
    checkin(2, '2026-07-15T18:30:00', { Organizing_notes: 'Older note', Store_size_sqft: 4200 }),
    checkin(1, '2024-01-20T11:00:00', { Store_size_sqft: 6000, Site_status: '1' }),
  ];

  it('takes each activity-bound field’s newest non-empty value; never-prefilled fields start empty', () => {
    expect(buildPrefill(newestFirst, {}, null)).toEqual({
      Business_plan: { id: 9 },
      Store_size_sqft: 4200,
      Site_status: '1',
      current_stage: null,
    });
  });

  it('merges the organization’s contact-bound values in, file fields as {id, file_name}', () => {
    const prefill = buildPrefill(
      newestFirst,
      { Equity_share: 200, Certificate_of_Incorporation: { id: 4, file_name: 'certificate.pdf' } },
      'business_planning',
    );
    expect(prefill['Equity_share']).toBe(200);
    expect(prefill['Certificate_of_Incorporation']).toEqual({ id: 4, file_name: 'certificate.pdf' });
  });

  it('lets a contact-bound value win over an activity value of the same name', () => {
    expect(buildPrefill(newestFirst, { Store_size_sqft: 9999 }, null)['Store_size_sqft']).toBe(9999);
  });

  it('gives current_stage the derived stage value', () => {
    expect(buildPrefill([], {}, 'business_planning')).toEqual({ current_stage: 'business_planning' });
  });
});

describe('activityPrefill', () => {
  it('dates each prefilled answer with the check-in it came from', () => {
    const { lastGiven } = activityPrefill([
      checkin(3, '2026-10-02T14:00:00', { Business_plan: { id: 9 } }),
      checkin(1, '2024-03-20T11:00:00', { Store_size_sqft: 6000, Business_plan: { id: 2 } }),
    ]);
    expect(lastGiven).toEqual({
      Business_plan: '2026-10-02T14:00:00',
      Store_size_sqft: '2024-03-20T11:00:00',
    });
  });

  it('leaves an answer empty once a newer check-in cleared it, and takes a value given after that', () => {
    const { values, lastGiven } = activityPrefill([
      checkin(4, '2026-11-01T09:00:00', { Site_status: '2' }),
      checkin(3, '2026-10-02T14:00:00', {}, 'Store_size_sqft,Site_status'),
      checkin(1, '2024-03-20T11:00:00', { Store_size_sqft: 6000, Site_status: '1' }),
    ]);
    expect(values).toEqual({ Site_status: '2' });
    expect(lastGiven).toEqual({ Site_status: '2026-11-01T09:00:00' });
  });

  it('ignores names in the cleared list that are not activity-bound fields', () => {
    const { values } = activityPrefill([
      checkin(3, '2026-10-02T14:00:00', {}, 'Equity_share, nonsense'),
      checkin(1, '2024-03-20T11:00:00', { Store_size_sqft: 6000 }),
    ]);
    expect(values).toEqual({ Store_size_sqft: 6000 });
  });
});

describe('ActivityPrefillBuilder', () => {
  const newestFirst = [
    checkin(5, '2026-11-01T09:00:00', { Site_status: '2' }),
    checkin(4, '2026-10-02T14:00:00', {}, 'Store_size_sqft'),
    checkin(3, '2026-07-15T18:30:00', { Business_plan: { id: 9 } }),
    checkin(2, '2025-01-20T11:00:00', {
      Store_size_sqft: 6000,
      Site_status: '1',
      Steering_committee_size: 8,
    }),
    checkin(1, '2024-01-20T11:00:00', { Steering_committee_size: 5, Business_plan: { id: 2 } }),
  ];

  it.each([1, 2, 3, 4])('answers what activityPrefill answers when fed in slices after %i', (cut) => {
    const prefill = new ActivityPrefillBuilder();
    prefill.add(newestFirst.slice(0, cut));
    prefill.add(newestFirst.slice(cut));
    expect(prefill.result()).toEqual(activityPrefill(newestFirst));
  });

  it.each([1, 2, 3, 4])(
    'answers the same when the check-ins after %i were first read for the file fields alone',
    (cut) => {
      const fileFields = new Set(['Business_plan']);
      const prefill = new ActivityPrefillBuilder();
      prefill.add(newestFirst.slice(0, cut));
      prefill.add(
        newestFirst.slice(cut).map((record) => readFor(record, fileFields)),
        fileFields,
      );
      prefill.add(newestFirst.slice(cut));
      expect(prefill.result()).toEqual(activityPrefill(newestFirst));
    },
  );

  it('lets check-ins read for some fields settle only those, not another field they cleared', () => {
    const fileFields = new Set(['Business_plan']);
    const history = [
      checkin(2, '2026-05-01T09:00:00', { Store_size_sqft: 5000 }),
      checkin(1, '2026-01-01T09:00:00', { Business_plan: { id: 7 } }, 'Store_size_sqft'),
    ];
    const prefill = new ActivityPrefillBuilder();
    prefill.add(
      history.map((record) => readFor(record, fileFields)),
      fileFields,
    );
    expect([prefill.isSettled('Business_plan'), prefill.isSettled('Store_size_sqft')]).toEqual([true, false]);
    prefill.add(history);
    expect(prefill.result().values).toEqual({ Business_plan: { id: 7 }, Store_size_sqft: 5000 });
  });

  it('says which fields a slice settled: given, cleared or never prefilled', () => {
    const prefill = new ActivityPrefillBuilder();
    prefill.add(newestFirst.slice(0, 2));
    expect(
      ['Site_status', 'Store_size_sqft', 'Organizing_notes', 'Business_plan'].map((name) =>
        prefill.isSettled(name),
      ),
    ).toEqual([true, true, true, false]);
  });
});
