import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_STATUS_NAME,
  ACTIVITY_TYPE_NAME,
  CONTACT_CUSTOM_GROUP,
  FORM_CONTACT_RELATIONSHIP,
  SUBMISSION_ID_FIELD,
  CONTACT_STAGE_FIELD,
} from '../crm-names';
import {
  ALL_FIELDS,
  CONTACT_STAGE_OPTIONS,
  customFieldSpec,
  FIELD_OPTIONS,
  FIELDS_BY_NAME,
  STAGE_OPTIONS,
} from '../../fields/field-config';
import { CiviCrmModel, type CiviCrmModelOptions } from '@checkin/civicrm-fake';

/**
 * The deployment's CRM configuration (custom groups and fields derived from field-config.ts,
 * the stage option group, the 'Primary Contact' relationship type) and a demo story: a food
 * co-op that organized in 2022, studied feasibility in 2023, planned and raised capital in
 * 2024, opened in March 2025 and in 2026 went back to business planning for a second store.
 * Everything is fictional. The ids are constants because start-up logs and tests print links.
 */

/**
 * The demo person's checksum in CiviCRM's shape, the one the emulator (npm run demo, the tests)
 * accepts; stub mode also takes the short `STUB_DEMO_CHECKSUM` (docs/decisions.md, "Stub mode").
 */
export const DEMO_CHECKSUM = 'fe01ce2a7fbac8fafaed7c982a04e229_1767225600_inf';
/** The checksum of stub mode's printed demo links. */
export const STUB_DEMO_CHECKSUM = 'demo';

export const STAFF_CONTACT_ID = 100;
export const DEMO_ORG_ID = 101;
export const DEMO_PERSON_ID = 102;
export const DEMO_ORG_NAME = 'Riverbend Food Co-op';
export const DEMO_PERSON = {
  first_name: 'Marisol',
  last_name: 'Vance',
  email: 'marisol.vance@example.org',
} as const;

/** Tied to its own organization only: a valid link for this person must not reach the demo org. */
export const OTHER_PERSON_ID = 104;
export const OTHER_ORG_ID = 103;
export const OTHER_PERSON_CHECKSUM = '001683a8bf32b3427254b704d6c6ee53_1767225600_inf';

/** Primary Contact of two organizations: without orgId the service must ask which. */
export const MULTI_ORG_PERSON_ID = 105;
export const MULTI_ORG_IDS = [106, 107] as const;
export const MULTI_ORG_PERSON_CHECKSUM = '2586d96efc12d84b0b9e7de8f882922e_1767225600_inf';

/** Only an inactive (ended) Primary Contact relationship. */
export const INACTIVE_PERSON_ID = 108;
export const INACTIVE_ORG_ID = 109;
export const INACTIVE_PERSON_CHECKSUM = '06f2e715389cd372859791184394f091_1767225600_inf';

/** Relationship entered backwards (organization on side A), for the health diagnostics. */
export const REVERSED_PERSON_ID = 110;
export const REVERSED_ORG_ID = 111;
export const REVERSED_PERSON_CHECKSUM = '7c4a68bd6b2d04b974657b3bbc4a6748_1767225600_inf';

/** Stock CiviCRM's domain organization: exists, tied to nobody. */
export const DEFAULT_ORG_ID = 1;

export const CHECK_IN_ACTIVITY_TYPE_VALUE = '57';
export const STAGE_OPTION_GROUP = 'check_in_data_organizing_stage';
export const NEAR_MATCH_RELATIONSHIP = 'Primary Contact for';

/** Stage options by rank (rank = position by weight), from the field configuration. */
export const DEMO_STAGES = STAGE_OPTIONS;
/** The demo organization's derived stage: the newest stage-bearing activity says 3. */
export const DEMO_CURRENT_STAGE = {
  rank: 3,
  value: 'business_planning',
  label: 'Business planning',
} as const;

type StageValue = (typeof DEMO_STAGES)[number]['value'];

export interface DemoOption {
  value: string;
  label: string;
  name?: string;
}

/** Options of every select and multiselect field, by form-side name, from the field configuration. */
export const DEMO_OPTIONS: Readonly<Record<string, readonly DemoOption[]>> = FIELD_OPTIONS;

