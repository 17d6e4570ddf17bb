import type { FieldConfig, StageOption } from '@checkin/contract';
import type { CheckInRecord } from './check-in-record';
import { buildFieldHistory, summarizeCheckIns } from './field-history';
import { checkInRecord, stagedCheckIn } from './testing/check-in-record';

const members: FieldConfig = { name: 'Members', type: 'number', label: 'Members', crmField: 'G.Members' };
const notes: FieldConfig = { name: 'Notes', type: 'text', label: 'Notes', crmField: 'G.Notes' };
const planDone: FieldConfig = { name: 'Plan_done', type: 'boolean', label: 'Plan', crmField: 'G.Plan_done' };
const opened: FieldConfig = { name: 'Opened', type: 'date', label: 'Opened', crmField: 'G.Opened' };

const STAGES: StageOption[] = [
  { rank: 0, value: 'inquiry', label: 'Inquiry' },
  { rank: 1, value: 'organizing', label: 'Organizing' },
  { rank: 2, value: 'feasibility', label: 'Feasibility' },
];

const checkin = stagedCheckIn;

/** Newest first, as CrmCheckInsGateway.list answers: by date, then id. */
const CHECKINS: CheckInRecord[] = [
  checkin(7, '2024-05-01T10:00:00', { Notes: 'Corrected figures', Members: 0 }),
  checkin(6, '2024-05-01T10:00:00', { Notes: 'First draft' }),
  checkin(5, '2024-02-10T09:30:00', {}, 'feasibility'),
  checkin(4, '2023-11-20T18:00:00', { Members: 120, Plan_done: false }),
  checkin(2, '2023-06-01T12:00:00', { Members: 45, Notes: 'Kick-off' }, 'organizing'),
];

describe('buildFieldHistory', () => {
  it('collects every non-empty value of a field with its check-in date, newest first', () => {
    const history = buildFieldHistory(CHECKINS, [members]);

    expect(history['Members']).toEqual([
      { value: 0, date: '2024-05-01T10:00:00', activityId: 7 },
      { value: 120, date: '2023-11-20T18:00:00', activityId: 4 },
      { value: 45, date: '2023-06-01T12:00:00', activityId: 2 },
    ]);
  });

  it('orders check-ins of the same moment by id, the later one first', () => {
    const history = buildFieldHistory(CHECKINS, [notes]);

    expect(history['Notes']?.map((entry) => entry.activityId)).toEqual([7, 6, 2]);
    expect(history['Notes']?.[0]?.value).toBe('Corrected figures');
  });

  it('keeps false and zero, which are answers rather than blanks', () => {
    const history = buildFieldHistory(CHECKINS, [members, planDone]);

    expect(history['Plan_done']).toEqual([{ value: false, date: '2023-11-20T18:00:00', activityId: 4 }]);
    expect(history['Members']?.[0]?.value).toBe(0);
  });

  it('leaves out fields that no check-in answered', () => {
    const history = buildFieldHistory(CHECKINS, [members, opened, notes]);

    expect(Object.keys(history)).toEqual(['Members', 'Notes']);
    expect(history).not.toHaveProperty('Opened');
  });

  it('answers an empty map for an organization without check-ins', () => {
    expect(buildFieldHistory([], [members, notes])).toEqual({});
  });
});

describe('buildFieldHistory with cleared answers', () => {
  const sqft: FieldConfig = {
    name: 'Store_size_sqft',
    type: 'number',
    label: 'Planned sales floor',
    crmField: 'Check_in_data__organizing_.Store_size_sqft',
  };
  const cleared = (id: number, date: string, names: string): CheckInRecord =>
    checkInRecord(id, date, {}, { cleared: new Set(names.split(',')) });

  it('lists a cleared answer as a null entry at the check-in that cleared it', () => {
    const history = buildFieldHistory(
      [
        cleared(3, '2026-10-02T14:00:00', 'Store_size_sqft'),
        checkin(2, '2026-07-15T18:30:00', { Store_size_sqft: 4200 }),
      ],
      [sqft],
    );
    expect(history['Store_size_sqft']).toEqual([
      { value: null, date: '2026-10-02T14:00:00', activityId: 3 },
      { value: 4200, date: '2026-07-15T18:30:00', activityId: 2 },
    ]);
  });

  it('drops a cleared entry older than every value: it cleared nothing', () => {
    const history = buildFieldHistory(
      [
        checkin(3, '2026-10-02T14:00:00', { Store_size_sqft: 5000 }),
        cleared(2, '2026-07-15T18:30:00', 'Store_size_sqft'),
      ],
      [sqft],
    );
    expect(history['Store_size_sqft']).toEqual([{ value: 5000, date: '2026-10-02T14:00:00', activityId: 3 }]);
    expect(buildFieldHistory([cleared(1, '2026-07-15T18:30:00', 'Store_size_sqft')], [sqft])).toEqual({});
  });
});

describe('summarizeCheckIns', () => {
  it('lists every check-in with its date, stage rank and count of answered fields, in order', () => {
    expect(summarizeCheckIns(CHECKINS, STAGES)).toEqual([
      { id: 7, date: '2024-05-01T10:00:00', stage: null, fieldCount: 2 },
      { id: 6, date: '2024-05-01T10:00:00', stage: null, fieldCount: 1 },
      { id: 5, date: '2024-02-10T09:30:00', stage: 2, fieldCount: 0 },
      { id: 4, date: '2023-11-20T18:00:00', stage: null, fieldCount: 2 },
      { id: 2, date: '2023-06-01T12:00:00', stage: 1, fieldCount: 2 },
    ]);
  });

  it('gives no rank to a stage value the option group does not know', () => {
    const [summary] = summarizeCheckIns([checkin(9, '2024-01-01T00:00:00', {}, 'retired_stage')], STAGES);

    expect(summary?.stage).toBeNull();
  });
});
