import {
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_STATUS_NAME,
  ACTIVITY_TYPE_NAME,
  FORM_CONTACT_RELATIONSHIP,
  SUBMISSION_ID_FIELD,
  CONTACT_STAGE_FIELD,
} from '../crm-names';
import { FIELDS_BY_NAME, STAGE_OPTIONS } from '../../fields/field-config';
import { CiviCrmModel, type CiviCrmModelOptions } from '@checkin/civicrm-fake';
import {
  DEMO_CHECK_INS,
  DEMO_FILES,
  type DemoCheckIn,
  type DemoFile,
  type DemoValue,
  type StageValue,
} from './demo-history';
import { create, type Row, seedSchema } from './demo-schema';

export {
  CHECK_IN_ACTIVITY_TYPE_VALUE,
  customFieldSpec,
  DEMO_OPTIONS,
  type DemoOption,
  NEAR_MATCH_RELATIONSHIP,
  seedSchema,
  STAGE_OPTION_GROUP,
} from './demo-schema';
export { DEMO_CHECK_IN_COUNT } from './demo-history';

/**
 * Stub mode's and the emulator's CRM: the deployment's configuration (demo-schema.ts) and a demo
 * story, its contacts and relationships here and its check-ins in demo-history.ts: a food co-op
 * that organized in 2022, studied feasibility in 2023, planned and raised capital in 2024,
 * opened in March 2025 and in 2026 went back to business planning for a second store.
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

/** Stage options by rank (rank = position by weight), from the field configuration. */
export const DEMO_STAGES = STAGE_OPTIONS;
/** The demo organization's derived stage: the newest stage-bearing activity says 3. */
export const DEMO_CURRENT_STAGE = {
  rank: 3,
  value: 'business_planning',
  label: 'Business planning',
} as const;

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
