import { Inject, Injectable } from '@nestjs/common';
import { CRM_CLIENT, type CrmClient } from './crm-client';
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
    const checkIns = checkInsOf(orgId);
    const rows = checkRows(
      'Activity.get',
      await this.crm.api4('Activity', 'get', {
        select: ['id', 'activity_date_time', 'source_contact_id'],
        join: checkIns.join,
        where: [...checkIns.where, [SUBMISSION_ID_FIELD, '=', submissionId]],
        orderBy: { id: 'ASC' },
      }),
      { id: 'id', activity_date_time: 'string?', source_contact_id: 'id' },
    );
    return rows.map((row) => ({
      id: Number(row['id']),
      activity_date_time: row['activity_date_time'],
      source_contact_id: Number(row['source_contact_id']),
    }));
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

  /** `values` keyed by CRM name, as CiviCRM stores them (submission-mapping.ts). */
  async updateOrganization(orgId: number, values: Record<string, unknown>): Promise<void> {
    await this.crm.api4('Contact', 'update', { values, where: [['id', '=', orgId]] });
  }

  /** The new activity's id. */
  async createCheckIn(values: Record<string, unknown>): Promise<number> {
    const call = 'Activity.create';
    const [row] = checkRows(call, await this.crm.api4('Activity', 'create', { values }), {});
    const id = Number(row?.['id']);
    if (!Number.isSafeInteger(id) || id <= 0) throw malformed(call, 'answer has no activity id');
    return id;
  }
}
