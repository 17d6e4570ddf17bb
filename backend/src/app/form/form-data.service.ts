import { Injectable } from '@nestjs/common';
import {
  type ContactIdentity,
  type FieldConfig,
  type FieldValues,
  CURRENT_STAGE_FIELD_NAME,
  FORM_ID,
  type FormDataPayload,
} from '@checkin/contract';
import type { OwnerAccess } from '../auth/owner-access.service';
import { toStageInfo } from '../check-ins/stages';
import type { CheckInPosition, CheckInRecord } from '../check-ins/check-in-record';
import { CrmCheckInsGateway } from '../crm/check-ins.gateway';
import { CrmContactsGateway } from '../crm/contacts.gateway';
import { SiteMetadataCache } from '../crm/site-metadata.cache';
import { Errors } from '../errors/app-error';
import { ACTIVITY_FIELDS, ALL_FIELDS, CONTACT_FIELDS, SECTIONS } from '../fields/field-config';
import { UPLOAD_LIMITS } from '../check-ins/upload-policy';
import { type ActivityPrefill, ActivityPrefillBuilder } from './prefill';

/**
 * Check-ins the form reads with its other reads: enough to settle every prefilled field for most
 * co-ops, few enough that the answer stays small (docs/performance.md, "Bounded answers").
 */
export const PREFILL_FIRST_SLICE = 25;

/** The activity-bound fields the form prefills: the others need no column. */
export const PREFILLED_ACTIVITY_FIELDS = ACTIVITY_FIELDS.filter((field) => !field.neverPrefilled);

/** What the form's first request read of the check-ins. */
interface FirstCheckInRead {
  /** The prefilled fields the site offers: a disabled one is never read. */
  prefilled: readonly FieldConfig[];
  /** The newest PREFILL_FIRST_SLICE check-ins, with every prefilled column. */
  newest: readonly CheckInRecord[];
  /** Per file field, the newest check-in that answered or cleared it (none: no check-in ever did). */
  newestFiles: ReadonlyArray<readonly [FieldConfig, readonly CheckInRecord[]]>;
}

/** A field left unsettled by what was read, and the place in the list its answer is older than. */
interface UnsettledField {
  field: FieldConfig;
  olderThan: CheckInPosition;
}

/**
 * GET /api/data. Every read needs only the authorized ids, so they go out together in one
 * round: the person's identity, the organization (name and contact-bound values), its newest
 * check-ins (for the activity-bound prefill), the current stage and the option lists.
 */
@Injectable()
export class FormDataService {
  constructor(
    private readonly contacts: CrmContactsGateway,
    private readonly checkIns: CrmCheckInsGateway,
    private readonly metadata: SiteMetadataCache,
  ) {}

  /**
   * `authorized` settles once the link is known good (OwnerAccessService.authorizeWith, which
   * starts this with the link's check): the older check-ins are asked for only after it.
   */
  async load(
    { contactId, orgId }: OwnerAccess,
    authorized: Promise<void> = Promise.resolve(),
  ): Promise<FormDataPayload> {
    const inactiveFields = this.metadata.inactive(ALL_FIELDS);
    const [contact, organization, stageValue, { options, stages }, valueFormat, inactive, firstRead] =
      await Promise.all([
        this.identity(contactId),
        this.contacts.readOrganization(orgId, CONTACT_FIELDS),
        this.checkIns.currentStageValue(orgId),
        this.metadata.options(ALL_FIELDS),
        this.metadata.valueFormat(),
        inactiveFields,
        // A field the site disabled is not offered, and its column is invalid in a `where` or a
        // join (docs/decisions.md, "Disabled fields"), so the check-in reads wait for the site's
        // fields. Warm, those answer at once and the reads still join this batch.
        inactiveFields.then((inactive) =>
          this.firstCheckInRead(
            orgId,
            PREFILLED_ACTIVITY_FIELDS.filter((field) => !inactive.has(field.name)),
          ),
        ),
      ]);
    const fromCheckIns = await this.activityPrefill(orgId, firstRead, authorized);
    return {
      formId: FORM_ID,
      contact,
      organization: { id: orgId, name: organization.name },
      currentStage: toStageInfo(stageValue, stages),
      stages,
      // Spec, form data rule 2: the organization's own values are its current facts, so they win.
      prefill: withoutFields(
        { ...fromCheckIns.values, ...organization.values, [CURRENT_STAGE_FIELD_NAME]: stageValue },
        inactive,
      ),
      options,
      sections: SECTIONS.map((section) => ({
        ...section,
        fields: section.fields.filter((field) => !inactive.has(field.name)),
      })),
      upload: UPLOAD_LIMITS,
      lastGiven: fromCheckIns.lastGiven,
      valueFormat,
    };
  }

