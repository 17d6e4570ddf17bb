import { Injectable } from '@nestjs/common';
import type { ReportPayload } from '@checkin/contract';
import { CrmCheckInsGateway } from '../crm/check-ins.gateway';
import { CrmContactsGateway } from '../crm/contacts.gateway';
import { SiteMetadataCache } from '../crm/site-metadata.cache';
import { ACTIVITY_FIELDS, ALL_FIELDS, SECTIONS } from '../fields/field-config';
import { buildReportPayload, organizationFieldsOf } from './report-payload';

/**
 * GET /api/report for an organization the owner access guard has already let through: the
 * organization's name, all its check-ins and the option lists, read together in one round trip
 * (docs/product-rules.md, "Report", rule 3). In stub mode the CRM is the in-memory model, so this same code
 * answers with the demo organization's history.
 */
@Injectable()
export class ReportService {
  constructor(
    private readonly contacts: CrmContactsGateway,
    private readonly checkIns: CrmCheckInsGateway,
    private readonly metadata: SiteMetadataCache,
  ) {}

  async reportFor(orgId: number): Promise<ReportPayload> {
    const [organization, checkins, { options, stages }, valueFormat] = await Promise.all([
      this.contacts.readOrganization(orgId, organizationFieldsOf(SECTIONS)),
      this.checkIns.list(orgId, ACTIVITY_FIELDS, { cleared: true }),
      this.metadata.options(ALL_FIELDS),
      this.metadata.valueFormat(),
    ]);
    return buildReportPayload({
      orgName: organization.name,
      organizationValues: organization.values,
      checkins,
      options,
      stages,
      sections: SECTIONS,
      valueFormat,
    });
  }
}
