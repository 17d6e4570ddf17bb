import { CiviCrmModel } from '../model/civicrm-model';
import type { CiviCrmModelOptions } from '../model/types';

/**
 * A small configured site for the library's own specs: a food co-op's check-in activity type,
 * the custom fields a check-in and an organization carry (one of each data type the model
 * types), a few contacts, a file and some check-ins. The back end's demo data is richer and
 * follows its field configuration; the library must not depend on it, so its specs run here.
 */
export const SAMPLE_ACTIVITY_TYPE = 'Check-in (organizing)';
export const SAMPLE_RELATIONSHIP = 'Primary Contact';
export const ACTIVITY_GROUP = 'Check_in_data__organizing_';
export const ORGANIZATION_GROUP = 'Food_Co_op_Organizing';
export const STAGE_FIELD = `${ACTIVITY_GROUP}.Stage`;
export const STAFF_ID = 100;
export const ORG_ID = 101;
export const PERSON_ID = 102;
export const OTHER_ORG_ID = 103;
export const OTHER_PERSON_ID = 104;
export const PERSON = { first_name: 'Marisol', last_name: 'Vance', email: 'marisol.vance@example.org' };
/** Accepted as the checksum of PERSON_ID and ORG_ID, as stub mode's `demo` is. */
export const SAMPLE_CHECKSUM = 'demo';
export const CERTIFICATE = {
  file_name: 'Riverbend_certificate_of_incorporation.pdf',
  mime_type: 'application/pdf',
  content: Buffer.from('%PDF-1.4\n1 0 obj << /Title (Certificate) >> endobj\n%%EOF\n', 'latin1'),
};

type Row = Record<string, unknown>;

/** [name, label, data_type, html_type, options (value, label; in rank order) when a select, serialized] */
type FieldSpec = [string, string, string, string, Array<[string, string]>?, boolean?];

const STAGES: Array<[string, string]> = [
  ['inquiry', 'Inquiry'],
  ['organizing', 'Organizing'],
  ['feasibility', 'Feasibility'],
  ['business_planning', 'Business planning'],
  ['capitalization', 'Capitalization'],
  ['open', 'Open'],
];

const ACTIVITY_FIELDS: FieldSpec[] = [
  ['Stage', 'Stage', 'String', 'Select', STAGES],
  ['Submission_ID', 'Submission ID', 'String', 'Text'],
  ['Steering_committee_size', 'Steering committee size', 'Int', 'Text'],
  [
    'Organizing_focus',
    'What the co-op will offer',
    'String',
    'Select',
    [
      ['grocery', 'Full grocery'],
      ['produce', 'Produce'],
      ['bulk', 'Bulk goods'],
    ],
    true,
  ],
  ['Interest_list_size', 'People on the interest list', 'Int', 'Text'],
  ['Member_owner_count', 'Member-owners', 'Int', 'Text'],
  [
    'Market_study_status',
    'Market study',
    'String',
    'Select',
    [
      ['not_started', 'Not started'],
      ['in_progress', 'In progress'],
      ['done', 'Done'],
    ],
  ],
  ['Market_study_date', 'Market study completed on', 'Date', 'Select Date'],
  ['Business_plan_done', 'Business plan done', 'Boolean', 'Radio'],
  ['Business_plan', 'Business plan', 'File', 'File'],
  ['Equity_goal', 'Member equity goal', 'Money', 'Text'],
  ['Equity_raised', 'Member equity raised', 'Money', 'Text'],
  ['Percent_capitalized', 'Percent capitalized', 'Float', 'Text'],
  [
    'Lender_types',
    'Lenders committed',
    'String',
    'Select',
    [
      ['bank', 'Bank or credit union'],
      ['cdfi', 'Community development lender'],
      ['member_loans', 'Member loans'],
    ],
    true,
  ],
];

const ORGANIZATION_FIELDS: FieldSpec[] = [
  ['Date_Incorporated', 'Date incorporated', 'Date', 'Select Date'],
  ['Name_on_Incorporation_Certificate', 'Name on incorporation certificate', 'String', 'Text'],
  ['Certificate_of_Incorporation', 'Certificate of incorporation', 'File', 'File'],
  ['Equity_share', 'Equity share price', 'Money', 'Text'],
];

/**
 * Check-ins of ORG_ID, oldest first, ids 1001 on: [when, stage or none, custom values]. Two share
 * a moment (ties break by id); lender types cover CONTAINS and NOT CONTAINS.
 */
export const SAMPLE_CHECK_INS: Array<[string, string | null, Row]> = [
  ['2024-01-10 18:00:00', 'organizing', { Interest_list_size: 40 }],
  ['2024-06-12 18:00:00', null, { Interest_list_size: 90, Steering_committee_size: 5 }],
  ['2025-01-15 18:00:00', 'feasibility', { Lender_types: ['member_loans'] }],
  [
    '2025-02-20 18:00:00',
    null,
    { Lender_types: ['cdfi', 'member_loans', 'bank'], Organizing_focus: ['grocery'] },
  ],
  ['2025-03-10 09:00:00', null, { Lender_types: ['bank'], Member_owner_count: 410 }],
  ['2025-06-01 18:00:00', 'business_planning', { Member_owner_count: 650 }],
  ['2025-06-01 18:00:00', 'capitalization', { Percent_capitalized: 42.5 }],
  ['2026-03-15 18:00:00', null, { Member_owner_count: 900 }],
];

