import { STAGE_OPTIONS } from '../../fields/field-config';

/**
 * The demo organization's story (demo-data.ts): the files its owners uploaded and its check-ins,
 * oldest first, from organizing in 2022 to business planning for a second store in 2026.
 */

export type StageValue = (typeof STAGE_OPTIONS)[number]['value'];

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Small files whose leading bytes match their type, so previews and sniffers behave. */
export const DEMO_FILES = {
  certificate: {
    file_name: 'Riverbend_certificate_of_incorporation.pdf',
    mime_type: 'application/pdf',
    content: pdf('Certificate of Incorporation: Riverbend Food Cooperative, Inc.'),
  },
  marketScan: {
    file_name: 'preliminary_market_scan.png',
    mime_type: 'image/png',
    content: Buffer.from(PNG_1X1, 'base64'),
  },
  marketStudy: {
    file_name: 'Riverbend_market_study_2023.pdf',
    mime_type: 'application/pdf',
    content: pdf('Riverbend Food Co-op market study, September 2023'),
  },
  businessPlan: {
    file_name: 'Riverbend_business_plan_v3.docx',
    mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    content: zip('word/document.xml'),
  },
  proForma: {
    file_name: 'second_store_pro_forma.xlsx',
    mime_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    content: zip('xl/workbook.xml'),
  },
  hilltopCertificate: {
    file_name: 'hilltop_certificate.jpg',
    mime_type: 'image/jpeg',
    content: Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex'),
  },
} as const;
export type DemoFile = keyof typeof DEMO_FILES;

