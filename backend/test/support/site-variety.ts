import { randomUUID } from 'node:crypto';
import type { CrmRow } from '../../src/app/crm/crm-client';
import {
  ACTIVITY_CUSTOM_GROUP,
  ACTIVITY_STAGE_FIELD,
  ACTIVITY_STATUS_NAME,
  ACTIVITY_TYPE_NAME,
  CLEARED_FIELDS_FIELD,
  CONTACT_CUSTOM_GROUP,
  FORM_CONTACT_RELATIONSHIP,
  SUBMISSION_ID_FIELD,
} from '../../src/app/crm/crm-names';
import { PREFILL_FIRST_SLICE, PREFILLED_ACTIVITY_FIELDS } from '../../src/app/form/form-data.service';
import {
  type ExtraField,
  markupMark,
  ORDINARY_WRITING,
  seededRandom,
  type VarietyPlan,
} from './site-variety-plan';

/**
 * Site shapes the product's own seeds never build (docs/emulator.md, "Site variety"): custom fields
 * an administrator added, of every data type and html type CiviCRM offers, in both of the
 * product's groups; configured fields disabled or relabelled in CiviCRM; co-ops with long
 * histories whose files sit in their oldest check-ins; a recorder in the trash; an organization
 * with two Primary Contacts and a person who is Primary Contact of several; names and labels with
 * accents, emoji and markup-like characters. A seed decides every choice, so a failing shape is
 * built again from the seed the suite prints.
 *
 * The same code builds a shape on a real CiviCRM (backend/test/civicrm/site-variety.real.spec.ts)
 * and on the emulator (backend/test/site-variety.spec.ts): only APIv4 calls through CrmClient,
 * bulk writes as `save` with many records, so a shape of hundreds of check-ins costs a few
 * CiviCRM requests.
 */

export interface BuiltCoop {
  key: string;
  orgId: number;
  name: string;
  /** Text only this co-op's data holds: another co-op's page must never show it. */
  mark: string;
  checkIns: number;
}

export interface BuiltPerson {
  personId: number;
  checksum: string;
  displayName: string;
}

export interface BuiltSite {
  plan: VarietyPlan;
  coops: {
    /** Hundreds of check-ins, files only in the oldest, a trashed recorder, cleared answers, staff stage changes. */
    long: BuiltCoop;
    /** Two Primary Contacts. */
    shared: BuiltCoop;
    /** A second co-op of the long co-op's owner: more check-ins than the form's first slice, the newest clearing every prefilled answer. */
    second: BuiltCoop;
    /** A third co-op of that owner, without any check-in. */
    empty: BuiltCoop;
  };
  /** Primary Contact of long, second and empty. */
  owner: BuiltPerson;
  /** The two Primary Contacts of shared. */
  sharedOwners: [BuiltPerson, BuiltPerson];
  /** Recorded the long co-op's oldest check-ins, then moved to the trash. */
  trashedRecorder: { personId: number; displayName: string };
  staff: { personId: number; displayName: string };
  fileIds: number[];
  /** Puts back what the shape changed in the site's schema (extra fields, labels, is_active). */
  cleanup(): Promise<void>;
}

export interface SiteGroups {
  /** The site's names of the product's two groups (they differ from the documented ones on munged sites). */
  activity: string;
  contact: string;
}

const SAVE_CHUNK = 100;

/** The APIv4 calls the generator makes. */
export interface SiteApi {
  api4(entity: string, action: string, params?: Record<string, unknown>): Promise<CrmRow[]>;
}

/**
 * An administrator's APIv4 over HTTP that says why CiviCRM refused a call (the service's client
 * keeps the message out of its errors, rightly), speaking the documented group names: they are
 * put in the site's own before sending.
 */
