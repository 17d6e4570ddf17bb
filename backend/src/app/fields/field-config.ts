import {
  CURRENT_STAGE_FIELD_NAME,
  type FieldConfig,
  type OptionItem,
  type SectionConfig,
  type StageRank,
} from '@checkin/contract';
import { ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP } from '../crm/crm-names';

/**
 * The single source of truth for the form (docs/decisions.md, "Field list"): sections, field types, CRM names and
 * the upload allowlist. The front end renders what the API sends, so adding a field is one
 * edit here (and the matching custom field in the CRM).
 */

const activity = (field: string) => `${ACTIVITY_CUSTOM_GROUP}.${field}`;
const organization = (field: string) => `${CONTACT_CUSTOM_GROUP}.${field}`;

/** Stage 5 matrix: Y1_Q<n>_<metric>, shown to staff as metrics × quarters. */
export const MATRIX_METRICS = [
  { key: 'Sales', label: 'Sales', type: 'currency' },
  { key: 'Members', label: 'Member-owners', type: 'number' },
  { key: 'Transactions', label: 'Transactions', type: 'number' },
  { key: 'Margin', label: 'Gross margin', type: 'percent' },
] as const satisfies ReadonlyArray<{ key: string; label: string; type: FieldConfig['type'] }>;

export const MATRIX_FIELD_PATTERN = /^Y1_Q([1-4])_([A-Za-z]+)$/;

const organizationSection: SectionConfig = {
  rank: 0,
  title: 'Your co-op',
  description: 'Who is filling this in, and the facts about the organization itself.',
  fields: [
    { name: 'first_name', type: 'text', label: 'First name', readOnly: true },
    { name: 'last_name', type: 'text', label: 'Last name', readOnly: true },
    { name: 'email', type: 'text', label: 'Email', readOnly: true },
    {
      name: CURRENT_STAGE_FIELD_NAME,
      type: 'readonly',
      label: 'Current stage',
      help: 'Set by staff when the co-op reaches a new stage.',
      readOnly: true,
    },
    {
      name: 'Date_Incorporated',
      type: 'date',
      label: 'Date incorporated',
      crmContactField: organization('Date_Incorporated'),
    },
    {
      name: 'Name_on_Incorporation_Certificate',
      type: 'text',
      label: 'Name on incorporation certificate',
      crmContactField: organization('Name_on_Incorporation_Certificate'),
      maxLength: 255,
    },
    {
      name: 'Certificate_of_Incorporation',
      type: 'file',
      label: 'Certificate of incorporation',
      help: 'A scan or PDF of the certificate.',
      crmContactField: organization('Certificate_of_Incorporation'),
    },
    {
      name: 'Equity_share',
      type: 'currency',
      label: 'Equity share price',
      help: 'What one member-owner share costs.',
      crmContactField: organization('Equity_share'),
      min: 0,
    },
  ],
};