function pdf(title: string): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Title (${title}) >> endobj\ntrailer << /Info 1 0 R >>\n%%EOF\n`,
    'latin1',
  );
}

function zip(entry: string): Buffer {
  const name = Buffer.from(entry, 'latin1');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name]);
}

export type DemoValue = string | number | boolean | string[] | { file: DemoFile };

export interface DemoCheckIn {
  at: string;
  by: 'owner' | 'staff';
  subject?: string;
  stage?: StageValue;
  /** Keyed by form-side field name. */
  values?: Record<string, DemoValue>;
}

const quarter = (q: number, sales: number, members: number, transactions: number, margin: number) => ({
  [`Y1_Q${q}_Sales`]: sales,
  [`Y1_Q${q}_Members`]: members,
  [`Y1_Q${q}_Transactions`]: transactions,
  [`Y1_Q${q}_Margin`]: margin,
});

/** The demo organization's history, oldest first. */
export const DEMO_CHECK_INS: readonly DemoCheckIn[] = [
  { at: '2022-02-14 10:00:00', by: 'staff', stage: 'organizing', subject: 'Stage set: Organizing' },
  {
    at: '2022-04-10 19:30:00',
    by: 'owner',
    values: {
      Steering_committee_size: 5,
      Organizing_meeting_date: '2022-03-19',
      Mission_statement_adopted: false,
      Organizing_focus: ['groceries', 'local_produce'],
      Interest_list_size: 42,
      Organizing_notes: 'First public meeting at the library drew about sixty neighbours.',
    },
  },
  {
    at: '2022-07-22 18:05:00',
    by: 'owner',
    values: {
      Steering_committee_size: 7,
      Mission_statement_adopted: true,
      Organizing_focus: ['groceries', 'local_produce', 'bulk_foods'],
      Interest_list_size: 96,
      Organizing_notes: 'Mission statement adopted at the July meeting. Tabling at the farmers market.',
    },
  },
  {
    at: '2022-10-30 20:10:00',
    by: 'owner',
    values: { Steering_committee_size: 9, Interest_list_size: 151 },
  },
  { at: '2023-01-16 09:00:00', by: 'staff', stage: 'feasibility', subject: 'Stage set: Feasibility' },
  {
    at: '2023-03-05 17:45:00',
    by: 'owner',
    values: {
      Member_owner_count: 118,
      Market_study_status: 'commissioned',
      Interest_list_size: 214,
      Projected_annual_sales: 1800000,
    },
  },
  {
    at: '2023-06-18 16:20:00',
    by: 'owner',
    values: {
      Member_owner_count: 187,
      Market_study_status: 'in_progress',
      Feasibility_study: { file: 'marketScan' },
      Projected_annual_sales: 2100000,
    },
  },
  {
    at: '2023-09-27 19:00:00',
    by: 'owner',
    values: {
      Member_owner_count: 262,
      Market_study_status: 'complete',
      Market_study_date: '2023-09-01',
      Feasibility_study: { file: 'marketStudy' },
      Projected_annual_sales: 2450000,
    },
  },
  {
    at: '2023-11-08 09:15:00',
    by: 'staff',
    stage: 'business_planning',
    subject: 'Stage set: Business planning',
  },
  {
    at: '2024-01-20 11:00:00',
    by: 'owner',
    values: { Member_owner_count: 341, Business_plan_done: false, Site_status: '1', Store_size_sqft: 6000 },
  },
  {
    at: '2024-04-02 20:40:00',
    by: 'owner',
    values: {
      Member_owner_count: 415,
      Business_plan_done: true,
      Business_plan_date: '2024-03-28',
      Business_plan: { file: 'businessPlan' },
      Site_status: '3',
      Store_size_sqft: 7500,
    },
  },
  { at: '2024-05-15 09:30:00', by: 'staff', stage: 'capitalization', subject: 'Stage set: Capitalization' },
  {
    at: '2024-07-01 18:00:00',
    by: 'owner',
    values: {
      Member_owner_count: 522,
      Equity_goal: 900000,
      Equity_raised: 312500,
      Percent_capitalized: 34.7,
      Lender_commitments: 450000,
      Lender_types: ['cdfi', 'member_loans'],
      Capital_campaign_launch_date: '2024-06-15',
    },
  },
  {
    at: '2024-10-12 10:30:00',
    by: 'owner',
    values: {
      Member_owner_count: 694,
      Equity_raised: 618000,
      Percent_capitalized: 66.1,
      Lender_commitments: 1050000,
      Lender_types: ['cdfi', 'member_loans', 'bank'],
    },
  },
  {
    at: '2025-01-25 15:00:00',
    by: 'owner',
    values: {
      Member_owner_count: 838,
      Equity_raised: 905250.5,
      Percent_capitalized: 97.5,
      Lender_commitments: 1400000,
      Lender_types: ['cdfi', 'member_loans', 'bank', 'coop_lender'],
      Site_status: '4',
    },
  },
  // Staff and owner recorded the opening at the same moment: lists order them by id.
  {
    at: '2025-03-10 09:00:00',
    by: 'staff',
    stage: 'open',
    subject: 'Stage set: Open',
    values: { Date_Opened: '2025-03-08' },
  },
  {
    at: '2025-03-10 09:00:00',
    by: 'owner',
    values: {
      Date_Opened: '2025-03-08',
      Member_owner_count: 902,
      Organizing_notes: 'Grand opening weekend: 1,900 shoppers and 60 new member-owners.',
    },
  },
  { at: '2025-07-08 12:00:00', by: 'owner', values: quarter(1, 612000, 955, 24310, 31.2) },
  { at: '2025-10-06 12:00:00', by: 'owner', values: quarter(2, 688500, 1012, 26840, 32.4) },
  { at: '2026-01-09 12:00:00', by: 'owner', values: quarter(3, 731200, 1068, 28105, 33.1) },
  {
    at: '2026-04-10 12:00:00',
    by: 'owner',
    values: {
      ...quarter(1, 615400, 955, 24310, 31.2),
      ...quarter(2, 688500, 1012, 26840, 32.4),
      ...quarter(3, 731200, 1068, 28105, 33.1),
      ...quarter(4, 774900, 1121, 29870, 33.8),
      Organizing_notes: 'First-year report: Q1 sales restated after the audit.',
    },
  },
  // Two staff entries at the same moment: the later id (Business planning) is the current stage.
  { at: '2026-05-04 09:30:00', by: 'staff', stage: 'open', subject: 'Stage review: first store open' },
  {
    at: '2026-05-04 09:30:00',
    by: 'staff',
    stage: 'business_planning',
    subject: 'Second store project: back to Business planning',
  },
  {
    at: '2026-07-15 18:30:00',
    by: 'owner',
    values: {
      Business_plan_done: false,
      Site_status: '2',
      Store_size_sqft: 4200,
      Organizing_notes: 'Second store: three sites on the shortlist.',
    },
  },
  // A double submission: same moment, the later id holds the corrected note.
  {
    at: '2026-10-02 14:00:00',
    by: 'owner',
    values: {
      Organizing_notes: 'Draft pro forma for the second store.',
      Business_plan: { file: 'proForma' },
    },
  },
  {
    at: '2026-10-02 14:00:00',
    by: 'owner',
    values: {
      Organizing_notes: 'Draft pro forma for the second store (corrected figures).',
      Projected_annual_sales: 1350000,
    },
  },
  // The owner checked in with nothing new.
  { at: '2026-11-14 08:45:00', by: 'owner' },
];

export const DEMO_CHECK_IN_COUNT = DEMO_CHECK_INS.length;
