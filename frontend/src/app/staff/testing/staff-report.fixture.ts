import type { FieldConfig, FieldReport, StaffReportPayload } from '@checkin/contract';

const report = (field: FieldConfig, latest: FieldReport['latest'], history: FieldReport['history'] = []) => ({
  field,
  latest,
  history,
});

const quarterCell = (quarter: number, latest: number, history: number[]): FieldReport =>
  report(
    { name: `Y1_Q${quarter}_Sales`, type: 'currency', label: `Year 1, Q${quarter}: sales` },
    latest,
    history.map((value, index) => ({
      value,
      date: `2026-0${quarter}-1${index}T12:00:00`,
      activityId: 500 + quarter * 10 + index,
    })),
  );

/** A small staff report: an organization file, a file history, a matrix, an empty field. */
export function staffReportFixture(overrides: Partial<StaffReportPayload> = {}): StaffReportPayload {
  return {
    organization: { id: 101, name: 'Riverbend Food Co-op' },
    valueFormat: { currency: 'USD', locale: 'en-US' },
    currentStage: { rank: 3, value: 'business_planning', label: 'Business planning' },
    stages: [
      { rank: 0, value: 'inquiry', label: 'Inquiry' },
      { rank: 3, value: 'business_planning', label: 'Business planning' },
    ],
    sections: [
      {
        key: 'stage-0',
        rank: 0,
        title: 'Organization',
        fields: [
          report(
            { name: 'Certificate_of_Incorporation', type: 'file', label: 'Certificate of incorporation' },
            {
              id: 1,
              file_name: 'certificate.pdf',
              url: 'https://crm.example.org/civicrm/file?reset=1&id=1&fcs=s1',
            },
          ),
          report({ name: 'Equity_share', type: 'currency', label: 'Equity share price' }, 200),
          report({ name: 'Date_Incorporated', type: 'date', label: 'Date incorporated' }, null),
        ],
      },
      {
        key: 'stage-2',
        rank: 2,
        title: 'Feasibility',
        fields: [
          report(
            { name: 'Feasibility_study', type: 'file', label: 'Market or feasibility study' },
            { id: 3, file_name: 'study.pdf' },
            [
              { value: { id: 3, file_name: 'study.pdf' }, date: '2023-09-27T19:00:00', activityId: 1008 },
              { value: { id: 2 }, date: '2023-06-18T16:20:00', activityId: 1007 },
            ],
          ),
          report(
            { name: 'Member_owner_count', type: 'number', label: 'Member-owners', unit: 'members' },
            262,
            [{ value: 262, date: '2023-09-27T19:00:00', activityId: 1008 }],
          ),
        ],
      },
      {
        key: 'stage-5',
        rank: 5,
        title: 'Open',
        fields: [report({ name: 'Date_Opened', type: 'date', label: 'Date opened' }, null)],
        matrix: {
          sectionRank: 5,
          quarters: ['Q1', 'Q2', 'Q3', 'Q4'],
          rows: [
            {
              metric: 'Sales',
              label: 'Sales',
              type: 'currency',
              cells: [quarterCell(1, 615400, [615400, 612000]), quarterCell(2, 688500, [688500]), null, null],
            },
          ],
        },
      },
    ],
    submissions: [
      {
        id: 1008,
        date: '2023-09-27T19:00:00',
        stage: null,
        fieldCount: 2,
        subject: 'Organizing check-in',
        recordedBy: 'Marisol Vance',
      },
      {
        id: 1005,
        date: '2023-01-16T09:00:00',
        stage: 3,
        fieldCount: 0,
        subject: 'Stage set',
        recordedBy: 'Sam Whitaker',
      },
    ],
    options: {},
    crmBaseUrl: 'https://crm.example.org',
    fileRouteTemplate: null,
    fileUrlLookup: 'ok',
    ...overrides,
  };
}