  /**
   * The newest check-ins with the prefilled columns, and with them, per file field, the newest
   * check-in that answered or cleared it, however old: a co-op uploads a document once in a long
   * while (docs/performance.md, "Bounded answers").
   */
  private async firstCheckInRead(
    orgId: number,
    prefilled: readonly FieldConfig[],
  ): Promise<FirstCheckInRead> {
    const files = prefilled.filter((field) => field.type === 'file');
    const [newest, ...newestFiles] = await Promise.all([
      this.checkIns.list(orgId, prefilled, { cleared: true, limit: PREFILL_FIRST_SLICE }),
      ...files.map((field) => this.newestSettling(orgId, field)),
    ]);
    return { prefilled, newest, newestFiles: files.map((field, index) => [field, newestFiles[index] ?? []]) };
  }

  /** The newest check-in (older than `olderThan`, when given) that answered or cleared the field. */
  private newestSettling(
    orgId: number,
    field: FieldConfig,
    olderThan?: CheckInPosition,
  ): Promise<CheckInRecord[]> {
    return this.checkIns.list(orgId, [field], {
      cleared: true,
      answeredOrCleared: field,
      limit: 1,
      ...(olderThan ? { olderThan } : {}),
    });
  }

  /**
   * The newest value of each prefilled field (prefill.ts), the same answer as reading every
   * check-in, in one CiviCRM request for most co-ops. Only when the first request leaves a field
   * unsettled while older check-ins remain (a long co-op whose early answers are older than its
   * newest slice), a second request reads, per such field, the newest older check-in that
   * answered or cleared it, with that field's column only (docs/performance.md, "Bounded answers").
   */
  private async activityPrefill(
    orgId: number,
    { prefilled, newest, newestFiles }: FirstCheckInRead,
    authorized: Promise<void>,
  ): Promise<ActivityPrefill> {
    const prefill = new ActivityPrefillBuilder();
    prefill.add(newest);
    // Fewer than a slice: every check-in was read.
    const oldest = newest.length === PREFILL_FIRST_SLICE ? newest.at(-1) : undefined;
    const unsettled: UnsettledField[] = [];
    for (const [field, [found]] of newestFiles) {
      // None found: no check-in ever answered or cleared it.
      if (prefill.isSettled(field.name) || !found) continue;
      prefill.add([found], new Set([field.name]));
      if (!prefill.isSettled(field.name) && oldest) unsettled.push({ field, olderThan: found.position });
    }
    if (oldest) {
      for (const field of prefilled) {
        if (field.type !== 'file' && !prefill.isSettled(field.name)) {
          unsettled.push({ field, olderThan: oldest.position });
        }
      }
    }
    if (unsettled.length === 0) return prefill.result();
    await authorized;
    const found = await Promise.all(
      unsettled.map(({ field, olderThan }) => this.newestSettling(orgId, field, olderThan)),
    );
    const stillUnsettled: UnsettledField[] = [];
    unsettled.forEach(({ field }, index) => {
      const [settling] = found[index] ?? [];
      if (!settling) return;
      prefill.add([settling], new Set([field.name]));
      if (!prefill.isSettled(field.name)) stillUnsettled.push({ field, olderThan: settling.position });
    });
    await this.settleFromAllOlder(orgId, prefill, stillUnsettled);
    return prefill.result();
  }

  /**
   * The fields whose found check-in settled nothing after all (a value CiviCRM counts as given
   * that reads as no answer; never one the service wrote): every check-in older than the newest
   * of them, with those fields' columns only, so the answer stays the same as reading them all.
   */
  private async settleFromAllOlder(
    orgId: number,
    prefill: ActivityPrefillBuilder,
    unsettled: readonly UnsettledField[],
  ): Promise<void> {
    if (unsettled.length === 0) return;
    // Every check-in newer than a field's found one neither answered nor cleared it, so the newest
    // of the found ones bounds the read for all of them.
    const newest = unsettled.map(({ olderThan }) => olderThan).reduce((a, b) => (isNewer(a, b) ? a : b));
    const fields = unsettled.map(({ field }) => field);
    const older = await this.checkIns.list(orgId, fields, { cleared: true, olderThan: newest });
    prefill.add(older, new Set(fields.map((field) => field.name)));
  }

  /** First and last name, and the primary email through the email_primary join (docs/product-rules.md, "CRM names"). */
  private async identity(contactId: number): Promise<ContactIdentity> {
    const person = await this.contacts.personIdentity(contactId);
    // The checksum was valid for this contact a moment ago; gone now means deleted meanwhile.
    if (!person) throw Errors.notFound('Your contact record is no longer in our records.');
    return { id: contactId, first_name: person.firstName, last_name: person.lastName, email: person.email };
  }
}

/** Whether `a` comes before `b` in the check-in list's order (date, then id, newest first). */
function isNewer(a: CheckInPosition, b: CheckInPosition): boolean {
  const byDate = a.crmDate.localeCompare(b.crmDate);
  return byDate === 0 ? a.id > b.id : byDate > 0;
}

function withoutFields(values: FieldValues, left: ReadonlySet<string>): FieldValues {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !left.has(name)));
}
