import type { ActivitySummary, FieldConfig, ReportPayload, SectionConfig } from '@checkin/contract';

/**
 * A report as GET /api/report answers it, shaped like the demo organization's: five stage
 * sections, check-ins from February 2022 to November 2026, numbers, dates, options and files.
 */
const Y1_Q1_SALES: FieldConfig = {
  name: 'Y1_Q1_Sales',
  type: 'currency',
  label: 'Year 1, Q1: sales',
  crmField: 'C.Y1_Q1_Sales',
};

export const SECTIONS: SectionConfig[] = [
  {
    rank: 2,
    title: 'Feasibility',
    fields: [
      {
        name: 'Member_owner_count',
        type: 'number',
        label: 'Member-owners',
        crmField: 'C.Member_owner_count',
      },
      {
        name: 'Market_study_status',
        type: 'select',
        label: 'Market study',
        crmField: 'C.Market_study_status',
      },
      {
        name: 'Market_study_date',
        type: 'date',
        label: 'Market study completed on',
        crmField: 'C.Market_study_date',
      },
      {
        name: 'Feasibility_study',
        type: 'file',
        label: 'Feasibility study',
        crmField: 'C.Feasibility_study',
      },
    ],
  },
  {
    rank: 1,
    title: 'Organizing',
    fields: [
      {
        name: 'Steering_committee_size',
        type: 'number',
        label: 'Steering committee size',
        crmField: 'C.Steering',
      },
      {
        name: 'Organizing_meeting_date',
        type: 'date',
        label: 'Date of the first public meeting',
        crmField: 'C.Meet',
      },
      {
        name: 'Mission_statement_adopted',
        type: 'boolean',
        label: 'Mission statement adopted',
        crmField: 'C.Mission',
      },
      {
        name: 'Organizing_focus',
        type: 'multiselect',
        label: 'What the co-op will offer',
        crmField: 'C.Focus',
      },
      { name: 'Organizing_notes', type: 'text', label: 'Notes', crmField: 'C.Notes' },
    ],
  },
  {
    rank: 3,
    title: 'Business planning',
    fields: [
      { name: 'Business_plan_date', type: 'date', label: 'Business plan finished on', crmField: 'C.Plan' },
    ],
  },
  {
    rank: 4,
    title: 'Capitalization',
    fields: [
      { name: 'Equity_raised', type: 'currency', label: 'Member equity raised', crmField: 'C.Equity' },
      { name: 'Percent_capitalized', type: 'percent', label: 'Percent capitalized', crmField: 'C.Percent' },
      {
        name: 'Capital_campaign_launch_date',
        type: 'date',
        label: 'Capital campaign launched on',
        crmField: 'C.Camp',
      },
    ],
  },
  {
    rank: 5,
    title: 'Open',
    fields: [
      { name: 'Date_Opened', type: 'date', label: 'Date opened', crmField: 'C.Date_Opened' },
      Y1_Q1_SALES,
    ],
  },
];

const ACTIVITIES: ActivitySummary[] = [
  { id: 1027, date: '2026-11-14T08:45:00', stage: null, fieldCount: 0 },
  { id: 1021, date: '2026-04-10T12:00:00', stage: null, fieldCount: 2 },
  { id: 1016, date: '2025-03-10T09:00:00', stage: null, fieldCount: 1 },
  { id: 1015, date: '2025-03-10T09:00:00', stage: 5, fieldCount: 1 },
  { id: 1014, date: '2025-01-25T15:00:00', stage: null, fieldCount: 2 },
  { id: 1013, date: '2024-10-12T10:30:00', stage: null, fieldCount: 2 },
  { id: 1012, date: '2024-07-01T18:00:00', stage: null, fieldCount: 3 },
  { id: 1008, date: '2023-09-27T19:00:00', stage: null, fieldCount: 4 },
  { id: 1006, date: '2023-03-05T17:45:00', stage: null, fieldCount: 2 },
  { id: 1003, date: '2022-07-22T18:05:00', stage: null, fieldCount: 3 },
  { id: 1002, date: '2022-04-10T19:30:00', stage: null, fieldCount: 5 },
  { id: 1001, date: '2022-02-14T10:00:00', stage: 1, fieldCount: 0 },
];