export function siteApi(url: string, apiKey: string, groups: SiteGroups): SiteApi {
  const siteNames = (text: string) =>
    text
      .split(`"${ACTIVITY_CUSTOM_GROUP}.`)
      .join(`"${groups.activity}.`)
      .split(`"${CONTACT_CUSTOM_GROUP}.`)
      .join(`"${groups.contact}.`);
  return {
    async api4(entity, action, params = {}) {
      const response = await fetch(`${url}/civicrm/ajax/api4/${entity}/${action}`, {
        method: 'POST',
        headers: { 'X-Civi-Auth': `Bearer ${apiKey}`, 'X-Requested-With': 'XMLHttpRequest' },
        body: new URLSearchParams({ params: siteNames(JSON.stringify(params)) }),
      });
      const text = await response.text();
      let body: { values?: CrmRow[]; error_message?: string } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        // Reported below with the status.
      }
      if (response.status !== 200 || !Array.isArray(body.values)) {
        throw new Error(
          `${entity}.${action}: HTTP ${response.status} ${body.error_message ?? text.slice(0, 300)}`,
        );
      }
      return body.values;
    },
  };
}

/** Builds `plan` on the CRM behind `crm` (documented group names, as adminClient speaks them). */
export async function buildSite(crm: SiteApi, plan: VarietyPlan, groups: SiteGroups): Promise<BuiltSite> {
  const random = seededRandom(plan.seed ^ 0x5eed);
  const { tag, decorate } = plan;
  const cleanups: Array<() => Promise<unknown>> = [];
  const save = async (entity: string, records: CrmRow[], extra: Record<string, unknown> = {}) => {
    const saved: CrmRow[] = [];
    for (let start = 0; start < records.length; start += SAVE_CHUNK) {
      saved.push(
        ...(await crm.api4(entity, 'save', { records: records.slice(start, start + SAVE_CHUNK), ...extra })),
      );
    }
    return saved;
  };

  try {
    // The schema first: extra fields (with their option groups), then the configured fields' changes.
    const groupRows = await crm.api4('CustomGroup', 'get', {
      select: ['id', 'name'],
      where: [['name', 'IN', [groups.activity, groups.contact]]],
    });
    const groupId = (group: 'activity' | 'contact') =>
      Number(groupRows.find((row) => row['name'] === groups[group])?.['id']);
    const optionFields = plan.extraFields.filter((field) => field.kind.options);
    const optionGroups = await save(
      'OptionGroup',
      optionFields.map((field) => ({
        name: `${field.name}_${field.group}`,
        title: field.label,
        is_active: true,
      })),
    );
    optionFields.forEach((field, index) => (field.optionGroupId = Number(optionGroups[index]?.['id'])));
    cleanups.push(() =>
      crm.api4('OptionGroup', 'delete', {
        where: [['id', 'IN', optionFields.map((field) => field.optionGroupId)]],
      }),
    );
    await save(
      'OptionValue',
      optionFields.flatMap((field) =>
        field.options.map((option, index) => ({
          option_group_id: field.optionGroupId,
          value: option.value,
          name: option.value,
          label: option.label,
          weight: index + 1,
        })),
      ),
    );
    const createdFields = await save(
      'CustomField',
      plan.extraFields.map((field) => ({
        custom_group_id: groupId(field.group),
        name: field.name,
        label: field.label,
        data_type: field.kind.dataType,
        html_type: field.kind.htmlType,
        is_active: true,
        ...(field.kind.serialize ? { serialize: 1 } : {}),
        ...(field.optionGroupId ? { option_group_id: field.optionGroupId } : {}),
        ...(field.kind.dataType === 'Date'
          ? { date_format: 'yy-mm-dd', time_format: field.kind.timeFormat ?? 0 }
          : {}),
      })),
    );
    plan.extraFields.forEach((field, index) => (field.id = Number(createdFields[index]?.['id'])));
    cleanups.push(() =>
      crm.api4('CustomField', 'delete', { where: [['id', 'IN', plan.extraFields.map((field) => field.id)]] }),
    );

    for (const changed of plan.changedFields) {
      const [groupName, fieldName] = changed.apiKey.split('.') as [string, string];
      const site = groupName === ACTIVITY_CUSTOM_GROUP ? groups.activity : groups.contact;
      const [row] = await crm.api4('CustomField', 'get', {
        select: ['id', 'label', 'is_active'],
        where: [
          ['custom_group_id:name', '=', site],
          ['name', '=', fieldName],
        ],
      });
      if (!row) throw new Error(`the configured field ${changed.apiKey} is not on the site`);
      changed.id = Number(row['id']);
      changed.before = { label: row['label'], is_active: row['is_active'] };
      await crm.api4('CustomField', 'update', {
        where: [['id', '=', changed.id]],
        values: changed.change === 'disabled' ? { is_active: false } : { label: changed.newLabel },
      });
      cleanups.push(() =>
        crm.api4('CustomField', 'update', { where: [['id', '=', changed.id]], values: changed.before }),
      );
    }

    // Contacts: people, co-ops and their Primary Contact relationships.
    const people = await save('Contact', [
      { contact_type: 'Individual', first_name: 'Ána 🍞', last_name: decorate('Owner') },
      { contact_type: 'Individual', first_name: 'Bó', last_name: decorate('Co-owner one') },
      { contact_type: 'Individual', first_name: 'Çé', last_name: decorate('Co-owner two') },
      {
        contact_type: 'Individual',
        first_name: 'Rétro',
        last_name: `Recorder ${markupMark(tag)}t</b> ${tag}`,
      },
      { contact_type: 'Individual', first_name: 'Staff', last_name: decorate('Organizer') },
    ]);
    const [owner, sharedOne, sharedTwo, recorder, staff] = people.map((row) => ({
      personId: Number(row['id']),
      displayName: `${String(row['first_name'])} ${String(row['last_name'])}`,
    })) as [
      { personId: number; displayName: string },
      { personId: number; displayName: string },
      { personId: number; displayName: string },
      { personId: number; displayName: string },
      { personId: number; displayName: string },
    ];
    await save(
      'Email',
      [owner, sharedOne, sharedTwo].map((person) => ({
        contact_id: person.personId,
        email: `variety.${person.personId}@example.org`,
        is_primary: true,
      })),
    );
    const coopKeys = ['long', 'shared', 'second', 'empty'] as const;
    const orgRows = await save(
      'Contact',
      coopKeys.map((key) => ({
        contact_type: 'Organization',
        organization_name: `${decorate(`Co-op ${key}`)} ${markupMark(tag)}n</b> #${key}-${tag}`,
      })),
    );
    const coopOf = (key: (typeof coopKeys)[number], index: number): BuiltCoop => ({
      key,
      orgId: Number(orgRows[index]?.['id']),
      name: String(orgRows[index]?.['organization_name']),
      mark: `mark-${key}-${tag}`,
      checkIns: 0,
    });
    const coops = {
      long: coopOf('long', 0),
      shared: coopOf('shared', 1),
      second: coopOf('second', 2),
      empty: coopOf('empty', 3),
    };
    const [relationshipType] = await crm.api4('RelationshipType', 'get', {
      select: ['id'],
      where: [['name_a_b', '=', FORM_CONTACT_RELATIONSHIP]],
    });
    await save(
      'Relationship',
      [
        [owner, coops.long],
        [owner, coops.second],
        [owner, coops.empty],
        [sharedOne, coops.shared],
        [sharedTwo, coops.shared],
      ].map(([person, coop]) => ({
        contact_id_a: (person as { personId: number }).personId,
        contact_id_b: (coop as BuiltCoop).orgId,
        relationship_type_id: Number(relationshipType?.['id']),
        is_active: true,
      })),
    );

    // Files for the oldest check-ins (metadata only: the pages list and link them, never read them).
    const fileRows = await save(
      'File',
      Array.from({ length: plan.filesInOldest * 2 }, (_, index) => ({
        file_name: `old-plan-${index}-${tag}.pdf`,
        mime_type: 'application/pdf',
      })),
    );
    const fileIds = fileRows.map((row) => Number(row['id']));

    // The co-ops' own values: every extra contact field, and an old configured answer that breaks today's text rule.
    const stages = await stageValues(crm);
    await save(
      'Contact',
      Object.values(coops).map((coop) => ({
        id: coop.orgId,
        [`${CONTACT_CUSTOM_GROUP}.Name_on_Incorporation_Certificate`]: `${markupMark(tag)}old</b> ${coop.mark}`,
        ...extraValues(plan, 'contact', coop, owner.personId, fileIds, random),
      })),
    );

    // Check-ins: the long history (oldest first), then a few for the shared and second co-ops.
    const checkIns: CrmRow[] = [];
    const start = Date.UTC(2021, 0, 4, 9, 30);
    const span = 5 * 365 * 86_400_000;
    const recordedBy = (index: number, total: number) => {
      if (index < Math.min(20, total / 4)) return recorder.personId;
      return index % 17 === 5 ? staff.personId : owner.personId;
    };
    const stageAt = (index: number, total: number) =>
      stages[Math.min(stages.length - 1, Math.floor((index * stages.length) / total))];
    for (let index = 0; index < plan.longHistory; index += 1) {
      const by = recordedBy(index, plan.longHistory);
      const newest = index >= plan.longHistory - 3;
      checkIns.push({
        ...checkInBase(coops.long.orgId, by, start + Math.floor((index * span) / plan.longHistory)),
        [ACTIVITY_STAGE_FIELD]: stageAt(index, plan.longHistory),
        ...(by === owner.personId ? { [SUBMISSION_ID_FIELD]: randomUUID() } : {}),
        ...(index < plan.filesInOldest
          ? {
              [`${ACTIVITY_CUSTOM_GROUP}.Feasibility_study`]: fileIds[index * 2],
              [`${ACTIVITY_CUSTOM_GROUP}.Business_plan`]: fileIds[index * 2 + 1],
            }
          : {}),
        [`${ACTIVITY_CUSTOM_GROUP}.Organizing_notes`]: `${ORDINARY_WRITING[index % ORDINARY_WRITING.length]} ${coops.long.mark}`,
        ...(index % 9 === 0
          ? { [`${ACTIVITY_CUSTOM_GROUP}.Steering_committee_size`]: 3 + (index % 11) }
          : {}),
        // Cleared answers: the newest check-ins took back what older ones gave.
        ...(index === plan.longHistory - 2 ? { [CLEARED_FIELDS_FIELD]: 'Steering_committee_size' } : {}),
        ...(newest || random() < 0.05
          ? extraValues(plan, 'activity', coops.long, owner.personId, fileIds, random)
          : {}),
      });
    }
    coops.long.checkIns = plan.longHistory;
    for (const [coop, by, count] of [
      [coops.shared, sharedOne.personId, 4],
      [coops.shared, sharedTwo.personId, 3],
      [coops.second, owner.personId, PREFILL_FIRST_SLICE + 5],
    ] as const) {
      for (let index = 0; index < count; index += 1) {
        checkIns.push({
          ...checkInBase(coop.orgId, by, start + span - (index + 1) * 7 * 86_400_000 - by * 60_000),
          [ACTIVITY_STAGE_FIELD]: stages[1 + (index % 3)],
          [SUBMISSION_ID_FIELD]: randomUUID(),
          [`${ACTIVITY_CUSTOM_GROUP}.Organizing_notes`]: `${ORDINARY_WRITING[index % ORDINARY_WRITING.length]} ${coop.mark}`,
          ...extraValues(plan, 'activity', coop, by, fileIds, random),
          // Its newest check-in settles every prefilled field, so its form reads no older check-in.
          ...(coop === coops.second && index === 0
            ? { [CLEARED_FIELDS_FIELD]: PREFILLED_ACTIVITY_FIELDS.map((field) => field.name).join(',') }
            : {}),
        });
        coop.checkIns += 1;
      }
    }
    await save('Activity', checkIns);
    // The recorder of the oldest check-ins leaves: into the trash, as CiviCRM's Delete does.
    await crm.api4('Contact', 'delete', { where: [['id', '=', recorder.personId]], useTrash: true });

    const checksums = await Promise.all(
      [owner, sharedOne, sharedTwo].map(async (person) => {
        const [row] = await crm.api4('Contact', 'getChecksum', { contactId: person.personId });
        return { ...person, checksum: String(row?.['checksum']) };
      }),
    );
    return {
      plan,
      coops,
      owner: checksums[0] as BuiltPerson,
      sharedOwners: [checksums[1] as BuiltPerson, checksums[2] as BuiltPerson],
      trashedRecorder: recorder,
      staff,
      fileIds,
      cleanup: () => runCleanups(cleanups),
    };
  } catch (error) {
    await runCleanups(cleanups);
    throw error;
  }
}

