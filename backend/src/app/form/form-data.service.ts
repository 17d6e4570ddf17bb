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

/** The activity-bound fields the form prefills: the others need no column. */
const PREFILLED_ACTIVITY_FIELDS = ACTIVITY_FIELDS.filter((field) => !field.neverPrefilled);

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
    // A field the site disabled is not offered, and its column is no longer valid in a `where`
    // (docs/decisions.md, "Disabled fields"). Warm, the site's metadata answers at once, so the
    // reads below still join the link check's batch.
    const inactive = await this.metadata.inactive(ALL_FIELDS);
    const prefilled = PREFILLED_ACTIVITY_FIELDS.filter((field) => !inactive.has(field.name));
    const [contact, organization, stageValue, { options, stages }, valueFormat, ...newestPerField] =
      await Promise.all([
        this.identity(contactId),
        this.contacts.readOrganization(orgId, CONTACT_FIELDS),
        this.checkIns.currentStageValue(orgId),
        this.metadata.options(ALL_FIELDS),
        this.metadata.valueFormat(),
        // Per prefilled field, the newest check-in that answered or cleared it, however old, with
        // that field's column only: one request and a small answer whatever the co-op's history
        // (docs/performance.md, "Bounded answers").
        ...prefilled.map((field) => this.newestSettling(orgId, field)),
      ]);
    const fromCheckIns = await this.activityPrefill(
      orgId,
      prefilled.map((field, index) => [field, newestPerField[index] ?? []]),
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
      sections: SECTIONS.map((section) => ({
        ...section,
        fields: section.fields.filter((field) => !inactive.has(field.name)),
      })),
      upload: UPLOAD_LIMITS,
      lastGiven: fromCheckIns.lastGiven,
      valueFormat,
    };
  }

  /** The newest check-in that answered or cleared the field (none: no check-in ever did). */
  private newestSettling(orgId: number, field: FieldConfig): Promise<CheckInRecord[]> {
    return this.checkIns.list(orgId, [field], { cleared: true, answeredOrCleared: field, limit: 1 });
  }

  /**
   * The newest value of each prefilled field (prefill.ts) from each field's own read: the newest
   * check-in that answered or cleared it settles it, so the answer is the same as reading every
   * check-in. Only a check-in the CRM found but that settles nothing (a column CiviCRM counts as
   * not empty that reads as no answer) leaves its field to a second read, of the check-ins older
   * than it, with those fields' columns only.
   */
  private async activityPrefill(
    orgId: number,
    newestPerField: ReadonlyArray<readonly [FieldConfig, readonly CheckInRecord[]]>,
    authorized: Promise<void>,
  ): Promise<ActivityPrefill> {
    const prefill = new ActivityPrefillBuilder();
    const unsettled: Array<{ field: FieldConfig; found: CheckInRecord }> = [];
    for (const [field, [found]] of newestPerField) {
      if (!found) continue;
      prefill.add([found], new Set([field.name]));
      if (!prefill.isSettled(field.name)) unsettled.push({ field, found });
    }
    if (unsettled.length > 0) {
      // Every check-in newer than a field's found one neither answered nor cleared it, so the
      // newest of the found ones bounds the read for all of them.
      const newest = unsettled.map(({ found }) => found).reduce((a, b) => (isNewer(a, b) ? a : b));
      await authorized;
      const older = await this.checkIns.list(
        orgId,
        unsettled.map(({ field }) => field),
        { cleared: true, olderThan: newest.position },
      );
      prefill.add(older, new Set(unsettled.map(({ field }) => field.name)));
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

/** Whether `a` comes before `b` in the check-in list's order (date, then id, newest first). */
function isNewer(a: CheckInRecord, b: CheckInRecord): boolean {
  const byDate = a.position.crmDate.localeCompare(b.position.crmDate);
  return byDate === 0 ? a.position.id > b.position.id : byDate > 0;
}

function withoutFields(values: FieldValues, left: ReadonlySet<string>): FieldValues {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !left.has(name)));
}
