import { NUMERIC_FIELD_TYPES } from '@checkin/contract';
import { ALL_FIELDS, FIELDS_BY_NAME } from './field-config';

describe('field configuration: headline figures', () => {
  const headlines = ALL_FIELDS.filter((field) => field.headline);

  it('marks the report’s headline figures, in order', () => {
    const ordered = [...headlines].sort((a, b) => (a.headline?.order ?? 0) - (b.headline?.order ?? 0));

    expect(ordered.map((field) => field.name)).toEqual([
      'Member_owner_count',
      'Equity_raised',
      'Percent_capitalized',
      'Projected_annual_sales',
    ]);
  });

  it('marks only numeric check-in fields, each measured against a numeric field when it names one', () => {
    for (const field of headlines) {
      expect(NUMERIC_FIELD_TYPES).toContain(field.type);
      expect(field.crmField).toBeDefined();
      const goal = field.headline?.goalField;
      if (goal) expect(NUMERIC_FIELD_TYPES).toContain(FIELDS_BY_NAME.get(goal)?.type);
    }
    expect(FIELDS_BY_NAME.get('Equity_raised')?.headline?.goalField).toBe('Equity_goal');
  });
});
