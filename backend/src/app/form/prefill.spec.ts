import type { CheckinRecord } from '../crm/checkin-records.service';
import { buildPrefill } from './prefill';

function checkin(id: number, date: string, values: CheckinRecord['values']): CheckinRecord {
  return { id, date, stageValue: null, values, row: {} };
}

describe('buildPrefill', () => {
  const newestFirst = [
    checkin(3, '2026-10-02T14:00:00', { Organizing_notes: 'Newest note', Business_plan: { id: 9 } }),
    checkin(2, '2026-07-15T18:30:00', { Organizing_notes: 'Older note', Store_size_sqft: 4200 }),
    checkin(1, '2024-01-20T11:00:00', { Store_size_sqft: 6000, Site_status: '1' }),
  ];

  it('takes each activity-bound field’s newest non-empty value', () => {
    expect(buildPrefill(newestFirst, {}, null)).toEqual({
      Organizing_notes: 'Newest note',
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