const stageSections: SectionConfig[] = [
  {
    rank: 1,
    title: 'Organizing',
    description: 'Building the steering committee and the first circle of supporters.',
    fields: [
      {
        name: 'Steering_committee_size',
        type: 'number',
        label: 'Steering committee size',
        unit: 'people',
        crmField: activity('Steering_committee_size'),
        min: 0,
        max: 100,
      },
      {
        name: 'Organizing_meeting_date',
        type: 'date',
        label: 'Date of the first public meeting',
        crmField: activity('Organizing_meeting_date'),
      },
      {
        name: 'Mission_statement_adopted',
        type: 'boolean',
        label: 'Mission statement adopted',
        crmField: activity('Mission_statement_adopted'),
      },
      {
        name: 'Organizing_focus',
        type: 'multiselect',
        label: 'What the co-op will offer',
        help: 'Pick all that apply.',
        crmField: activity('Organizing_focus'),
      },
      {
        name: 'Interest_list_size',
        type: 'number',
        label: 'People on the interest list',
        unit: 'people',
        crmField: activity('Interest_list_size'),
        min: 0,
      },
      {
        name: 'Organizing_notes',
        type: 'text',
        label: 'What happened since the last check-in',
        crmField: activity('Organizing_notes'),
        maxLength: 2000,
        neverPrefilled: true,
      },
    ],
  },
  {
    rank: 2,
    title: 'Feasibility',
    description: 'Is there a market and a site for the store?',
    fields: [
      {
        name: 'Member_owner_count',
        type: 'number',
        label: 'Member-owners',
        unit: 'members',
        crmField: activity('Member_owner_count'),
        headline: { order: 1 },
        min: 0,
      },
      {
        name: 'Market_study_status',
        type: 'select',
        label: 'Market study',
        crmField: activity('Market_study_status'),
      },
      {
        name: 'Market_study_date',
        type: 'date',
        label: 'Market study completed on',
        crmField: activity('Market_study_date'),
      },
      {
        name: 'Feasibility_study',
        type: 'file',
        label: 'Market or feasibility study',
        crmField: activity('Feasibility_study'),
      },
      {
        name: 'Projected_annual_sales',
        type: 'currency',
        label: 'Projected first-year sales',
        crmField: activity('Projected_annual_sales'),
        headline: { order: 4 },
        min: 0,
      },
    ],
  },
  {
    rank: 3,
    title: 'Business planning',
    description: 'The plan lenders and member-owners will read.',
    fields: [
      {
        name: 'Business_plan_done',
        type: 'boolean',
        label: 'Business plan done',
        crmField: activity('Business_plan_done'),
      },
      {
        name: 'Business_plan_date',
        type: 'date',
        label: 'Business plan finished on',
        crmField: activity('Business_plan_date'),
      },
      {
        name: 'Business_plan',
        type: 'file',
        label: 'Business plan',
        crmField: activity('Business_plan'),
      },
      {
        name: 'Site_status',
        type: 'select',
        label: 'Store site',
        crmField: activity('Site_status'),
      },
      {
        name: 'Store_size_sqft',
        type: 'number',
        label: 'Planned sales floor',
        unit: 'sq ft',
        crmField: activity('Store_size_sqft'),
        min: 0,
      },
    ],
  },
  {
    rank: 4,
    title: 'Capitalization',
    description: 'Raising member equity and lender commitments.',
    fields: [
      {
        name: 'Equity_goal',
        type: 'currency',
        label: 'Member equity goal',
        crmField: activity('Equity_goal'),
        min: 0,
      },
      {
        name: 'Equity_raised',
        type: 'currency',
        label: 'Member equity raised',
        crmField: activity('Equity_raised'),
        headline: { order: 2, goalField: 'Equity_goal' },
        min: 0,
      },
      {
        name: 'Percent_capitalized',
        type: 'percent',
        label: 'Percent capitalized',
        help: 'Share of the total project budget committed so far.',
        crmField: activity('Percent_capitalized'),
        headline: { order: 3 },
        min: 0,
        max: 100,
      },
      {
        name: 'Lender_commitments',
        type: 'currency',
        label: 'Lender commitments',
        crmField: activity('Lender_commitments'),
        min: 0,
      },
      {
        name: 'Lender_types',
        type: 'multiselect',
        label: 'Lenders committed',
        crmField: activity('Lender_types'),
      },
      {
        name: 'Capital_campaign_launch_date',
        type: 'date',
        label: 'Capital campaign launched on',
        crmField: activity('Capital_campaign_launch_date'),
      },
    ],
  },
  {
    rank: 5,
    title: 'Open',
    description: 'The store is open: the first year, quarter by quarter.',
    fields: [
      {
        name: 'Date_Opened',
        type: 'date',
        label: 'Date opened',
        crmField: activity('Date_Opened'),
      },
      ...quarterlyMatrixFields(),
    ],
  },
];

function quarterlyMatrixFields(): FieldConfig[] {
  return MATRIX_METRICS.flatMap((metric) =>
    [1, 2, 3, 4].map((quarter): FieldConfig => ({
      name: `Y1_Q${quarter}_${metric.key}`,
      type: metric.type,
      label: `Year 1, Q${quarter}: ${metric.label.toLowerCase()}`,
      crmField: activity(`Y1_Q${quarter}_${metric.key}`),
      min: 0,
      ...(metric.type === 'percent' ? { max: 100 } : {}),
    })),
  );
}

export const SECTIONS: readonly SectionConfig[] = [organizationSection, ...stageSections];

export const ALL_FIELDS: readonly FieldConfig[] = SECTIONS.flatMap((section) => section.fields);

export const FIELDS_BY_NAME: ReadonlyMap<string, FieldConfig> = new Map(
  ALL_FIELDS.map((field) => [field.name, field]),
);

/** Fields an owner may submit: everything bound to the CRM and not read-only. */
export const SUBMITTABLE_FIELDS: readonly FieldConfig[] = ALL_FIELDS.filter(
  (field) => !field.readOnly && (field.crmField || field.crmContactField),
);

export const ACTIVITY_FIELDS: readonly FieldConfig[] = ALL_FIELDS.filter((field) => field.crmField);
export const CONTACT_FIELDS: readonly FieldConfig[] = ALL_FIELDS.filter((field) => field.crmContactField);

/** The upload allowlist: every file field, by form-side name (the upload's fieldRef). */
export const UPLOAD_FIELD_REFS: ReadonlySet<string> = new Set(
  ALL_FIELDS.filter((field) => field.type === 'file').map((field) => field.name),
);

