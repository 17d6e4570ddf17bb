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
import type { CheckInRecord } from '../check-ins/check-in-record';
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
const PREFILLED_ACTIVITY_FIELDS = ACTIVITY_FIELDS.filter((field) => !field.neverPrefilled);

const PREFILLED_FILE_FIELDS = PREFILLED_ACTIVITY_FIELDS.filter((field) => field.type === 'file');

/**
 * GET /api/data. Every read needs only the authorized ids, so they go out together in one
 * round: the person's identity, the organization (name and contact-bound values), its check-ins
 * (for the activity-bound prefill), the current stage and the option lists.
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
    const [
      contact,
      organization,
      checkins,
      stageValue,
      { options, stages },
      valueFormat,
      inactive,
      ...newestFiles
    ] = await Promise.all([
      this.identity(contactId),
      this.contacts.readOrganization(orgId, CONTACT_FIELDS),
      this.checkIns.list(orgId, PREFILLED_ACTIVITY_FIELDS, { cleared: true, limit: PREFILL_FIRST_SLICE }),
      this.checkIns.currentStageValue(orgId),
      this.metadata.options(ALL_FIELDS),
      this.metadata.valueFormat(),
      this.metadata.inactive(ALL_FIELDS),
      // Per file field, the newest check-in that answered or cleared it, however old: a co-op
      // uploads a document once in a long while (docs/performance.md, "Bounded answers").
      ...PREFILLED_FILE_FIELDS.map((field) =>
        this.checkIns.list(orgId, [field], { cleared: true, answeredOrCleared: field, limit: 1 }),
      ),
    ]);
    const fromCheckIns = await this.activityPrefill(
      orgId,
      {
        newest: checkins,
        newestFiles: PREFILLED_FILE_FIELDS.map((field, index) => [field, newestFiles[index] ?? []]),
      },
      authorized,
    );
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
      // A field the site disabled is not offered (docs/decisions.md, "Disabled fields").
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
   * The newest value of each prefilled field (prefill.ts), read without every check-in's every
   * column: the newest slice comes with the form's other reads, and with it, per file field, the
   * newest check-in that answered or cleared it. Only when the slice leaves another field
   * unsettled and there are older check-ins, those are read, with the unsettled fields' columns
   * only. Same answer as reading them all.
   */
  private async activityPrefill(
    orgId: number,
    {
      newest,
      newestFiles,
    }: {
      newest: readonly CheckInRecord[];
      newestFiles: ReadonlyArray<readonly [FieldConfig, readonly CheckInRecord[]]>;
    },
    authorized: Promise<void>,
  ): Promise<ActivityPrefill> {
    const prefill = new ActivityPrefillBuilder();
    prefill.add(newest);
    const settledByTheirOwnRead = new Set<string>();
    for (const [field, found] of newestFiles) {
      prefill.add(found, new Set([field.name]));
      // None found: no check-in ever answered it. One found that settles nothing (a cleared list
      // LIKE matched loosely) leaves the field to the older read.
      if (found.length === 0 || prefill.isSettled(field.name)) settledByTheirOwnRead.add(field.name);
    }
    const unsettled = PREFILLED_ACTIVITY_FIELDS.filter(
      (field) => !prefill.isSettled(field.name) && !settledByTheirOwnRead.has(field.name),
    );
    const oldest = newest.at(-1);
    if (newest.length === PREFILL_FIRST_SLICE && unsettled.length > 0 && oldest) {
      await authorized;
      const older = await this.checkIns.list(orgId, unsettled, { cleared: true, olderThan: oldest.position });
      prefill.add(older);
    }
    return prefill.result();
  }

  /** First and last name, and the primary email through the email_primary join (docs/product-rules.md, "CRM names"). */
  private async identity(contactId: number): Promise<ContactIdentity> {
    const person = await this.contacts.personIdentity(contactId);
    // The checksum was valid for this contact a moment ago; gone now means deleted meanwhile.
    if (!person) throw Errors.notFound('Your contact record is no longer in our records.');
    return { id: contactId, first_name: person.firstName, last_name: person.lastName, email: person.email };
  }
}

function withoutFields(values: FieldValues, left: ReadonlySet<string>): FieldValues {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !left.has(name)));
}
