import type { FieldConfig, ReportPayload } from '@checkin/contract';
import { sparklinePoints } from './report-headlines';
import { headlineFigures, stageProgress } from './report-summary';
import { buildReportView } from './report-view';
import { reportFixture } from './testing/report-fixture';

const OPTIONS = { locale: 'en-US' };

/** The fixture with member-owners, equity raised (against a goal) and percent capitalized as headlines. */
function withHeadlines(): ReportPayload {
  const report = reportFixture();
  const mark = (name: string, headline: FieldConfig['headline']) => {
    // New objects: the fixture's sections are shared between tests.
    report.sections = report.sections.map((section) => ({
      ...section,
      fields: section.fields.map((field) => (field.name === name ? { ...field, headline } : field)),
    }));
  };
  report.sections = report.sections.map((section) =>
    section.rank === 4
      ? {
          ...section,
          fields: [
            { name: 'Equity_goal', type: 'currency', label: 'Member equity goal', crmField: 'C.Goal' },
            ...section.fields,
          ],
        }
      : section,
  );
  report.fieldHistory['Equity_goal'] = [{ value: 1_000_000, date: '2024-07-01T18:00:00', activityId: 1012 }];
  mark('Percent_capitalized', { order: 3 });
  mark('Equity_raised', { order: 2, goalField: 'Equity_goal' });
  mark('Member_owner_count', { order: 1 });
  return report;
}

describe('stageProgress', () => {
  it('lists every stage in rank order: those before the current one done, the rest to come', () => {
    expect(stageProgress(reportFixture()).map((step) => [step.label, step.state])).toEqual([
      ['Inquiry', 'done'],
      ['Organizing', 'done'],
      ['Feasibility', 'done'],
      ['Business planning', 'current'],
      ['Capitalization', 'upcoming'],
      ['Open', 'upcoming'],
    ]);
  });
});

describe('headlineFigures', () => {
  it('shows the configured figures with answers, in their order, with the latest value and date', () => {
    const figures = headlineFigures(withHeadlines(), OPTIONS);

    expect(figures.map((figure) => [figure.label, figure.valueLabel, figure.dateLabel])).toEqual([
      ['Member-owners', '902', 'March 10, 2025'],
      ['Member equity raised', '$905,250.50', 'January 25, 2025'],
      ['Percent capitalized', '97.5%', 'January 25, 2025'],
    ]);
  });

  it('measures a figure against its goal, and draws a trend only from two points', () => {
    const [members, equity, percent] = headlineFigures(withHeadlines(), OPTIONS);

    expect(equity?.goalLabel).toBe('of a $1,000,000.00 goal (91%)');
    expect(equity?.goalPercent).toBe(91);
    expect(members?.goalLabel).toBeNull();
    expect(members?.trend?.points).toHaveLength(5);
    expect(percent?.trend).toBeNull();
  });

  it('lists every value oldest first, for the table that stands in for the trend line', () => {
    const [members] = headlineFigures(withHeadlines(), OPTIONS);

    expect(members?.rows.map((row) => row.valueLabel)).toEqual(['118', '262', '522', '838', '902']);
  });

  it('leaves out a headline field without answers, and fields not marked', () => {
    const report = withHeadlines();
    delete report.fieldHistory['Member_owner_count'];

    expect(headlineFigures(report, OPTIONS).map((figure) => figure.name)).toEqual([
      'Equity_raised',
      'Percent_capitalized',
    ]);
    expect(headlineFigures(reportFixture(), OPTIONS)).toEqual([]);
  });
});

describe('sparklinePoints', () => {
  it('runs from the left edge to the right, the highest value at the top', () => {
    const [members] = headlineFigures(withHeadlines(), OPTIONS);
    const points = sparklinePoints(members!.trend!).split(' ');

    expect(points[0]).toBe('0,30');
    expect(points.at(-1)).toBe('100,2');
  });
});

describe('quarterly fields', () => {
  it('come from the payload’s matrix, the one the staff page shows, and leave the field rows', () => {
    const report = reportFixture();
    const view = buildReportView(report, OPTIONS);
    const open = view.sections.find((section) => section.rank === 5);

    expect(open?.fields.map((field) => field.name)).toEqual(['Date_Opened']);
    expect(open?.matrix).toBe(report.quarterlyMatrix);
  });

  it('give each answered cell its date, earlier entries and trend, labelled by metric and quarter', () => {
    const open = buildReportView(reportFixture(), OPTIONS).sections.find((section) => section.rank === 5);
    const [q1Sales] = open?.matrixFields ?? [];

    expect(q1Sales?.label).toBe('Sales, Q1');
    expect(q1Sales?.latest).toMatchObject({ valueLabel: '$615,400.00', dateLabel: 'April 10, 2026' });
    expect(q1Sales?.earlier.map((entry) => entry.valueLabel)).toEqual(['$612,000.00']);
    expect(q1Sales?.trend?.points).toHaveLength(2);
  });

  it('are counted as tracked, like the co-op’s own facts', () => {
    // 13 stage fields, one quarterly cell and one "Your co-op" fact.
    expect(buildReportView(reportFixture(), OPTIONS).fieldsTracked).toBe(15);
  });

  it('leave out a matrix no cell of which has an answer', () => {
    const report = reportFixture();
    report.quarterlyMatrix?.rows[0]?.cells.splice(0, 1, null);
    const open = buildReportView(report, OPTIONS).sections.find((section) => section.rank === 5);
    expect(open?.matrix).toBeNull();
  });
});

describe('stage cards', () => {
  it('start collapsed for the stages before the current one', () => {
    const view = buildReportView(reportFixture(), OPTIONS);

    expect(view.sections.map((section) => [section.rank, section.startsCollapsed])).toEqual([
      [1, true],
      [2, true],
      [4, false],
      [5, false],
    ]);
  });
});
