import { Injectable } from '@nestjs/common';
import {
  type ContactIdentity,
  CURRENT_STAGE_FIELD_NAME,
  FORM_ID,
  type FormDataPayload,
} from '@checkin/contract';
import type { OwnerAccess } from '../auth/owner-access.service';
import { CheckInRecordsService } from '../crm/check-in-records.service';
import { CrmContactsGateway } from '../crm/contacts.gateway';
import { CrmSchemaService } from '../crm/crm-schema.service';
import { StageService, toStageInfo } from '../crm/stage.service';
import { Errors } from '../errors/app-error';
import { ACTIVITY_FIELDS, ALL_FIELDS, CONTACT_FIELDS, SECTIONS } from '../fields/field-config';
import { UPLOAD_LIMITS } from '../upload/upload-policy';
import { CLEARED_FIELDS_FIELD } from './cleared-answers';
import { activityPrefill } from './prefill';

/**
 * GET /api/data. Every read needs only the authorized ids, so they go out together in one
 * round: the person's identity, the organization (name and contact-bound values), its check-ins
 * (for the activity-bound prefill), the current stage and the option lists.
 */
@Injectable()
export class FormDataService {
  constructor(
    private readonly contacts: CrmContactsGateway,
    private readonly records: CheckInRecordsService,
    private readonly stages: StageService,
    private readonly schema: CrmSchemaService,
  ) {}

  async load({ contactId, orgId }: OwnerAccess): Promise<FormDataPayload> {
    const [contact, organization, checkins, stageValue, { options, stages }, valueFormat] = await Promise.all(
      [
        this.identity(contactId),
        this.records.readOrganization(orgId, CONTACT_FIELDS),
        this.records.listCheckIns(orgId, ACTIVITY_FIELDS, { select: [CLEARED_FIELDS_FIELD] }),
        this.stages.currentStageValue(orgId),
        this.schema.options(ALL_FIELDS),
        this.schema.valueFormat(),
      ],
    );
    const fromCheckIns = activityPrefill(checkins);
    return {
      formId: FORM_ID,
      contact,
      organization: { id: orgId, name: organization.name },
      currentStage: toStageInfo(stageValue, stages),
      stages,
      // Spec, form data rule 2: the organization's own values are its current facts, so they win.
      prefill: { ...fromCheckIns.values, ...organization.values, [CURRENT_STAGE_FIELD_NAME]: stageValue },
      options,
      sections: [...SECTIONS],
      upload: UPLOAD_LIMITS,
      lastGiven: fromCheckIns.lastGiven,
      valueFormat,
    };
  }

  /** First and last name, and the primary email through the email_primary join (docs/product-rules.md, "CRM names"). */
  private async identity(contactId: number): Promise<ContactIdentity> {
    const person = await this.contacts.personIdentity(contactId);
    // The checksum was valid for this contact a moment ago; gone now means deleted meanwhile.
    if (!person) throw Errors.notFound('Your contact record is no longer in our records.');
    return { id: contactId, first_name: person.firstName, last_name: person.lastName, email: person.email };
  }
}