async function runCleanups(cleanups: Array<() => Promise<unknown>>): Promise<void> {
  const problems: unknown[] = [];
  for (const cleanup of [...cleanups].reverse()) {
    try {
      await cleanup();
    } catch (error) {
      problems.push(error);
    }
  }
  cleanups.length = 0;
  if (problems.length > 0) throw new Error(`site-variety cleanup: ${problems.map(String).join('; ')}`);
}

function checkInBase(orgId: number, personId: number, at: number): CrmRow {
  return {
    'activity_type_id:name': ACTIVITY_TYPE_NAME,
    'status_id:name': ACTIVITY_STATUS_NAME,
    subject: 'Organizing check-in',
    source_contact_id: personId,
    target_contact_id: [orgId],
    activity_date_time: new Date(at).toISOString().slice(0, 19).replace('T', ' '),
  };
}

/** The Stage field's option values, lowest rank first. */
async function stageValues(crm: SiteApi): Promise<string[]> {
  const [field] = await crm.api4('CustomField', 'get', {
    select: ['option_group_id'],
    where: [
      ['name', '=', ACTIVITY_STAGE_FIELD.split('.')[1]],
      ['custom_group_id', 'IS NOT NULL'],
    ],
    limit: 1,
  });
  const values = await crm.api4('OptionValue', 'get', {
    select: ['value'],
    where: [['option_group_id', '=', field?.['option_group_id']]],
    orderBy: { weight: 'ASC' },
  });
  return values.map((row) => String(row['value']));
}

