import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FieldValues, OptionMap, SubmitResponse } from '@checkin/contract';
import type { OwnerAccess } from '../auth/owner-access.service';
import { clearedAnswers } from '../check-ins/cleared-answers';
import { CrmCheckInsGateway, type RecordedCheckIn } from '../crm/check-ins.gateway';
import { CrmError } from '../crm/crm-errors';
import { SiteMetadataCache } from '../crm/site-metadata.cache';
import { CrmSiteService } from '../crm/crm-site.service';
import { isEmptyAnswer, REFUSAL_SENTENCES, toCrmLocalTime } from '@checkin/contract';
import { SUBMITTABLE_FIELDS } from '../fields/field-config';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { RecentResults } from './recent-results';
import { SubmissionLock } from './submission-lock';
import { fieldsNeedingOptions, parseSubmission, validateValues } from './submission-validation';
import { SubmittedFiles } from './submitted-files';

/** Enough for every submission of the last minutes on one instance. */
const REMEMBERED_SUBMISSIONS = 1_000;

/**
 * POST /api/submit (README, "Submit"). After validation: first the idempotency lookup, alone;
 * then, only when no activity carries this submissionId yet, the organization's contact update,
 * the activity create and a check that exactly one activity carries the id, as one APIv4 batch in
 * that order: two CiviCRM requests in all (docs/performance.md, "Submit in two requests"). A
 * submission the lookup refuses writes nothing. Writes are never retried: the browser retries
 * with the same submissionId and finds what an earlier attempt recorded (docs/decisions.md,
 * "Idempotent submit").
 *
 * CiviCRM is not transactional across an activity and its custom values: when the values are
 * refused, the activity row is saved anyway. Such an empty check-in is deleted before the error
 * is answered, so retries never leave empty check-ins behind.
 */
@Injectable()
export class SubmitService {
  private readonly logger = new Logger('Submit');
  private readonly recent = new RecentResults<SubmitResponse>(REMEMBERED_SUBMISSIONS);
  private readonly crmTimeoutMs: number;

  constructor(
    private readonly checkIns: CrmCheckInsGateway,
    private readonly metadata: SiteMetadataCache,
    private readonly site: CrmSiteService,
    private readonly rateLimits: RateLimitService,
    private readonly lock: SubmissionLock,
    private readonly files: SubmittedFiles,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.crmTimeoutMs = config.crm?.timeoutMs ?? 10_000;
  }

  async submit(access: OwnerAccess, body: unknown): Promise<SubmitResponse> {
    await this.rateLimits.consumeSubmit(access.contactId);
    const { submissionId, values } = parseSubmission(body);
    // Per person: another owner of the co-op reusing this id never shares its result or its lock.
    const key = `${access.orgId}:${access.contactId}:${submissionId}`;
    return this.recent.run(key, () =>
      // Another attempt of this submission holds the lock for at most its own CRM calls.
      this.lock.run(
        key,
        async () => {
          const [options, answerable] = await Promise.all([
            this.optionsFor(values),
            this.answerable(values),
            this.files.assertAllowed(access, values),
          ]);
          return this.record(access, submissionId, validateValues(answerable, options));
        },
        this.crmTimeoutMs * 4,
      ),
    );
  }

