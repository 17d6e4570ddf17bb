import type { FieldConfig, ReportPayload } from '@checkin/contract';
import { buildReportView, earlierEntriesLabel, type FieldView } from './report-view';
import { compactValue, trendPoints } from './trend';
import { reportFixture } from './testing/report-fixture';

const OPTIONS = { locale: 'en-US' };

function fieldOf(report: ReportPayload, name: string): FieldView {
  const field = buildReportView(report, OPTIONS)
    .sections.flatMap((section) => section.fields)
    .find((candidate) => candidate.name === name);
  if (!field) throw new Error(`${name} is not in the report`);
  return field;
}

describe('buildReportView: header', () => {
  it('shows the organization, its current stage and the three counts', () => {
    const view = buildReportView(reportFixture(), OPTIONS);

    expect(view.orgName).toBe('Riverbend Food Co-op');
    expect(view.stageLabel).toBe('Business planning');
    // Two of the twelve set the stage: staff recorded them, no owner sent them.
    expect(view.checkInCount).toBe(10);
    expect(view.stageChangeCount).toBe(2);
    expect(view.fieldsTracked).toBe(15);
    expect(view.dateSpan).toBe('February 2022 – November 2026');
  });

  it('shows one month alone when every check-in falls in it', () => {
    const report = reportFixture();
    report.activities = [
      { id: 2, date: '2025-03-31T23:30:00', stage: null, fieldCount: 1 },
      { id: 1, date: '2025-03-01T00:15:00', stage: null, fieldCount: 1 },
    ];

    expect(buildReportView(report, OPTIONS).dateSpan).toBe('March 2025');
  });

  it('says so when there is no check-in yet', () => {
    const report = {
      ...reportFixture(),
      activities: [],
      fieldHistory: {},
      organizationFacts: { title: 'Your co-op', fields: [] },
    };

    const view = buildReportView(report, OPTIONS);

    expect(view.dateSpan).toBe('No check-ins yet');
    expect(view.fieldsTracked).toBe(0);
    expect(view.sections).toEqual([]);
  });
});

describe('buildReportView: sections', () => {
  it('lists stage sections in rank order, leaving out those without answers', () => {
    const view = buildReportView(reportFixture(), OPTIONS);

    // Section 3 (Business planning) has a date field nobody answered.
    expect(view.sections.map((section) => [section.rank, section.title])).toEqual([
      [1, 'Organizing'],
      [2, 'Feasibility'],
      [4, 'Capitalization'],
      [5, 'Open'],
    ]);
  });

  it('keeps only the fields with entries, in configuration order', () => {
    const report = reportFixture();
    delete report.fieldHistory['Mission_statement_adopted'];

    const organizing = buildReportView(report, OPTIONS).sections[0];

    expect(organizing?.fields.map((field) => field.name)).toEqual([
      'Steering_committee_size',
      'Organizing_meeting_date',
      'Organizing_focus',
      'Organizing_notes',
    ]);
  });
});

describe('buildReportView: fields', () => {
  it('shows the latest value with its date and the earlier entries newest first', () => {
    const members = fieldOf(reportFixture(), 'Member_owner_count');

    expect(members.latest).toEqual({
      activityId: 1016,
      dateTime: '2025-03-10T09:00:00',
      dateLabel: 'March 10, 2025',
      valueLabel: '902',
    });
    expect(members.earlier.map((entry) => entry.valueLabel)).toEqual(['838', '522', '262', '118']);
    expect(members.earlier.map((entry) => entry.dateLabel)).toEqual([
      'January 25, 2025',
      'July 1, 2024',
      'September 27, 2023',
      'March 5, 2023',
    ]);
  });

  it('says "Cleared" for an answer the owner cleared at a check-in', () => {
    const report = reportFixture();
    const history = report.fieldHistory['Member_owner_count'] ?? [];
    report.fieldHistory['Member_owner_count'] = [
      { value: null, date: '2025-04-01T09:00:00', activityId: 1017 },
      ...history,
    ];

    const members = fieldOf(report, 'Member_owner_count');

    expect(members.latest.valueLabel).toBe('Cleared');
    expect(members.earlier[0]?.valueLabel).toBe('902');
  });

  it('formats every value by its field type, options resolved through the option group', () => {
    const report = reportFixture();
    const latest = (name: string) => fieldOf(report, name).latest.valueLabel;
    const earliest = (name: string) => fieldOf(report, name).earlier.at(-1)?.valueLabel;

    expect(latest('Equity_raised')).toBe('$905,250.50');
    expect(latest('Percent_capitalized')).toBe('97.5%');
    expect(latest('Date_Opened')).toBe('March 8, 2025');
    expect(latest('Mission_statement_adopted')).toBe('Yes');
    expect(earliest('Mission_statement_adopted')).toBe('No');
    expect(latest('Market_study_status')).toBe('Complete');
    expect(latest('Organizing_focus')).toBe('Full-service groceries, Bulk foods');
    expect(earliest('Organizing_focus')).toBe('Full-service groceries');
    expect(latest('Feasibility_study')).toBe('market_study.pdf');
    expect(earliest('Feasibility_study')).toBe('Attachment #11');
    expect(latest('Organizing_notes')).toBe('Grand opening weekend.');
  });

  it('marks number, currency and percent fields as numeric', () => {
    const report = reportFixture();

    expect(fieldOf(report, 'Member_owner_count').numeric).toBe(true);
    expect(fieldOf(report, 'Equity_raised').numeric).toBe(true);
    expect(fieldOf(report, 'Percent_capitalized').numeric).toBe(true);
    expect(fieldOf(report, 'Market_study_date').numeric).toBe(false);
  });

  it('counts earlier entries in words', () => {
    expect(earlierEntriesLabel(1)).toBe('1 earlier entry');
    expect(earlierEntriesLabel(4)).toBe('4 earlier entries');
  });
});

