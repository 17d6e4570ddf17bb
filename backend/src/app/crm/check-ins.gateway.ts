import { Inject, Injectable } from '@nestjs/common';
import { crmLocalTimeToIso, type FieldConfig } from '@checkin/contract';
import type { CheckInPosition, CheckInRecord, NewCheckIn } from '../check-ins/check-in-record';
import { crmNameOf } from '../fields/field-config';
import { checkInsOf } from './check-in-filter';
import { CHECK_IN_SUBJECT, clearedNamesOf, newCheckInValues, organizationValues } from './check-in-values';
import {
  type Api4Call,
  type Api4CallResult,
  type Api4Condition,
  CRM_CLIENT,
  type CrmClient,
  type CrmRow,
} from './crm-client';
import { ACTIVITY_STAGE_FIELD, CLEARED_FIELDS_FIELD, SUBMISSION_ID_FIELD } from './crm-names';
import { checkRows, malformed, type RowShape } from './crm-rows';
import { CrmSiteService } from './crm-site.service';
import { fieldReaders, fileJoinsFor, selectFor, valuesOf } from './crm-values';

/** What to read of the check-ins besides their answers, and which slice of the list. */
export interface CheckInRead {
  /** Which answers each check-in cleared. */
  cleared?: boolean;
  /** Each check-in's subject and who recorded it (the staff's submissions list). */
  recorder?: boolean;
  /** At most this many. */
  limit?: number;
  /**
   * Skip the first this many. Only for a slice read in the same batch as the one before it (one
   * PHP request runs both, one after the other); a later slice pages by `olderThan`.
   */
  offset?: number;
  /** Only those after this place in the list's order. */
  olderThan?: CheckInPosition;
  /** Only those that answered or cleared this field (the newest such settles its prefill). */
  answeredOrCleared?: FieldConfig;
}

/** A check-in a submission recorded, as its lookups find it. */
export interface RecordedCheckIn {
  id: number;
  /** As the CRM answered it: its local time, read with the site's zone (CrmSiteService.fromCrmTime). */
  crmTime: unknown;
  /** The person who recorded it: a submission id belongs to them (docs/decisions.md, "Idempotent submit"). */
  personId: number;
}

/**
 * The check-ins aggregate: the 'Check-in (organizing)' activities of an organization. Its list,
 * its current stage, a submission's writes and look-ups, and the clean-up of duplicates and of
 * activities saved without their values. Every read selects the organization's check-ins with
 * the one filter of check-in-filter.ts and checks its rows (crm-rows.ts).
 *
 * File names: each file field selects the `<field>.file_name` join and also joins File
 * explicitly, because CiviCRM before 6.2 silently drops the former (docs/civicrm-setup.md).
 */
@Injectable()
export class CrmCheckInsGateway {
  constructor(
    @Inject(CRM_CLIENT) private readonly crm: CrmClient,
    private readonly site: CrmSiteService,
  ) {}

  /** Every check-in of the organization (or the read's slice of them), newest first (date, then id). */
  async list(
    orgId: number,
    fields: readonly FieldConfig[],
    read: CheckInRead = {},
  ): Promise<CheckInRecord[]> {
    const checkIns = checkInsOf(orgId);
    const { olderThan } = read;
    // Keyset, not offset: a check-in recorded between two slices neither repeats nor hides one.
    const after: Api4Condition[] = olderThan
      ? [
          [
            'OR',
            [
              ['activity_date_time', '<', olderThan.crmDate],
              [
                'AND',
                [
                  ['activity_date_time', '=', olderThan.crmDate],
                  ['id', '<', olderThan.id],
                ],
              ],
            ],
          ],
        ]
      : [];
    const [rows, timeZone] = await Promise.all([
      this.crm.api4('Activity', 'get', {
        select: [
          'id',
          'activity_date_time',
          ACTIVITY_STAGE_FIELD,
          ...selectFor(fields, crmNameOf),
          ...(read.cleared ? [CLEARED_FIELDS_FIELD] : []),
          ...(read.recorder ? RECORDER_COLUMNS : []),
        ],
        join: [
          ...checkIns.join,
          ...fileJoinsFor(fields, crmNameOf),
          ...(read.recorder ? [RECORDER_JOIN] : []),
        ],
        where: [
          ...checkIns.where,
          ...after,
          ...(read.answeredOrCleared ? [answeredOrClearedCondition(read.answeredOrCleared)] : []),
        ],
        orderBy: { activity_date_time: 'DESC', id: 'DESC' },
        ...(read.limit === undefined ? {} : { limit: read.limit }),
        ...(read.offset === undefined ? {} : { offset: read.offset }),
      }),
      this.site.timeZone(),
    ]);
    const readers = fieldReaders(fields);
    return checkRows('Activity.get', rows, checkInShape(read)).map((row) => {
      const id = Number(row['id']);
      return {
        id,
        date: crmLocalTimeToIso(row['activity_date_time'], timeZone),
        stageValue: stageValueOf(row[ACTIVITY_STAGE_FIELD]),
        values: valuesOf(readers, row),
        cleared: clearedNamesOf(row[CLEARED_FIELDS_FIELD]),
        subject: textOrNull(row['subject']),
        recordedBy: read.recorder ? recorderOf(row) : null,
        position: { crmDate: String(row['activity_date_time']), id },
      };
    });
  }