  /**
   * The answers without those to fields the site disabled (docs/decisions.md, "Disabled fields"):
   * CiviCRM would drop such an answer without a word, so one that holds a value is refused
   * (400 FIELD_DISABLED, naming them) and an empty one left out.
   */
  private async answerable(values: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> {
    const inactive = await this.metadata.inactive(
      SUBMITTABLE_FIELDS.filter((field) => Object.hasOwn(values, field.name)),
    );
    if (inactive.size === 0) return values;
    const answered = [...inactive].filter((name) => !isEmptyAnswer(values[name]));
    if (answered.length > 0) {
      throw new AppError(400, 'FIELD_DISABLED', REFUSAL_SENTENCES.fieldDisabled, { fields: answered });
    }
    return Object.fromEntries(Object.entries(values).filter(([name]) => !inactive.has(name)));
  }

  /** Option lists only when a select answer needs checking: most submissions skip the call. */
  private async optionsFor(values: Readonly<Record<string, unknown>>): Promise<OptionMap> {
    const fields = fieldsNeedingOptions(values);
    return fields.length > 0 ? (await this.metadata.options(fields)).options : {};
  }

  private async record(
    access: OwnerAccess,
    submissionId: string,
    values: FieldValues,
  ): Promise<SubmitResponse> {
    // Round one: the lookup alone (the site info is cached by then). Nothing is written before
    // it has answered, so a refused submission writes nothing (docs/decisions.md, "Idempotent submit").
    const [recorded, site] = await Promise.all([
      this.findRecorded(access.orgId, submissionId),
      this.site.info(),
    ]);
    if (recorded.length > 0) {
      if (recorded[0]?.personId !== access.contactId) throw submissionIdTaken();
      return this.keepOldest(recorded);
    }

    // Seconds, as the CRM keeps them; written as the CRM's wall clock in its own zone.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const crmTime = toCrmLocalTime(at, site.timeZone);
    // Round two: the organization's update, the create and, after them in the same batch, the
    // check that one activity has the id.
    const {
      organizationUpdate,
      created,
      recorded: afterCreate,
    } = await this.checkIns.createCheckInAndFind({
      personId: access.contactId,
      orgId: access.orgId,
      submissionId,
      answers: values,
      cleared: clearedAnswers(values),
      at: crmTime,
    });
    if (organizationUpdate?.status === 'rejected' && created.status === 'fulfilled') {
      // The organization refused its values: the check-in must not stand without them.
      await this.removeCheckIns(
        afterCreate.status === 'fulfilled' ? afterCreate.value.map((row) => row.id) : [created.value],
      );
      throw organizationUpdate.reason;
    }
    if (created.status === 'rejected') {
      const error = created.reason;
      if (error instanceof CrmError && error.isTimeout) {
        this.recheckLater(access.orgId, submissionId);
      } else if (error instanceof CrmError) {
        await this.removeEmptyCheckIn(access, crmTime);
      }
      if (organizationUpdate?.status === 'rejected' && organizationUpdate !== created) {
        throw organizationUpdate.reason;
      }
      throw this.activityNotSaved(error, organizationUpdate?.status === 'fulfilled');
    }
    if (afterCreate.status === 'rejected') throw afterCreate.reason;
    // Another instance may have created the same submission meanwhile: keep one.
    return this.keepOldest(afterCreate.value);
  }

  /** Deletes check-ins this submission created after all; a failure is logged, not answered. */
  private async removeCheckIns(ids: readonly number[]): Promise<void> {
    try {
      await this.checkIns.deleteCheckIns(ids);
    } catch (error) {
      this.logger.warn(`could not remove a check-in its organization update refused: ${String(error)}`);
    }
  }

  /** Every check-in an attempt of this submission recorded, on any instance, oldest first. */
  private findRecorded(orgId: number, submissionId: string): Promise<RecordedCheckIn[]> {
    return this.checkIns.findBySubmissionId(orgId, submissionId);
  }

  /**
   * The oldest activity of the submission is the check-in; any later one (two attempts that
   * raced past the lock, or a create that landed after its timeout) is deleted.
   */
  private async keepOldest(rows: readonly RecordedCheckIn[]): Promise<SubmitResponse> {
    const [kept, ...extra] = rows;
    if (!kept) throw new CrmError('malformed', 'Activity.get', 'the created check-in cannot be found');
    if (extra.length > 0) {
      this.logger.warn(`submission recorded ${rows.length} times: keeping activity ${kept.id}`);
      await this.checkIns.deleteCheckIns(extra.map((row) => row.id));
    }
    return { activityId: kept.id, submittedAt: await this.site.fromCrmTime(kept.crmTime) };
  }

  /**
   * A create that timed out may still land after the browser's retry found nothing and created
   * again: look once more when it must have landed or failed, and keep one.
   */
  private recheckLater(orgId: number, submissionId: string): void {
    const timer = setTimeout(() => {
      this.findRecorded(orgId, submissionId)
        .then((rows) => (rows.length > 1 ? this.keepOldest(rows) : undefined))
        .catch((error: unknown) => this.logger.warn(`late duplicate check failed: ${String(error)}`));
    }, this.crmTimeoutMs * 2);
    timer.unref();
  }

  /**
   * The activity row CiviCRM saved when its custom values were refused: this submission's type,
   * organization, subject and exact time, with no submission id (it is one of the refused values).
   */
  private async removeEmptyCheckIn(access: OwnerAccess, crmTime: string): Promise<void> {
    try {
      const ids = await this.checkIns.findSavedWithoutValues(access.orgId, crmTime);
      if (ids.length === 0) return;
      await this.checkIns.deleteCheckIns(ids);
      this.logger.warn(`removed ${ids.length} check-in(s) saved without their values`);
    } catch (error) {
      this.logger.warn(`could not remove a check-in saved without its values: ${String(error)}`);
    }
  }

  /**
   * The check-in was not recorded (README, "Submit"). The browser keeps the draft; a retry with
   * the same submissionId finds the activity if the CRM did create it after all.
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

/**
 * A submission id another person already recorded a check-in with: their answers must not be
 * taken for this person's, nor this person's answers silently dropped. The browser makes a fresh
 * id for every check-in, so only a crafted request meets this.
 */
function submissionIdTaken(): AppError {
  return new AppError(
    409,
    'SUBMISSION_ID_IN_USE',
    'This submission id belongs to a check-in someone else recorded. Reload the form and send your check-in again.',
  );
}