describe('buildReportView: trends', () => {
  it('charts a numeric field with at least two dated points, oldest first, with its extremes', () => {
    const trend = fieldOf(reportFixture(), 'Equity_raised').trend;

    expect(trend?.points.map((point) => point.value)).toEqual([312500, 618000, 905250.5]);
    expect(trend?.minLabel).toBe('$312,500.00');
    expect(trend?.maxLabel).toBe('$905,250.50');
    expect(trend?.summary).toBe(
      'Member equity raised: 3 points from July 1, 2024 ($312,500.00) to January 25, 2025 ($905,250.50).',
    );
    expect(trend?.xTicks.map((day) => trend.formatX(day))).toEqual(['Jul 2024', 'Jan 2025']);
    expect(trend?.yTicks.map((value) => trend.formatY(value))).toEqual(['$312.5K', '$905.3K']);
  });

  it('draws no chart for a single point, or for fields that are not numbers', () => {
    const report = reportFixture();

    expect(fieldOf(report, 'Percent_capitalized').trend).toBeNull();
    expect(fieldOf(report, 'Mission_statement_adopted').trend).toBeNull();
    expect(fieldOf(report, 'Market_study_status').trend).toBeNull();
  });

  it('draws a chart for two answers given on one day, as two points in the order they were given', () => {
    const report = reportFixture();
    report.fieldHistory['Equity_raised'] = [
      { value: 615400, date: '2026-04-10T12:00:00', activityId: 1021 },
      { value: 612000, date: '2026-04-10T12:00:00', activityId: 1020 },
    ];
    const trend = fieldOf(report, 'Equity_raised').trend;

    expect(trend?.points.map((point) => point.value)).toEqual([612000, 615400]);
    expect(trend?.summary).toBe(
      'Member equity raised: 2 points from April 10, 2026 ($612,000.00) to April 10, 2026 ($615,400.00).',
    );
  });

  it('keeps every numeric answer as its own point, ordered by time within a day', () => {
    const day = (year: number, month: number, date: number) => Date.UTC(year, month - 1, date) / 86_400_000;
    const points = trendPoints([
      { value: 615400, date: '2026-04-10T12:00:00', activityId: 21 },
      { value: 612000, date: '2026-04-10T08:00:00', activityId: 20 },
      { value: 'n/a', date: '2025-07-08T12:00:00', activityId: 18 },
      { value: '598000', date: '2025-01-08T12:00:00', activityId: 17 },
    ]);

    expect(points.map((point) => point.value)).toEqual([598000, 612000, 615400]);
    expect(points[0]?.day).toBe(day(2025, 1, 8) + 0.5);
    expect(points[1]?.day).toBe(day(2026, 4, 10) + 8 / 24);
    expect(points[2]?.day).toBe(day(2026, 4, 10) + 0.5);
  });

  it('keeps two answers with the very same time apart, the older (lower id) first', () => {
    const points = trendPoints([
      { value: 2, date: '2026-04-10 12:00:00', activityId: 21 },
      { value: 1, date: '2026-04-10 12:00:00', activityId: 20 },
    ]);

    expect(points.map((point) => point.value)).toEqual([1, 2]);
    expect(points[1]!.day - points[0]!.day).toBeCloseTo(1 / 86_400, 9);
  });

  it('places points on their calendar day whatever the time zone', () => {
    const [first] = trendPoints([
      { value: 2, date: '2024-01-01T23:59:00', activityId: 2 },
      { value: 1, date: '2023-12-31T00:01:00', activityId: 1 },
    ]);

    expect(Math.floor(first?.day ?? 0)).toBe(Date.UTC(2023, 11, 31) / 86_400_000);
  });

  it('labels the axes compactly in the field’s format', () => {
    const field = (type: FieldConfig['type']): FieldConfig => ({ name: 'f', label: 'F', type });

    expect(compactValue(1_850_000, field('currency'), OPTIONS)).toBe('$1.9M');
    expect(compactValue(34.66, field('percent'), OPTIONS)).toBe('34.7%');
    expect(compactValue(1_121, field('number'), OPTIONS)).toBe('1.1K');
  });
});
