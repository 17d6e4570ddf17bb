import { CLEARED_FIELDS_FIELD, clearedFieldsOf, clearedFieldsValue } from './cleared-answers';

describe('clearedFieldsValue', () => {
  it('lists the activity-bound answers sent empty, sorted, comma-separated', () => {
    expect(
      clearedFieldsValue({
        Store_size_sqft: null,
        Lender_types: [],
        Business_plan: null,
        Site_status: '2',
        // Contact-bound: cleared on the organization itself, not listed here.
        Equity_share: null,
      }),
    ).toEqual({ [CLEARED_FIELDS_FIELD]: 'Business_plan,Lender_types,Store_size_sqft' });
  });

  it('writes nothing when no activity-bound answer was cleared', () => {
    expect(clearedFieldsValue({ Site_status: '2', Equity_share: null })).toEqual({});
  });
});

describe('clearedFieldsOf', () => {
  it('reads the names back, dropping unknown ones', () => {
    expect([...clearedFieldsOf({ [CLEARED_FIELDS_FIELD]: 'Business_plan, x,Store_size_sqft' })]).toEqual([
      'Business_plan',
      'Store_size_sqft',
    ]);
    expect(clearedFieldsOf({}).size).toBe(0);
  });
});