  /**
   * The organization's current stage (check-ins/stages.ts): the stored Stage value of the newest
   * stage-bearing check-in, or null.
   */
  async currentStageValue(orgId: number): Promise<string | null> {
    const checkIns = checkInsOf(orgId);
    const rows = await this.crm.api4('Activity', 'get', {
      select: ['id', ACTIVITY_STAGE_FIELD],
      join: checkIns.join,
      where: [...checkIns.where, [ACTIVITY_STAGE_FIELD, 'IS NOT EMPTY']],
      orderBy: { activity_date_time: 'DESC', id: 'DESC' },
      limit: 1,
    });
    const [newest] = checkRows('Activity.get', rows, { id: 'id' });
    return stageValueOf(newest?.[ACTIVITY_STAGE_FIELD]);
  }

  /** Every check-in recorded for the submission, oldest first. */
  async findBySubmissionId(orgId: number, submissionId: string): Promise<RecordedCheckIn[]> {
    const [entity, action, params] = submissionLookup(orgId, submissionId);
    return recordedCheckIns(await this.crm.api4(entity, action, params));
  }

  /**
   * Submit's second round (docs/decisions.md, "Idempotent submit"), sent only once the first
   * round's lookup found no check-in with the submission id: the organization's update when the
   * answers hold any of its own values, the activity create, and right after them the submission
   * lookup that checks exactly one activity carries the id, as one batch in that order. CiviCRM
   * runs a batch's calls in order in one PHP request, so the lookup sees the create
   * (docs/civicrm-wire-protocol.md, "Batch"); each call settles apart, as separate requests would,
   * and a request that fails as a whole fails them all alike. `organizationUpdate` is null when
   * there was nothing to update. The lookup's answer is only used when the create worked.
   */
  async createCheckInAndFind(checkIn: NewCheckIn): Promise<{
    organizationUpdate: Settled<void> | null;
    created: Settled<number>;
    recorded: Settled<RecordedCheckIn[]>;
  }> {
    const organization = organizationValues(checkIn.answers);
    const calls: Record<string, Api4Call> = organization
      ? {
          [UPDATE_BEFORE_CREATE]: [
            'Contact',
            'update',
            { values: organization, where: [['id', '=', checkIn.orgId]] },
          ],
          [CREATE_AFTER_UPDATE]: ['Activity', 'create', { values: newCheckInValues(checkIn) }],
          [LOOKUP_AFTER_UPDATE]: submissionLookup(checkIn.orgId, checkIn.submissionId),
        }
      : {
          [CREATE]: ['Activity', 'create', { values: newCheckInValues(checkIn) }],
          [LOOKUP_AFTER_CREATE]: submissionLookup(checkIn.orgId, checkIn.submissionId),
        };
    const answered = await settle(this.crm.batch(calls));
    if (answered.status === 'rejected') {
      return { organizationUpdate: organization ? answered : null, created: answered, recorded: answered };
    }
    const [createName, lookupName] = organization
      ? [CREATE_AFTER_UPDATE, LOOKUP_AFTER_UPDATE]
      : [CREATE, LOOKUP_AFTER_CREATE];
    return {
      organizationUpdate: organization
        ? settleRows(answered.value[UPDATE_BEFORE_CREATE], UPDATE_BEFORE_CREATE, () => undefined)
        : null,
      created: settleRows(answered.value[createName], createName, createdId),
      recorded: settleRows(answered.value[lookupName], lookupName, recordedCheckIns),
    };
  }

  /**
   * The check-ins of the organization saved at exactly `crmTime` as a submission's check-in but
   * with no submission id: what CiviCRM keeps when it refused an activity's custom values.
   */
  async findSavedWithoutValues(orgId: number, crmTime: string): Promise<number[]> {
    const checkIns = checkInsOf(orgId);
    const rows = checkRows(
      'Activity.get',
      await this.crm.api4('Activity', 'get', {
        select: ['id'],
        join: checkIns.join,
        where: [
          ...checkIns.where,
          ['activity_date_time', '=', crmTime],
          ['subject', '=', CHECK_IN_SUBJECT],
          [SUBMISSION_ID_FIELD, 'IS EMPTY'],
        ],
      }),
      { id: 'id' },
    );
    return rows.map((row) => Number(row['id']));
  }

  async deleteCheckIns(ids: readonly number[]): Promise<void> {
    await this.crm.api4('Activity', 'delete', { where: [['id', 'IN', ids]] });
  }

  /** The new activity's id. */
  async createCheckIn(checkIn: NewCheckIn): Promise<number> {
    return createdId(await this.crm.api4('Activity', 'create', { values: newCheckInValues(checkIn) }));
  }
}