/** The CRM name of a configured field (activity or contact side). */
export function crmNameOf(field: FieldConfig): string {
  const name = field.crmField ?? field.crmContactField;
  if (!name) throw new Error(`Field ${field.name} is not bound to the CRM`);
  return name;
}

/**
 * The stage option list of the check-in activity's Stage field, in rank order (rank = position by
 * weight). Stored values are words, not numbers. The schema installer creates it with these
 * weights; the service itself reads whatever the CRM holds.
 */
export const STAGE_OPTIONS: ReadonlyArray<{ rank: StageRank; value: string; label: string }> = [
  { rank: 0, value: 'inquiry', label: 'Inquiry' },
  { rank: 1, value: 'organizing', label: 'Organizing' },
  { rank: 2, value: 'feasibility', label: 'Feasibility' },
  { rank: 3, value: 'business_planning', label: 'Business planning' },
  { rank: 4, value: 'capitalization', label: 'Capitalization' },
  { rank: 5, value: 'open', label: 'Open' },
];

/** The organization's staff-only Stage (CRM list views): never read or written by the service. */
export const CONTACT_STAGE_OPTIONS: readonly OptionItem[] = [
  { value: 'prospect', label: 'Prospect' },
  { value: 'organizing', label: 'Organizing' },
  { value: 'developing', label: 'Developing' },
  { value: 'open', label: 'Open' },
];

/**
 * The options of every select and multiselect field, by form-side name, in display order. The
 * form reads options from the CRM at run time; these lists are what the schema installer
 * creates (and what the in-memory demo CRM seeds), so a new select field needs its list here.
 */
export const FIELD_OPTIONS: Readonly<Record<string, readonly OptionItem[]>> = {
  Organizing_focus: [
    { value: 'groceries', label: 'Full-service groceries' },
    { value: 'local_produce', label: 'Local produce' },
    { value: 'bulk_foods', label: 'Bulk foods' },
    { value: 'deli', label: 'Deli and prepared food' },
    { value: 'community_space', label: 'Community space' },
  ],
  Market_study_status: [
    { value: 'not_started', label: 'Not started' },
    { value: 'commissioned', label: 'Commissioned' },
    { value: 'in_progress', label: 'In progress' },
    { value: 'complete', label: 'Complete' },
  ],
  // Numeric strings on purpose: option values are strings even when they look like numbers.
  Site_status: [
    { value: '1', label: 'Searching', name: 'searching' },
    { value: '2', label: 'Shortlist', name: 'shortlist' },
    { value: '3', label: 'Letter of intent signed', name: 'loi_signed' },
    { value: '4', label: 'Lease signed', name: 'lease_signed' },
    { value: '5', label: 'Purchased', name: 'purchased' },
  ],
  Lender_types: [
    { value: 'cdfi', label: 'Community development lender' },
    { value: 'bank', label: 'Bank or credit union' },
    { value: 'member_loans', label: 'Member loans' },
    { value: 'coop_lender', label: 'Co-op lender' },
    { value: 'grants', label: 'Grants' },
  ],
};

/** Text longer than this is stored as Memo (TextArea): CiviCRM's String columns are varchar(255). */
export const MAX_STRING_LENGTH = 255;

export interface CrmFieldType {
  data_type: 'String' | 'Memo' | 'Int' | 'Money' | 'Float' | 'Date' | 'Boolean' | 'File';
  html_type: 'Text' | 'TextArea' | 'Select Date' | 'Radio' | 'Select' | 'File';
  serialize: 0 | 1;
}

/** CiviCRM data type and widget for each form field type. */
export function customFieldSpec(field: FieldConfig): CrmFieldType {
  switch (field.type) {
    case 'number':
      return { data_type: 'Int', html_type: 'Text', serialize: 0 };
    case 'currency':
      return { data_type: 'Money', html_type: 'Text', serialize: 0 };
    case 'percent':
      return { data_type: 'Float', html_type: 'Text', serialize: 0 };
    case 'date':
      return { data_type: 'Date', html_type: 'Select Date', serialize: 0 };
    case 'boolean':
      return { data_type: 'Boolean', html_type: 'Radio', serialize: 0 };
    case 'select':
      return { data_type: 'String', html_type: 'Select', serialize: 0 };
    case 'multiselect':
      return { data_type: 'String', html_type: 'Select', serialize: 1 };
    case 'file':
      return { data_type: 'File', html_type: 'File', serialize: 0 };
    case 'text':
    case 'readonly':
      return (field.maxLength ?? MAX_STRING_LENGTH) > MAX_STRING_LENGTH
        ? { data_type: 'Memo', html_type: 'TextArea', serialize: 0 }
        : { data_type: 'String', html_type: 'Text', serialize: 0 };
  }
}