/** Options for a select field added to the configuration before the demo knows it. */
const FALLBACK_OPTIONS: readonly DemoOption[] = [
  { value: 'option_1', label: 'Option 1' },
  { value: 'option_2', label: 'Option 2' },
  { value: 'option_3', label: 'Option 3' },
];

// ---------------------------------------------------------------------------------------------
// Schema

type Row = Record<string, unknown>;

function create(model: CiviCrmModel, entity: string, values: Row): number {
  const row = model.api4(entity, 'create', { values })[0];
  const id = row?.['id'];
  if (typeof id !== 'number') throw new Error(`Seeding ${entity} returned no id`);
  return id;
}

function createOptionGroup(
  model: CiviCrmModel,
  name: string,
  title: string,
  options: ReadonlyArray<DemoOption & { weight?: number }>,
): number {
  const groupId = create(model, 'OptionGroup', { name, title });
  options.forEach((option, index) => {
    create(model, 'OptionValue', {
      option_group_id: groupId,
      value: option.value,
      label: option.label,
      name: option.name ?? option.value,
      weight: option.weight ?? index + 1,
    });
  });
  return groupId;
}

export { customFieldSpec };

/**
 * The deployment's configuration on top of a fresh CRM: the check-in activity type, the
 * 'Primary Contact' relationship type (and a near match), and one custom field for every
 * configured field, plus Stage, Submission_ID and the staff-only organization Stage.
 */
export function seedSchema(model: CiviCrmModel): void {
  create(model, 'OptionValue', {
    'option_group_id:name': 'activity_type',
    value: CHECK_IN_ACTIVITY_TYPE_VALUE,
    name: ACTIVITY_TYPE_NAME,
    label: ACTIVITY_TYPE_NAME,
  });
  create(model, 'RelationshipType', {
    name_a_b: FORM_CONTACT_RELATIONSHIP,
    label_a_b: FORM_CONTACT_RELATIONSHIP,
    name_b_a: 'Has Primary Contact',
    label_b_a: 'Has Primary Contact',
    contact_type_a: 'Individual',
    contact_type_b: 'Organization',
    description: 'The person who fills in the organizing check-in for the co-op.',
  });
  create(model, 'RelationshipType', {
    name_a_b: NEAR_MATCH_RELATIONSHIP,
    label_a_b: NEAR_MATCH_RELATIONSHIP,
    name_b_a: 'Primary Contact is',
    label_b_a: 'Primary Contact is',
    contact_type_a: 'Individual',
    contact_type_b: 'Organization',
    description: 'Older type from a previous import; not the one the check-in uses.',
  });

  const groups = new Map<string, number>([
    [
      ACTIVITY_CUSTOM_GROUP,
      create(model, 'CustomGroup', {
        name: ACTIVITY_CUSTOM_GROUP,
        title: 'Check-in data (organizing)',
        extends: 'Activity',
      }),
    ],
    [
      CONTACT_CUSTOM_GROUP,
      create(model, 'CustomGroup', {
        name: CONTACT_CUSTOM_GROUP,
        title: 'Food Co-op Organizing',
        extends: 'Organization',
      }),
    ],
  ]);

  // Inserted out of rank order: rank comes from weight, never from ids or insertion.
  const byRank = [5, 0, 4, 1, 3, 2].map((rank) => DEMO_STAGES[rank]).filter((stage) => stage !== undefined);
  const stageGroup = createOptionGroup(
    model,
    STAGE_OPTION_GROUP,
    'Check-in stage',
    byRank.map((stage) => ({ value: stage.value, label: stage.label, weight: (stage.rank + 1) * 10 })),
  );
  const stageField = ACTIVITY_STAGE_FIELD.split('.')[1] ?? 'Stage';
  createCustomField(model, groups, ACTIVITY_CUSTOM_GROUP, stageField, 'Stage', {
    data_type: 'String',
    html_type: 'Select',
    option_group_id: stageGroup,
  });
  createCustomField(
    model,
    groups,
    ACTIVITY_CUSTOM_GROUP,
    SUBMISSION_ID_FIELD.split('.')[1] ?? 'Submission_ID',
    'Submission ID',
    {
      data_type: 'String',
      html_type: 'Text',
    },
  );
  // Which activity-bound answers a check-in cleared (check-ins/cleared-answers.ts).
  createCustomField(model, groups, ACTIVITY_CUSTOM_GROUP, 'Cleared_fields', 'Cleared answers', {
    data_type: 'Memo',
    html_type: 'TextArea',
  });

  for (const field of ALL_FIELDS) {
    const crmName = field.crmField ?? field.crmContactField;
    if (!crmName) continue;
    const [group = '', name = ''] = crmName.split('.');
    if (!groups.has(group)) {
      const extendsWhat = field.crmField ? 'Activity' : 'Organization';
      groups.set(group, create(model, 'CustomGroup', { name: group, title: group, extends: extendsWhat }));
    }
    const spec = customFieldSpec(field);
    const options =
      field.type === 'select' || field.type === 'multiselect'
        ? {
            option_group_id: createOptionGroup(
              model,
              `${name.toLowerCase()}_options`,
              field.label,
              DEMO_OPTIONS[field.name] ?? FALLBACK_OPTIONS,
            ),
          }
        : {};
    createCustomField(model, groups, group, name, field.label, { ...spec, ...options });
  }

  createCustomField(model, groups, CONTACT_CUSTOM_GROUP, 'Stage', 'Stage (staff list views)', {
    data_type: 'String',
    html_type: 'Select',
    option_group_id: createOptionGroup(model, 'food_co_op_stage', 'Food co-op stage', CONTACT_STAGE_OPTIONS),
  });
}

