import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FieldValues, OptionMap, SubmitResponse } from '@checkin/contract';
import type { OwnerAccess } from '../auth/owner-access.service';
import { CRM_CLIENT, type CrmClient } from '../crm/crm-client';
import { CrmError } from '../crm/crm-errors';
import { ACTIVITY_TYPE_NAME, SUBMISSION_ID_FIELD } from '../crm/crm-names';
import { CrmSchemaService } from '../crm/crm-schema.service';
import { AppError } from '../errors/app-error';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { RecentResults } from './recent-results';
import {
  checkInActivityValues,
  type CrmValues,
  fromCrmDateTime,
  splitSubmission,
  toCrmDateTime,
} from './submission-mapping';
import { fieldsNeedingOptions, parseSubmission, validateValues } from './submission-validation';
import { SubmittedFiles } from './submitted-files';

/** Enough for every submission of the last minutes on one instance. */
const REMEMBERED_SUBMISSIONS = 1_000;

/**
 * POST /api/submit (spec, submit rules; decisions 11–13). After validation, two CRM round trips:
 * first the idempotency lookup alongside the organization's contact update, then, only when no
 * activity carries this submissionId yet, the activity create. The contact update has therefore
 * finished before the create starts. Writes are never retried: the browser retries with the same
 * submissionId, and the lookup finds what an earlier attempt already recorded.
 */
@Injectable()
export class SubmitService {
  private readonly logger = new Logger('Submit');
  private readonly recent = new RecentResults<SubmitResponse>(REMEMBERED_SUBMISSIONS);

  constructor(
    @Inject(CRM_CLIENT) private readonly crm: CrmClient,
    private readonly schema: CrmSchemaService,
    private readonly rateLimits: RateLimitService,
    private readonly files: SubmittedFiles,
  ) {}

  async submit(access: OwnerAccess, body: unknown): Promise<SubmitResponse> {
    await this.rateLimits.consumeSubmit(access.contactId);
    const { submissionId, values } = parseSubmission(body);
    return this.recent.run(`${access.orgId}:${submissionId}`, async () => {
      const [options] = await Promise.all([
        this.optionsFor(values),
        this.files.assertAllowed(access, values),
      ]);
      return this.record(access, submissionId, validateValues(values, options));
    });
  }

  /** Option lists only when a select answer needs checking: most submissions skip the call. */
  private async optionsFor(values: Readonly<Record<string, unknown>>): Promise<OptionMap> {
    const fields = fieldsNeedingOptions(values);
    return fields.length > 0 ? (await this.schema.options(fields)).options : {};
  }

  private async record(
    access: OwnerAccess,
    submissionId: string,
    values: FieldValues,
  ): Promise<SubmitResponse> {
    const { contactValues, activityValues } = splitSubmission(values);
    const updatesContact = Object.keys(contactValues).length > 0;
    const [recorded, contactUpdate] = await Promise.allSettled([
      this.findRecorded(access.orgId, submissionId),
      updatesContact ? this.updateOrganization(access.orgId, contactValues) : Promise.resolve(),
    ]);
    if (contactUpdate.status === 'rejected') throw contactUpdate.reason;
    if (recorded.status === 'rejected') {
      // Unknown whether an earlier attempt recorded it: creating now could make a second one.
      throw updatesContact ? this.activityNotSaved(recorded.reason, true) : recorded.reason;
    }
    if (recorded.value) return recorded.value;

    const at = new Date();
    try {
      const activityId = await this.createActivity(
        checkInActivityValues({
          personId: access.contactId,
          orgId: access.orgId,
          submissionId,
          activityValues,
          at,
        }),
      );
      // Seconds, as the CRM keeps it, so a retry's answer (read back) is the same.
      return { activityId, submittedAt: fromCrmDateTime(toCrmDateTime(at)) };
    } catch (error) {
      throw this.activityNotSaved(error, updatesContact);
    }
  }

  /** The check-in an earlier attempt of this submission recorded, on any instance (decision 12). */
  private async findRecorded(orgId: number, submissionId: string): Promise<SubmitResponse | undefined> {
    const [row] = await this.crm.api4('Activity', 'get', {
      select: ['id', 'activity_date_time'],
      where: [
        [SUBMISSION_ID_FIELD, '=', submissionId],
        ['target_contact_id', 'CONTAINS', orgId],
        ['activity_type_id:name', '=', ACTIVITY_TYPE_NAME],
      ],
      limit: 1,
    });
    return row
      ? { activityId: Number(row['id']), submittedAt: fromCrmDateTime(row['activity_date_time']) }
      : undefined;
  }

  private async updateOrganization(orgId: number, values: CrmValues): Promise<void> {
    await this.crm.api4('Contact', 'update', { values, where: [['id', '=', orgId]] });
  }

  private async createActivity(values: CrmValues): Promise<number> {
    const [row] = await this.crm.api4('Activity', 'create', { values });
    const id = Number(row?.['id']);
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new CrmError('malformed', 'Activity.create', 'answer has no activity id');
    }
    return id;
  }

  /**
   * Decision 13: the check-in was not recorded. The browser keeps the draft; a retry with the
   * same submissionId finds the activity if the CRM did create it after all.
   */
  private activityNotSaved(error: unknown, contactUpdated: boolean): unknown {
    if (!(error instanceof CrmError)) return error;
    this.logger.warn(`check-in not recorded: ${error.message}`);
    const saved = contactUpdated ? 'Your organization’s details were saved, but the' : 'The';
    return new AppError(
      error.isTimeout ? 504 : 502,
      'ACTIVITY_NOT_SAVED',
      `${saved} check-in itself could not be recorded. Your answers are kept on this page: please submit again in a minute.`,
    );
  }
}
