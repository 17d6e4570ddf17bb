import { clearedAnswers, isCheckInAnswer } from './cleared-answers';

describe('clearedAnswers', () => {
  it('lists the activity-bound answers sent empty, sorted', () => {
    expect(
      clearedAnswers({
        Store_size_sqft: null,
        Lender_types: [],
        Business_plan: null,
        Site_status: '2',
        // Contact-bound: cleared on the organization itself, not listed here.
        Equity_share: null,
      }),
    ).toEqual(['Business_plan', 'Lender_types', 'Store_size_sqft']);
  });

  it('lists nothing when no activity-bound answer was cleared', () => {
    expect(clearedAnswers({ Site_status: '2', Equity_share: null })).toEqual([]);
  });
});

describe('isCheckInAnswer', () => {
  it('knows the activity-bound answers only', () => {
    expect(isCheckInAnswer('Store_size_sqft')).toBe(true);
    expect(isCheckInAnswer('Equity_share')).toBe(false);
    expect(isCheckInAnswer('x')).toBe(false);
  });
});