function createCustomField(
  model: CiviCrmModel,
  groups: Map<string, number>,
  group: string,
  name: string,
  label: string,
  spec: Row,
): void {
  create(model, 'CustomField', { custom_group_id: groups.get(group), name, label, ...spec });
}

// ---------------------------------------------------------------------------------------------
// Files

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Small files whose leading bytes match their type, so previews and sniffers behave. */
const DEMO_FILES = {
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
type DemoFile = keyof typeof DEMO_FILES;

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

// ---------------------------------------------------------------------------------------------
// Contacts and activities

type DemoValue = string | number | boolean | string[] | { file: DemoFile };

interface DemoCheckIn {
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
const DEMO_CHECK_INS: readonly DemoCheckIn[] = [
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

interface SeedContext {
  model: CiviCrmModel;
  files: Map<DemoFile, number>;
  primaryContactTypeId: number;
  submissions: number;
}

function person(ctx: SeedContext, id: number, first: string, last: string, email: string): void {
  ctx.model.setNextId('Contact', id);
  create(ctx.model, 'Contact', {
    contact_type: 'Individual',
    first_name: first,
    last_name: last,
    'email_primary.email': email,
  });
}

function organization(ctx: SeedContext, id: number, name: string, custom: Row = {}): void {
  ctx.model.setNextId('Contact', id);
  create(ctx.model, 'Contact', { contact_type: 'Organization', organization_name: name, ...custom });
}

function relate(ctx: SeedContext, a: number, b: number, extra: Row = {}): void {
  create(ctx.model, 'Relationship', {
    contact_id_a: a,
    contact_id_b: b,
    relationship_type_id: ctx.primaryContactTypeId,
    start_date: '2022-01-15',
    ...extra,
  });
}

function fileId(ctx: SeedContext, key: DemoFile): number {
  const known = ctx.files.get(key);
  if (known !== undefined) return known;
  const file = DEMO_FILES[key];
  const id = create(ctx.model, 'File', {
    file_name: file.file_name,
    mime_type: file.mime_type,
    content: file.content.toString('base64'),
    upload_date: '2022-01-01 00:00:00',
  });
  ctx.files.set(key, id);
  return id;
}

/** Form-side values to CRM custom values; names no longer configured are skipped. */
function crmValues(ctx: SeedContext, values: Record<string, DemoValue>): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(values)) {
    const field = FIELDS_BY_NAME.get(name);
    const crmName = field?.crmField ?? field?.crmContactField;
    if (!field || !crmName) continue;
    out[crmName] = typeof value === 'object' && !Array.isArray(value) ? fileId(ctx, value.file) : value;
  }
  return out;
}

function checkIn(
  ctx: SeedContext,
  orgId: number,
  ownerId: number,
  entry: DemoCheckIn,
  extra: Row = {},
): number {
  const fromStaff = entry.by === 'staff';
  ctx.submissions += fromStaff ? 0 : 1;
  return create(ctx.model, 'Activity', {
    'activity_type_id:name': ACTIVITY_TYPE_NAME,
    'status_id:name': ACTIVITY_STATUS_NAME,
    subject: entry.subject ?? 'Organizing check-in',
    activity_date_time: entry.at,
    source_contact_id: fromStaff ? STAFF_CONTACT_ID : ownerId,
    target_contact_id: [orgId],
    ...(entry.stage ? { [ACTIVITY_STAGE_FIELD]: entry.stage } : {}),
    ...(fromStaff
      ? {}
      : { [SUBMISSION_ID_FIELD]: `00000000-0000-4000-8000-${String(ctx.submissions).padStart(12, '0')}` }),
    ...crmValues(ctx, entry.values ?? {}),
    ...extra,
  });
}

function seedPeople(ctx: SeedContext): void {
  person(ctx, STAFF_CONTACT_ID, 'Sam', 'Whitaker', 'sam.whitaker@example.org');
  organization(ctx, DEMO_ORG_ID, DEMO_ORG_NAME, {
    ...crmValues(ctx, {
      Date_Incorporated: '2022-06-01',
      Name_on_Incorporation_Certificate: 'Riverbend Food Cooperative, Inc.',
      Certificate_of_Incorporation: { file: 'certificate' },
      Equity_share: 200,
    }),
    [CONTACT_STAGE_FIELD]: 'open',
  });
  person(ctx, DEMO_PERSON_ID, DEMO_PERSON.first_name, DEMO_PERSON.last_name, DEMO_PERSON.email);
  organization(ctx, OTHER_ORG_ID, 'Hilltop Grocery Cooperative', {
    ...crmValues(ctx, {
      Date_Incorporated: '2021-09-14',
      Certificate_of_Incorporation: { file: 'hilltopCertificate' },
      Equity_share: 150,
    }),
    [CONTACT_STAGE_FIELD]: 'organizing',
  });
  person(ctx, OTHER_PERSON_ID, 'Theo', 'Lindqvist', 'theo.lindqvist@example.org');
  person(ctx, MULTI_ORG_PERSON_ID, 'Priya', 'Raman', 'priya.raman@example.org');
  organization(ctx, MULTI_ORG_IDS[0], 'Northside Market Co-op');
  organization(ctx, MULTI_ORG_IDS[1], 'Lakeshore Community Grocery');
  person(ctx, INACTIVE_PERSON_ID, 'Jonah', 'Abernathy', 'jonah.abernathy@example.org');
  organization(ctx, INACTIVE_ORG_ID, 'Old Mill Food Co-op');
  person(ctx, REVERSED_PERSON_ID, 'Grace', 'Okonkwo', 'grace.okonkwo@example.org');
  organization(ctx, REVERSED_ORG_ID, 'Valley Harvest Co-op');
}

function seedRelationships(ctx: SeedContext): void {
  relate(ctx, DEMO_PERSON_ID, DEMO_ORG_ID);
  // A stock type between the same two contacts: only 'Primary Contact' grants access.
  create(ctx.model, 'Relationship', {
    contact_id_a: DEMO_PERSON_ID,
    contact_id_b: DEMO_ORG_ID,
    'relationship_type_id:name': 'Employee of',
  });
  relate(ctx, OTHER_PERSON_ID, OTHER_ORG_ID);
  relate(ctx, MULTI_ORG_PERSON_ID, MULTI_ORG_IDS[0]);
  relate(ctx, MULTI_ORG_PERSON_ID, MULTI_ORG_IDS[1]);
  relate(ctx, INACTIVE_PERSON_ID, INACTIVE_ORG_ID, { is_active: false, end_date: '2024-06-30' });
  // Entered backwards: the organization on side A of a type whose side A is an Individual.
  relate(ctx, REVERSED_ORG_ID, REVERSED_PERSON_ID);
}

function seedActivities(ctx: SeedContext): void {
  ctx.model.setNextId('Activity', 1001);
  for (const entry of DEMO_CHECK_INS) checkIn(ctx, DEMO_ORG_ID, DEMO_PERSON_ID, entry);
  // Noise the queries must filter out: another activity type, and a deleted check-in.
  create(ctx.model, 'Activity', {
    'activity_type_id:name': 'Meeting',
    subject: 'Site visit with the lender',
    activity_date_time: '2024-02-01 14:00:00',
    source_contact_id: STAFF_CONTACT_ID,
    target_contact_id: [DEMO_ORG_ID, DEMO_PERSON_ID],
  });
  checkIn(
    ctx,
    DEMO_ORG_ID,
    DEMO_PERSON_ID,
    { at: '2026-11-20 10:00:00', by: 'staff', stage: 'open', subject: 'Entered by mistake' },
    { is_deleted: true },
  );

  const other = (at: string, by: DemoCheckIn['by'], values: Record<string, DemoValue>, stage?: StageValue) =>
    checkIn(ctx, OTHER_ORG_ID, OTHER_PERSON_ID, { at, by, values, ...(stage ? { stage } : {}) });
  other('2025-02-03 10:00:00', 'staff', {}, 'organizing');
  other('2025-05-19 19:00:00', 'owner', {
    Steering_committee_size: 6,
    Interest_list_size: 75,
    Organizing_notes: 'Hilltop: first potluck.',
  });
  other('2025-09-22 19:00:00', 'owner', { Steering_committee_size: 8, Interest_list_size: 130 });
  checkIn(ctx, MULTI_ORG_IDS[0], MULTI_ORG_PERSON_ID, {
    at: '2025-04-01 10:00:00',
    by: 'staff',
    stage: 'feasibility',
    values: {},
  });
}

/** Everything: the deployment's configuration plus the demo contacts, files and history. */
export function seedDemoData(model: CiviCrmModel, stubChecksum?: string): void {
  seedSchema(model);
  const primaryContactTypeId = model.api4('RelationshipType', 'get', {
    where: [['name_a_b', '=', FORM_CONTACT_RELATIONSHIP]],
  })[0]?.['id'];
  if (typeof primaryContactTypeId !== 'number') throw new Error('Primary Contact type missing');
  const ctx: SeedContext = { model, files: new Map(), primaryContactTypeId, submissions: 0 };
  seedPeople(ctx);
  seedRelationships(ctx);
  seedActivities(ctx);
  // Fixed checksums, in CiviCRM's shape, so tests and printed links can name them; stub mode's
  // short `demo` on top (docs/decisions.md, "Stub mode").
  for (const checksum of [DEMO_CHECKSUM, ...(stubChecksum ? [stubChecksum] : [])]) {
    model.setFixedChecksum(DEMO_PERSON_ID, checksum);
    model.setFixedChecksum(DEMO_ORG_ID, checksum);
  }
  model.setFixedChecksum(OTHER_PERSON_ID, OTHER_PERSON_CHECKSUM);
  model.setFixedChecksum(MULTI_ORG_PERSON_ID, MULTI_ORG_PERSON_CHECKSUM);
  model.setFixedChecksum(INACTIVE_PERSON_ID, INACTIVE_PERSON_CHECKSUM);
  model.setFixedChecksum(REVERSED_PERSON_ID, REVERSED_PERSON_CHECKSUM);
}

/**
 * A model holding the demo data; `reset()` returns to it. `stubChecksum`: a checksum the demo
 * person and organization accept besides DEMO_CHECKSUM (stub mode passes STUB_DEMO_CHECKSUM).
 */
export function createDemoModel(
  options: Omit<CiviCrmModelOptions, 'seed'> & { stubChecksum?: string } = {},
): CiviCrmModel {
  const { stubChecksum, ...modelOptions } = options;
  return new CiviCrmModel({ ...modelOptions, seed: (model) => seedDemoData(model, stubChecksum) });
}