/** A value for every extra field of `group`, each carrying the co-op's mark where text can. */
function extraValues(
  plan: VarietyPlan,
  group: 'activity' | 'contact',
  coop: BuiltCoop,
  personId: number,
  fileIds: readonly number[],
  random: () => number,
): CrmRow {
  const values: CrmRow = {};
  for (const field of plan.extraFields.filter((candidate) => candidate.group === group)) {
    values[field.apiKey] = extraValue(field, coop, personId, fileIds, random, plan.tag);
  }
  return values;
}

function extraValue(
  field: ExtraField,
  coop: BuiltCoop,
  personId: number,
  fileIds: readonly number[],
  random: () => number,
  tag: string,
): unknown {
  switch (field.kind.key) {
    case 'text':
      return `${ORDINARY_WRITING[Math.floor(random() * 4)]} ${markupMark(tag)}s</b> ${coop.mark}`.slice(
        0,
        255,
      );
    case 'select':
      return field.options[1]?.value;
    case 'checkbox':
      return [field.options[0]?.value, field.options[1]?.value, field.options[2]?.value];
    case 'int':
      return Math.floor(random() * 1_000_000) - 500_000;
    case 'float':
      return Math.round(random() * 1e6) / 1e3;
    case 'money':
      return Math.round(random() * 1e7) / 100;
    case 'memo':
      return `Line one & two\n${markupMark(tag)}memo</b> <script>alert("${tag}")</script> ${coop.mark}`;
    case 'rich':
      return `<p>Rich ${markupMark(tag)}bold</b> &amp; text ${coop.mark}</p>`;
    case 'date':
      return '2022-03-04';
    case 'datetime':
      return '2022-03-04 13:45:00';
    case 'boolean':
      return random() < 0.5;
    case 'link':
      return `https://example.org/co-op?name=${encodeURIComponent(coop.mark)}&ltd=1`;
    case 'file':
      return fileIds[fileIds.length - 1];
    case 'contactref':
      return personId;
    default:
      return null;
  }
}
