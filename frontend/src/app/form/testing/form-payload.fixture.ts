import type { FormDataPayload, SectionConfig, StageRank } from '@checkin/contract';

/** A /api/data answer shaped like the demo co-op's, with every field type, for the form's specs. */

export const LINK = { contactId: '102', orgId: '101', cid: '102', cs: 'demo' } as const;

const SECTIONS: SectionConfig[] = [
  {
    rank: 0,
    title: 'Your co-op',
    fields: [
      { name: 'first_name', type: 'text', label: 'First name', readOnly: true },
      { name: 'last_name', type: 'text', label: 'Last name', readOnly: true },
      { name: 'email', type: 'text', label: 'Email', readOnly: true },
      { name: 'current_stage', type: 'readonly', label: 'Current stage', readOnly: true },
      { name: 'Date_Incorporated', type: 'date', label: 'Date incorporated', crmContactField: 'F.Date' },
      {
        name: 'Name_on_Incorporation_Certificate',
        type: 'text',
        label: 'Name on incorporation certificate',
        crmContactField: 'F.Name',
        maxLength: 255,
      },
      {
        name: 'Certificate_of_Incorporation',
        type: 'file',
        label: 'Certificate of incorporation',
        crmContactField: 'F.Certificate',
      },
      {
        name: 'Equity_share',
        type: 'currency',
        label: 'Equity share price',
        crmContactField: 'F.Equity',
        min: 0,
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
        unit: 'people',
        crmField: 'C.Steering',
        min: 0,
        max: 100,
      },
      {
        name: 'Mission_statement_adopted',
        type: 'boolean',
        label: 'Mission statement adopted',
        crmField: 'C.M',
      },
      { name: 'Organizing_focus', type: 'multiselect', label: 'What the co-op will offer', crmField: 'C.F' },
      {
        name: 'Organizing_notes',
        type: 'text',
        label: 'What happened since the last check-in',
        crmField: 'C.N',
        maxLength: 2000,
        neverPrefilled: true,
      },
    ],
  },
  {
    rank: 2,
    title: 'Feasibility',
    fields: [
      { name: 'Market_study_status', type: 'select', label: 'Market study', crmField: 'C.S' },
      { name: 'Feasibility_study', type: 'file', label: 'Market or feasibility study', crmField: 'C.FS' },
    ],
  },
  {
    rank: 3,
    title: 'Business planning',
    fields: [
      { name: 'Business_plan_done', type: 'boolean', label: 'Business plan done', crmField: 'C.BP' },
      { name: 'Business_plan_date', type: 'date', label: 'Business plan finished on', crmField: 'C.BD' },
    ],
  },
  {
    rank: 4,
    title: 'Capitalization',
    fields: [
      {
        name: 'Percent_capitalized',
        type: 'percent',
        label: 'Percent capitalized',
        help: 'Share of the budget committed so far.',
        crmField: 'C.P',
        min: 0,
        max: 100,
      },
    ],
  },
  {
    rank: 5,
    title: 'Open',
    fields: [{ name: 'Date_Opened', type: 'date', label: 'Date opened', crmField: 'C.DO' }],
  },
];

const STAGE_LABELS = ['Inquiry', 'Organizing', 'Feasibility', 'Business planning', 'Capitalization', 'Open'];

export function formPayload(rank: StageRank = 3, prefill: FormDataPayload['prefill'] = {}): FormDataPayload {
  return {
    formId: 'org_engagement_check_in',
    valueFormat: { currency: 'USD', locale: 'en-US' },
    contact: { id: 102, first_name: 'Marisol', last_name: 'Vance', email: 'marisol.vance@example.org' },
    organization: { id: 101, name: 'Riverbend Food Co-op' },
    currentStage: { rank, value: rank === 0 ? null : `stage_${rank}`, label: STAGE_LABELS[rank] ?? '' },
    stages: STAGE_LABELS.map((label, index) => ({
      rank: index as StageRank,
      value: `stage_${index}`,
      label,
    })),
    prefill: {
      Name_on_Incorporation_Certificate: 'Riverbend Food Cooperative, Inc.',
      Equity_share: 200,
      Certificate_of_Incorporation: { id: 7, file_name: 'certificate.pdf' },
      Steering_committee_size: 9,
      Mission_statement_adopted: true,
      Organizing_focus: ['groceries', 'bulk_foods'],
      ...prefill,
    },
    options: {
      Organizing_focus: [
        { value: 'groceries', label: 'Full-service groceries' },
        { value: 'local_produce', label: 'Local produce' },
        { value: 'bulk_foods', label: 'Bulk foods' },
      ],
      Market_study_status: [
        { value: 'commissioned', label: 'Commissioned' },
        { value: 'complete', label: 'Complete' },
      ],
    },
    sections: SECTIONS,
    upload: {
      maxBytes: 5 * 1024 * 1024,
      mimeTypes: ['application/pdf', 'image/png', 'image/jpeg'],
      extensions: ['.pdf', '.png', '.jpg', '.jpeg'],
    },
  };
}