/** Who recorded a check-in: the display name of its source contact, and whether it is in the trash. */
const RECORDER_NAME = 'recorder.display_name';
const RECORDER_TRASHED = 'recorder.is_deleted';
/** The source contact's id, from ActivityContact alone: answered even when the contact is not. */
const RECORDER_ID = 'source_contact_id';
const RECORDER_COLUMNS = ['subject', RECORDER_NAME, RECORDER_TRASHED, RECORDER_ID];
/**
 * The source contact through an explicit join: `source_contact_id.display_name` is silently
 * dropped by CiviCRM (source_contact_id is a virtual field on Activity).
 */
const RECORDER_JOIN = [
  'Contact AS recorder',
  'LEFT',
  'ActivityContact',
  ['id', '=', 'recorder.activity_id'],
  ['recorder.record_type_id:name', '=', '"Activity Source"'],
];

/**
 * The check-ins that gave the field a value or cleared it: its column not empty, or its name in
 * the stored cleared list (check-in-values.ts: names joined by commas). The name's `_` (and any
 * `%` or `\`) is escaped, so LIKE matches it as written, never a longer list's other name that
 * differs there (both supported CiviCRM versions pass the backslash through to MySQL's LIKE).
 */
function answeredOrClearedCondition(field: FieldConfig): Api4Condition {
  const name = likeLiteral(field.name);
  return [
    'OR',
    [
      [crmNameOf(field), 'IS NOT EMPTY'],
      [CLEARED_FIELDS_FIELD, '=', field.name],
      [CLEARED_FIELDS_FIELD, 'LIKE', `${name},%`],
      [CLEARED_FIELDS_FIELD, 'LIKE', `%,${name}`],
      [CLEARED_FIELDS_FIELD, 'LIKE', `%,${name},%`],
    ],
  ];
}

/** Text that a LIKE pattern matches as written: its wildcards and the escape character escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function checkInShape(read: CheckInRead): RowShape {
  return {
    id: 'id',
    activity_date_time: 'string?',
    ...(read.cleared ? { [CLEARED_FIELDS_FIELD]: 'string?' } : {}),
    ...(read.recorder
      ? {
          subject: 'string?',
          [RECORDER_NAME]: 'string?',
          [RECORDER_TRASHED]: 'boolean?',
          [RECORDER_ID]: 'number?',
        }
      : {}),
  };
}

/** A Stage column as the CRM answers it: empty means no stage. */
function stageValueOf(value: unknown): string | null {
  return value === undefined || value === null || value === '' ? null : String(value);
}

/**
 * The recorder as the staff report names them (docs/decisions.md, "A recorder in the trash"): the
 * name of a contact in the CRM; for one in the trash, "Contact <id>" whatever the CiviCRM version
 * and the API user's permissions (5.81, and 6.14 for a user with "access deleted contacts", answer
 * the trashed contact's name; 6.14 for the documented API user answers nothing of it).
 */
function recorderOf(row: CrmRow): string | null {
  const name = textOrNull(row[RECORDER_NAME]);
  if (name !== null && row[RECORDER_TRASHED] !== true) return name;
  const id = row[RECORDER_ID];
  return id === null || id === undefined ? null : `Contact ${String(id)}`;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** Names of the batched calls, as CiviCRM's log and the emulator's record show them. */
const CREATE = '0:Activity.create';
const LOOKUP_AFTER_CREATE = '1:Activity.get';
const UPDATE_BEFORE_CREATE = '0:Contact.update';
const CREATE_AFTER_UPDATE = '1:Activity.create';
const LOOKUP_AFTER_UPDATE = '2:Activity.get';

export type Settled<T> = PromiseSettledResult<T>;

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
}

/** One call's part of a batch answer, read as its own request's answer would be. */
function settleRows<T>(
  result: Api4CallResult | undefined,
  name: string,
  read: (rows: CrmRow[]) => T,
): Settled<T> {
  try {
    if (!result) throw malformed(name, 'the batch answer lacks this call');
    if ('error' in result) return { status: 'rejected', reason: result.error };
    return { status: 'fulfilled', value: read(result.rows) };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}

/** The idempotency lookup: every check-in of the organization carrying the submission id, oldest first. */
function submissionLookup(orgId: number, submissionId: string): Api4Call {
  const checkIns = checkInsOf(orgId);
  return [
    'Activity',
    'get',
    {
      select: ['id', 'activity_date_time', 'source_contact_id'],
      join: checkIns.join,
      where: [...checkIns.where, [SUBMISSION_ID_FIELD, '=', submissionId]],
      orderBy: { id: 'ASC' },
    },
  ];
}

function recordedCheckIns(answer: unknown): RecordedCheckIn[] {
  const rows = checkRows('Activity.get', answer, {
    id: 'id',
    activity_date_time: 'string?',
    source_contact_id: 'id',
  });
  return rows.map((row) => ({
    id: Number(row['id']),
    crmTime: row['activity_date_time'],
    personId: Number(row['source_contact_id']),
  }));
}

function createdId(answer: unknown): number {
  const call = 'Activity.create';
  const [row] = checkRows(call, answer, {});
  const id = Number(row?.['id']);
  if (!Number.isSafeInteger(id) || id <= 0) throw malformed(call, 'answer has no activity id');
  return id;
}
