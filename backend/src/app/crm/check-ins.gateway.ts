import { Inject, Injectable } from '@nestjs/common';
import { type Api4Call, type Api4CallResult, CRM_CLIENT, type CrmClient, type CrmRow } from './crm-client';
import { checkInsOf } from './check-in-filter';
import { SUBMISSION_ID_FIELD } from './crm-names';
import { checkRows, malformed } from './crm-rows';

export interface RecordedCheckIn {
  id: number;
  /** As the CRM answered it: its local time, read with the site's zone (CrmSiteService). */
  activity_date_time: unknown;
  /** The person who recorded it: a submission id belongs to them (docs/decisions.md, "Idempotent submit"). */
  source_contact_id: number;
}

/**
 * Writes of a submission: the check-in activity, the organization's own values, and the clean-up
 * of duplicates and of activities saved without their values. Reads of check-ins are in
 * CheckInRecordsService and StageService.
 */
@Injectable()
export class CrmCheckInsGateway {
  constructor(@Inject(CRM_CLIENT) private readonly crm: CrmClient) {}

  /** Every check-in recorded for the submission, oldest first. */
  async findBySubmissionId(orgId: number, submissionId: string): Promise<RecordedCheckIn[]> {
    const [entity, action, params] = submissionLookup(orgId, submissionId);
    return recordedCheckIns(await this.crm.api4(entity, action, params));
  }

  /**
   * Submit's first round (docs/decisions.md, "Idempotent submit"): the submission lookup and,
   * when there are any, the organization's own values, as one batch in that order. Each settles
   * apart, as two requests would; a request that fails as a whole fails both alike.
   */
  async findAndUpdateOrganization(
    orgId: number,
    submissionId: string,
    /** Keyed by CRM name, as CiviCRM stores them (submission-mapping.ts); null when none. */
    contactValues: Record<string, unknown> | null,
  ): Promise<{ recorded: Settled<RecordedCheckIn[]>; contactUpdate: Settled<void> }> {
    if (contactValues === null) {
      return { recorded: await settle(this.findBySubmissionId(orgId, submissionId)), contactUpdate: DONE };
    }
    const answers = await settle(
      this.crm.batch({
        [LOOKUP]: submissionLookup(orgId, submissionId),
        [UPDATE]: ['Contact', 'update', { values: contactValues, where: [['id', '=', orgId]] }],
      }),
    );
    if (answers.status === 'rejected') return { recorded: answers, contactUpdate: answers };
    return {
      recorded: settleRows(answers.value[LOOKUP], LOOKUP, recordedCheckIns),
      contactUpdate: settleRows(answers.value[UPDATE], UPDATE, () => undefined),
    };
  }

  /**
   * Submit's second round: the activity create and, right after it in the same batch, the
   * submission lookup that checks exactly one activity carries the id. CiviCRM runs a batch's
   * calls in order in one PHP request, so the lookup sees the create (docs/civicrm-wire-protocol.md,
   * "Batch"). The lookup's answer is only used when the create worked.
   */
  async createCheckInAndFind(
    values: Record<string, unknown>,
    orgId: number,
    submissionId: string,
  ): Promise<{ created: Settled<number>; recorded: Settled<RecordedCheckIn[]> }> {
    const answers = await settle(
      this.crm.batch({
        [CREATE]: ['Activity', 'create', { values }],
        [LOOKUP_AFTER_CREATE]: submissionLookup(orgId, submissionId),
      }),
    );
    if (answers.status === 'rejected') return { created: answers, recorded: answers };
    return {
      created: settleRows(answers.value[CREATE], CREATE, createdId),
      recorded: settleRows(answers.value[LOOKUP_AFTER_CREATE], LOOKUP_AFTER_CREATE, recordedCheckIns),
    };
  }

  /**
   * The check-ins of the organization saved at exactly `crmTime` with `subject` and no
   * submission id: what CiviCRM keeps when it refused an activity's custom values.
   */
  async findSavedWithoutValues(orgId: number, crmTime: string, subject: string): Promise<number[]> {
    const checkIns = checkInsOf(orgId);
    const rows = checkRows(
      'Activity.get',
      await this.crm.api4('Activity', 'get', {
        select: ['id'],
        join: checkIns.join,
        where: [
          ...checkIns.where,
          ['activity_date_time', '=', crmTime],
          ['subject', '=', subject],
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
  async createCheckIn(values: Record<string, unknown>): Promise<number> {
    return createdId(await this.crm.api4('Activity', 'create', { values }));
  }
}

/** Names of the batched calls, as CiviCRM's log and the emulator's record show them. */
const LOOKUP = '0:Activity.get';
const UPDATE = '1:Contact.update';
const CREATE = '0:Activity.create';
const LOOKUP_AFTER_CREATE = '1:Activity.get';

export type Settled<T> = PromiseSettledResult<T>;

const DONE: Settled<void> = { status: 'fulfilled', value: undefined };

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
    activity_date_time: row['activity_date_time'],
    source_contact_id: Number(row['source_contact_id']),
  }));
}

function createdId(answer: unknown): number {
  const call = 'Activity.create';
  const [row] = checkRows(call, answer, {});
  const id = Number(row?.['id']);
  if (!Number.isSafeInteger(id) || id <= 0) throw malformed(call, 'answer has no activity id');
  return id;
}