export function reportFixture(): ReportPayload {
  return {
    orgName: 'Riverbend Food Co-op',
    valueFormat: { currency: 'USD', locale: 'en-US' },
    currentStage: { rank: 3, value: 'business_planning', label: 'Business planning' },
    activities: ACTIVITIES.map((activity) => ({ ...activity })),
    fieldHistory: {
      Steering_committee_size: [
        { value: 7, date: '2022-07-22T18:05:00', activityId: 1003 },
        { value: 5, date: '2022-04-10T19:30:00', activityId: 1002 },
      ],
      Organizing_meeting_date: [{ value: '2022-03-19', date: '2022-04-10T19:30:00', activityId: 1002 }],
      Mission_statement_adopted: [
        { value: true, date: '2022-07-22T18:05:00', activityId: 1003 },
        { value: false, date: '2022-04-10T19:30:00', activityId: 1002 },
      ],
      Organizing_focus: [
        { value: ['groceries', 'bulk_foods'], date: '2022-07-22T18:05:00', activityId: 1003 },
        { value: ['groceries'], date: '2022-04-10T19:30:00', activityId: 1002 },
      ],
      Organizing_notes: [
        { value: 'Grand opening weekend.', date: '2025-03-10T09:00:00', activityId: 1016 },
        { value: 'First public meeting.', date: '2022-04-10T19:30:00', activityId: 1002 },
      ],
      Member_owner_count: [
        { value: 902, date: '2025-03-10T09:00:00', activityId: 1016 },
        { value: 838, date: '2025-01-25T15:00:00', activityId: 1014 },
        { value: 522, date: '2024-07-01T18:00:00', activityId: 1012 },
        { value: 262, date: '2023-09-27T19:00:00', activityId: 1008 },
        { value: 118, date: '2023-03-05T17:45:00', activityId: 1006 },
      ],
      Market_study_status: [
        { value: 'complete', date: '2023-09-27T19:00:00', activityId: 1008 },
        { value: 'commissioned', date: '2023-03-05T17:45:00', activityId: 1006 },
      ],
      Market_study_date: [{ value: '2023-09-01', date: '2023-09-27T19:00:00', activityId: 1008 }],
      Feasibility_study: [
        { value: { id: 12, file_name: 'market_study.pdf' }, date: '2023-09-27T19:00:00', activityId: 1008 },
        { value: { id: 11 }, date: '2023-03-05T17:45:00', activityId: 1006 },
      ],
      Equity_raised: [
        { value: 905250.5, date: '2025-01-25T15:00:00', activityId: 1014 },
        { value: 618000, date: '2024-10-12T10:30:00', activityId: 1013 },
        { value: 312500, date: '2024-07-01T18:00:00', activityId: 1012 },
      ],
      Percent_capitalized: [{ value: 97.5, date: '2025-01-25T15:00:00', activityId: 1014 }],
      Capital_campaign_launch_date: [{ value: '2024-06-15', date: '2024-07-01T18:00:00', activityId: 1012 }],
      Date_Opened: [
        { value: '2025-03-08', date: '2025-03-10T09:00:00', activityId: 1016 },
        { value: '2025-03-08', date: '2025-03-10T09:00:00', activityId: 1015 },
      ],
      Y1_Q1_Sales: [
        { value: 615400, date: '2026-04-10T12:00:00', activityId: 1021 },
        { value: 612000, date: '2026-04-10T12:00:00', activityId: 1020 },
      ],
    },
    options: {
      Organizing_focus: [
        { value: 'groceries', label: 'Full-service groceries' },
        { value: 'bulk_foods', label: 'Bulk foods' },
      ],
      Market_study_status: [
        { value: 'commissioned', label: 'Commissioned' },
        { value: 'complete', label: 'Complete' },
      ],
    },
    stages: [
      { rank: 0, value: 'inquiry', label: 'Inquiry' },
      { rank: 1, value: 'organizing', label: 'Organizing' },
      { rank: 2, value: 'feasibility', label: 'Feasibility' },
      { rank: 3, value: 'business_planning', label: 'Business planning' },
      { rank: 4, value: 'capitalization', label: 'Capitalization' },
      { rank: 5, value: 'open', label: 'Open' },
    ],
    sections: SECTIONS,
    organizationFacts: {
      title: 'Your co-op',
      fields: [
        {
          field: {
            name: 'Equity_share',
            type: 'currency',
            label: 'Equity share price',
            crmContactField: 'O.Share',
          },
          latest: 200,
          history: [],
        },
      ],
    },
    quarterlyMatrix: {
      sectionRank: 5,
      quarters: ['Q1', 'Q2', 'Q3', 'Q4'],
      rows: [
        {
          metric: 'Sales',
          label: 'Sales',
          type: 'currency',
          cells: [
            {
              field: Y1_Q1_SALES,
              latest: 615400,
              history: [
                { value: 615400, date: '2026-04-10T12:00:00', activityId: 1021 },
                { value: 612000, date: '2026-04-10T12:00:00', activityId: 1020 },
              ],
            },
            null,
            null,
            null,
          ],
        },
      ],
    },
  };
}