export function seedSampleSite(model: CiviCrmModel): void {
  const one = (entity: string, values: Row): number => {
    const id = model.api4(entity, 'create', { values })[0]?.['id'];
    if (typeof id !== 'number') throw new Error(`${entity}.create answered no id`);
    return id;
  };
  one('OptionValue', {
    'option_group_id:name': 'activity_type',
    value: '57',
    name: SAMPLE_ACTIVITY_TYPE,
    label: SAMPLE_ACTIVITY_TYPE,
  });
  for (const [nameAB, nameBA] of [
    [SAMPLE_RELATIONSHIP, 'Has Primary Contact'],
    ['Primary Contact for', 'Primary Contact is'],
  ]) {
    one('RelationshipType', {
      name_a_b: nameAB,
      name_b_a: nameBA,
      contact_type_a: 'Individual',
      contact_type_b: 'Organization',
    });
  }
  const fieldsOf = (group: string, title: string, extendsWhat: string, fields: FieldSpec[]) => {
    const groupId = one('CustomGroup', { name: group, title, extends: extendsWhat });
    for (const [name, label, dataType, htmlType, options, serialized] of fields) {
      const optionGroup = options
        ? {
            option_group_id: one('OptionGroup', {
              name: `${group}_${name}`.toLowerCase(),
              title: label,
            }),
          }
        : {};
      // Inserted in reverse: rank comes from weight, never from ids or insertion.
      const ranked = (options ?? []).map(([value, optionLabel], rank) => ({ value, optionLabel, rank }));
      for (const { value, optionLabel, rank } of ranked.reverse()) {
        one('OptionValue', {
          option_group_id: optionGroup.option_group_id,
          value,
          name: value,
          label: optionLabel,
          weight: (rank + 1) * 10,
        });
      }
      one('CustomField', {
        custom_group_id: groupId,
        name,
        label,
        data_type: dataType,
        html_type: htmlType,
        serialize: serialized ? 1 : 0,
        ...optionGroup,
      });
    }
  };
  fieldsOf(ACTIVITY_GROUP, 'Check-in data (organizing)', 'Activity', ACTIVITY_FIELDS);
  fieldsOf(ORGANIZATION_GROUP, 'Food Co-op Organizing', 'Organization', ORGANIZATION_FIELDS);

  model.setNextId('Contact', STAFF_ID);
  one('Contact', { contact_type: 'Individual', first_name: 'Sam', last_name: 'Whitaker' });
  const certificate = one('File', {
    file_name: CERTIFICATE.file_name,
    mime_type: CERTIFICATE.mime_type,
    content: CERTIFICATE.content.toString('base64'),
    upload_date: '2022-01-01 00:00:00',
  });
  one('Contact', {
    contact_type: 'Organization',
    organization_name: 'Riverbend Food Co-op',
    [`${ORGANIZATION_GROUP}.Date_Incorporated`]: '2022-06-01',
    [`${ORGANIZATION_GROUP}.Certificate_of_Incorporation`]: certificate,
    [`${ORGANIZATION_GROUP}.Equity_share`]: 200,
  });
  one('Contact', {
    contact_type: 'Individual',
    first_name: PERSON.first_name,
    last_name: PERSON.last_name,
    'email_primary.email': PERSON.email,
  });
  one('Contact', {
    contact_type: 'Organization',
    organization_name: 'Hilltop Grocery Cooperative',
    [`${ORGANIZATION_GROUP}.Equity_share`]: 150,
  });
  one('Contact', { contact_type: 'Individual', first_name: 'Theo', last_name: 'Lindqvist' });
  for (const [person, organization] of [
    [PERSON_ID, ORG_ID],
    [OTHER_PERSON_ID, OTHER_ORG_ID],
  ]) {
    one('Relationship', {
      contact_id_a: person,
      contact_id_b: organization,
      'relationship_type_id:name': SAMPLE_RELATIONSHIP,
    });
  }

  model.setNextId('Activity', 1001);
  const checkIn = (when: string, stage: string | null, values: Row, extra: Row = {}) =>
    one('Activity', {
      'activity_type_id:name': SAMPLE_ACTIVITY_TYPE,
      'status_id:name': 'Completed',
      subject: 'Organizing check-in',
      activity_date_time: when,
      source_contact_id: PERSON_ID,
      target_contact_id: [ORG_ID],
      ...(stage ? { [STAGE_FIELD]: stage } : {}),
      ...Object.fromEntries(
        Object.entries(values).map(([name, value]) => [`${ACTIVITY_GROUP}.${name}`, value]),
      ),
      ...extra,
    });
  for (const [when, stage, values] of SAMPLE_CHECK_INS) checkIn(when, stage, values);
  // Noise every check-in query must filter out: another activity type, a deleted check-in.
  one('Activity', {
    'activity_type_id:name': 'Meeting',
    subject: 'Site visit with the lender',
    activity_date_time: '2024-02-01 14:00:00',
    source_contact_id: STAFF_ID,
    target_contact_id: [ORG_ID, PERSON_ID],
  });
  checkIn('2026-11-20 10:00:00', 'open', {}, { is_deleted: true, subject: 'Entered by mistake' });
  checkIn('2025-05-19 19:00:00', null, { Steering_committee_size: 6 }, { target_contact_id: [OTHER_ORG_ID] });
  model.setFixedChecksum(PERSON_ID, SAMPLE_CHECKSUM);
  model.setFixedChecksum(ORG_ID, SAMPLE_CHECKSUM);
}

export function createSampleModel(options: Omit<CiviCrmModelOptions, 'seed'> = {}): CiviCrmModel {
  return new CiviCrmModel({ ...options, seed: seedSampleSite });
}
