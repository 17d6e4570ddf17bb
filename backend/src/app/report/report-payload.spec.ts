import type { SectionConfig, StageOption } from '@checkin/contract';
import { stagedCheckIn } from '../check-ins/testing/check-in-record';
import { SECTIONS } from '../fields/field-config';
import { buildReportPayload, currentStageOf, reportSections } from './report-payload';

const STAGES: StageOption[] = [
  { rank: 0, value: 'inquiry', label: 'Inquiry' },
  { rank: 1, value: 'organizing', label: 'Organizing' },
  { rank: 2, value: 'feasibility', label: 'Feasibility' },
  { rank: 3, value: 'business_planning', label: 'Business planning' },
];

const checkin = stagedCheckIn;

describe('currentStageOf', () => {
  it('takes the stage of the newest check-in that has one', () => {
    const checkins = [
      checkin(12, '2025-04-01T10:00:00', { Member_owner_count: 300 }),
      checkin(11, '2025-03-01T09:00:00', {}, 'business_planning'),
      checkin(10, '2025-03-01T09:00:00', {}, 'feasibility'),
      checkin(3, '2024-01-01T09:00:00', {}, 'organizing'),
    ];

    expect(currentStageOf(checkins, STAGES)).toEqual({
      rank: 3,
      value: 'business_planning',
      label: 'Business planning',
    });
  });

  it('is Inquiry when no check-in has a stage', () => {
    const checkins = [checkin(1, '2025-01-01T00:00:00', { Steering_committee_size: 4 })];

    expect(currentStageOf(checkins, STAGES)).toEqual({ rank: 0, value: null, label: 'Inquiry' });
    expect(currentStageOf([], STAGES)).toEqual({ rank: 0, value: null, label: 'Inquiry' });
  });
});

describe('reportSections', () => {
  it('keeps the stage sections 1 to 5 and drops the organization section, which has no history', () => {
    expect(reportSections(SECTIONS).map((section) => section.rank)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps only the activity-bound fields of the organization section when it has some', () => {
    const organization: SectionConfig = {
      rank: 0,
      title: 'Your co-op',
      fields: [
        { name: 'email', type: 'text', label: 'Email', readOnly: true },
        { name: 'Equity_share', type: 'currency', label: 'Share', crmContactField: 'Org.Equity_share' },
        { name: 'Volunteers', type: 'number', label: 'Volunteers', crmField: 'Checkin.Volunteers' },
      ],
    };

    const [kept] = reportSections([organization]);

    expect(kept?.fields.map((field) => field.name)).toEqual(['Volunteers']);
  });
});

describe('buildReportPayload', () => {
  const checkins = [
    checkin(21, '2025-06-01T12:00:00', { Member_owner_count: 410, Market_study_status: 'complete' }),
    checkin(20, '2025-05-01T09:00:00', {}, 'feasibility'),
    checkin(19, '2025-02-01T12:00:00', { Member_owner_count: 260 }),
  ];
  const options = { Market_study_status: [{ value: 'complete', label: 'Complete' }] };

  it('answers the organization name, derived stage, check-ins, field history, options and sections', () => {
    const payload = buildReportPayload({
      orgName: 'Riverbend',
      organizationValues: {},
      checkins,
      options,
      stages: STAGES,
      sections: SECTIONS,
    });

    expect(payload.orgName).toBe('Riverbend');
    expect(payload.currentStage).toEqual({ rank: 2, value: 'feasibility', label: 'Feasibility' });
    expect(payload.activities.map((activity) => [activity.id, activity.stage, activity.fieldCount])).toEqual([
      [21, null, 2],
      [20, 2, 0],
      [19, null, 1],
    ]);
    expect(payload.fieldHistory).toEqual({
      Member_owner_count: [
        { value: 410, date: '2025-06-01T12:00:00', activityId: 21 },
        { value: 260, date: '2025-02-01T12:00:00', activityId: 19 },
      ],
      Market_study_status: [{ value: 'complete', date: '2025-06-01T12:00:00', activityId: 21 }],
    });
    expect(payload.options).toBe(options);
    expect(payload.stages).toEqual(STAGES);
    expect(payload.sections.map((section) => section.rank)).toEqual([1, 2, 3, 4, 5]);
  });

  it('gives a history only to fields bound to the check-in activity', () => {
    const withContactValue = [
      checkin(30, '2025-01-01T00:00:00', { Equity_share: 200, Interest_list_size: 40 }),
    ];

    const payload = buildReportPayload({
      orgName: 'Riverbend',
      organizationValues: {},
      checkins: withContactValue,
      options: {},
      stages: STAGES,
      sections: SECTIONS,
    });

    expect(Object.keys(payload.fieldHistory)).toEqual(['Interest_list_size']);
  });

  it('shows the organization’s own facts the form writes, with their current values, empty ones left out', () => {
    const payload = buildReportPayload({
      orgName: 'Riverbend',
      organizationValues: {
        Equity_share: 200,
        Name_on_Incorporation_Certificate: '',
        Date_Incorporated: '2021-03-01',
      },
      checkins: [],
      options: {},
      stages: STAGES,
      sections: SECTIONS,
    });
    expect(payload.organizationFacts.title).toBe('Your co-op');
    expect(payload.organizationFacts.fields.map((report) => [report.field.name, report.latest])).toEqual([
      ['Date_Incorporated', '2021-03-01'],
      ['Equity_share', 200],
    ]);
    expect(payload.organizationFacts.fields.every((report) => report.latest !== '')).toBe(true);
    expect(payload.organizationFacts.fields.every((report) => !report.field.readOnly)).toBe(true);
  });

  it('builds the stage-5 quarterly matrix: configured metrics by Q1..Q4, each cell with its history', () => {
    const payload = buildReportPayload({
      orgName: 'Riverbend',
      organizationValues: {},
      checkins: [
        checkin(41, '2026-02-01T12:00:00', { Y1_Q1_Sales: 615400 }),
        checkin(40, '2026-01-01T12:00:00', { Y1_Q1_Sales: 612000, Y1_Q2_Members: 900 }),
      ],
      options: {},
      stages: STAGES,
      sections: SECTIONS,
    });
    const matrix = payload.quarterlyMatrix;
    expect(matrix?.sectionRank).toBe(5);
    expect(matrix?.quarters).toEqual(['Q1', 'Q2', 'Q3', 'Q4']);
    expect(matrix?.rows.map((row) => [row.metric, row.label])).toEqual([
      ['Sales', 'Sales'],
      ['Members', 'Member-owners'],
      ['Transactions', 'Transactions'],
      ['Margin', 'Gross margin'],
    ]);
    const q1Sales = matrix?.rows[0]?.cells[0];
    expect(q1Sales?.latest).toBe(615400);
    expect(q1Sales?.history.map((entry) => entry.value)).toEqual([615400, 612000]);
    expect(matrix?.rows[1]?.cells[1]?.latest).toBe(900);
    expect(matrix?.rows[1]?.cells[0]).toMatchObject({ latest: null, history: [] });
  });
});
